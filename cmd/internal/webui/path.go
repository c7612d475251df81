package webui

import (
	"bytes"
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// walk replays a position: the initial state number init, then the
// transitions with the given indices (Worker.Successors order). It returns
// every state along the path (copies) and the transition of each step.
// Its cost is linear in the path; it stops with ctx's error when ctx is
// done (the client has gone).
func walk(ctx context.Context, w model.Worker, init int, path []int) ([][]byte, []model.Transition, error) {
	var start []byte
	k := 0
	w.Initial(func(s []byte) bool {
		if k == init {
			start = bytes.Clone(s)
		}
		k++
		return k <= init
	})
	if start == nil {
		return nil, nil, fmt.Errorf("there is no initial state %d; the system has %d", init, k)
	}
	states := [][]byte{start}
	var steps []model.Transition
	for n, idx := range path {
		if n%64 == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		cur := states[len(states)-1]
		var next []byte
		var tr model.Transition
		j := 0
		w.Successors(cur, func(t *model.Transition, s []byte) bool {
			if j == idx {
				next, tr = bytes.Clone(s), *t
				tr.Msg = bytes.Clone(t.Msg)
				return false
			}
			j++
			return true
		})
		if next == nil {
			return nil, nil, fmt.Errorf("step %d: the state has %d enabled actions, not %d", n+1, j, idx+1)
		}
		states = append(states, next)
		steps = append(steps, tr)
	}
	return states, steps, nil
}

// TracePath finds the position of a trace's path in sys: the number of the
// initial state and, for each step, the index of the enabled transition
// whose label is the step's action (labels are unique among one state's
// transitions). Of several initial states the first along which every
// label is enabled is taken. The error names the first step whose action
// is not enabled.
func TracePath(sys model.System, t *traces.Trace) (int, []int, error) {
	return tracePath(context.Background(), sys, t)
}

// tracePath is TracePath stopping with ctx's error when ctx is done.
func tracePath(ctx context.Context, sys model.System, t *traces.Trace) (int, []int, error) {
	w := sys.NewWorker()
	var inits [][]byte
	w.Initial(func(s []byte) bool { inits = append(inits, bytes.Clone(s)); return true })
	var firstErr error
	for k, s := range inits {
		path, err := labelPath(ctx, w, s, t)
		if err == nil {
			return k, path, nil
		}
		if ctx.Err() != nil {
			return 0, nil, ctx.Err()
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return 0, nil, firstErr
}

func labelPath(ctx context.Context, w model.Worker, state []byte, t *traces.Trace) ([]int, error) {
	var path []int
	for n, st := range t.Steps {
		if n%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		tk, _, failed := traces.StepLabel(w, state, st.Action)
		if tk == nil && failed != nil {
			return nil, fmt.Errorf("trace step %d (%s): the model fails in the state the steps before it reach: %s", st.Index, st.Action, failed.Error())
		}
		if tk == nil {
			return nil, fmt.Errorf("trace step %d (%s) is not enabled in the state the steps before it reach", st.Index, st.Action)
		}
		path = append(path, tk.Index)
		state = tk.Next
	}
	return path, nil
}

// statesPath turns a path of states (as explore.Violation.Path gives it)
// into a position: the initial state's number and, for each step, the
// transition taken: actions, as the search recorded them
// (explore.Violation.Actions), or, when actions is nil, the first
// transition (in Successors order) that leads to the next state.
func statesPath(w model.Worker, states [][]byte, actions []int) (int, []int, error) {
	init := -1
	k := 0
	w.Initial(func(s []byte) bool {
		if bytes.Equal(s, states[0]) {
			init = k
			return false
		}
		k++
		return true
	})
	if init < 0 {
		return 0, nil, fmt.Errorf("webui: the path does not start in an initial state")
	}
	if actions != nil {
		if len(actions) != len(states)-1 {
			return 0, nil, fmt.Errorf("webui: a path of %d states needs %d actions, got %d", len(states), len(states)-1, len(actions))
		}
		return init, actions, nil
	}
	var path []int
	for n := 0; n+1 < len(states); n++ {
		found, j := -1, 0
		w.Successors(states[n], func(_ *model.Transition, s []byte) bool {
			if bytes.Equal(s, states[n+1]) {
				found = j
				return false
			}
			j++
			return true
		})
		if found < 0 {
			return 0, nil, fmt.Errorf("webui: no transition leads from state %d of the path to state %d", n, n+1)
		}
		path = append(path, found)
	}
	return init, path, nil
}
