package coordring

import (
	"bytes"
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

// run is a scripted path through a system, one transition label at a time.
type run struct {
	*algotest.Stepper
	t *testing.T
}

func start(t *testing.T, variant string, n, r int) *run {
	t.Helper()
	p, err := New(variant, n, r)
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

func (ru *run) phases() []string { return ru.Phases() }

func (ru *run) network() []string { return ru.Network() }

func (ru *run) coordinator() Proc {
	v := ru.W.Snapshot(ru.State).(*model.View[Proc, Msg])
	p := *v.Local(0)
	p.Queue = append([]Entry(nil), p.Queue...)
	return p
}

func props(extra ...model.Property) []model.Property { return invariants.With(extra...) }

func check(t *testing.T, variant string, n, r int, ps []model.Property) *explore.Result {
	t.Helper()
	p, err := New(variant, n, r)
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	res, err := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Properties: invariants.Applicable(ps, sys.Info())})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// §3.3.1: "if no other process is executing in its critical section, and
// the coordinator retains the token, then the coordinator will send the
// token to the requesting process"; the client keeps it during its CS and
// returns it afterwards.
func TestGrantAndReturn(t *testing.T) {
	ru := start(t, Default, 3, 1).step("Request(P1)", "Deliver REQUEST(P1->P0, ts=1)")
	if got, want := ru.network(), []string{"TOKEN(P0->P1, clock=1)"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("network = %v, want %v", got, want)
	}
	ru.step("Deliver TOKEN(P0->P1, clock=1)", "Exit(P1)")
	if got, want := ru.network(), []string{"RETURN(P1->P0)"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("network = %v, want %v", got, want)
	}
	ru.step("Deliver RETURN(P1->P0)")
	if c := ru.coordinator(); !c.Has || len(c.Queue) != 0 {
		t.Errorf("coordinator = %+v, want the token back and an empty queue", c)
	}
}

// §3.3.1: while another process is in its CS the coordinator answers WAIT
// and stores the request; when the token comes back it goes to the queued
// request with the smallest time stamp of request generation, whatever the
// order in which the requests arrived.
func TestWaitQueueSmallestStampFirst(t *testing.T) {
	ru := start(t, Default, 4, 2).step(
		"Request(P1)", "Deliver REQUEST(P1->P0, ts=1)", "Deliver TOKEN(P0->P1, clock=1)",
		"Request(P3)", // ts 1
		"Request(P2)", "Deliver REQUEST(P2->P0, ts=1)", "Deliver WAIT(P0->P2, clock=1)",
		"Exit(P1)", "Request(P1)", // P1's clock is 1: its second stamp is 2
		"Deliver REQUEST(P1->P0, ts=2)", "Deliver REQUEST(P3->P0, ts=1)")
	want := []Entry{{2, 1}, {3, 1}, {1, 2}}
	if got := ru.coordinator().Queue; !reflect.DeepEqual(got, want) {
		t.Fatalf("queue = %v, want %v (by stamp, ties by pid)", got, want)
	}
	ru.step("Deliver RETURN(P1->P0)")
	if got := ru.network(); !contains(got, "TOKEN(P0->P2, clock=2)") {
		t.Errorf("network = %v, want the token to P2", got)
	}
}

// Modelling decision (package doc): the coordinator is a client too; its
// request is queued locally and served like any other.
func TestCoordinatorAsClient(t *testing.T) {
	ru := start(t, Default, 2, 2).step("Request(P0)")
	if got := ru.phases(); !reflect.DeepEqual(got, []string{"InCS", "Idle"}) {
		t.Fatalf("phases = %v", got)
	}
	ru.step("Request(P1)", "Deliver REQUEST(P1->P0, ts=1)", "Exit(P0)")
	if got, want := ru.network(), []string{"WAIT(P0->P1, clock=1)", "TOKEN(P0->P1, clock=1)"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("network = %v, want %v", got, want)
	}
	ru.step("Request(P0)")
	if got, want := ru.coordinator().Queue, []Entry{{0, 2}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("queue = %v, want %v", got, want)
	}
	ru.step("Deliver TOKEN(P0->P1, clock=1)", "Exit(P1)", "Deliver RETURN(P1->P0)")
	if got := ru.phases(); !reflect.DeepEqual(got, []string{"InCS", "Idle"}) {
		t.Fatalf("phases = %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// semantics.md §1: the default model keeps mutex, single-token,
// no-unrequested-entry, no-deadlock and its own queue invariant.
func TestDefaultVerdicts(t *testing.T) {
	for _, c := range []struct{ n, r int }{{2, 1}, {3, 1}, {3, 2}, {4, 1}} {
		res := check(t, Default, c.n, c.r, props(Properties()...))
		if res.Verdict != explore.OK {
			t.Errorf("n=%d r=%d: %s %v", c.n, c.r, res.Verdict, res.Violation)
		}
	}
}

// Counts pinned after cross-checking against naiveCount (naive_test.go), an
// independent map-based enumerator; the test recomputes the naive counts.
func TestCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		n, r                       int
		states, transitions, depth int
	}{
		{2, 1, 25, 34, 7},
		{3, 1, 263, 510, 12},
		{2, 2, 227, 438, 15},
		{3, 2, 23036, 72137, 27},
		{4, 1, 2992, 7499, 18},
	} {
		s, tr, d := naiveCount(c.n, c.r)
		if s != c.states || tr != c.transitions || d != c.depth {
			t.Errorf("naive n=%d r=%d: %d/%d/%d, pinned %d/%d/%d", c.n, c.r, s, tr, d, c.states, c.transitions, c.depth)
		}
		for _, o := range []explore.Options{{Workers: 1}, {Workers: 2}, {DFS: true}} {
			p, _ := New(Default, c.n, c.r)
			res, err := explore.Check(context.Background(), p.System(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.States != int64(c.states) || res.Transitions != int64(c.transitions) || (!o.DFS && res.Depth != c.depth) {
				t.Errorf("n=%d r=%d %+v: %d/%d/%d, want %d/%d/%d", c.n, c.r, o, res.States, res.Transitions, res.Depth, c.states, c.transitions, c.depth)
			}
		}
	}
}

// algorithms.md §2 mutants: each is caught, with the property and the
// length of the shortest (breadth-first) counterexample pinned.
func TestMutantsShortestCounterexamples(t *testing.T) {
	for _, c := range []struct {
		variant string
		n, r    int
		only    string // "" = all properties
		prop    string
		length  int
	}{
		{GrantIfQueueEmpty, 3, 1, "", "single-token", 4},
		{GrantIfQueueEmpty, 3, 1, "mutex", "mutex", 6},
		{KeepCopy, 3, 1, "", "single-token", 4},
		{KeepCopy, 2, 2, "mutex", "mutex", 7},
		{DropAfterWait, 3, 1, "", "no-deadlock", 8},
		{DropAfterWait, 2, 1, "", "no-deadlock", 5},
	} {
		ps := props(Properties()...)
		if c.only != "" {
			p, _ := New(c.variant, c.n, c.r)
			var err error
			ps, err = invariants.Select(ps, p.System().Info(), c.only)
			if err != nil {
				t.Fatal(err)
			}
		}
		res := check(t, c.variant, c.n, c.r, ps)
		if res.Verdict != explore.Violated || res.Violation.Property.Name != c.prop || res.Violation.Len() != c.length {
			got := "no violation"
			if res.Violation != nil {
				got = fmt.Sprintf("%s after %d steps", res.Violation.Property.Name, res.Violation.Len())
			}
			t.Errorf("%s n=%d r=%d: %s, want %s after %d", c.variant, c.n, c.r, got, c.prop, c.length)
		}
	}
}

// style.md "sometimes": every process can enter its CS (the model is not
// vacuously safe): "P_i is never InCS" must be violated for every i.
func TestEveryProcessCanEnter(t *testing.T) {
	for i := range 3 {
		never := model.Property{Name: fmt.Sprintf("P%d-never-in-cs", i), Kind: model.Invariant,
			Holds: func(s model.Snapshot) bool { return s.Phase(i) != model.InCS }}
		res := check(t, Default, 3, 1, []model.Property{never})
		if res.Verdict != explore.Violated {
			t.Errorf("P%d never enters its CS", i)
		}
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		variant string
		n, r    int
		want    string
	}{
		{"coord-ring/bogus", 3, 1, `unknown coord-ring variant "coord-ring/bogus"`},
		{Default, 1, 1, "coord-ring needs n >= 2 processes"},
		{KeepCopy, 3, 0, "coord-ring/keep-copy needs r >= 1"},
	} {
		if _, err := New(c.variant, c.n, c.r); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("New(%q, %d, %d) = %v, want %q", c.variant, c.n, c.r, err, c.want)
		}
	}
}

// semantics.md §1 state identity: the same requests in another order give
// the same bytes.
func TestCanonicalEncoding(t *testing.T) {
	a := start(t, Default, 3, 1).step("Request(P1)", "Request(P2)")
	b := start(t, Default, 3, 1).step("Request(P2)", "Request(P1)")
	if !bytes.Equal(a.State, b.State) {
		t.Error("request order changes the encoding")
	}
}
