package protocol_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/model/protocol"
)

// The compiled system's workers implement the optional capabilities the
// engine looks for, structurally (this package does not import the
// engine): if a signature drifts on either side, the engine would silently
// take its slow path. explore/simulate's tests pin the engine's own
// declarations (explore/internal/capability) on a protocol worker; this
// test pins the worker against the same method sets (export_test.go).
func TestWorkersHaveTheEngineCapabilities(t *testing.T) {
	p := toyProtocol(3)
	w := p.System().NewWorker()
	if _, ok := w.(protocol.Sampler); !ok {
		t.Error("worker is not a Sampler")
	}
	if _, ok := w.(protocol.IncrementalSnapshotter); !ok {
		t.Error("worker is not an IncrementalSnapshotter")
	}
	if _, ok := w.(protocol.InPlaceWorker); !ok {
		t.Error("worker is not an InPlaceWorker")
	}
	// The explorer's LastSnapshot capability and the symmetry reduction's
	// RenameBelow and Fixes are interfaces unexported in their packages:
	// tests there pin them on protocol-layer workers and renamers.
}
