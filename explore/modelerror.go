package explore

import "github.com/tokenmc/tokenmc/model/protocol"

// ModelFailed is the verdict of a search that stopped because the model
// under check failed: its Successors panicked at a reachable state
// (Result.ModelError says where). It is neither a violation of a property
// nor a bug of the checker.
const ModelFailed Verdict = "model-error"

// ModelError is a panic of the model under check (a handler or hook of a
// protocol, or any worker's Successors) at a reachable state, with the
// path that reaches that state.
type ModelError struct {
	// Panic is the model's panic: the action and handler it was running
	// when the model says (protocol.ModelPanic), the value and the stack.
	Panic *protocol.ModelPanic
	// Path holds the states from an initial state to the state whose
	// successors panicked (len(Path)-1 steps; one state when it is an
	// initial state).
	Path [][]byte
	// Actions holds the transition taken at each step of Path, as
	// Violation.Actions does (nil when not recorded).
	Actions []int
}

// Error returns the panic in one line (protocol.ModelPanic.Error).
func (e *ModelError) Error() string { return e.Panic.Error() }

// Len is the number of steps of the path.
func (e *ModelError) Len() int { return len(e.Path) - 1 }
