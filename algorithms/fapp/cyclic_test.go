package fapp

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

func liveness(t *testing.T, variant string, n, tree int, maxStates int64) *explore.LivenessResult {
	t.Helper()
	p, err := NewCyclic(variant, n, tree)
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	if sys.Info().Requests != 0 {
		t.Fatalf("Info.Requests = %d, want 0 for cyclic clients", sys.Info().Requests)
	}
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{
		Starvation: true, Fairness: model.WeakFairness, Options: explore.Options{MaxStates: maxStates}})
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

// algorithms.md §4 mutant fapp/no-aging (rule 1 removed): with cyclic
// clients a low-priority request is overtaken forever. At n = 2 the
// cyclic model is finite (16 states) and P0 starves behind P1: prefix 3,
// cycle 6. On the star with n = 3 P1 starves too (the notes' scenario);
// that graph is infinite (package doc), so the search is bounded, and a
// lasso found in a bounded graph is a real one.
func TestNoAgingStarves(t *testing.T) {
	res := liveness(t, NoAging, 2, Line, 0)
	if res.Verdict != explore.Violated || res.States != 16 {
		t.Fatalf("no-aging n=2: %s, %d states; want a violation in 16 states", res.Verdict, res.States)
	}
	if got, want := lassos(res), []string{"P0:3+6"}; !slices.Equal(got, want) {
		t.Errorf("n=2 lassos %v, want %v", got, want)
	}
	// The 16 states and their transitions, cross-checked with the naive
	// enumerator (naive_test.go; r < 0: cyclic).
	if s, tr, _, _ := naiveCount(2, Line, -1, false, true); s != 16 || int64(tr) != res.Transitions || tr != 28 {
		t.Errorf("naive no-aging n=2 cyclic: %d states, %d transitions; model %d, %d; want 16, 28", s, tr, res.States, res.Transitions)
	}
	res = liveness(t, NoAging, 3, Star, 20000)
	if got, want := lassos(res), []string{"P0:3+6", "P1:1+12"}; !slices.Equal(got, want) {
		t.Errorf("n=3 star lassos %v, want %v", got, want)
	}
}

// Package doc, "Cyclic clients": the default's cyclic state space is
// infinite, because REQs pile up in the unordered network; so its
// starvation verdict is bounded. Checked: no lasso among the first 100,000
// states at n = 2, and messages in transit keep growing with depth.
func TestCyclicDefaultBounded(t *testing.T) {
	res := liveness(t, Default, 2, Line, 100000)
	if res.Verdict != explore.Incomplete || len(res.Starving) != 0 || res.Deadlock != nil {
		t.Fatalf("fapp n=2 cyclic: %s, lassos %v; want incomplete without a lasso", res.Verdict, lassos(res))
	}
	if res.Depth < 200 {
		t.Errorf("depth %d: the graph does not keep growing", res.Depth)
	}
	// More and more REQs are in transit: the shortest path to a state with
	// more than k messages in transit gets longer with k, and exists for
	// every k tried.
	p, _ := NewCyclic(Default, 2, Line)
	sys := p.System()
	var lens []int
	for _, k := range []int{4, 8, 12} {
		bound := model.Property{Name: fmt.Sprintf("at-most-%d-in-transit", k), Kind: model.Invariant,
			Holds: func(s model.Snapshot) bool { return s.InTransit() <= k }}
		r, err := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Properties: []model.Property{bound}, MaxStates: 1000000})
		if err != nil {
			t.Fatal(err)
		}
		if r.Violation == nil {
			t.Fatalf("no state with more than %d messages in transit", k)
		}
		lens = append(lens, r.Violation.Len())
	}
	if want := []int{25, 53, 81}; !slices.Equal(lens, want) {
		t.Errorf("shortest paths to more than 4, 8, 12 messages in transit: %v, want %v", lens, want)
	}
}

// The shipped no-aging lassos replay with the properties the CLI uses, and
// they are not behaviours of the default: replayed on fapp the trace
// diverges where rule 1 would age the starving process's entry.
func TestNoAgingTracesReplay(t *testing.T) {
	for _, c := range []struct {
		file                          string
		n, tree, waiting, loop, steps int
		defaultDiverges               int
	}{
		{"testdata/no-aging-n2-cyclic.starvation-freedom.trace.json", 2, Line, 0, 4, 9, 8},
		{"testdata/no-aging-n3-star-cyclic.P1.starvation-freedom.trace.json", 3, Star, 1, 2, 13, 6},
	} {
		tr, err := traces.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Algorithm != NoAging || tr.Params["n"] != c.n || tr.Params["tree"] != c.tree || tr.Params["cyclic"] != 1 || !tr.IsLasso() {
			t.Fatalf("%s: trace of %s %v", c.file, tr.Algorithm, tr.Params)
		}
		if *tr.Loop != c.loop || len(tr.Steps) != c.steps || *tr.WaitingProcess != c.waiting {
			t.Errorf("%s: cycle %d..%d, P%d waits; want %d..%d, P%d", c.file, *tr.Loop, len(tr.Steps), *tr.WaitingProcess, c.loop, c.steps, c.waiting)
		}
		for _, v := range []string{NoAging, Default} {
			p, _ := NewCyclic(v, c.n, c.tree)
			tr.Algorithm = v
			rr, err := traces.Replay(p.System(), invariants.With(Properties()...), tr)
			if err != nil {
				t.Fatal(err)
			}
			if v == NoAging && !rr.OK {
				t.Errorf("%s: replay: %s", c.file, rr)
			}
			if v == Default && (rr.OK || rr.DivergedAt != c.defaultDiverges) {
				t.Errorf("%s on %s: %s (diverged at %d), want a divergence at step %d", v, c.file, rr, rr.DivergedAt, c.defaultDiverges)
			}
		}
	}
}
