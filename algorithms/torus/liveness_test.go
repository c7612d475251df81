package torus_test

import (
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

// torus.md A4: the literal reading starves P1 at d = 2, R = 1, with a 9-step
// prefix and a 4-delivery idle cycle (P2 -> P3 -> P1 -> P0) in which the
// skip nodes never look at their queues. The shipped trace must keep
// replaying, and the repaired reading must have no starving process.
func TestLiteralStarvationTraceReplays(t *testing.T) {
	tr, err := traces.ReadFile("testdata/literal-d2-r1.starvation-freedom.P1.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	a, v, err := algorithms.Lookup(tr.Algorithm)
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, tr.Params)
	if err != nil {
		t.Fatal(err)
	}
	res, err := traces.Replay(sys, invariants.With(extra...), tr)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK {
		t.Fatalf("the literal torus lasso no longer replays: %s", res.Reason)
	}
	if tr.Loop == nil || *tr.Loop != 10 || len(tr.Steps) != 13 || tr.WaitingProcess == nil || *tr.WaitingProcess != 1 {
		t.Fatalf("lasso shape changed: loop %v, %d steps, waiting %v; want the cycle at step 10 of 13 with P1 waiting", tr.Loop, len(tr.Steps), tr.WaitingProcess)
	}
}

func TestStarvationLiteralVersusRepaired(t *testing.T) {
	for _, c := range []struct {
		name    string
		starves []int
	}{
		{"torus/literal", []int{0, 1, 2, 3}},
		{"torus", nil},
	} {
		a, v, _ := algorithms.Lookup(c.name)
		sys, _, err := a.Build(v.Name, map[string]int{"n": 4, "r": 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, s := range res.Starving {
			got = append(got, s.Process)
		}
		if len(got) != len(c.starves) {
			t.Fatalf("%s: starving processes %v, want %v", c.name, got, c.starves)
		}
		for i := range got {
			if got[i] != c.starves[i] {
				t.Fatalf("%s: starving processes %v, want %v", c.name, got, c.starves)
			}
		}
	}
}
