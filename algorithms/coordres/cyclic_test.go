package coordres

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

func liveness(t *testing.T, variant string, n, k int) *explore.LivenessResult {
	t.Helper()
	p, err := NewCyclic(variant, n, k)
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	if sys.Info().Requests != 0 {
		t.Fatalf("Info.Requests = %d, want 0 for cyclic clients", sys.Info().Requests)
	}
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{
		Starvation: true, Fairness: model.WeakFairness, Options: explore.Options{Exact: true}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func lassos(res *explore.LivenessResult) []string {
	var out []string
	for _, l := range res.Starving {
		out = append(out, fmt.Sprintf("P%d:%d+%d", l.Process, l.Loop, l.CycleLen()))
	}
	return out
}

// algorithms.md §3 "starvation-freedom with cyclic clients (the point of
// dynamic priority)": both aging readings pass under weak fairness, and
// the safety properties hold on the same finite state space (package doc,
// "Cyclic clients": nothing grows, so nothing is renumbered). The state
// counts of the default are cross-checked with naiveCount (r < 0: cyclic).
func TestCyclicStarvationFree(t *testing.T) {
	for _, c := range []struct {
		variant string
		n, k    int
		states  int64
	}{
		{Default, 3, 1, 119}, {Default, 3, 2, 2304}, {Default, 4, 1, 904}, {Default, 4, 2, 38710},
		{AgeAll, 3, 1, 109}, {AgeAll, 4, 1, 818},
	} {
		res := liveness(t, c.variant, c.n, c.k)
		if res.Verdict != explore.OK || res.States != c.states {
			t.Errorf("%s n=%d k=%d: %s with %d states, want ok with %d", c.variant, c.n, c.k, res.Verdict, res.States, c.states)
		}
		if s, _, _ := naiveCount(c.n, c.k, -1, c.variant == AgeAll); int64(s) != c.states {
			t.Errorf("%s n=%d k=%d: naive enumerator %d states, pinned %d", c.variant, c.n, c.k, s, c.states)
		}
		p, _ := NewCyclic(c.variant, c.n, c.k)
		sys := p.System()
		sres, err := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Exact: true,
			Properties: invariants.Applicable(invariants.With(Properties()...), sys.Info())})
		if err != nil {
			t.Fatal(err)
		}
		if sres.Verdict != explore.OK || sres.States != c.states {
			t.Errorf("%s n=%d k=%d safety: %s, %d states", c.variant, c.n, c.k, sres.Verdict, sres.States)
		}
	}
}

// algorithms.md §3 mutants coord-res/no-aging and coord-res/tie-by-pid:
// each starves a waiting process under cyclic clients. The lassos with the
// shortest prefix, per starving process, are pinned as prefix+cycle
// (package doc, "Variants").
func TestStarvationMutants(t *testing.T) {
	for _, c := range []struct {
		variant string
		n, k    int
		want    []string
	}{
		{NoAging, 3, 1, []string{"P0:3+5", "P1:4+5"}},
		{TieByPID, 3, 1, []string{"P0:7+5", "P1:6+5"}},
		{TieByPID, 4, 1, []string{"P0:7+5", "P1:6+5", "P2:6+5"}},
	} {
		res := liveness(t, c.variant, c.n, c.k)
		if res.Verdict != explore.Violated {
			t.Errorf("%s n=%d k=%d: %s, want a violation", c.variant, c.n, c.k, res.Verdict)
		}
		if got := lassos(res); !slices.Equal(got, c.want) {
			t.Errorf("%s n=%d k=%d: lassos %v, want %v", c.variant, c.n, c.k, got, c.want)
		}
	}
}

// The shipped lassos replay with the properties the CLI uses, and they are
// not behaviours of the default: replayed on coord-res each diverges at
// the step where aging (no-aging) or the tie by arrival (tie-by-pid)
// would act.
func TestStarvationTracesReplay(t *testing.T) {
	for _, c := range []struct {
		file                      string
		variant                   string
		waiting, loop, steps, div int
	}{
		{"testdata/no-aging-n3-k1-cyclic.P1.starvation-freedom.trace.json", NoAging, 1, 5, 9, 8},
		{"testdata/tie-by-pid-n3-k1-cyclic.starvation-freedom.trace.json", TieByPID, 1, 7, 11, 6},
	} {
		tr, err := traces.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Algorithm != c.variant || tr.Params["n"] != 3 || tr.Params["k"] != 1 || tr.Params["cyclic"] != 1 || !tr.IsLasso() {
			t.Fatalf("%s: trace of %s %v", c.file, tr.Algorithm, tr.Params)
		}
		if *tr.Loop != c.loop || len(tr.Steps) != c.steps || *tr.WaitingProcess != c.waiting {
			t.Errorf("%s: cycle %d..%d, P%d waits; want %d..%d, P%d", c.file, *tr.Loop, len(tr.Steps), *tr.WaitingProcess, c.loop, c.steps, c.waiting)
		}
		for _, v := range []string{c.variant, Default} {
			p, _ := NewCyclic(v, 3, 1)
			tr.Algorithm = v
			rr, err := traces.Replay(p.System(), invariants.With(Properties()...), tr)
			if err != nil {
				t.Fatal(err)
			}
			if v == c.variant && !rr.OK {
				t.Errorf("%s: replay: %s", c.file, rr)
			}
			if v == Default && (rr.OK || rr.DivergedAt != c.div) {
				t.Errorf("%s on %s: %s (diverged at %d), want a divergence at step %d", v, c.file, rr, rr.DivergedAt, c.div)
			}
		}
	}
}
