package algorithms_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/internal/naive"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// The exact counts of semantics.md §2 and §3 (default options), pinned.
// Each row was cross-checked against algorithms/internal/naive, a separate
// map-based enumerator written from semantics.md alone, and the torus rows
// also against the numbers of the throw-away Python enumerator quoted in
// docs/notes/torus.md. The test recomputes the naive counts
// for every row cheap enough to run (heavy rows only with TOKENMC_HEAVY=1).
var pinned = []struct {
	algo        string
	n, r        int
	states      int64
	transitions int64
	depth       int
	heavy       bool // naive recount takes seconds
}{
	{"suzuki-kasami", 2, 1, 21, 27, 8, false},
	{"suzuki-kasami", 3, 1, 726, 2079, 15, false},
	{"suzuki-kasami", 4, 1, 123445, 685791, 24, true},
	{"suzuki-kasami", 2, 2, 83, 119, 16, false},
	{"suzuki-kasami", 3, 2, 58973, 259341, 30, true},
	{"torus/literal", 4, 1, 58868, 199790, 39, true},
	{"torus", 4, 1, 88608, 305348, 31, true},
}

func buildSys(t testing.TB, name string, n, r int) (model.System, []model.Property) {
	t.Helper()
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, map[string]int{"n": n, "r": r})
	if err != nil {
		t.Fatal(err)
	}
	return sys, invariants.Applicable(invariants.With(extra...), sys.Info())
}

func naiveCounts(algo string, n, r int) naive.Counts {
	switch algo {
	case "suzuki-kasami":
		return naive.SuzukiKasami(n, r)
	case "torus/literal":
		d := isqrt(n)
		return naive.Torus(d, r, d, d)
	case "torus":
		d := isqrt(n)
		return naive.Torus(d, r, d+1, d+1)
	}
	panic(algo)
}

func isqrt(n int) int {
	d := 1
	for d*d < n {
		d++
	}
	return d
}

func TestExactCountsCrossChecked(t *testing.T) {
	for _, c := range pinned {
		t.Run(fmt.Sprintf("%s/n=%d/r=%d", c.algo, c.n, c.r), func(t *testing.T) {
			if c.heavy && !heavy() {
				t.Skip("heavy: set TOKENMC_HEAVY=1")
			}
			t.Parallel()
			sys, props := buildSys(t, c.algo, c.n, c.r)
			want := naiveCounts(c.algo, c.n, c.r)
			if int64(want.States) != c.states || int64(want.Transitions) != c.transitions || want.Depth != c.depth {
				t.Fatalf("naive enumerator: %+v, pinned %d/%d/%d", want, c.states, c.transitions, c.depth)
			}
			modes := []explore.Options{{Workers: 1}, {Workers: 2}, {Workers: 2, Exact: true}, {DFS: true}}
			for _, o := range modes {
				o.Properties = props
				res, err := explore.Check(context.Background(), sys, o)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != explore.OK {
					t.Fatalf("%+v: verdict %s (%v)", o, res.Verdict, res.Violation)
				}
				if res.States != c.states || res.Transitions != c.transitions {
					t.Errorf("workers=%d exact=%v dfs=%v: %d states %d transitions, want %d %d",
						o.Workers, o.Exact, o.DFS, res.States, res.Transitions, c.states, c.transitions)
				}
				if !o.DFS && res.Depth != c.depth {
					t.Errorf("workers=%d: depth %d, want %d", o.Workers, res.Depth, c.depth)
				}
			}
		})
	}
}

// Every mutant that breaks a safety property is caught, with the length of
// its shortest counterexample pinned, the same whatever the worker count.
func TestMutantsCaughtWithShortestTrace(t *testing.T) {
	cases := []struct {
		variant string
		n, r    int
		prop    string
		length  int
	}{
		{"suzuki-kasami/send-in-cs", 2, 1, "mutex", 4},
		{"suzuki-kasami/keep-copy", 2, 1, "single-token", 2},
		{"suzuki-kasami/no-ln-update", 2, 1, "no-unrequested-entry", 5},
		{"suzuki-kasami/dup-in-q", 3, 1, "no-unrequested-entry", 12},
		{"suzuki-kasami/no-increment", 2, 1, "no-deadlock", 4},
		{"torus/copy-on-enter", 4, 1, "single-token", 2},
		{"torus/enter-if-marked", 4, 1, "no-unrequested-entry", 3},
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			sys, _ := buildSys(t, c.variant, c.n, c.r)
			// The generic properties only: algorithm-specific invariants
			// (token-serves-waiting) may catch a mutant earlier.
			props := invariants.Applicable(invariants.Standard(), sys.Info())
			var first *explore.Violation
			for _, workers := range []int{1, 2} {
				res, err := explore.Check(context.Background(), sys, explore.Options{Workers: workers, Properties: props})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != explore.Violated {
					t.Fatalf("verdict %s, want a violation of %s", res.Verdict, c.prop)
				}
				v := res.Violation
				if v.Property.Name != c.prop || v.Len() != c.length {
					t.Fatalf("workers=%d: %s after %d steps, want %s after %d", workers, v.Property.Name, v.Len(), c.prop, c.length)
				}
				if first != nil && fmt.Sprint(first.Path) != fmt.Sprint(v.Path) {
					t.Fatalf("workers=%d found a different counterexample", workers)
				}
				first = v
			}
			// Checking only the property the mutant is known for finds it too.
			a, _, _ := algorithms.Lookup(c.variant)
			_, extra, _ := a.Build(c.variant, map[string]int{"n": c.n, "r": c.r})
			only, err := invariants.Select(append(invariants.Standard(), extra...), sys.Info(), c.prop)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := explore.Check(context.Background(), sys, explore.Options{Properties: only})
			if res.Verdict != explore.Violated || res.Violation.Property.Name != c.prop {
				t.Fatalf("checking only %s: verdict %s", c.prop, res.Verdict)
			}
		})
	}
}
