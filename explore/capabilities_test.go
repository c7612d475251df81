package explore

import "testing"

// The workers of protocol-layer systems, and of the symmetry quotient
// over them, implement lastSnapshotter structurally (neither package
// names it): if a signature drifts on either side, the explorer would
// silently parse every state twice, so this test pins it.
func TestProtocolWorkersHaveLastSnapshot(t *testing.T) {
	if _, ok := ring(3, 1, false).NewWorker().(lastSnapshotter); !ok {
		t.Error("a protocol worker is not a lastSnapshotter")
	}
}
