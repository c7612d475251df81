package simulate_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// deepStale is a test-only mutant of Suzuki-Kasami whose bug needs a deep
// interleaving: a process that receives the token although REQ messages of
// at least 4 processes (other than P0 and itself) that the token shows as
// already served have not reached it yet - it has been starved of
// deliveries while at least 4 other processes were served, so the token
// has made at least 4 hand-offs, which needs N >= 6 - "resynchronises" by
// forwarding a copy of the token to the head of its queue while keeping
// its own: single-token (and soon mutex) breaks. Each hand-off is a
// correct step; only the starvation of one process's inbox across several
// hand-offs exposes the bug, the kind of schedule PCT produces on purpose
// (a low-priority process receives nothing while higher ones run) and
// uniform walks only by luck.
func deepStale(t testing.TB, n, r int) model.System {
	p, err := suzukikasami.New(suzukikasami.Default, n, r)
	if err != nil {
		t.Fatal(err)
	}
	p.Name = "suzuki-kasami/deep-stale"
	deliver := p.OnDeliver
	p.OnDeliver = func(c *protocol.Ctx[suzukikasami.Proc, suzukikasami.Msg], m *suzukikasami.Msg) {
		stale := 0
		if m.Kind == suzukikasami.TOKEN {
			for j, ln := range m.LN {
				if j != 0 && j != c.ID && ln > c.Self.RN[j] {
					stale++
				}
			}
		}
		deliver(c, m)
		if stale >= 3 && c.Self.Has && len(c.Self.Q) > 0 {
			q := c.Self.Q
			c.Send(suzukikasami.Msg{Kind: suzukikasami.TOKEN, From: c.ID, To: q[0], LN: slices.Clone(c.Self.LN), Q: slices.Clone(q[1:])})
		}
	}
	return p.System()
}

// runsToFind returns the index of the first run (from 1) that finds a
// violation, or 0 if none of max runs does.
func runsToFind(t testing.TB, sys model.System, props []model.Property, s simulate.Strategy, seed uint64, max int) (int, *simulate.Result) {
	res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: max, Steps: 10000, Seed: seed, Strategy: s, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation == nil {
		return 0, res
	}
	return res.Violation.Run + 1, res
}

// TestDeepBug: PCT and swarm find the deep-interleaving mutant in few
// runs where uniform walks need far more. Seeds 1..5 at N=8 (and, with
// TOKENMC_HEAVY=1, N=6 and N=8 with 5,000 runs per search) are measured
// and logged side by side; the test asserts that the better of PCT and
// swarm finds the bug within 150 runs for every seed, that PCT finds it
// in every search, that uniform walks need at least 10 times as many runs
// as PCT in total at N=8 and 5 times at N=6 (a search that fails counts as
// budget+1 runs), and that the shrunk counterexample
// delivers the token at least 4 times (3 hand-offs before the buggy one).
func TestDeepBug(t *testing.T) {
	sizes, budget := []int{8}, 1000
	if os.Getenv("TOKENMC_HEAVY") != "" {
		sizes, budget = []int{6, 8}, 5000
	}
	for _, n := range sizes {
		sys := deepStale(t, n, 1)
		props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
		total := map[simulate.Strategy]int{}
		for seed := uint64(1); seed <= 5; seed++ {
			found := map[simulate.Strategy]int{}
			for _, s := range simulate.Strategies() {
				k, res := runsToFind(t, sys, props, s, seed, budget)
				if k == 0 {
					k = budget + 1
				}
				total[s] += k
				found[s] = k
				if res.Violation != nil {
					if h := handOffs(sys, res.Violation.Path); h < 4 {
						t.Errorf("N=%d seed %d %s: the shrunk trace delivers the token %d times, want >= 4", n, seed, s, h)
					}
				}
			}
			t.Logf("N=%d seed %d: runs to find: uniform %d, pct %d, swarm %d", n, seed, found[simulate.Uniform], found[simulate.PCT], found[simulate.Swarm])
			if found[simulate.PCT] > budget {
				t.Errorf("N=%d seed %d: PCT did not find the bug in %d runs", n, seed, budget)
			}
			if n == 8 && min(found[simulate.PCT], found[simulate.Swarm]) > 150 {
				t.Errorf("N=%d seed %d: PCT needs %d runs and swarm %d", n, seed, found[simulate.PCT], found[simulate.Swarm])
			}
		}
		t.Logf("N=%d total over 5 seeds (a failed search of %d runs counts %d): uniform %d, pct %d, swarm %d",
			n, budget, budget+1, total[simulate.Uniform], total[simulate.PCT], total[simulate.Swarm])
		// At N=8 uniform walks need at least 10 times as many runs as PCT.
		// At N=6 (TOKENMC_HEAVY) uniform walks find the bug in none of the
		// 5 searches of 5,000 runs, so their total is only a lower bound
		// (25,005), while PCT needs 2,719 runs in all (1,400 for one seed):
		// there PCT must find it in every search, with at most a fifth of
		// uniform's bound.
		switch {
		case n >= 8 && total[simulate.Uniform] < 10*total[simulate.PCT]:
			t.Errorf("N=%d: uniform needs %d runs in total, PCT %d: expected at least 10 times more", n, total[simulate.Uniform], total[simulate.PCT])
		case n < 8 && total[simulate.Uniform] < 5*total[simulate.PCT]:
			t.Errorf("N=%d: uniform needs %d runs in total, PCT %d: expected at least 5 times more", n, total[simulate.Uniform], total[simulate.PCT])
		}
	}
}

// handOffs counts the steps of path that deliver a TOKEN.
func handOffs(sys model.System, path [][]byte) int {
	w := sys.NewWorker()
	n := 0
	for _, l := range labelsOf(w, path) {
		if len(l) > 13 && l[:13] == "Deliver TOKEN" {
			n++
		}
	}
	return n
}
