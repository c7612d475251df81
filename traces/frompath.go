package traces

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// FromPath builds the trace of a path through a system: states[0] is one of
// its initial states and each states[k+1] a successor of states[k], as an
// explorer reconstructs a counterexample from its parent pointers. For each
// step FromPath looks up the transition that leads from states[k] to
// states[k+1] (the first, in Worker.Successors order, whose successor has
// exactly those bytes) and records its label, kind and acting process, the
// message it delivers or loses, the messages it sends, and the state it
// leads to.
//
// The path must have at least one step. An error means the path does not
// fit the worker's system or meta is incomplete; both are the caller's bug.
func FromPath(w model.Worker, meta Meta, states [][]byte) (*Trace, error) {
	if meta.Algorithm == "" || meta.Property == "" {
		return nil, errors.New("traces: FromPath needs Meta.Algorithm and Meta.Property")
	}
	if len(states) < 2 {
		return nil, fmt.Errorf("traces: a trace needs at least one step; the path has %d states", len(states))
	}
	return fromPath(w, meta, meta.PropertyKind.String(), states, nil)
}

// fromPath is FromPath for a trace of kind kind, with failure (a model
// error trace, see FromModelError) or without.
func fromPath(w model.Worker, meta Meta, kind string, states [][]byte, failure *ModelFailure) (*Trace, error) {
	initial := false
	w.Initial(func(s []byte) bool {
		initial = bytes.Equal(s, states[0])
		return !initial
	})
	if !initial {
		return nil, errors.New("traces: states[0] is not an initial state of the worker's system")
	}

	t := &Trace{
		Format:       Format,
		Version:      Version,
		Algorithm:    meta.Algorithm,
		Params:       maps.Clone(meta.Params),
		Property:     meta.Property,
		PropertyKind: kind,
		Initial:      w.Describe(states[0]),
		ModelError:   failure,
	}
	if t.Params == nil {
		t.Params = map[string]int{}
	}
	if len(meta.Options) > 0 {
		t.Options = maps.Clone(meta.Options)
	}
	before := t.Initial
	for k := 0; k+1 < len(states); k++ {
		var (
			found  bool
			label  string
			kind   model.ActionKind
			proc   int
			taken  model.Transition
			target = states[k+1]
		)
		// Only Label may be called inside the callback: the transition and
		// next are valid only there, and Describe would reuse the worker's
		// scratch memory that Successors is iterating over.
		w.Successors(states[k], func(tr *model.Transition, next []byte) bool {
			if !bytes.Equal(next, target) {
				return true
			}
			found, label, kind, proc = true, w.Label(states[k], tr), tr.Kind, tr.Proc
			taken = *tr
			taken.Msg = bytes.Clone(tr.Msg)
			return false
		})
		if !found {
			return nil, fmt.Errorf("traces: no transition leads from states[%d] to states[%d]", k, k+1)
		}
		after := w.Describe(states[k+1])
		s := Step{Index: k + 1, Action: label, Kind: kind.String(), Process: proc, State: after}
		if kind == model.Deliver || kind == model.Lose {
			s.Delivered = deliveredOf(label, kind)
		}
		s.Sent = stepSent(w, states[k], &taken, &before, &after, s.Delivered)
		t.Steps = append(t.Steps, s)
		before = after
	}
	if err := validate(t); err != nil {
		return nil, fmt.Errorf("traces: the worker describes states that a trace cannot hold: %w", err)
	}
	return t, nil
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
