package model

import "encoding/json"

// Phase is the client phase of a process: Idle -> Waiting -> InCS -> Idle.
type Phase uint8

// The client phases of semantics.md §1.
const (
	Idle Phase = iota
	Waiting
	InCS
)

// String returns the phase name used in traces: Idle, Waiting or InCS.
func (p Phase) String() string {
	switch p {
	case Idle:
		return "Idle"
	case Waiting:
		return "Waiting"
	case InCS:
		return "InCS"
	}
	return "Phase(?)"
}

// ParsePhase is the inverse of Phase.String.
func ParsePhase(s string) (Phase, bool) {
	switch s {
	case "Idle":
		return Idle, true
	case "Waiting":
		return Waiting, true
	case "InCS":
		return InCS, true
	}
	return 0, false
}

// ActionKind says what kind of step a transition is.
type ActionKind uint8

// The action kinds of semantics.md §1. Request and Exit are client actions;
// Deliver removes one copy of a message from the network and runs its
// receiver's handler; Timer is a timeout or phase end of its owner; Lose is a
// budgeted fault that drops one copy of a message.
const (
	Request ActionKind = iota
	Exit
	Deliver
	Timer
	Lose
)

// String returns the action kind's name.
func (k ActionKind) String() string {
	switch k {
	case Request:
		return "Request"
	case Exit:
		return "Exit"
	case Deliver:
		return "Deliver"
	case Timer:
		return "Timer"
	case Lose:
		return "Lose"
	}
	return "Action(?)"
}

// Flags record facts about a transition that transition properties check.
type Flags uint32

// Transition flags set by the protocol layer.
const (
	// FlagUnrequestedEntry: the acting process entered its CS from a phase
	// other than Waiting (semantics.md, no-unrequested-entry).
	FlagUnrequestedEntry Flags = 1 << iota
)

// FlagsUser is the lowest flag bit free for algorithms (see AddFlags of
// package model/protocol's Ctx): an algorithm's flags are FlagsUser,
// FlagsUser << 1, and so on.
const FlagsUser Flags = 1 << 16

// Transition is one enabled action of a state. Msg aliases the state's bytes
// (or the worker's memory) and is valid only during the callback that
// received it.
type Transition struct {
	Kind  ActionKind
	Proc  int    // acting process (the receiver, for Deliver and Lose)
	Arg   int    // request argument (group) or timer number
	Msg   []byte // encoded message, for Deliver and Lose
	Flags Flags
	// Choice numbers the alternative a nondeterministic handler took
	// (model/protocol's Ctx.Choose), from 0 in the order Successors
	// yields them; 0 for an action with a single outcome.
	Choice int
}

// Info describes a compiled system.
type Info struct {
	Name      string // algorithm name with variant, e.g. "suzuki-kasami/send-in-cs"
	Processes int    // N
	Requests  int    // R, requests per process; 0 for cyclic clients (R = infinity)
	Groups    int    // request arguments (GME groups); 1 when requests carry none
	Faults    int    // message-loss budget F
	Tokens    bool   // the system reports tokens, so single-token applies
	GME       bool   // group mutual exclusion: gme-safety replaces mutex
	// Params are the parameters the system was built with (for trace
	// metadata), when its builder recorded them (protocol.Protocol.Params); nil
	// otherwise. Read only.
	Params map[string]int
}

// Snapshot is a read-only view of one global state, used by properties.
// A worker reuses one snapshot for every state: it is valid until the next
// call to Worker.Snapshot.
type Snapshot interface {
	Processes() int
	Phase(i int) Phase
	Made(i int) int
	Group(i int) int // the group of the current request; 0 when Groups == 1
	Tokens() int     // valid tokens held or in transit; -1 when the system has no tokens
	InTransit() int  // messages in transit, counting copies
}

// System is an explicit-state transition system over canonically encoded
// states: equal states encode to equal bytes. It is immutable and may be
// shared; all stepping goes through a Worker, one per goroutine.
type System interface {
	Info() Info
	NewWorker() Worker
}

// Worker steps a System. It owns scratch memory, so it is used by one
// goroutine at a time; every byte slice it passes out is valid only until
// the callback returns (Initial, Successors) or the next call (Snapshot).
type Worker interface {
	// Initial yields the initial states in a fixed order.
	Initial(yield func(state []byte) bool)
	// Successors yields every enabled transition of state in a fixed order,
	// with the state it leads to. It never modifies state.
	Successors(state []byte, yield func(t *Transition, next []byte) bool)
	// Snapshot decodes state for property checks.
	Snapshot(state []byte) Snapshot
	// Label renders a transition of state for people, e.g.
	// "Deliver REQ(P1->P0, sn=1)". Labels are unique among the transitions
	// of one state.
	Label(state []byte, t *Transition) string
	// Describe renders a state for people and for trace files.
	Describe(state []byte) StateDescription
}

// StateDescription is a readable rendering of a global state. Its JSON form is
// what trace files record after each step.
type StateDescription struct {
	Processes  []ProcessDescription `json:"processes"`
	Network    []MessageDescription `json:"network"`
	FaultsUsed int                  `json:"faults_used,omitempty"`
}

// ProcessDescription renders one process.
type ProcessDescription struct {
	ID         int             `json:"id"`
	Phase      string          `json:"phase"`
	Made       int             `json:"made"`
	Group      int             `json:"group,omitempty"`
	HoldsToken bool            `json:"holds_token,omitempty"`
	Vars       json.RawMessage `json:"vars,omitempty"`
	// Text is the process's own state as its algorithm renders it for
	// people (protocol.Protocol.FormatProc), e.g. "RN=[1,0] LN=[0,0]";
	// empty when the algorithm has no rendering, and views then show
	// Vars. It is derived from Vars: comparisons of states ignore it.
	Text string `json:"text,omitempty"`
}

// MessageDescription renders the copies of one distinct message in transit.
type MessageDescription struct {
	Message string `json:"message"`
	To      int    `json:"to"`
	Count   int    `json:"count"`
	Token   bool   `json:"token,omitempty"`
}
