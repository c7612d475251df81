// Package protosys holds what the protocol layer's compiled systems
// (model/protocol) offer the rest of tokenmc beyond model.System, and what
// only tokenmc's own packages use: the per-process stepping of real runs
// (cmd/internal/live), event-log validation (traces/eventlog) and the measure
// simulator (explore/measure), and the channel bound of check
// --channel-capacity. A model is written with model/protocol alone:
// these interfaces are implemented by that package's systems only, and
// are public only because Go's internal rule would need a directory at
// the module's root (outside the fixed layout) for explore, traces and
// cmd to share them. Nothing here is for a model's author.
package protosys

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// LocalState is one process's part of a global state: its client phase,
// the number of requests it has made, the group of its current or last
// request, and its encoded protocol-local state.
type LocalState struct {
	Phase model.Phase
	Made  int
	Group int
	Local []byte // the protocol's canonical encoding of the process's local state
}

// LocalEvent is what happens to one process in one step: a request (Arg is
// the group), an exit, a timer (Arg is the timer) or the delivery of the
// encoded message Msg. Choice selects the alternative of a
// Nondeterministic protocol's handler (Ctx.Choose), numbered as
// Transition.Choice numbers them; 0 for every other protocol.
type LocalEvent struct {
	Kind   model.ActionKind
	Arg    int
	Msg    []byte
	Choice int
}

// LocalResult is the effect of one LocalEvent: the process's next local
// state, the encoded messages it sent (in the order the handler sent them)
// and the flags of the transition.
type LocalResult struct {
	Next    LocalState
	Sent    [][]byte
	Entered bool // the step put the process in its CS
	Flags   model.Flags
}

// LocalSystem is implemented by the Systems that Protocol.System returns:
// besides global states it can step one process at a time, with the very
// handlers the checker runs, so a runtime of real concurrent processes and
// the checker share one implementation.
type LocalSystem interface {
	model.System
	// NewLocalWorker returns a LocalWorker for one goroutine.
	NewLocalWorker() LocalWorker
}

// LocalWorker steps single processes. Like Worker it owns scratch memory
// and is used by one goroutine at a time; the slices it returns are fresh
// copies that the caller may keep.
type LocalWorker interface {
	// InitialLocal returns the initial local state of process i.
	InitialLocal(i int) LocalState
	// InitialMessages returns the encoded messages in transit initially.
	InitialMessages() [][]byte
	// Step runs ev at process i in local state s. It returns an error when
	// ev is not enabled: a request when not Idle or after R requests, an
	// exit when not InCS, a timer that is not enabled, a message addressed
	// to another process, a Choice beyond the alternatives the handler has
	// in s (Alternatives). It does not evaluate the protocol's Guard, which
	// needs the global state: callers of a Guarded system ask Allowed.
	Step(i int, s LocalState, ev LocalEvent) (LocalResult, error)
	// Alternatives returns how many alternatives the handler of ev has
	// for process i in local state s: the LocalEvents with Choice
	// 0..k-1 are the ones Step accepts. It is 1 for a protocol that is
	// not Nondeterministic; it returns Step's errors for a step that is
	// not enabled, and ignores ev.Choice.
	Alternatives(i int, s LocalState, ev LocalEvent) (int, error)
	// Guarded reports whether the protocol has a whole-state Guard, so
	// that stepping one process needs a consistent global state.
	Guarded() bool
	// Allowed reports whether the protocol's Guard allows event ev of
	// process i in the global state state (Assemble's encoding); true
	// without a Guard. For a Deliver, ev.Msg must be in transit in state;
	// Allowed does not check the other conditions Step checks.
	Allowed(state []byte, i int, ev LocalEvent) bool
	// TimerName returns the name of timer t (Protocol.TimerNames), or ""
	// when the timers are not named.
	TimerName(t int) string
	// To returns the receiver of an encoded message.
	To(msg []byte) int
	// FormatMsg renders an encoded message as Protocol.FormatMsg does.
	FormatMsg(msg []byte) string
	// CarriesToken reports whether an encoded message carries a token
	// (false for systems without tokens).
	CarriesToken(msg []byte) bool
	// HoldsToken reports whether process state s holds a token.
	HoldsToken(s LocalState) bool
	// TimerEnabled reports whether timer t of process i may fire in s.
	TimerEnabled(i int, s LocalState, t int) bool
	// Timers returns the number of timer kinds per process.
	Timers() int
	// Assemble builds the canonical global state made of the given local
	// states (one per process), the encoded messages in transit (any
	// order, one entry per copy) and the faults used so far. It is the
	// inverse of Split.
	Assemble(locals []LocalState, network [][]byte, faults int) []byte
	// Split parses a global state into its local states, its messages in
	// transit (canonical order, one entry per copy) and its faults used.
	Split(state []byte) (locals []LocalState, network [][]byte, faults int)
	// Normalize returns the normal form of a global state under the
	// protocol's Normalize hook (a fresh copy), or state itself without
	// one. Steps never normalise: the global System does, after each step.
	Normalize(state []byte) []byte
}

// TimerLabel renders the firing of timer t of process i as labels and
// event-log checks write it: Timer(P0, NAME) with the protocol's
// TimerNames, Timer(P0, t=0) without.
func TimerLabel(i, t int, names []string) string {
	if t >= 0 && t < len(names) {
		return fmt.Sprintf("Timer(P%d, %s)", i, names[t])
	}
	return fmt.Sprintf("Timer(P%d, t=%d)", i, t)
}

// Capacitated is implemented by the systems model/protocol compiles: they
// can be rebuilt with a bound on every channel (design notes §10.2).
type Capacitated interface {
	model.System
	// WithCapacity returns the same system with every channel bounded to
	// k messages (0: unbounded), or an error when the protocol cannot
	// bound its channels.
	WithCapacity(k int) (model.System, error)
}
