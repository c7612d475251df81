package lelann

import (
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
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
// (package doc, "How counts were cross-checked"); semantics.md §1 defines
// states, transitions and depth.
func TestCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		n, r                       int
		states, transitions, depth int64
	}{
		{2, 1, 24, 38, 7},
		{3, 1, 108, 207, 11},
		{3, 2, 525, 1095, 20},
		{4, 1, 432, 972, 15},
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

// Sometimes property: every process can enter its CS, so the
// safe verdict is not vacuous; with the rest of the conformance kit
// (canonical encoding, search modes against a naive enumeration).
func TestConformance(t *testing.T) {
	modeltest.Check(t, build(t, Default, 3, 1))
}

// Rule 2 (an Idle process passes the token on, a Waiting one keeps it) is
// a scenario under testdata/scenarios, run by TestScenarios.

func TestNewRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		v    string
		n, r int
	}{{"lelann/x", 3, 1}, {Default, 1, 1}, {Default, 3, 0}} {
		if _, err := New(c.v, c.n, c.r); err == nil {
			t.Errorf("New(%q, %d, %d) accepted", c.v, c.n, c.r)
		}
	}
}

// The algorithm-specific invariant can fail: under pass-on-entry the token
// comes back round to P0 while it is still InCS (package doc): 5 steps at
// N = 3.
func TestTokenOnlyInCSCatchesPassOnEntry(t *testing.T) {
	sys := build(t, PassOnEntry, 3, 1)
	res := check(t, sys, Properties())
	if res.Verdict != explore.Violated || res.Violation.Property.Name != NameTokenOnlyInCS || res.Violation.Len() != 5 {
		t.Fatalf("verdict %s, want token-only-in-cs violated after 5 steps", res.Verdict)
	}
}

// The shipped counterexample of the package doc (testdata/drop-on-exit.no-deadlock.trace.json,
// written by tokenmc check --trace-out) replays step by step against the
// model and ends in its violation of no-deadlock after 5 steps.
func TestShippedTraceReplays(t *testing.T) {
	algotest.ReplayShipped(t, build(t, DropOnExit, 3, 1), Properties(), "testdata/drop-on-exit.no-deadlock.trace.json", "no-deadlock", 5)
}
