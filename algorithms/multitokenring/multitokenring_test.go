package multitokenring

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

func check(t *testing.T, variant string, n, k, r int, only string) *explore.Result {
	t.Helper()
	p, err := New(variant, n, k, r)
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	ps, err := invariants.Select(invariants.With(Properties()...), sys.Info(), only)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Properties: ps})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The scripted scenarios of §3.3.4 (the token goes round, hold-back by
// priority, other resources pass) are data files under
// testdata/scenarios, run by TestScenarios.

// Repaired default: mutex per resource, single-token per request and
// no-deadlock hold (several-tokens.md "Claims"; algorithms.md §9.3).
func TestDefaultVerdicts(t *testing.T) {
	for _, c := range []struct{ n, k, r int }{{2, 1, 1}, {3, 1, 1}, {3, 2, 1}, {3, 1, 2}, {4, 1, 1}} {
		if res := check(t, Default, c.n, c.k, c.r, ""); res.Verdict != explore.OK {
			t.Errorf("n=%d k=%d r=%d: %s %v", c.n, c.k, c.r, res.Verdict, res.Violation)
		}
	}
}

// several-tokens.md A3 / algorithms.md §5: the literal sn rewrite makes
// two requesters hold back each other's token. The literal reading is
// deadlock-free at n = 3, k = 1 (R <= 2 here) and deadlocks at n = 4,
// k = 1 (11 steps, the enumerated trace of algorithms.md §5) and n = 3,
// k = 2 (10 steps, the trace of several-tokens.md A3).
func TestLiteralDeadlocks(t *testing.T) {
	for _, c := range []struct{ n, k, r, length int }{{4, 1, 1, 11}, {3, 2, 1, 10}, {3, 1, 1, 0}, {3, 1, 2, 0}} {
		res := check(t, Literal, c.n, c.k, c.r, "")
		if c.length == 0 {
			if res.Verdict != explore.OK {
				t.Errorf("n=%d k=%d r=%d: %s %v", c.n, c.k, c.r, res.Verdict, res.Violation)
			}
			continue
		}
		if res.Violation == nil || res.Violation.Property.Name != "no-deadlock" || res.Violation.Len() != c.length {
			t.Errorf("n=%d k=%d r=%d: %v, want no-deadlock after %d", c.n, c.k, c.r, res.Violation, c.length)
		}
	}
}

// The shipped literal traces replay: same steps, same states, same
// deadlock; and the default model cannot replay them (the difference the
// repair makes: at step 7 (n = 4) P2 forwards P0's token unchanged).
func TestLiteralTracesReplay(t *testing.T) {
	for _, c := range []struct {
		file    string
		n, k, r int
	}{
		{"testdata/literal-n4-k1-r1.no-deadlock.trace.json", 4, 1, 1},
		{"testdata/literal-n3-k2-r1.no-deadlock.trace.json", 3, 2, 1},
	} {
		tr, err := traces.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []string{Literal, Default} {
			p, _ := New(v, c.n, c.k, c.r)
			tr.Algorithm = v
			res, err := traces.Replay(p.System(), invariants.With(Properties()...), tr)
			if err != nil {
				t.Fatal(err)
			}
			if res.OK != (v == Literal) {
				t.Errorf("%s on %s: %s", v, c.file, res)
			}
			if v == Default && res.DivergedAt == 0 {
				t.Errorf("%s on %s: did not diverge: %s", v, c.file, res)
			}
		}
	}
}

// Counts pinned after cross-checking with naiveCount (naive_test.go), an
// independent string-keyed enumerator that also counts deadlocks.
func TestCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		variant                           string
		n, k, r                           int
		states, transitions, depth, locks int
	}{
		{Default, 2, 1, 1, 34, 46, 8, 0},
		{Default, 3, 1, 1, 450, 855, 15, 0},
		{Default, 3, 2, 1, 4935, 11072, 15, 0},
		{Literal, 3, 2, 1, 6107, 13516, 15, 4},
		{Literal, 4, 1, 1, 11550, 27469, 24, 12},
	} {
		s, tr, d, l := naiveCount(c.n, c.k, c.r, c.variant == Literal)
		if s != c.states || tr != c.transitions || d != c.depth || l != c.locks {
			t.Errorf("naive %s n=%d k=%d r=%d: %d/%d/%d/%d deadlocks, pinned %d/%d/%d/%d", c.variant, c.n, c.k, c.r, s, tr, d, l, c.states, c.transitions, c.depth, c.locks)
		}
		for _, o := range []explore.Options{{Workers: 1}, {Workers: 2}, {DFS: true}} {
			p, _ := New(c.variant, c.n, c.k, c.r)
			res, err := explore.Check(context.Background(), p.System(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.States != int64(c.states) || res.Transitions != int64(c.transitions) || (!o.DFS && res.Depth != c.depth) {
				t.Errorf("%s n=%d k=%d r=%d %+v: %d/%d/%d, want %d/%d/%d", c.variant, c.n, c.k, c.r, o, res.States, res.Transitions, res.Depth, c.states, c.transitions, c.depth)
			}
		}
	}
}

func reachable(t *testing.T, n, k int, name string, goal func(s model.Snapshot) bool) bool {
	t.Helper()
	never := model.Property{Name: name, Kind: model.Invariant, Holds: func(s model.Snapshot) bool { return !goal(s) }}
	p, _ := New(Default, n, k, 1)
	res, err := explore.Check(context.Background(), p.System(), explore.Options{Workers: 1, Properties: []model.Property{never}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Verdict == explore.Violated
}

// "Sometimes" property: every process can enter its CS, and (the point of
// the algorithm) two processes can be InCS together for different
// resources.
func TestSometimes(t *testing.T) {
	for i := range 3 {
		if !reachable(t, 3, 1, fmt.Sprintf("P%d-in-cs", i), func(s model.Snapshot) bool { return s.Phase(i) == model.InCS }) {
			t.Errorf("P%d never enters its CS", i)
		}
	}
	two := func(s model.Snapshot) bool { return s.Phase(0) == model.InCS && s.Phase(1) == model.InCS }
	if !reachable(t, 3, 2, "two-in-cs", two) {
		t.Error("two processes are never InCS together with k = 2")
	}
	if reachable(t, 3, 1, "two-in-cs", two) {
		t.Error("two processes InCS together with k = 1")
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		variant string
		n, k, r int
		want    string
	}{
		{"multi-token-ring/bogus", 3, 1, 1, `unknown multi-token-ring variant "multi-token-ring/bogus"`},
		{Default, 1, 1, 1, "multi-token-ring needs n >= 2 processes"},
		{Literal, 3, 0, 1, "multi-token-ring/literal needs k >= 1 resources"},
		{NoMax, 3, 1, 0, "multi-token-ring/no-max needs r >= 1"},
	} {
		if _, err := New(c.variant, c.n, c.k, c.r); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("New(%q) = %v, want %q", c.variant, err, c.want)
		}
	}
}
