package traces

import (
	"bytes"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/modelstep"
)

// Taken is one transition taken from a state: what StepLabel returns.
type Taken struct {
	// Index is the transition's index among the state's transitions, in
	// Worker.Successors order (the action index a search records).
	Index int
	// Label is Worker.Label of the transition (the action of a Step).
	Label string
	// Transition is the transition, its Msg a copy.
	Transition model.Transition
	// Next is the state it leads to (a copy).
	Next []byte
}

// taken copies what the transition tr with index j of state gives, inside
// w's Successors callback (where tr and next are valid).
func taken(w model.Worker, state []byte, j int, tr *model.Transition, next []byte) *Taken {
	tk := &Taken{Index: j, Label: w.Label(state, tr), Transition: *tr, Next: bytes.Clone(next)}
	tk.Transition.Msg = bytes.Clone(tr.Msg)
	return tk
}

// StepLabel takes the transition of state whose label is label (labels
// are unique among one state's transitions), as a trace's step names it.
// When no enabled transition has that label it returns nil and the labels
// of the enabled ones, in Successors order, for the caller's message.
// Successors runs as a modelstep.Stepper does: a panic of the model is
// returned as failed (and the transition is nil unless it was found
// before the panic).
func StepLabel(w model.Worker, state []byte, label string) (tk *Taken, enabled []string, failed *protocol.ModelPanic) {
	j := 0
	failed = modelstep.New(w).Successors(state, func(tr *model.Transition, next []byte) bool {
		l := w.Label(state, tr)
		if l != label {
			enabled = append(enabled, l)
			j++
			return true
		}
		tk = taken(w, state, j, tr, next)
		return false
	})
	if tk != nil {
		enabled = nil
	}
	return tk, enabled, failed
}
