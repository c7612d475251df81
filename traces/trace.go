package traces

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// The identity of the file format. Read accepts exactly this format and
// version; a change that old readers could misread gets a new version.
const (
	traceFormat  = "tokenmc-trace"
	traceVersion = 1
)

// Trace is a counterexample: an initial state, the steps taken from it, and
// the property that the last state (or step) violates. Every state is
// recorded in full, as model.Worker.Describe renders it, so a trace can be
// read without the model and replayed against it.
type Trace struct {
	Format       string                 `json:"format"`            // always "tokenmc-trace"
	Version      int                    `json:"version"`           // always 1 (this version)
	Algorithm    string                 `json:"algorithm"`         // model.Info.Name, e.g. "suzuki-kasami/send-in-cs"
	Params       map[string]int         `json:"params"`            // size parameters, e.g. {"n": 2, "r": 1}
	Options      map[string]string      `json:"options,omitempty"` // search options that change the semantics, e.g. {"faults": "1"}
	Property     string                 `json:"property"`          // name of the violated property, e.g. "mutex"
	PropertyKind string                 `json:"property_kind"`     // model.PropertyKind.String() ("invariant", ...), or "liveness", "possibility", "witness" or "model-error"
	Initial      model.StateDescription `json:"initial"`           // the initial state
	Steps        []Step                 `json:"steps"`             // at least one (none for a model error at an initial state)
	// Loop marks a lasso, the counterexample to a liveness property
	// (property_kind "liveness"): the Index of the step whose source state
	// starts the cycle. Steps Loop..len(Steps) form the cycle: the last
	// step returns to the state before step Loop, and the cycle repeats
	// forever. Only liveness traces have it, and they must.
	Loop *int `json:"loop,omitempty"`
	// WaitingProcess is the process a graph property is about: for
	// starvation-freedom the process that waits forever along the cycle,
	// for concurrent-occupancy the requester that cannot enter. Only
	// liveness and possibility traces have it, and they must.
	WaitingProcess *int `json:"waiting_process,omitempty"`
	// ModelError is the failure of the model that a trace of kind
	// "model-error" ends in: the model panicked when its
	// final state was stepped. Only those traces have it, and they must.
	ModelError *ModelFailure `json:"model_error,omitempty"`
}

// kindWitness is the property_kind of a witness (IsWitness): a behaviour of the model
// that explains something (for example a partial event log, written by
// `tokenmc validate --witness`), not a counterexample. Its Property names
// what it explains ("explains-log"); replay checks that every step is a
// transition of the model and claims no violation.
const kindWitness = "witness"

// IsWitness reports whether t is a witness rather than a counterexample.
func (t *Trace) IsWitness() bool { return t.PropertyKind == kindWitness }

// IsLasso reports whether t is a liveness counterexample (a lasso).
func (t *Trace) IsLasso() bool { return t.PropertyKind == kindLiveness }

// Step is one transition of a trace and the state it leads to.
type Step struct {
	Index     int                    `json:"index"`               // 1-based position in Trace.Steps
	Action    string                 `json:"action"`              // model.Worker.Label, e.g. "Deliver REQ(P1->P0, sn=1)"
	Kind      string                 `json:"kind"`                // model.ActionKind.String(), e.g. "Deliver"
	Process   int                    `json:"process"`             // the acting process (the receiver, for Deliver and Lose)
	Delivered string                 `json:"delivered,omitempty"` // the message delivered or lost, for Deliver and Lose
	Sent      []string               `json:"sent,omitempty"`      // messages the step added to the network, one entry per copy
	State     model.StateDescription `json:"state"`               // the state after the step
}

// Meta is what FromSteps needs besides the path: which system and search
// produced it and which property it violates, or, with the fields after
// PropertyKind, how the path ends when it is not a plain violation.
type Meta struct {
	Algorithm    string            // model.Info.Name
	Params       map[string]int    // size parameters, e.g. {"n": 2, "r": 1}
	Options      map[string]string // search options that change the semantics; may be nil
	Property     string            // the violated property's name
	PropertyKind model.PropertyKind

	// Loop and WaitingProcess, both set, make the trace of a starvation
	// lasso (kind "liveness"; PropertyKind is ignored): the last state
	// equals states[*Loop], so the steps after the first *Loop are the
	// cycle, along which process *WaitingProcess waits forever. Options
	// should record the fairness assumption under the key "fairness"
	// ("weak" if absent). The path's actions are required.
	Loop *int
	// WaitingProcess without Loop makes the trace of a
	// concurrent-occupancy violation (kind "possibility"): a path to a
	// state in which the process requests a group and cannot enter its CS
	// without an Exit or a request for another group. The path's actions
	// are required.
	WaitingProcess *int
	// ModelError makes the trace of a failure of the model itself when
	// the path's last state was stepped (property and kind
	// "model-error"; Property and PropertyKind are ignored). The path
	// may be that one state (the model failed at an initial state).
	ModelError *protocol.ModelPanic
}

// state returns the state before step k (1-based): the initial state for
// k = 1, else the state after step k-1.
func (t *Trace) state(k int) *model.StateDescription {
	if k <= 1 {
		return &t.Initial
	}
	return &t.Steps[k-2].State
}

// final returns the last state of t.
func (t *Trace) final() *model.StateDescription {
	return t.state(len(t.Steps) + 1)
}

// states returns every state of t in order: the initial state, then the
// state after each step.
func (t *Trace) states() []*model.StateDescription {
	out := []*model.StateDescription{&t.Initial}
	for i := range t.Steps {
		out = append(out, &t.Steps[i].State)
	}
	return out
}
