package traces

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// fromLasso builds the trace of a starvation lasso (FromSteps with
// Meta.Loop and Meta.WaitingProcess): states[0] is an initial state,
// states[k+1] is the successor of states[k] by the transition with index
// actions[k] in Worker.Successors order, and the last state equals
// states[loop]: steps loop+1..len(actions) (1-based) are the cycle, along
// which process waits forever.
func fromLasso(w model.Worker, meta Meta, states [][]byte, actions []int, loop, process int) (*Trace, error) {
	if loop < 0 || loop >= len(actions) {
		return nil, fmt.Errorf("traces: loop %d is not a step of the lasso (0..%d)", loop, len(actions)-1)
	}
	if !bytes.Equal(states[loop], states[len(states)-1]) {
		return nil, errors.New("traces: the lasso's last state is not its loop-start state")
	}
	t, err := fromActions(w, meta, kindLiveness, states, actions)
	if err != nil {
		return nil, err
	}
	l, p := loop+1, process
	t.Loop, t.WaitingProcess = &l, &p
	if err := validate(t); err != nil {
		return nil, fmt.Errorf("traces: %w", err)
	}
	return t, nil
}

// fromPossibility builds the trace of a concurrent-occupancy violation
// (FromSteps with Meta.WaitingProcess alone): a path (as for fromLasso, by
// transition indices) to a state in which process requests a group and
// cannot enter its CS without an Exit or a request for another group.
func fromPossibility(w model.Worker, meta Meta, states [][]byte, actions []int, process int) (*Trace, error) {
	t, err := fromActions(w, meta, kindPossibility, states, actions)
	if err != nil {
		return nil, err
	}
	p := process
	t.WaitingProcess = &p
	if err := validate(t); err != nil {
		return nil, fmt.Errorf("traces: %w", err)
	}
	return t, nil
}

// fromActions records the steps of a path given by transition indices.
// Unlike FromSteps with nil actions it does not guess the transition from the next state, so
// that of two transitions with one target the intended one is recorded (it
// matters for fairness).
func fromActions(w model.Worker, meta Meta, kind string, states [][]byte, actions []int) (*Trace, error) {
	if meta.Algorithm == "" || meta.Property == "" {
		return nil, errors.New("traces: a trace needs Meta.Algorithm and Meta.Property")
	}
	if len(actions) == 0 || len(states) != len(actions)+1 {
		return nil, fmt.Errorf("traces: a path of %d states needs %d actions, got %d (and at least one)", len(states), len(states)-1, len(actions))
	}
	t := newTrace(w, meta, kind, states[0])
	before := t.Initial
	for k, a := range actions {
		tk, err := takeIndex(w, states, k, a)
		if err != nil {
			return nil, err
		}
		s, after := stepOf(w, states[k], tk, k+1, &before)
		t.Steps = append(t.Steps, s)
		before = after
	}
	return t, nil
}
