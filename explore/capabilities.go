package explore

import "github.com/tokenmc/tokenmc/model"

// LastSnapshotter is an optional model.Worker capability: LastSnapshot
// returns the Snapshot of the state most recently passed to Successors,
// reusing the parse Successors made (the explorer calls it right after
// Successors returns, with no other Worker call in between). Workers of
// protocol-layer systems (package model/protocol) implement it.
type LastSnapshotter interface {
	LastSnapshot() model.Snapshot
}
