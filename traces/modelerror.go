package traces

import (
	"errors"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/modelstep"
)

// kindModelError, "model-error", is the property_kind (and the property) of a trace that
// ends in a failure of the model itself: its code panicked when the
// trace's final state was stepped (see protocol.ModelPanic). Such a trace
// records no violated property; Trace.ModelError says how the model
// failed, and Replay checks that it still fails the same way there.
const kindModelError = "model-error"

// ModelFailure is how the model failed, as a model-error trace records it.
type ModelFailure struct {
	// Action is the label of the action that was being stepped, when the
	// model said (protocol.ModelPanic.Action); "" otherwise.
	Action string `json:"action,omitempty"`
	// Handler names the protocol's handler or hook that panicked
	// ("OnDeliver", "Guard", ...); "" when unknown.
	Handler string `json:"handler,omitempty"`
	// Message is the failure in one line (protocol.ModelPanic.Error).
	Message string `json:"message"`
}

// failureOf returns what a model-error trace records of p.
func failureOf(p *protocol.ModelPanic) *ModelFailure {
	return &ModelFailure{Action: p.Action, Handler: p.Handler, Message: p.Error()}
}

// fromModelError builds the trace of a model failure (FromSteps with
// Meta.ModelError): the path states (from an initial state; a single
// state when the model failed at an initial state) and the failure p at
// its last state. As in FromSteps, actions[k] is the index, in
// Worker.Successors order, of the transition from states[k] to
// states[k+1] (explore.ModelError.Actions); with nil actions each step is
// looked up by its target state.
func fromModelError(w model.Worker, meta Meta, states [][]byte, actions []int, p *protocol.ModelPanic) (*Trace, error) {
	if meta.Algorithm == "" {
		return nil, errors.New("traces: a model-error trace needs Meta.Algorithm")
	}
	if len(states) < 1 {
		return nil, errors.New("traces: a model-error trace needs at least the state where the model failed")
	}
	meta.Property, meta.ModelError = kindModelError, nil
	return fromPath(w, meta, kindModelError, states, actions, failureOf(p))
}

// replayModelError replays a model-error trace: every step must replay
// as recorded, and stepping the final state must make the model fail
// again, on the recorded action when the trace names one.
func replayModelError(sys model.System, t *Trace) Result {
	w := sys.NewWorker()
	state, why := matchInitial(w, &t.Initial)
	if state == nil {
		return Result{Reason: fmt.Sprintf("the trace's initial state is not an initial state of %s: %s", sys.Info().Name, why)}
	}
	path, _, diverged := replaySteps(w, state, t)
	if diverged != nil {
		return *diverged
	}
	n := len(t.Steps)
	want := t.ModelError
	f := modelstep.New(w).Successors(path[len(path)-1], func(*model.Transition, []byte) bool { return true })
	if f == nil {
		return Result{Steps: n, Reason: fmt.Sprintf("all %d steps replay, but the model no longer fails at the final state (the trace records: %s)", n, want.Message)}
	}
	got := failureOf(f)
	if want.Action != "" && got.Action != want.Action {
		return Result{Steps: n, ModelError: got, Reason: fmt.Sprintf("all %d steps replay and the model fails at the final state, but on another action: %s (the trace records: %s)", n, got.Message, want.Message)}
	}
	return Result{OK: true, Steps: n, ModelError: got, Reason: fmt.Sprintf("the trace replays: after step %d, the model fails: %s", n, got.Message)}
}
