package coordres

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

type run struct {
	*algotest.Stepper
	t *testing.T
}

func start(t *testing.T, variant string, n, k, r int) *run {
	t.Helper()
	p, err := New(variant, n, k, r)
	if err != nil {
		t.Fatal(err)
	}
	return &run{Stepper: algotest.NewStepper(t, p.System()), t: t}
}

func (ru *run) step(labels ...string) *run {
	ru.t.Helper()
	ru.Steps(labels...)
	return ru
}

func (ru *run) network() []string { return ru.Network() }

func (ru *run) queue(r int) []Entry {
	v := ru.W.Snapshot(ru.State).(*model.View[Proc, Msg])
	return append([]Entry{}, v.Local(0).Q[r]...)
}

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

// §V: "If the priority of earliest request message is low than the next
// message, than increment the priority by one and then sort the queue":
// the earliest queued request ages (default), or every lower one (age-all);
// the token goes to the largest priority, ties to the earlier arrival.
func TestAgingAndService(t *testing.T) {
	steps := []string{"Request(P1, g=0)", "Deliver REQUEST(P1->P0, r=0, prio=1)", "Deliver TOKEN(P0->P1, r=0)",
		"Request(P0, g=0)", "Request(P2, g=0)", "Request(P3, g=0)",
		"Deliver REQUEST(P2->P0, r=0, prio=2)", "Deliver REQUEST(P3->P0, r=0, prio=3)"}
	for _, c := range []struct {
		variant string
		want    []Entry
		next    string
	}{
		{Default, []Entry{{0, 2}, {2, 2}, {3, 3}}, "TOKEN(P0->P3, r=0)"},
		// P2, aged to 3, arrived before P3 (3): served first.
		{AgeAll, []Entry{{0, 2}, {2, 3}, {3, 3}}, "TOKEN(P0->P2, r=0)"},
	} {
		ru := start(t, c.variant, 4, 2, 1).step(steps...)
		if got := ru.queue(0); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: queue = %v, want %v", c.variant, got, c.want)
		}
		ru.step("Exit(P1)", "Deliver RETURN(P1->P0, r=0)")
		if got, want := ru.network(), []string{c.next}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: network = %v, want %v", c.variant, got, want)
		}
	}
}

// One token per resource: two clients use different resources at once.
func TestResourcesIndependent(t *testing.T) {
	ru := start(t, Default, 3, 2, 1).step("Request(P1, g=0)", "Request(P2, g=1)",
		"Deliver REQUEST(P1->P0, r=0, prio=1)", "Deliver REQUEST(P2->P0, r=1, prio=2)",
		"Deliver TOKEN(P0->P1, r=0)", "Deliver TOKEN(P0->P2, r=1)")
	if !ResourceMutex.Holds(ru.W.Snapshot(ru.State)) || !TokenPerResource.Holds(ru.W.Snapshot(ru.State)) {
		t.Error("per-resource mutex or single-token fails with two resources in use")
	}
	if invariants.Mutex.Holds(ru.W.Snapshot(ru.State)) {
		t.Error("two processes should be InCS")
	}
}

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

// algorithms.md §3 mutants, property and BFS length pinned (n = 3, R = 1).
func TestMutantsShortestCounterexamples(t *testing.T) {
	for _, c := range []struct {
		variant    string
		k          int
		only, prop string
		length     int
	}{
		{GrantAnyFree, 1, "", "single-token", 3},
		{GrantAnyFree, 1, "mutex", "mutex", 4},
		{ReturnWrongQueue, 2, "", "single-token", 5},
		{ReturnWrongQueue, 2, "mutex", "mutex", 9},
	} {
		res := check(t, c.variant, 3, c.k, 1, c.only)
		if res.Violation == nil || res.Violation.Property.Name != c.prop || res.Violation.Len() != c.length {
			t.Errorf("%s k=%d [%s]: %v, want %s after %d", c.variant, c.k, c.only, res.Violation, c.prop, c.length)
		}
	}
}

// style.md "sometimes": every process can enter, and two can be InCS
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
