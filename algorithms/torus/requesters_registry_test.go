package torus_test

import (
	"context"
	"os"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// madeOnly enumerates the unrestricted system by a plain breadth-first
// search (a Go map of states, no explore package) and returns, for every
// mask of requesters, the number of reachable states in which only the
// processes of the mask have made requests. A process's request count
// never decreases, so those are exactly the states reachable without a
// request outside the mask: the reachable states of the restricted model.
func madeOnly(t *testing.T, sys model.System) []int64 {
	t.Helper()
	n := sys.Info().Processes
	w := sys.NewWorker()
	seen := map[string]bool{}
	var queue [][]byte
	w.Initial(func(s []byte) bool {
		if !seen[string(s)] {
			seen[string(s)] = true
			queue = append(queue, append([]byte(nil), s...))
		}
		return true
	})
	counts := make([]int64, 1<<n)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		snap := w.Snapshot(s)
		made := 0
		for i := range n {
			if snap.Made(i) > 0 {
				made |= 1 << i
			}
		}
		for m := range counts {
			if made&^m == 0 {
				counts[m]++
			}
		}
		w.Successors(s, func(_ *model.Transition, next []byte) bool {
			if !seen[string(next)] {
				seen[string(next)] = true
				queue = append(queue, append([]byte(nil), next...))
			}
			return true
		})
	}
	return counts
}

// The registry's requesters parameter, at d = 2 and R = 1, for the
// repaired and the literal torus and every mask: the explorer's count of
// the restricted model equals the independent count of the unrestricted
// model's states in which only the mask's processes have requested, and
// every property the variant keeps still holds.
func TestRequestersParameterCounts(t *testing.T) {
	a, _, err := algorithms.Lookup("torus")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		variant string
		r       int
	}{{torus.Repaired, 1}, {torus.Literal, 1}} {
		full, _, err := a.Build(c.variant, map[string]int{"n": 4, "r": c.r})
		if err != nil {
			t.Fatal(err)
		}
		want := madeOnly(t, full)
		for mask := range want {
			sys, props, err := a.Build(c.variant, map[string]int{"n": 4, "r": c.r, "requesters": mask})
			if err != nil {
				t.Fatal(err)
			}
			res, err := explore.Check(context.Background(), sys, explore.Options{Properties: invariants.Applicable(invariants.With(props...), sys.Info())})
			if err != nil {
				t.Fatal(err)
			}
			// mask 0 is every process, the same as mask 15
			w := want[mask]
			if mask == 0 {
				w = want[len(want)-1]
			}
			if res.Verdict != explore.OK || res.States != w {
				t.Errorf("%s r=%d requesters=%d: %s on %d states, want ok on %d", c.variant, c.r, mask, res.Verdict, res.States, w)
			}
		}
	}
	if _, _, err := a.Build(torus.Repaired, map[string]int{"n": 4, "requesters": 16}); err == nil {
		t.Error("requesters=16 at n=4 accepted")
	}
	if _, _, err := a.Build(torus.Repaired, map[string]int{"n": 4, "requesters": -1}); err == nil {
		t.Error("requesters=-1 accepted")
	}
}

// Through the registry, as `check --algo torus --n 9 --requesters 23
// --props starvation-freedom` runs it: ok on 995,292 states (about 3 s and
// 190 MiB on 2 cores), the count of TestRequestersD3StarvationFree, which
// builds the same model with torus.Restrict.
func TestRequestersParameterD3(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("set TOKENMC_HEAVY=1: a liveness search of about a million states")
	}
	a, _, err := algorithms.Lookup("torus")
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(torus.Repaired, map[string]int{"n": 9, "r": 1, "requesters": 23})
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true, Fairness: model.WeakFairness})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.OK || len(res.Starving) != 0 || res.States != 995292 {
		t.Errorf("requesters 23: %s, %d starving, %d states; want ok on 995292", res.Verdict, len(res.Starving), res.States)
	}
}

// algorithms.md §8.6 T-B: repairing only the tour end (TE = d+1, CE = d,
// torus/skip-column-end) is not enough at d = 3 with requesters {0,1,2,4},
// R = 1: P1's request is cleared at P2 by the passing token and P1 is from
// then on only ever a column-change node: a lasso of 19 steps (prefix 10,
// cycle 9) in which P1 waits forever. The shipped trace replays through
// the registry's requesters parameter. (The notes describe the scenario
// with FIFO channels; this shortest lasso delivers P0's REQUEST to P1
// after the TOKEN P0 sent later on the same channel, which the
// multiset network allows.)
func TestSkipColumnEndD3StarvationTraceReplays(t *testing.T) {
	a, v, err := algorithms.Lookup("torus/skip-column-end")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int{"n": 9, "r": 1, "requesters": 23}
	sys, extra, err := a.Build(v.Name, params)
	if err != nil {
		t.Fatal(err)
	}
	tr := algotest.ReplayShipped(t, sys, extra, "testdata/skip-column-end-d3-req23.starvation-freedom.P1.trace.json", "starvation-freedom", 19)
	if tr.Params["requesters"] != 23 || tr.Params["n"] != 9 {
		t.Fatalf("trace parameters %v, want n=9 requesters=23", tr.Params)
	}
	if tr.Loop == nil || *tr.Loop != 11 || len(tr.Steps) != 19 || tr.WaitingProcess == nil || *tr.WaitingProcess != 1 {
		t.Fatalf("lasso shape changed: loop %v, %d steps, waiting %v; want the cycle at step 11 of 19 with P1 waiting", tr.Loop, len(tr.Steps), tr.WaitingProcess)
	}
	// the same lasso is not a lasso of the repaired torus
	rep, extra2, err := a.Build(torus.Repaired, tr.Params)
	if err != nil {
		t.Fatal(err)
	}
	tr.Algorithm = rep.Info().Name
	if r, err := traces.Replay(rep, invariants.With(extra2...), tr); err == nil && r.OK {
		t.Fatal("the lasso also replays on the repaired torus")
	}
}
