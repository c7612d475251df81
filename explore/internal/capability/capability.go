// Package capability declares the optional model.Worker capabilities that
// the random walks of explore/simulate, explore/measure and
// explore/proptest use when a worker has them: stepping one chosen
// transition (Sampler), incremental snapshots (IncrementalSnapshotter) and
// a state kept decoded and changed in place (InPlaceWorker). Go interfaces
// are structural: the workers of model/protocol implement them without
// importing this package, and so may a user's model. Only the engine names
// them, so they are internal.
package capability

import "github.com/tokenmc/tokenmc/model"

// Sampler is an optional capability of a model.Worker: it lists the enabled
// transitions of a state without computing their successors, and computes
// the successor of one chosen transition. A random walk needs one successor
// per step, not all of them; with a Sampler a step costs one parse, one
// enumeration and one encoding instead of one encoding per enabled
// transition. Workers of protocol-layer systems (package model/protocol)
// implement it; simulate's walks and measure's simulator type-assert it and fall
// back to Successors otherwise.
type Sampler interface {
	// Enabled appends to dst the enabled transitions of state, in
	// Successors order, and returns the extended slice. Flags are zero
	// (they are known only once a transition runs) and Msg aliases state.
	Enabled(dst []model.Transition, state []byte) []model.Transition
	// Apply runs t, one of the transitions Enabled returned for state, and
	// returns the successor. It sets t.Flags as Successors would (and
	// t.Proc, for a delivery listed without its receiver). The
	// result is valid until the next call on the worker; state must not be
	// a slice the worker returned (copy a successor before passing it
	// back), since the worker writes the successor into its own memory.
	Apply(state []byte, t *model.Transition) []byte
}

// IncrementalSnapshotter is an optional capability of a model.Worker that
// is also a Sampler: it takes the snapshot of a successor incrementally.
type IncrementalSnapshotter interface {
	// SnapshotAfter is Snapshot(next) for a state next that Apply
	// produced by running t on the state of this worker's previous
	// Snapshot or SnapshotAfter call (no other call may come in between
	// but Enabled and Apply). It reuses the local states that snapshot
	// decoded for every process but t.Proc, which a step does not change.
	SnapshotAfter(next []byte, t *model.Transition) model.Snapshot
	// EnabledAfter is Sampler.Enabled for the state of the latest
	// Snapshot or SnapshotAfter call, without parsing it again. With
	// receivers false, deliveries are listed with Proc -1 (their messages
	// are not decoded; Apply fills Proc in): for strategies that do not
	// look at the acting process.
	EnabledAfter(dst []model.Transition, receivers bool) []model.Transition
}

// InPlace is a global state kept decoded and changed in place, for random
// walks: a step runs one handler on the acting process and updates the
// network and the counters the generic properties read (tokens, messages
// in transit) instead of encoding a successor and parsing it again, so its
// cost does not grow with the number of messages in transit. Encoding
// happens only when asked (Encode).
//
// The enabled transitions are those Sampler.Enabled lists for the encoded
// state, in the same order and with the same Arg values, so a walk that
// picks indexes takes the same path either way. One InPlace is used by one
// goroutine at a time.
//
// InPlace is an alias of an interface literal so that a model can
// implement InPlaceWorker without naming this package (the protocol
// layer declares the same literal).
type InPlace = interface {
	// Load makes state (an encoding the system produced) the current
	// state. state is not kept.
	Load(state []byte)
	// Count returns the number of enabled transitions of the current
	// state.
	Count() int
	// At returns enabled transition k (0 <= k < Count()), with Proc set
	// (for a delivery, its receiver). Msg aliases the InPlace's memory and
	// is valid until the next Fire or Load.
	At(k int) model.Transition
	// Enabled appends every enabled transition to dst, in the order of At.
	// With receivers false, Proc of deliveries may be left -1.
	Enabled(dst []model.Transition, receivers bool) []model.Transition
	// Fire runs t, a transition At or Enabled returned for the current
	// state, in place. It sets t.Flags (and t.Proc) as Apply would; the
	// Msg of a delivery or loss is then a copy that stays valid until the
	// next Fire or Load, for transition invariants.
	Fire(t *model.Transition)
	// Snapshot returns the Snapshot of the current state; it stays valid,
	// and follows the state, across Fire calls.
	Snapshot() model.Snapshot
	// Encode appends the canonical encoding of the current state to dst:
	// the bytes Apply would have returned.
	Encode(dst []byte) []byte
	// Hash returns a 64-bit hash of the current state, maintained
	// incrementally: equal states have equal hashes (it is not a hash of
	// the encoding, and differs from any hash of Encode's bytes).
	Hash() uint64
}

// InPlaceWorker is an optional model.Worker capability: NewInPlace returns
// an InPlace for the worker's system, with memory of its own (the worker
// stays usable). Workers of protocol-layer systems implement it.
type InPlaceWorker interface {
	NewInPlace() InPlace
}
