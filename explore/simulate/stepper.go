package simulate

import (
	"bytes"
	"fmt"

	"github.com/tokenmc/tokenmc/explore/internal/capability"
	"github.com/tokenmc/tokenmc/model"
)

// stepper is what a walk needs from a worker: the enabled transitions of a
// state and the successor of one of them.
type stepper interface {
	enabled(dst []model.Transition, state []byte) []model.Transition
	apply(state []byte, t *model.Transition) []byte
	// incremental reports whether apply leaves the worker as
	// IncrementalSnapshotter.SnapshotAfter requires.
	incremental() bool
}

// newStepper uses the worker's Sampler when it has one, else Successors;
// always Successors for a worker with bounded channels (capacityBlocker),
// whose Successors applies the bound and records where it did.
func newStepper(w model.Worker) stepper {
	if _, ok := w.(capacityBlocker); ok {
		return &successorStepper{w: w}
	}
	if s, ok := w.(capability.Sampler); ok {
		return samplerStepper{s}
	}
	return &successorStepper{w: w}
}

type samplerStepper struct{ s capability.Sampler }

func (s samplerStepper) enabled(dst []model.Transition, state []byte) []model.Transition {
	return s.s.Enabled(dst, state)
}

func (samplerStepper) incremental() bool { return true }

func (*successorStepper) incremental() bool { return false }

func (s samplerStepper) apply(state []byte, t *model.Transition) []byte { return s.s.Apply(state, t) }

// successorStepper serves any Worker through Successors: it copies every
// transition (with its message) and finds the chosen one again by position.
type successorStepper struct {
	w    model.Worker
	msgs []byte
	out  []byte
}

func (s *successorStepper) enabled(dst []model.Transition, state []byte) []model.Transition {
	s.msgs = s.msgs[:0]
	type span struct{ a, b int }
	var spans []span
	start := len(dst)
	s.w.Successors(state, func(t *model.Transition, _ []byte) bool {
		a := len(s.msgs)
		s.msgs = append(s.msgs, t.Msg...)
		spans = append(spans, span{a, len(s.msgs)})
		c := *t
		c.Flags = 0
		dst = append(dst, c)
		return true
	})
	for k, sp := range spans {
		dst[start+k].Msg = s.msgs[sp.a:sp.b:sp.b]
	}
	return dst
}

func (s *successorStepper) apply(state []byte, t *model.Transition) []byte {
	found := false
	s.w.Successors(state, func(u *model.Transition, next []byte) bool {
		if u.Kind != t.Kind || u.Proc != t.Proc || u.Arg != t.Arg || u.Choice != t.Choice || !bytes.Equal(u.Msg, t.Msg) {
			return true
		}
		found = true
		t.Flags = u.Flags
		s.out = append(s.out[:0], next...)
		return false
	})
	if !found {
		panic(notDeterministic{"the transition a walk chose in a state is not among the state's successors when it is stepped again"})
	}
	return s.out
}

// sameAction reports whether two transitions are the same action: the same
// kind, process and argument, and for deliveries and losses the same
// message. Message indexes (Arg of Deliver and Lose) differ between states,
// so they are not compared.
func sameAction(a, b *model.Transition) bool {
	if a.Kind != b.Kind || a.Proc != b.Proc {
		return false
	}
	if a.Kind == model.Deliver || a.Kind == model.Lose {
		return bytes.Equal(a.Msg, b.Msg)
	}
	return a.Arg == b.Arg
}

// notDeterministic is the panic value of a walk that finds the model's
// successors changed between two calls on the same state. Run recovers it
// and returns it as its error; the functions without an error result
// (Walk, Shrink) let it propagate, with this message.
type notDeterministic struct{ what string }

func (n notDeterministic) Error() string {
	return "simulate: the model is not deterministic: " + n.what
}

// err is the error Run returns for the model called name.
func (n notDeterministic) err(name string) error {
	return fmt.Errorf("%s is not deterministic: %s; Initial and Successors must yield the same successors in the same order whenever they are called on equal states (modeltest.Check detects this)", name, n.what)
}

// modelError returns the error of r, a value recover returned: nil for
// nil, Run's error for a notDeterministic panic of the model called name;
// any other panic goes on.
func modelError(r any, name string) error {
	if r == nil {
		return nil
	}
	nd, ok := r.(notDeterministic)
	if !ok {
		panic(r)
	}
	return nd.err(name)
}
