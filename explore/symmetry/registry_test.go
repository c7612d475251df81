package symmetry_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/symmetry"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// build returns the unreduced system of a registered variant, its
// symmetry and every safety property that applies.
func build(t *testing.T, variant string, params map[string]int) (model.System, *model.Symmetry, []model.Property, []model.Property) {
	t.Helper()
	a, v, err := algorithms.Lookup(variant)
	if err != nil {
		t.Fatal(err)
	}
	full := map[string]int{}
	for _, p := range a.Params {
		full[p.Name] = p.Default
	}
	for k, x := range v.Params {
		full[k] = x
	}
	for k, x := range params {
		full[k] = x
	}
	sys, extra, err := a.Build(v.Name, full)
	if err != nil {
		t.Fatal(err)
	}
	if a.Symmetry == nil {
		t.Fatalf("%s declares no symmetry", a.Name)
	}
	sym, err := a.Symmetry(v.Name, full)
	if err != nil || sym == nil {
		t.Fatalf("%s %v: no symmetry (%v)", v.Name, full, err)
	}
	return sys, sym, invariants.Applicable(invariants.With(extra...), sys.Info()), extra
}

// symmetricVariants lists every registered variant whose algorithm
// declares a symmetry and that has one at its default parameters
// (suzuki-kasami declares one for its any-order reading only).
func symmetricVariants() (out []algorithms.Variant) {
	for _, a := range algorithms.All() {
		if a.Symmetry == nil {
			continue
		}
		for _, v := range a.Variants {
			params := map[string]int{}
			for _, p := range a.Params {
				params[p.Name] = p.Default
			}
			for k, x := range v.Params {
				params[k] = x
			}
			if sym, err := a.Symmetry(v.Name, params); err == nil && sym != nil {
				out = append(out, v)
			}
		}
	}
	return out
}

func TestSomeAlgorithmsDeclareSymmetry(t *testing.T) {
	want := map[string]bool{"lelann": true, "naimi-trehel": true, "raymond": true, "torus": true, "suzuki-kasami": true}
	for _, a := range algorithms.All() {
		if (a.Symmetry != nil) != want[a.Name] {
			t.Errorf("%s: declares symmetry %v, want %v", a.Name, a.Symmetry != nil, want[a.Name])
		}
	}
}

// TestDeclarationsAreSymmetries proves every declaration on small
// configurations: for every reachable state (up to a bound) and every
// element of the group, the renamed state has the same successor orbits
// and the properties agree (symmetry.Verify). TOKENMC_SYMMETRY_FULL=1
// checks the whole graphs of the n <= 4 configurations (20,000 states of
// the mutants'); it takes many minutes.
func TestDeclarationsAreSymmetries(t *testing.T) {
	configs := map[string][]map[string]int{
		"lelann":        {{"n": 3, "r": 2}, {"n": 4, "r": 1}},
		"naimi-trehel":  {{"n": 3, "r": 2}, {"n": 4, "r": 1}},
		"torus":         {{"n": 4, "r": 1}, {"n": 9, "r": 1}},
		"raymond":       {{"n": 3, "r": 2, "tree": 0}, {"n": 4, "r": 1, "tree": 1}, {"n": 4, "r": 1, "tree": 2}},
		"suzuki-kasami": {{"n": 3, "r": 2}, {"n": 4, "r": 1}},
	}
	limit := 2000
	light := testing.Short() || os.Getenv("TOKENMC_HEAVY") == ""
	if light {
		limit = 300 // and the first configuration of each algorithm
	}
	full := os.Getenv("TOKENMC_SYMMETRY_FULL") != "" // whole graphs: minutes
	if full {
		limit = 0
	}
	for _, v := range symmetricVariants() {
		a, _, _ := algorithms.Lookup(v.Name)
		for k, params := range configs[a.Name] {
			if light && k > 0 && !full {
				break
			}
			if params["n"] == 9 && (full || v.Kind == spec.KindMutant) {
				continue // the 3x3 torus for the two readings only: seconds each
			}
			t.Run(fmt.Sprintf("%s/%v", v.Name, params), func(t *testing.T) {
				sys, sym, props, extra := build(t, v.Name, params)
				if _, err := symmetry.Reduce(sys, sym, props, extra); err != nil {
					t.Fatal(err)
				}
				lim := limit
				if sym.N > 4 && !full {
					lim /= 5 // the 3x3 torus: 9 translations of long states
				}
				if full && v.Kind == spec.KindMutant {
					lim = 20000 // a mutant's graph can be much larger
				}
				n, err := symmetry.Verify(sys, sym, props, lim)
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					t.Fatal("no state checked")
				}
			})
		}
	}
}

// TestReducedCountsAreOrbitCounts: the reduced search finds exactly one
// state per orbit of the full graph, and the quotient's transitions,
// counted independently by walking the full graph.
func TestReducedCountsAreOrbitCounts(t *testing.T) {
	cases := []struct {
		variant string
		params  map[string]int
		heavy   bool // only with TOKENMC_HEAVY=1
	}{
		{"lelann", map[string]int{"n": 3, "r": 1}, false},
		{"lelann", map[string]int{"n": 4, "r": 2}, true},
		{"naimi-trehel", map[string]int{"n": 3, "r": 1}, false},
		{"naimi-trehel", map[string]int{"n": 4, "r": 1}, true},
		{"naimi-trehel", map[string]int{"n": 3, "r": 2}, true},
		{"raymond", map[string]int{"n": 4, "r": 1, "tree": 0}, false},
		{"raymond", map[string]int{"n": 5, "r": 1, "tree": 2}, true},
		{"torus", map[string]int{"n": 4, "r": 1}, false},
		{"torus/literal", map[string]int{"n": 4, "r": 1}, true},
		{"suzuki-kasami/any-order", map[string]int{"n": 3, "r": 2}, true},
		{"suzuki-kasami/any-order", map[string]int{"n": 3, "r": 1}, false},
		{"suzuki-kasami/any-order", map[string]int{"n": 4, "r": 1}, true},
	}
	for _, c := range cases {
		if c.heavy && os.Getenv("TOKENMC_HEAVY") == "" {
			continue
		}
		t.Run(fmt.Sprintf("%s/%v", c.variant, c.params), func(t *testing.T) {
			sys, sym, _, _ := build(t, c.variant, c.params)
			states, orbits, trans := symmetry.CountOrbits(sys, sym, 0)
			plain, err := explore.Check(context.Background(), sys, explore.Options{Workers: 2, Exact: true})
			if err != nil {
				t.Fatal(err)
			}
			if plain.States != int64(states) {
				t.Fatalf("the walk found %d states, the explorer %d", states, plain.States)
			}
			quotient, err := symmetry.Reduce(sys, sym, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			red, err := explore.Check(context.Background(), quotient, explore.Options{Workers: 2, Exact: true})
			if err != nil {
				t.Fatal(err)
			}
			if red.States != int64(orbits) || red.Transitions != trans {
				t.Errorf("reduced search: %d states, %d transitions; the full graph has %d orbits, %d quotient transitions", red.States, red.Transitions, orbits, trans)
			}
			if orbits >= states {
				t.Errorf("no reduction: %d orbits of %d states", orbits, states)
			}
			if red.Verdict != explore.OK || plain.Verdict != explore.OK {
				t.Errorf("verdicts %s (plain) and %s (reduced), want ok", plain.Verdict, red.Verdict)
			}
			t.Logf("%d states, %d orbits (group of %d)", states, orbits, sym.Order())
		})
	}
}

// TestVerdictsMatchOnRegistry checks every variant of every symmetric
// algorithm at its default parameters (with the variant's own overrides):
// the same verdict, violated property and shortest counterexample length
// with and without symmetry, and the concretised counterexample replays on
// the unreduced model.
func TestVerdictsMatchOnRegistry(t *testing.T) {
	for _, v := range symmetricVariants() {
		t.Run(v.Name, func(t *testing.T) {
			sys, sym, props, _ := build(t, v.Name, nil)
			opts := explore.Options{Properties: props, Workers: 2, MaxStates: 3_000_000}
			plain, err := explore.Check(context.Background(), sys, opts)
			if err != nil {
				t.Fatal(err)
			}
			quotient, err := symmetry.Reduce(sys, sym, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			red, err := explore.Check(context.Background(), quotient, opts)
			if err != nil {
				t.Fatal(err)
			}
			if plain.Verdict != red.Verdict {
				t.Fatalf("verdict %s without symmetry, %s with", plain.Verdict, red.Verdict)
			}
			if plain.Verdict == explore.Incomplete {
				t.Fatalf("bound reached: %d states", plain.States)
			}
			if red.States > plain.States {
				t.Errorf("the reduced search has more states (%d) than the full one (%d)", red.States, plain.States)
			}
			if plain.Violation == nil {
				return
			}
			pv, rv := plain.Violation, red.Violation
			if pv.Property.Name != rv.Property.Name || pv.Len() != rv.Len() {
				t.Fatalf("without symmetry: %s after %d steps; with: %s after %d", pv.Property.Name, pv.Len(), rv.Property.Name, rv.Len())
			}
			replayConcrete(t, sys, sym, props, rv)
		})
	}
}

// replayConcrete concretises a quotient counterexample and replays it with
// package traces on the unreduced system, as 'tokenmc replay' does.
func replayConcrete(t *testing.T, sys model.System, sym *model.Symmetry, props []model.Property, v *explore.Violation) {
	t.Helper()
	var last func(*model.Transition) bool
	if v.Property.Kind == model.TransitionInvariant {
		last = func(tr *model.Transition) bool { return !v.Property.HoldsOn(tr) }
	}
	path, _, err := symmetry.ConcretizeSteps(sys, sym, v.Path, last)
	if err != nil {
		t.Fatal(err)
	}
	if len(path) != len(v.Path) {
		t.Fatalf("concrete path of %d states for a quotient path of %d", len(path), len(v.Path))
	}
	tr, err := traces.FromSteps(sys.NewWorker(), traces.Meta{Algorithm: sys.Info().Name, Property: v.Property.Name, PropertyKind: v.Property.Kind}, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := traces.Replay(sys, props, tr)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK {
		t.Fatalf("the concrete trace does not replay: %s", res.Reason)
	}
}

// TestRestrictedTorus: with only some torus nodes requesting (the
// "requesters" parameter, when the registry has it), the symmetry is
// restricted to the translations that keep that set, and Verify proves
// them on the restricted model.
func TestRestrictedTorus(t *testing.T) {
	a, _, err := algorithms.Lookup("torus")
	if err != nil {
		t.Fatal(err)
	}
	has := false
	for _, p := range a.Params {
		has = has || p.Name == "requesters"
	}
	if !has {
		t.Skip("the torus has no requesters parameter")
	}
	row0 := 1<<0 | 1<<1 | 1<<2
	sys, sym, props, _ := build(t, "torus", map[string]int{"n": 9, "r": 1, "requesters": row0})
	if sym.Order() != 3 {
		t.Fatalf("%d elements kept, want the 3 column shifts", sym.Order())
	}
	if _, err := symmetry.Verify(sys, sym, props, 1500); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Symmetry("torus", map[string]int{"n": 9, "r": 1, "requesters": 1 << 4}); err != nil {
		t.Fatal(err)
	}
}
