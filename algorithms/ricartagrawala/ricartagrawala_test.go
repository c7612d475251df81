package ricartagrawala

import (
	"fmt"
	"os"
	"strings"
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
// property holding (Ricart-Agrawala 1981 §3: mutual exclusion and no
// deadlock). The n=4 row was cross-checked once (the naive enumerator took
// 176 s) and runs only with TOKENMC_HEAVY set.
func TestCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		n, r                       int
		states, transitions, depth int64
		heavy                      bool // the naive recount takes minutes
	}{
		{2, 1, 35, 46, 8, false},
		{3, 1, 2858, 9050, 18, false},
		{4, 1, 2074509, 13398410, 32, true},
		{2, 2, 158, 227, 16, false},
		{3, 2, 39933, 134067, 36, false},
	} {
		t.Run(fmt.Sprintf("n=%d/r=%d", c.n, c.r), func(t *testing.T) {
			if c.heavy && os.Getenv("TOKENMC_HEAVY") == "" {
				t.Skip("heavy (about 3 minutes): set TOKENMC_HEAVY=1")
			}
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

func TestNewRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		v    string
		n, r int
	}{{"ricart-agrawala/x", 3, 1}, {Default, 1, 1}, {Default, 3, 0}} {
		if _, err := New(c.v, c.n, c.r); err == nil {
			t.Errorf("New(%q, %d, %d) accepted", c.v, c.n, c.r)
		}
	}
}

// Rule 2 and the 1981 priority (ties broken by id, the deferred reply
// at exit) is a scenario under testdata/scenarios, run by TestScenarios.

// Permission based: the token properties do not apply (semantics.md §1,
// single-token; protocol.Protocol HoldsToken nil).
func TestSingleTokenDoesNotApply(t *testing.T) {
	sys := build(t, Default, 3, 1)
	_, err := invariants.Select(invariants.Standard(), sys.Info(), "single-token")
	if err == nil || !strings.Contains(err.Error(), "does not apply") || !strings.Contains(err.Error(), "permission based") {
		t.Fatalf("err = %v, want a does-not-apply error naming the permission-based design", err)
	}
}

// The algorithm-specific invariant can fail: forget-deferred loses a
// deferred reply at Exit (package doc): 8 steps at N = 3.
func TestRepliesAccountedCatchesForgetDeferred(t *testing.T) {
	sys := build(t, ForgetDeferred, 3, 1)
	res := check(t, sys, Properties())
	if res.Verdict != explore.Violated || res.Violation.Property.Name != NameRepliesAccounted || res.Violation.Len() != 8 {
		t.Fatalf("verdict %s, want replies-accounted violated after 8 steps", res.Verdict)
	}
}

// The shipped counterexample of the package doc (testdata/no-max.mutex.trace.json,
// written by tokenmc check --trace-out) replays step by step against the
// model and ends in its violation of mutex after 10 steps.
func TestShippedTraceReplays(t *testing.T) {
	tr, err := traces.ReadFile("testdata/no-max.mutex.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	sys := build(t, NoMax, 3, 1)
	res, err := traces.Replay(sys, invariants.Applicable(invariants.With(Properties()...), sys.Info()), tr)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || res.Steps != 10 || tr.Property != "mutex" {
		t.Fatalf("replay %+v of a %s trace, want OK after 10 steps", res, tr.Property)
	}
}
