package drsgme

import (
	"context"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// D11 (algorithms.md §7.7): read as the proof's session < old_token.session,
// the regeneration test lets nobody regenerate a token lost on its way from
// the last passer: at N=2, M=1, R=1, F=1 P1 requests, P0 passes the token
// (session 1, keeping old_token at session 0), the token is lost, and P1's
// gen_token (s=0) is ignored by P0 for ever: a livelock in which P1 starves
// (lasso 3+2). The default <= reading regenerates and is starvation-free on
// the same configuration.
func TestRegenLTStarves(t *testing.T) {
	run := func(variant string) *explore.LivenessResult {
		sys, err := System(Config{Variant: variant, N: 2, M: 1, R: 1, F: 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{
			Starvation: true, Fairness: model.WeakFairness, Options: explore.Options{Exact: true}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	var got []string
	for _, l := range run(RegenLT).Starving {
		got = append(got, fmt.Sprintf("P%d:%d+%d", l.Process, l.Loop, l.CycleLen()))
	}
	if fmt.Sprint(got) != "[P0:5+3 P1:3+2]" {
		t.Fatalf("regen-lt lassos %v, want [P0:5+3 P1:3+2]", got)
	}
	if s := run(Default).Starving; len(s) != 0 {
		t.Fatalf("the default reading starves %d processes, want none", len(s))
	}
	sys, err := System(Config{Variant: RegenLT, N: 2, M: 1, R: 1, F: 1})
	if err != nil {
		t.Fatal(err)
	}
	algotest.ReplayShipped(t, sys, Properties(Config{Variant: RegenLT, N: 2, M: 1, R: 1, F: 1}), "testdata/regen-lt-n2-f1.starvation-freedom.trace.json", "starvation-freedom", 5)
}
