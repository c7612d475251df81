package explore_test

import (
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
)

// The coverage walk covers the graph the search covers: the same states
// and transitions as Check (with no property, so it does not stop at a
// violation: keep-copy violates single-token at depth 2), level counts
// summing to them, and every transition in exactly one action family.
func TestWalkCoverageCounts(t *testing.T) {
	for _, name := range []string{"suzuki-kasami", "suzuki-kasami/keep-copy"} {
		sys, _ := buildSystem(t, name, map[string]int{"n": 3, "r": 1})
		want, err := explore.Check(context.Background(), sys, explore.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			cov, err := explore.WalkCoverage(context.Background(), sys, explore.Options{Workers: workers, Properties: nil})
			if err != nil {
				t.Fatal(err)
			}
			if !cov.Complete() || cov.Result.States != want.States || cov.Result.Transitions != want.Transitions {
				t.Fatalf("%s, %d workers: coverage %d states %d transitions (complete %v), search %d and %d",
					name, workers, cov.Result.States, cov.Result.Transitions, cov.Complete(), want.States, want.Transitions)
			}
			var states, trans, fired int64
			for _, l := range cov.Levels {
				states += l.States
				trans += l.Transitions
			}
			for _, f := range cov.Families {
				fired += f.Total()
			}
			if states != want.States || trans != want.Transitions || fired != want.Transitions {
				t.Fatalf("%s: levels sum to %d states and %d transitions, families to %d; want %d and %d",
					name, states, trans, fired, want.States, want.Transitions)
			}
			if len(cov.Levels) != want.Depth+1 {
				t.Fatalf("%s: %d levels, the search's depth is %d", name, len(cov.Levels), want.Depth)
			}
		}
	}
}

// The walk stops cleanly at the memory budget (it kept its own map of
// every state and every level's states in memory, without any budget),
// and at MaxStates, with the reason.
func TestWalkCoverageBounded(t *testing.T) {
	sys, _ := buildSystem(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	cov, err := explore.WalkCoverage(context.Background(), sys, explore.Options{Workers: 2, MemoryBudget: 1})
	if err != nil {
		t.Fatal(err)
	}
	if cov.Complete() || cov.Result.StopReason != explore.StopMemory {
		t.Fatalf("with a 1-byte budget: complete %v, stop %q", cov.Complete(), cov.Result.StopReason)
	}
	cov, err = explore.WalkCoverage(context.Background(), sys, explore.Options{Workers: 2, MaxStates: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var states int64
	for _, l := range cov.Levels {
		states += l.States
	}
	if cov.Complete() || cov.Result.StopReason != explore.StopMaxStates || states != cov.Result.States || states > 1000 {
		t.Fatalf("MaxStates 1000: complete %v, stop %q, %d states, levels sum to %d", cov.Complete(), cov.Result.StopReason, cov.Result.States, states)
	}
	if _, err := explore.WalkCoverage(context.Background(), sys, explore.Options{DFS: true}); err == nil {
		t.Fatal("a depth-first coverage walk was accepted")
	}
}
