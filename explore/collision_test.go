package explore

import (
	"context"
	"testing"
)

// The Result knows the search mode: CollisionEstimate is 0 after an exact
// search and n*(g-n)/2^64 after a fingerprint one, as the deprecated
// CollisionProbability gives when told the mode.
func TestCollisionEstimateKnowsTheMode(t *testing.T) {
	for _, exact := range []bool{false, true} {
		res, err := Check(context.Background(), ring(5, 1, false), Options{Exact: exact, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Exact != exact {
			t.Fatalf("Exact = %v after a search with Exact %v", res.Exact, exact)
		}
		n, g := float64(res.States), float64(res.Transitions)
		want := n * (g - n) / (1 << 32) / (1 << 32)
		if exact {
			want = 0
		}
		if got := res.CollisionEstimate(); got != want || want == 0 && !exact {
			t.Fatalf("exact %v: CollisionEstimate = %g, want %g (%d states, %d transitions)", exact, got, want, res.States, res.Transitions)
		}
		if old := res.CollisionProbability(exact); old != res.CollisionEstimate() {
			t.Fatalf("exact %v: CollisionProbability = %g, CollisionEstimate %g", exact, old, res.CollisionEstimate())
		}
	}
}
