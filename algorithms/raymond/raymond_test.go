package raymond

import (
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

func build(t *testing.T, variant string, n, r, tree int) model.System {
	t.Helper()
	p, err := New(variant, n, r, tree)
	if err != nil {
		t.Fatal(err)
	}
	return p.System()
}

func check(t *testing.T, sys model.System, props []model.Property) *explore.Result {
	t.Helper()
	return algotest.Check(t, sys, props)
}

// Counts pinned after the independent enumerator of naive_test.go agreed
// (package doc, "How counts were cross-checked"), with every generic
// property holding (Raymond 1989 §4: mutual exclusion, deadlock freedom).
func TestCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		n, r, tree                 int
		states, transitions, depth int64
	}{
		{2, 1, Line, 21, 27, 8},
		{3, 1, Line, 158, 287, 14},
		{3, 1, Star, 150, 271, 14},
		{4, 1, Binary, 1104, 2525, 20},
		{2, 2, Line, 69, 103, 12},
		{3, 2, Line, 1012, 2071, 21},
	} {
		t.Run(fmt.Sprintf("n=%d/r=%d/tree=%d", c.n, c.r, c.tree), func(t *testing.T) {
			want := naiveCounts(c.n, c.r, c.tree)
			sys := build(t, Default, c.n, c.r, c.tree)
			res := check(t, sys, invariants.Applicable(invariants.With(Properties()...), sys.Info()))
			if res.Verdict != explore.OK {
				t.Fatalf("verdict %s: %v", res.Verdict, res.Violation.Property.Name)
			}
			if res.States != int64(want.states) || res.Transitions != int64(want.transitions) || res.Depth != want.depth {
				t.Fatalf("model %d/%d/%d, naive %+v", res.States, res.Transitions, res.Depth, want)
			}
			if res.States != c.states || res.Transitions != c.transitions || int64(res.Depth) != c.depth {
				t.Errorf("pinned %d/%d/%d, got %d/%d/%d", c.states, c.transitions, c.depth, res.States, res.Transitions, res.Depth)
			}
			algotest.ModesAgree(t, sys, res) // the other search modes visit the same graph
		})
	}
}

// Sometimes property: every node can enter its CS, on every
// tree shape, so the safe verdict is not vacuous.
func TestEveryProcessCanEnter(t *testing.T) {
	for _, tree := range []int{Line, Binary, Star} {
		sys := build(t, Default, 3, 1, tree)
		for i := range 3 {
			never := model.Property{Name: fmt.Sprintf("P%d-never-in-cs", i), Kind: model.Invariant,
				Holds: func(s model.Snapshot) bool { return s.Phase(i) != model.InCS }}
			if res := check(t, sys, []model.Property{never}); res.Verdict != explore.Violated {
				t.Errorf("tree %d: P%d never enters its CS", tree, i)
			}
		}
	}
}

// Raymond §3 (a request climbs, the token descends, 2(N-1) messages) is
// a scenario under testdata/scenarios, run by TestScenarios.

func TestNewRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		v          string
		n, r, tree int
	}{{"raymond/x", 3, 1, 0}, {Default, 1, 1, 0}, {Default, 3, 0, 0}, {Default, 3, 1, 3}} {
		if _, err := New(c.v, c.n, c.r, c.tree); err == nil {
			t.Errorf("New(%q, %d, %d, %d) accepted", c.v, c.n, c.r, c.tree)
		}
	}
}

// The shipped counterexample of the package doc (testdata/no-reask.no-deadlock.trace.json,
// written by tokenmc check --trace-out) replays step by step against the
// model and ends in its violation of no-deadlock after 9 steps.
func TestShippedTraceReplays(t *testing.T) {
	tr, err := traces.ReadFile("testdata/no-reask.no-deadlock.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	sys := build(t, NoReask, 3, 1, Line)
	res, err := traces.Replay(sys, invariants.Applicable(invariants.With(Properties()...), sys.Info()), tr)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.Steps != 9 || tr.Property != "no-deadlock" {
		t.Fatalf("replay %+v of a %s trace, want OK after 9 steps", res, tr.Property)
	}
}
