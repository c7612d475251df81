package simulate_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/internal/capability"
)

// The workers of a protocol-layer system implement the walks' optional
// capabilities structurally (model/protocol does not import the engine):
// if a signature drifted on either side the walks would silently take
// their slow path, so this test pins the engine's declarations on a real
// protocol's worker.
func TestProtocolWorkersHaveTheCapabilities(t *testing.T) {
	sys, _ := skSystem(t, suzukikasami.Default, 3, 1)
	w := sys.NewWorker()
	if _, ok := w.(capability.Sampler); !ok {
		t.Error("worker is not a capability.Sampler")
	}
	if _, ok := w.(capability.IncrementalSnapshotter); !ok {
		t.Error("worker is not a capability.IncrementalSnapshotter")
	}
	if _, ok := w.(capability.InPlaceWorker); !ok {
		t.Error("worker is not a capability.InPlaceWorker")
	}
}
