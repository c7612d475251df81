// Package modelstep steps a model's worker for tokenmc's checker, random
// walks and replays, catching the model's panics: a panic of the model's
// own code (a protocol's handler or hook, or any model.Worker's
// Successors) comes back as a *protocol.ModelPanic, while a panic of the
// caller's yield goes on up. It serves tokenmc's own packages (explore,
// traces), which is why it is public; users meet the *protocol.ModelPanic
// in the errors tokenmc returns.
package modelstep

import (
	"runtime/debug"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Stepper calls a worker's Successors catching the model's panics. Its
// Successors runs w.Successors(state, yield) and returns nil, or, if the
// worker panicked, its panic as a *protocol.ModelPanic (as the protocol
// layer raised it, or wrapping any other value with the stack where it was
// recovered). A panic of yield itself (the caller's own code) is not the
// model's: it is not recovered and goes on up. A Stepper does not allocate
// per call; it is used by one goroutine at a time.
type Stepper struct {
	w       model.Worker
	yield   func(*model.Transition, []byte) bool
	inYield bool
	call    func(*model.Transition, []byte) bool // s.through, made once
	// direct: w is a worker of model/protocol, which raises every failure of
	// the model's code as a *protocol.ModelPanic and never recovers a panic of
	// yield, so any other panic is the caller's and yield need not be
	// wrapped (one indirect call less per transition)
	direct bool
}

// panicsAsModelPanic is implemented by the workers of model/protocol:
// every panic of the protocol's code leaves their Successors as a
// *protocol.ModelPanic.
type panicsAsModelPanic interface{ PanicsAsModelPanic() }

// New returns a Stepper of w.
func New(w model.Worker) *Stepper {
	s := &Stepper{w: w}
	s.call = s.through
	_, s.direct = w.(panicsAsModelPanic)
	return s
}

// Successors steps the Stepper's worker (see Stepper).
func (s *Stepper) Successors(state []byte, yield func(*model.Transition, []byte) bool) (failed *protocol.ModelPanic) {
	if s.direct {
		return s.successorsDirect(state, yield)
	}
	s.yield, s.inYield = yield, false
	defer func() {
		s.yield = nil
		if s.inYield {
			return // the caller's panic: let it through untouched
		}
		if r := recover(); r != nil {
			failed = asModelPanic(r)
		}
	}()
	s.w.Successors(state, s.call)
	return nil
}

// successorsDirect is Successors on a worker of model/protocol: a *protocol.ModelPanic
// is the model's failure, any other panic the caller's (re-raised).
func (s *Stepper) successorsDirect(state []byte, yield func(*model.Transition, []byte) bool) (failed *protocol.ModelPanic) {
	defer catchModelPanic(&failed)
	s.w.Successors(state, yield)
	return nil
}

// catchModelPanic, deferred by a direct call of a model/protocol worker,
// recovers a *protocol.ModelPanic into *failed and raises any other panic
// (the caller's) again.
func catchModelPanic(failed **protocol.ModelPanic) {
	if r := recover(); r != nil {
		mp, ok := r.(*protocol.ModelPanic)
		if !ok {
			panic(r)
		}
		*failed = mp
	}
}

func (s *Stepper) through(t *model.Transition, next []byte) bool {
	s.inYield = true
	ok := s.yield(t, next)
	s.inYield = false
	return ok
}

// asModelPanic returns r as a *protocol.ModelPanic, wrapping it if need be.
func asModelPanic(r any) *protocol.ModelPanic {
	if mp, ok := r.(*protocol.ModelPanic); ok {
		return mp
	}
	return &protocol.ModelPanic{Value: r, Stack: debug.Stack()}
}

// successorsAfter is the optional capability of model/protocol's workers
// whose steps of different processes commute (protocol.SuccessorsAfter).
type successorsAfter interface {
	SuccessorsAfter(state []byte, via uint64, yield func(*model.Transition, []byte) bool)
}

// SuccessorsAfter is Successors for a breadth-first search that reached
// state by a step whose tag was via: on a worker of model/protocol whose
// protocol's steps of different processes commute it yields some
// transitions with a nil successor, those that lead where an earlier
// candidate of the search leads (see protocol's SuccessorsAfter); on any
// other worker it is Successors.
func (s *Stepper) SuccessorsAfter(state []byte, via uint64, yield func(*model.Transition, []byte) bool) (failed *protocol.ModelPanic) {
	sa, ok := s.w.(successorsAfter)
	if !ok || !s.direct {
		return s.Successors(state, yield)
	}
	defer catchModelPanic(&failed)
	sa.SuccessorsAfter(state, via, yield)
	return nil
}
