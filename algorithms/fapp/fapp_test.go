package fapp

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

func check(t *testing.T, variant string, n, tree, r int, only string) *explore.Result {
	t.Helper()
	p, err := New(variant, n, tree, r)
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	ps, err := invariants.Select(invariants.With(Properties()...), sys.Info(), only)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Properties: ps, MaxStates: 2_000_000})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The scripted scenarios of §3.3.3 (a request climbs, the token
// descends; aging and FCFS) are data files under testdata/scenarios, run by
// TestScenarios.

// Default verdicts: mutex, single-token, no-unrequested-entry, no-deadlock
// and idle-root-empty hold (algorithms.md §4 "Claims").
func TestDefaultVerdicts(t *testing.T) {
	for _, c := range []struct{ n, tree, r int }{{2, Line, 1}, {3, Line, 1}, {3, Star, 1}, {3, Line, 2}, {4, Line, 1}} {
		if res := check(t, Default, c.n, c.tree, c.r, ""); res.Verdict != explore.OK {
			t.Errorf("n=%d tree=%d r=%d: %s %v", c.n, c.tree, c.r, res.Verdict, res.Violation)
		}
	}
}

// algorithms.md §4 / §9.1 "idle root": the literal root only inserts a
// request, so the first request to an idle root deadlocks. n = 2: 4 steps
// (P0 is a client too and must finish first; the notes' 2-step trace
// assumes it is not); line n = 3: 6 steps. The shipped traces replay, and
// the default diverges from them.
func TestLiteralDeadlocks(t *testing.T) {
	for _, c := range []struct {
		file          string
		n, tree, step int
	}{
		{"testdata/literal-n2-r1.no-deadlock.trace.json", 2, Line, 4},
		{"testdata/literal-n3-line-r1.no-deadlock.trace.json", 3, Line, 6},
	} {
		res := check(t, Literal, c.n, c.tree, 1, "no-deadlock")
		if res.Violation == nil || res.Violation.Len() != c.step {
			t.Errorf("n=%d: %v, want no-deadlock after %d", c.n, res.Violation, c.step)
		}
		tr, err := traces.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []string{Literal, Default} {
			p, _ := New(v, c.n, c.tree, 1)
			tr.Algorithm = v
			rr, err := traces.Replay(p.System(), invariants.With(Properties()...), tr)
			if err != nil {
				t.Fatal(err)
			}
			if rr.OK != (v == Literal) || (v == Default && rr.DivergedAt == 0) {
				t.Errorf("%s on %s: %s", v, c.file, rr)
			}
		}
	}
	// With every property the literal reading breaks idle-root-empty first.
	if res := check(t, Literal, 2, Line, 1, ""); res.Violation == nil || res.Violation.Property.Name != NameGrantMaximal || res.Violation.Len() != 2 {
		t.Errorf("literal: %v, want idle-root-empty after 2", res.Violation)
	}
}

// Counts pinned after cross-checking with naiveCount (naive_test.go).
func TestCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		variant                           string
		n, tree, r                        int
		states, transitions, depth, locks int
	}{
		{Default, 2, Line, 1, 21, 27, 8, 0},
		{Default, 3, Line, 1, 498, 893, 19, 0},
		{Default, 3, Star, 1, 453, 816, 19, 0},
		{Default, 2, Line, 2, 108, 167, 17, 0},
		{Literal, 3, Line, 1, 487, 796, 19, 19},
	} {
		s, tr, d, l := naiveCount(c.n, c.tree, c.r, c.variant == Literal, false)
		if s != c.states || tr != c.transitions || d != c.depth || l != c.locks {
			t.Errorf("naive %s n=%d tree=%d r=%d: %d/%d/%d/%d, pinned %d/%d/%d/%d", c.variant, c.n, c.tree, c.r, s, tr, d, l, c.states, c.transitions, c.depth, c.locks)
		}
		for _, o := range []explore.Options{{Workers: 1}, {Workers: 2}, {DFS: true}} {
			p, _ := New(c.variant, c.n, c.tree, c.r)
			res, err := explore.Check(context.Background(), p.System(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.States != int64(c.states) || res.Transitions != int64(c.transitions) || (!o.DFS && res.Depth != c.depth) {
				t.Errorf("%s n=%d tree=%d r=%d %+v: %d/%d/%d", c.variant, c.n, c.tree, c.r, o, res.States, res.Transitions, res.Depth)
			}
		}
	}
}

// algorithms.md §4 mutants, property and BFS length pinned (R = 1).
func TestMutantsOnTheStar(t *testing.T) {
	for _, c := range []struct {
		variant    string
		n, tree    int
		only, prop string
		length     int
	}{
		// On the line (the default) the registry's table checks them
		// (algorithms' TestVariantsBreakWhatTheySay); here, the star.
		{NoDummy, 3, Star, "", "no-deadlock", 8},
	} {
		res := check(t, c.variant, c.n, c.tree, 1, c.only)
		if res.Violation == nil || res.Violation.Property.Name != c.prop || res.Violation.Len() != c.length {
			t.Errorf("%s n=%d tree=%d [%s]: %v, want %s after %d", c.variant, c.n, c.tree, c.only, res.Violation, c.prop, c.length)
		}
	}
}

// "Sometimes" property: every process can enter its CS.
func TestEveryProcessCanEnter(t *testing.T) {
	for _, tree := range []int{Line, Star} {
		for i := range 3 {
			never := model.Property{Name: fmt.Sprintf("P%d-never-in-cs", i), Kind: model.Invariant,
				Holds: func(s model.Snapshot) bool { return s.Phase(i) != model.InCS }}
			p, _ := New(Default, 3, tree, 1)
			res, err := explore.Check(context.Background(), p.System(), explore.Options{Workers: 1, Properties: []model.Property{never}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != explore.Violated {
				t.Errorf("tree=%d: P%d never enters its CS", tree, i)
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		variant    string
		n, tree, r int
		want       string
	}{
		{"fapp/bogus", 3, 0, 1, `unknown fapp variant "fapp/bogus"`},
		{Default, 1, 0, 1, "fapp needs n >= 2 processes"},
		{Literal, 3, 2, 1, "fapp/literal: tree=2 is not a tree shape"},
		{NoDummy, 3, 0, 0, "fapp/no-dummy needs r >= 1"},
	} {
		if _, err := New(c.variant, c.n, c.tree, c.r); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("New(%q) = %v, want %q", c.variant, err, c.want)
		}
	}
}
