package naimitrehel

import (
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

func build(t *testing.T, variant string, n, r int) model.System {
	t.Helper()
	p, err := New(variant, n, r)
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
// property holding (Naimi-Trehel-Arnold 1996 §4: mutual exclusion and no
// deadlock).
func TestCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		n, r                       int
		states, transitions, depth int64
	}{
		{2, 1, 21, 27, 8},
		{3, 1, 164, 296, 13},
		{4, 1, 1476, 3352, 18},
		{2, 2, 69, 103, 12},
		{3, 2, 1368, 2789, 20},
	} {
		t.Run(fmt.Sprintf("n=%d/r=%d", c.n, c.r), func(t *testing.T) {
			want := naiveCounts(c.n, c.r)
			sys := build(t, Default, c.n, c.r)
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

// 1996 §3, path reversal, is a scenario under testdata/scenarios, run by
// TestScenarios.

func TestNewRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		v    string
		n, r int
	}{{"naimi-trehel/x", 3, 1}, {Default, 1, 1}, {Default, 3, 0}} {
		if _, err := New(c.v, c.n, c.r); err == nil {
			t.Errorf("New(%q, %d, %d) accepted", c.v, c.n, c.r)
		}
	}
}

// The shipped counterexample of the package doc (testdata/drop-next.no-deadlock.trace.json,
// written by tokenmc check --trace-out) replays step by step against the
// model and ends in its violation of no-deadlock after 7 steps.
func TestShippedTraceReplays(t *testing.T) {
	tr, err := traces.ReadFile("testdata/drop-next.no-deadlock.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	sys := build(t, DropNext, 3, 1)
	res, err := traces.Replay(sys, invariants.Applicable(invariants.With(Properties()...), sys.Info()), tr)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.Steps != 7 || tr.Property != "no-deadlock" {
		t.Fatalf("replay %+v of a %s trace, want OK after 7 steps", res, tr.Property)
	}
}
