package explore_test

import (
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// TestSearchDoesNotAllocatePerState: the breadth-first search allocates
// per level and per block of work, not per state or transition. On
// torus/literal d=2 R=1 (58,868 states, 199,790 transitions, 40 levels)
// with every generic property checked, a search makes far fewer
// allocations than it visits states; a per-state allocation in the inner
// loop would make at least 58,868.
func TestSearchDoesNotAllocatePerState(t *testing.T) {
	a, v, err := algorithms.Lookup("torus/literal")
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, map[string]int{"n": 4, "r": 1})
	if err != nil {
		t.Fatal(err)
	}
	props, err := invariants.Select(invariants.With(extra...), sys.Info(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		var res *explore.Result
		allocs := testing.AllocsPerRun(1, func() {
			res, err = explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: workers})
		})
		if err != nil || res.States != 58868 {
			t.Fatalf("workers=%d: %v, %+v", workers, err, res)
		}
		if limit := float64(res.States) / 4; allocs > limit {
			t.Errorf("workers=%d: %.0f allocations for %d states, want under %.0f", workers, allocs, res.States, limit)
		}
		t.Logf("workers=%d: %.0f allocations for %d states", workers, allocs, res.States)
	}
}
