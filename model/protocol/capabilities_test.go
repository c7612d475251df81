package protocol_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/simulate"
)

// The compiled system's workers and renamers implement the optional
// capabilities the engine looks for, structurally (this package does not
// import the engine): if a signature drifts on either side, the engine
// would silently take its slow path, so this test pins them.
func TestWorkersHaveTheEngineCapabilities(t *testing.T) {
	p := toyProtocol(3)
	w := p.System().NewWorker()
	if _, ok := w.(simulate.Sampler); !ok {
		t.Error("worker is not a simulate.Sampler")
	}
	if _, ok := w.(simulate.IncrementalSnapshotter); !ok {
		t.Error("worker is not a simulate.IncrementalSnapshotter")
	}
	if _, ok := w.(simulate.InPlaceWorker); !ok {
		t.Error("worker is not a simulate.InPlaceWorker")
	}
	// The explorer's LastSnapshot capability and the symmetry reduction's
	// RenameBelow and Fixes are interfaces unexported in their packages:
	// tests there pin them on protocol-layer workers and renamers.
}
