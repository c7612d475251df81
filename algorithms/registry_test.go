package algorithms_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

func ExampleLookup() {
	alg, v, err := algorithms.Lookup("suzuki-kasami/send-in-cs")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(alg.Name, v.Name, v.Kind)
	_, _, err = algorithms.Lookup("suzuki-kasami/send-in-c")
	fmt.Println(err)
	// Output:
	// suzuki-kasami suzuki-kasami/send-in-cs mutant
	// unknown variant "suzuki-kasami/send-in-c" of suzuki-kasami; did you mean suzuki-kasami/send-in-cs? (valid: suzuki-kasami, suzuki-kasami/any-order, suzuki-kasami/dup-in-q, suzuki-kasami/keep-copy, suzuki-kasami/no-increment, suzuki-kasami/no-ln-update, suzuki-kasami/send-in-cs)
}

func TestAllSortedAndComplete(t *testing.T) {
	all := algorithms.All()
	if !slices.IsSortedFunc(all, func(a, b algorithms.Algorithm) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("All is not sorted by Name")
	}
	pkg := map[string][]string{
		"suzuki-kasami": suzukikasami.Variants(),
		"torus":         torus.Variants(),
	}
	for _, a := range all {
		var names []string
		for k, v := range a.Variants {
			names = append(names, v.Name)
			if k == 0 && v.Name != a.Name {
				t.Errorf("%s: default variant is %q", a.Name, v.Name)
			}
			if v.Doc == "" || v.Kind == "" {
				t.Errorf("%s: no Doc or Kind", v.Name)
			}
			if v.Kind == spec.KindMutant && len(v.Breaks) == 0 {
				t.Errorf("%s: a mutant that lists nothing it breaks", v.Name)
			}
		}
		if want, ok := pkg[a.Name]; ok && !slices.Equal(names, want) {
			t.Errorf("%s: registry variants %v, package variants %v", a.Name, names, pkg[a.Name])
		}
		if a.Doc == "" || a.Source == "" || a.Build == nil {
			t.Errorf("%s: incomplete entry", a.Name)
		}
		for _, p := range a.Params {
			if p.Default < p.Min || (p.Max > 0 && p.Default > p.Max) {
				t.Errorf("%s: default %s=%d outside %d..%d", a.Name, p.Name, p.Default, p.Min, p.Max)
			}
		}
	}
}

// Every name Lookup accepts resolves and builds with the default parameters.
func TestLookupEveryVariant(t *testing.T) {
	var names []string
	for _, a := range algorithms.All() {
		names = append(names, a.Name) // the bare name selects the default
		for _, v := range a.Variants[1:] {
			names = append(names, v.Name)
		}
	}
	for _, name := range names {
		a, v, err := algorithms.Lookup(name)
		if err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
			continue
		}
		if v.Name != name {
			t.Errorf("Lookup(%q) = variant %q", name, v.Name)
		}
		sys, props, err := a.Build(v.Name, nil)
		if err != nil {
			t.Errorf("Build(%q): %v", name, err)
			continue
		}
		if sys.Info().Name != name || len(props) == 0 {
			t.Errorf("Build(%q): info %+v, %d properties", name, sys.Info(), len(props))
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"suzuki", `unknown algorithm "suzuki"; did you mean suzuki-kasami`},
		{"suzuki-kasmi", `unknown algorithm "suzuki-kasmi"; did you mean suzuki-kasami? (`},
		{"suzuki-kasami/keepcopy", `unknown variant "suzuki-kasami/keepcopy" of suzuki-kasami; did you mean suzuki-kasami/keep-copy? (valid: suzuki-kasami, `},
		{"", `unknown algorithm ""; the algorithms are banerjee, `},
		{"torus/bogus", `unknown variant "torus/bogus" of torus; valid: torus, torus/literal, `},
	} {
		_, _, err := algorithms.Lookup(c.name)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Lookup(%q) = %v, want prefix %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("Lookup(%q): multi-line error", c.name)
		}
	}
}

func TestBuildBadParams(t *testing.T) {
	for _, c := range []struct {
		name   string
		params map[string]int
		want   string
	}{
		{"suzuki-kasami", map[string]int{"n": 1}, "suzuki-kasami: n=1 is out of range 2..16 (number of processes)"},
		{"suzuki-kasami", map[string]int{"n": 17}, "suzuki-kasami: n=17 is out of range 2..16 (number of processes)"},
		{"suzuki-kasami/keep-copy", map[string]int{"r": 0}, "suzuki-kasami/keep-copy: r=0 is out of range 1..8 (requests per process)"},
		{"suzuki-kasami", map[string]int{"k": 2}, `suzuki-kasami has no parameter "k"; parameters: n, r`},
		{"torus", map[string]int{"n": 5}, "torus needs N = d*d with d >= 2; N=5 is not a square (try 4 or 9)"},
		{"torus/literal", map[string]int{"n": 2}, "torus/literal: n=2 is out of range 4..25 (number of processes, a square d*d with d >= 2)"},
	} {
		a, v, err := algorithms.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = a.Build(v.Name, c.params)
		if err == nil || err.Error() != c.want {
			t.Errorf("Build(%q, %v) = %v, want %q", c.name, c.params, err, c.want)
		}
	}
	a, _, _ := algorithms.Lookup("torus")
	if _, _, err := a.Build("suzuki-kasami", nil); err == nil || !strings.Contains(err.Error(), "torus/literal") {
		t.Errorf("Build of another algorithm's variant: %v", err)
	}
}

// result is what a breadth-first search over a System finds.
type result struct {
	states, transitions, depth int
	// violated maps a property name to the length of its shortest
	// counterexample (for a transition property: up to and including the
	// violating transition).
	violated map[string]int
	// entered[i] reports whether some reachable state has process i InCS
	// (the sometimes-property "every process can enter its CS").
	entered []bool
}

// bfs explores sys and checks props on every state, transition and
// terminal state (semantics.md §1 counting). With stopWhen non-nil it stops
// as soon as every named property is violated.
func bfs(t *testing.T, sys model.System, props []model.Property, stopWhen []string) result {
	t.Helper()
	w := sys.NewWorker()
	res := result{violated: map[string]int{}}
	dist := map[string]int{}
	var queue [][]byte
	w.Initial(func(s []byte) bool {
		if _, ok := dist[string(s)]; !ok {
			dist[string(s)] = 0
			queue = append(queue, bytes.Clone(s))
		}
		return true
	})
	violate := func(name string, at int) {
		if _, ok := res.violated[name]; !ok {
			res.violated[name] = at
		}
	}
	done := func() bool {
		if stopWhen == nil {
			return false
		}
		for _, n := range stopWhen {
			if _, ok := res.violated[n]; !ok {
				return false
			}
		}
		return true
	}
	for len(queue) > 0 && !done() {
		s := queue[0]
		queue = queue[1:]
		d := dist[string(s)]
		res.states++
		res.depth = max(res.depth, d)
		snap := w.Snapshot(s)
		if res.entered == nil {
			res.entered = make([]bool, snap.Processes())
		}
		for i := range snap.Processes() {
			res.entered[i] = res.entered[i] || snap.Phase(i) == model.InCS
		}
		for _, p := range props {
			if p.Kind == model.Invariant && !p.Holds(snap) {
				violate(p.Name, d)
			}
		}
		terminal := true
		var next [][]byte
		w.Successors(s, func(tr *model.Transition, n []byte) bool {
			terminal = false
			res.transitions++
			for _, p := range props {
				if p.Kind == model.TransitionInvariant && !p.HoldsOn(tr) {
					violate(p.Name, d+1)
				}
			}
			if _, ok := dist[string(n)]; !ok {
				dist[string(n)] = d + 1
				next = append(next, bytes.Clone(n))
			}
			return true
		})
		queue = append(queue, next...)
		if terminal {
			snap = w.Snapshot(s)
			for _, p := range props {
				if p.Kind == model.Terminal && !p.Holds(snap) {
					violate(p.Name, d)
				}
			}
		}
	}
	return res
}

func build(t *testing.T, name string, params map[string]int) (model.System, []model.Property) {
	t.Helper()
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, props, err := a.Build(v.Name, params)
	if err != nil {
		t.Fatal(err)
	}
	return sys, append(invariants.Applicable(invariants.Standard(), sys.Info()), props...)
}

// The exact counts of semantics.md §2 and §3 (states, transitions, depth),
// as cross-checked independently: SK N = 2, R = 1 by hand
// (algorithms/internal/naive's test), the torus at d = 2, R = 1 by the
// throw-away enumerator of docs/notes/torus.md, and the rest by
// algorithms/internal/naive. Every property, generic and algorithm-specific,
// holds in these models.
func TestExactCounts(t *testing.T) {
	for _, c := range []struct {
		name                       string
		n, r                       int
		states, transitions, depth int
	}{
		{"suzuki-kasami", 2, 1, 21, 27, 8},
		{"suzuki-kasami", 3, 1, 726, 2079, 15},
		{"suzuki-kasami", 2, 2, 83, 119, 16},
		{"suzuki-kasami", 3, 2, 58973, 259341, 30},
		{"suzuki-kasami", 4, 1, 123445, 685791, 24},
		{"torus/literal", 4, 1, 58868, 199790, 39},
		{"torus", 4, 1, 88608, 305348, 31},
	} {
		sys, props := build(t, c.name, map[string]int{"n": c.n, "r": c.r})
		got := bfs(t, sys, props, nil)
		t.Logf("%s n=%d r=%d: %d states, %d transitions, depth %d", c.name, c.n, c.r, got.states, got.transitions, got.depth)
		if got.states != c.states || got.transitions != c.transitions || got.depth != c.depth {
			t.Errorf("%s n=%d r=%d: %d states, %d transitions, depth %d; want %d, %d, %d",
				c.name, c.n, c.r, got.states, got.transitions, got.depth, c.states, c.transitions, c.depth)
		}
		if len(got.violated) != 0 {
			t.Errorf("%s n=%d r=%d: violated %v", c.name, c.n, c.r, got.violated)
		}
		if slices.Contains(got.entered, false) {
			t.Errorf("%s n=%d r=%d: some process never enters its CS: %v", c.name, c.n, c.r, got.entered)
		}
	}
}

// Every mutant violates the safety properties its Breaks names, with the
// shortest counterexample (BFS) of the length given by algorithms.md §1,
// docs/notes/torus.md and the algorithm packages' docs. This registry-driven
// table replaces the packages' own TestMutantsShortestCounterexamples. Liveness (starvation-freedom) has
// no model.Property yet; variants that break only liveness must keep every
// generic safety property.
func TestVariantsBreakWhatTheySay(t *testing.T) {
	for _, c := range []struct {
		name   string
		params map[string]int // n, r (default 1) and the parameters that differ from the defaults
		want   map[string]int // property -> shortest counterexample length
	}{
		{"suzuki-kasami/send-in-cs", map[string]int{"n": 2}, map[string]int{"mutex": 4}},
		{"suzuki-kasami/keep-copy", map[string]int{"n": 2}, map[string]int{"single-token": 2, "mutex": 4}},
		{"suzuki-kasami/no-ln-update", map[string]int{"n": 2}, map[string]int{"no-unrequested-entry": 5}},
		{"suzuki-kasami/dup-in-q", map[string]int{"n": 3}, map[string]int{"no-unrequested-entry": 12}},
		{"suzuki-kasami/no-increment", map[string]int{"n": 2}, map[string]int{"no-deadlock": 4}},
		// torus.md's hand trace reaches these at steps 4 and 6; the shortest
		// is Request(P0), Deliver TOKEN(->P0): P0 enters at its tour start
		// and sends a copy (2 tokens), Request(P1), the copy reaches P1,
		// which enters (mutex). See TestCopyOnEnterShortest in package torus.
		{"torus/copy-on-enter", map[string]int{"n": 4}, map[string]int{"single-token": 2, "mutex": 4}},
		{"torus/enter-if-marked", map[string]int{"n": 4}, map[string]int{"no-unrequested-entry": 3}},
		// Clearing Waiting before the own test leaves an InCS process whose
		// queue lacks its own id: the torus's waiting-shape invariant.
		{"torus/clear-own-first", map[string]int{"n": 4}, map[string]int{"waiting-shape": 2}},
		{"torus/endless-tour", map[string]int{"n": 4}, nil},
		{"torus/skip-column-end", map[string]int{"n": 4}, nil},
		// The other algorithms' mutants at their default parameters
		// (unless given), as their package docs state them.
		{"raymond/keep-holder", map[string]int{"n": 3}, map[string]int{"single-token": 2, "mutex": 4}},
		{"raymond/no-reask", map[string]int{"n": 3}, map[string]int{"no-deadlock": 9}},
		{"lelann/pass-on-entry", map[string]int{"n": 3}, map[string]int{"single-token": 2, "mutex": 4}},
		{"lelann/drop-on-exit", map[string]int{"n": 3}, map[string]int{"single-token": 3, "no-deadlock": 5}},
		{"naimi-trehel/send-in-cs", map[string]int{"n": 3}, map[string]int{"mutex": 4}},
		{"naimi-trehel/drop-next", map[string]int{"n": 3}, map[string]int{"no-deadlock": 7}},
		{"ricart-agrawala/no-max", map[string]int{"n": 3}, map[string]int{"mutex": 10}},
		{"ricart-agrawala/reply-on-tie", map[string]int{"n": 3}, map[string]int{"mutex": 10}},
		{"ricart-agrawala/forget-deferred", map[string]int{"n": 3}, map[string]int{"no-deadlock": 13}},
		{"coord-res/grant-any-free", map[string]int{"n": 3, "k": 1}, map[string]int{"single-token": 3, "mutex": 4}},
		{"coord-res/return-wrong-queue", map[string]int{"n": 3, "k": 2}, map[string]int{"single-token": 5, "mutex": 9}},
		{"coord-ring/grant-if-queue-empty", map[string]int{"n": 3}, map[string]int{"single-token": 4, "mutex": 6}},
		{"coord-ring/keep-copy", map[string]int{"n": 3}, map[string]int{"single-token": 4}},
		{"coord-ring/drop-after-wait", map[string]int{"n": 3}, map[string]int{"no-deadlock": 8}},
		{"fapp/keep-root", map[string]int{"n": 3}, map[string]int{"single-token": 2, "mutex": 4}},
		{"fapp/no-dummy", map[string]int{"n": 3}, map[string]int{"no-deadlock": 9}},
		{"multi-token-ring/no-max", map[string]int{"n": 2, "k": 1}, map[string]int{"mutex": 6}},
		{"multi-token-ring/pass-in-cs", map[string]int{"n": 2, "k": 1}, map[string]int{"mutex": 6}},
		{"multi-token-ring/no-release", map[string]int{"n": 2, "k": 1}, map[string]int{"single-token": 6, "no-deadlock": 6}},
	} {
		a, v, err := algorithms.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		var breaks []string
		for _, b := range v.Breaks {
			if b != "starvation-freedom" {
				breaks = append(breaks, b)
			}
		}
		var names []string
		for n := range c.want {
			names = append(names, n)
		}
		slices.Sort(names)
		slices.Sort(breaks)
		if !slices.Equal(names, breaks) {
			t.Errorf("%s: Breaks %v, test expects %v", c.name, v.Breaks, names)
		}
		params := map[string]int{"r": 1}
		for k, x := range c.params {
			params[k] = x
		}
		sys, props, err := a.Build(v.Name, params)
		if err != nil {
			t.Fatal(err)
		}
		props = invariants.Applicable(invariants.With(props...), sys.Info())
		var stop []string
		if len(names) > 0 {
			stop = names
		}
		got := bfs(t, sys, props, stop)
		t.Logf("%s: violated %v after %d states", c.name, got.violated, got.states)
		for _, n := range names {
			if at, ok := got.violated[n]; !ok || at != c.want[n] {
				t.Errorf("%s: %s violated at %d (found %v), want at %d", c.name, n, at, ok, c.want[n])
			}
		}
		if len(names) == 0 {
			for _, p := range invariants.Standard() {
				if _, bad := got.violated[p.Name]; bad {
					t.Errorf("%s: breaks only liveness but violates %s", c.name, p.Name)
				}
			}
		}
	}
}
