package explore

import (
	"errors"

	"github.com/tokenmc/tokenmc/model"
)

// lastSnapshotter is an optional model.Worker capability: LastSnapshot
// returns the Snapshot of the state most recently passed to Successors,
// reusing the parse Successors made (the explorer calls it right after
// Successors returns, with no other Worker call in between). Workers of
// protocol-layer systems (package model/protocol) implement it, and so do
// the workers of explore/symmetry's quotient over them (Go interfaces are
// structural: neither declares this interface).
type lastSnapshotter interface {
	LastSnapshot() model.Snapshot
}

// commuter is an optional model.Worker capability of model/protocol's
// workers (see protocol's commute.go): CommutingSteps reports whether the
// protocol's steps of different processes commute, and StepTag, called
// while the yield of modelstep.Stepper.SuccessorsAfter runs for a stepped
// transition, returns that step's tag, which the search keeps with the
// successor's state if the successor is admitted and passes back to
// SuccessorsAfter when it expands it.
type commuter interface {
	CommutingSteps() bool
	StepTag() uint64
}

// CapacityBlocker is an optional model.Worker capability of systems with
// bounded channels (model/protocol's Protocol.Capacity, design notes
// §10.2): CapacityBlocked reports whether the last Successors call left
// out a transition because its sends would exceed the bound (the explorer
// calls it right after Successors returns). A state without successors
// for which it is true is capacity-blocked: it is counted in
// Result.CapacityBlocked and is not checked against the Terminal
// properties (no-deadlock), as the unbounded system would go on.
type CapacityBlocker interface {
	CapacityBlocked() bool
}

// errCapacityLiveness is CheckLiveness's refusal of bounded channels.
var errCapacityLiveness = errors.New("liveness checks do not support a channel capacity: a process blocked only by the bound would look starved or deadlocked; check the safety properties with a capacity, liveness without")
