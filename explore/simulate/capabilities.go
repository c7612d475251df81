package simulate

import "github.com/tokenmc/tokenmc/model"

// capacityBlocker is explore.CapacityBlocker (not imported, to keep this
// package independent of the explorer): the workers of a protocol with
// bounded channels (model/protocol's Protocol.Capacity) report whether
// their last Successors call left out a transition because its sends
// would exceed the bound. Such a worker is stepped through Successors
// only (newStepper, newWalker): its Successors applies the bound, and the
// flag follows Successors calls alone. A state where nothing is enabled
// and the flag is set is capacity-blocked: a walk ends there without
// checking the terminal properties (no-deadlock), since the unbounded
// system would go on.
type capacityBlocker interface {
	CapacityBlocked() bool
}

// capacityBlocked reports whether w is a capacityBlocker whose last
// Successors call left out a transition because of the bound.
func capacityBlocked(w model.Worker) bool {
	c, ok := w.(capacityBlocker)
	return ok && c.CapacityBlocked()
}
