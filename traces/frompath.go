package traces

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// FromSteps builds the trace of a path through a system: states[0] is one
// of its initial states and each states[k+1] a successor of states[k], as
// an explorer reconstructs a counterexample. actions[k] is the index, in
// Worker.Successors order, of the transition from states[k] to
// states[k+1], as explore records it (explore.Violation.Actions); the
// trace records that transition. With nil actions FromSteps looks each
// transition up by its target: the first, in Successors order, whose
// successor has exactly the bytes of states[k+1] (of two transitions
// with one target, the first). For each step the trace records the
// transition's label, kind and acting process, the message it delivers
// or loses, the messages it sends, and the state it leads to.
//
// meta's Loop, WaitingProcess or ModelError make a trace of a lasso, a
// possibility or a model failure (see Meta).
//
// The path must have at least one step. An error means the path does not
// fit the worker's system or meta is incomplete; both are the caller's bug.
func FromSteps(w model.Worker, meta Meta, states [][]byte, actions []int) (*Trace, error) {
	switch {
	case meta.ModelError != nil:
		return fromModelError(w, meta, states, actions, meta.ModelError)
	case meta.Loop != nil && meta.WaitingProcess != nil:
		return fromLasso(w, meta, states, actions, *meta.Loop, *meta.WaitingProcess)
	case meta.Loop != nil:
		return nil, errors.New("traces: a lasso's Meta.Loop needs Meta.WaitingProcess")
	case meta.WaitingProcess != nil:
		return fromPossibility(w, meta, states, actions, *meta.WaitingProcess)
	}
	if meta.Algorithm == "" || meta.Property == "" {
		return nil, errors.New("traces: FromSteps needs Meta.Algorithm and Meta.Property")
	}
	if len(states) < 2 {
		return nil, fmt.Errorf("traces: a trace needs at least one step; the path has %d states", len(states))
	}
	return fromPath(w, meta, meta.PropertyKind.String(), states, actions, nil)
}

// fromPath is FromSteps for a trace of kind kind, with failure (a model error trace, see fromModelError) or
// without.
func fromPath(w model.Worker, meta Meta, kind string, states [][]byte, actions []int, failure *ModelFailure) (*Trace, error) {
	if actions != nil && len(actions) != len(states)-1 {
		return nil, fmt.Errorf("traces: a path of %d states needs %d actions, got %d", len(states), len(states)-1, len(actions))
	}
	initial := false
	w.Initial(func(s []byte) bool {
		initial = bytes.Equal(s, states[0])
		return !initial
	})
	if !initial {
		return nil, errors.New("traces: states[0] is not an initial state of the worker's system")
	}
	t := newTrace(w, meta, kind, states[0])
	t.ModelError = failure
	before := t.Initial
	for k := 0; k+1 < len(states); k++ {
		var (
			tk  *Taken
			err error
		)
		if actions != nil {
			tk, err = takeIndex(w, states, k, actions[k])
		} else {
			tk, err = takeTarget(w, states, k)
		}
		if err != nil {
			return nil, err
		}
		s, after := stepOf(w, states[k], tk, k+1, &before)
		t.Steps = append(t.Steps, s)
		before = after
	}
	if err := validate(t); err != nil {
		return nil, fmt.Errorf("traces: the worker describes states that a trace cannot hold: %w", err)
	}
	return t, nil
}

// newTrace returns a trace without steps: its header from meta and kind,
// its initial state Describe(initial).
func newTrace(w model.Worker, meta Meta, kind string, initial []byte) *Trace {
	t := &Trace{
		Format:       traceFormat,
		Version:      traceVersion,
		Algorithm:    meta.Algorithm,
		Params:       maps.Clone(meta.Params),
		Property:     meta.Property,
		PropertyKind: kind,
		Initial:      w.Describe(initial),
	}
	if t.Params == nil {
		t.Params = map[string]int{}
	}
	if len(meta.Options) > 0 {
		t.Options = maps.Clone(meta.Options)
	}
	return t
}

// takeTarget returns the first transition of states[k], in Successors
// order, whose successor has exactly the bytes of states[k+1].
func takeTarget(w model.Worker, states [][]byte, k int) (*Taken, error) {
	var tk *Taken
	j := 0
	// Only Label may be called inside the callback: the transition and
	// next are valid only there, and Describe would reuse the worker's
	// scratch memory that Successors is iterating over.
	w.Successors(states[k], func(tr *model.Transition, next []byte) bool {
		if !bytes.Equal(next, states[k+1]) {
			j++
			return true
		}
		tk = taken(w, states[k], j, tr, next)
		return false
	})
	if tk == nil {
		return nil, fmt.Errorf("traces: no transition leads from states[%d] to states[%d]", k, k+1)
	}
	return tk, nil
}

// takeIndex returns the transition with index a of states[k], which must
// lead to states[k+1].
func takeIndex(w model.Worker, states [][]byte, k, a int) (*Taken, error) {
	var tk *Taken
	j := 0
	w.Successors(states[k], func(tr *model.Transition, next []byte) bool {
		if j < a {
			j++
			return true
		}
		tk = taken(w, states[k], j, tr, next)
		return false
	})
	if tk == nil || !bytes.Equal(tk.Next, states[k+1]) {
		return nil, fmt.Errorf("traces: transition %d of states[%d] does not lead to states[%d]", a, k, k+1)
	}
	return tk, nil
}

// stepOf returns the step with the given index that takes tk from state,
// and the description of the state it leads to; before describes state.
func stepOf(w model.Worker, state []byte, tk *Taken, index int, before *model.StateDescription) (Step, model.StateDescription) {
	after := w.Describe(tk.Next)
	s := Step{Index: index, Action: tk.Label, Kind: tk.Transition.Kind.String(), Process: tk.Transition.Proc, State: after}
	if k := tk.Transition.Kind; k == model.Deliver || k == model.Lose {
		s.Delivered = deliveredOf(tk.Label, k)
	}
	s.Sent = stepSent(w, state, &tk.Transition, before, &after, s.Delivered)
	return s, after
}

// deliveredOf returns the message a Deliver or Lose label names: the label
// without its kind and without the " (alternative k of K)" that
// model/protocol appends when a nondeterministic handler has several
// outcomes.
func deliveredOf(label string, kind model.ActionKind) string {
	s := strings.TrimPrefix(label, kind.String()+" ")
	if i := strings.LastIndex(s, " (alternative "); i >= 0 && strings.HasSuffix(s, ")") {
		s = s[:i]
	}
	return s
}
