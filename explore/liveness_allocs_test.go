package explore_test

import (
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
)

// TestLivenessDoesNotAllocatePerState: building the liveness graph and
// analysing it allocates per level, per batch and per component found,
// not per state or transition. On the repaired torus d=2 R=1 a check of
// starvation-freedom makes far fewer allocations than the graph has
// states; one in the inner loop of the construction (or of Tarjan's
// search) would make at least one per state.
func TestLivenessDoesNotAllocatePerState(t *testing.T) {
	sys := buildAlgo(t, "torus", map[string]int{"n": 4, "r": 1})
	var res *explore.LivenessResult
	var err error
	allocs := testing.AllocsPerRun(1, func() {
		res, err = explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true})
	})
	if err != nil || res.Verdict != explore.OK {
		t.Fatalf("%v, %+v", err, res)
	}
	if limit := float64(res.States) / 4; allocs > limit {
		t.Errorf("%.0f allocations for %d states and %d transitions, want under %.0f", allocs, res.States, res.Transitions, limit)
	}
	t.Logf("%.0f allocations for %d states, %d transitions", allocs, res.States, res.Transitions)
}
