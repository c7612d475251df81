package coordres

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
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

// The scripted scenarios (aging and service order, resources used
// independently) are data files under testdata/scenarios, run by
// TestScenarios.

func TestDefaultVerdicts(t *testing.T) {
	for _, v := range []string{Default, AgeAll} {
		for _, c := range []struct{ n, k, r int }{{2, 1, 1}, {3, 1, 1}, {3, 2, 1}, {3, 2, 2}, {4, 1, 2}} {
			if res := check(t, v, c.n, c.k, c.r, ""); res.Verdict != explore.OK {
				t.Errorf("%s n=%d k=%d r=%d: %s %v", v, c.n, c.k, c.r, res.Verdict, res.Violation)
			}
		}
	}
}

// Counts pinned after cross-checking with naiveCount (naive_test.go).
func TestCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		variant                    string
		n, k, r                    int
		states, transitions, depth int
	}{
		{Default, 3, 1, 1, 116, 207, 12},
		{Default, 3, 2, 1, 629, 1414, 12},
		{Default, 3, 2, 2, 10217, 31450, 24},
		{AgeAll, 3, 2, 2, 10025, 31146, 24},
		{Default, 4, 1, 2, 14678, 33696, 34},
		{AgeAll, 4, 1, 2, 13413, 31917, 34},
	} {
		s, tr, d := naiveCount(c.n, c.k, c.r, c.variant == AgeAll)
		if s != c.states || tr != c.transitions || d != c.depth {
			t.Errorf("naive %s n=%d k=%d r=%d: %d/%d/%d, pinned %d/%d/%d", c.variant, c.n, c.k, c.r, s, tr, d, c.states, c.transitions, c.depth)
		}
		for _, o := range []explore.Options{{Workers: 1}, {Workers: 2}, {DFS: true}} {
			p, _ := New(c.variant, c.n, c.k, c.r)
			res, err := explore.Check(context.Background(), p.System(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.States != int64(c.states) || res.Transitions != int64(c.transitions) || (!o.DFS && res.Depth != c.depth) {
				t.Errorf("%s n=%d k=%d r=%d %+v: %d/%d/%d", c.variant, c.n, c.k, c.r, o, res.States, res.Transitions, res.Depth)
			}
		}
	}
}

// "Sometimes" property: every process can enter, and two can be InCS
// together on different resources (never on one resource).
func TestSometimes(t *testing.T) {
	reach := func(k int, name string, goal func(model.Snapshot) bool) bool {
		p, _ := New(Default, 3, k, 1)
		never := model.Property{Name: name, Kind: model.Invariant, Holds: func(s model.Snapshot) bool { return !goal(s) }}
		res, err := explore.Check(context.Background(), p.System(), explore.Options{Workers: 1, Properties: []model.Property{never}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Verdict == explore.Violated
	}
	for i := range 3 {
		if !reach(1, fmt.Sprintf("P%d-in-cs", i), func(s model.Snapshot) bool { return s.Phase(i) == model.InCS }) {
			t.Errorf("P%d never enters", i)
		}
	}
	two := func(s model.Snapshot) bool { return s.Phase(1) == model.InCS && s.Phase(2) == model.InCS }
	if !reach(2, "two-in-cs", two) || reach(1, "two-in-cs", two) {
		t.Error("two clients InCS together: want reachable with k = 2 only")
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		variant string
		n, k, r int
		want    string
	}{
		{"coord-res/bogus", 3, 1, 1, `unknown coord-res variant "coord-res/bogus"`},
		{Default, 1, 1, 1, "coord-res needs n >= 2 processes"},
		{AgeAll, 3, 0, 1, "coord-res/age-all needs k >= 1 resources"},
		{GrantAnyFree, 3, 1, 0, "coord-res/grant-any-free needs r >= 1"},
	} {
		if _, err := New(c.variant, c.n, c.k, c.r); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("New(%q) = %v, want %q", c.variant, err, c.want)
		}
	}
}
