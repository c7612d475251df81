package coordres

import (
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
)

// algorithms.md §3, reading (b) of the aging sentence ("--aging head"):
// only the head of the sorted queue ages, so a low-priority request that
// is never the head is overtaken forever. The notes predicted a lasso at
// N = 4, one resource, P2 and P3 requesting cyclically; the checker finds
// P1 (prefix 8, cycle 10) and P0 (5+10) starving, where the default and
// age-all readings are starvation-free on the same configuration
// (TestCyclicStarvationFree).
func TestAgeHeadStarves(t *testing.T) {
	res := liveness(t, AgeHead, 4, 1)
	if res.Verdict != explore.Violated {
		t.Fatalf("age-head n=4 k=1: %s, want a starvation lasso", res.Verdict)
	}
	if got, want := lassos(res), []string{"P0:5+10", "P1:8+10"}; !slices.Equal(got, want) {
		t.Fatalf("age-head lassos %v, want %v", got, want)
	}
	p, err := NewCyclic(AgeHead, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	algotest.ReplayShipped(t, p.System(), Properties(), "testdata/age-head-n4-k1-cyclic.P1.starvation-freedom.trace.json", "starvation-freedom", 18)
}
