package torus

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// The tests below drive the step functions through model.System, one
// transition label at a time, and check the rule of semantics.md §3 or the
// trace of algorithms/torus.md named in each test.

type run struct {
	t     *testing.T
	w     model.Worker
	state []byte
	flags model.Flags // of the last transition taken
}

func start(t *testing.T, variant string, n, r int) *run {
	t.Helper()
	p, err := New(variant, n, r)
	if err != nil {
		t.Fatal(err)
	}
	w := p.System().NewWorker()
	ru := &run{t: t, w: w}
	w.Initial(func(s []byte) bool {
		ru.state = bytes.Clone(s)
		return false
	})
	return ru
}

func (ru *run) step(labels ...string) *run {
	ru.t.Helper()
	for _, label := range labels {
		var next []byte
		var enabled []string
		ru.w.Successors(ru.state, func(tr *model.Transition, s []byte) bool {
			l := ru.w.Label(ru.state, tr)
			if l == label {
				next = bytes.Clone(s)
				ru.flags = tr.Flags
				return false
			}
			enabled = append(enabled, l)
			return true
		})
		if next == nil {
			ru.t.Fatalf("no transition %q; enabled: %s", label, strings.Join(enabled, "; "))
		}
		ru.state = next
	}
	return ru
}

func (ru *run) describe() model.StateDescription { return ru.w.Describe(ru.state) }

func (ru *run) phases() []string {
	var out []string
	for _, p := range ru.describe().Processes {
		out = append(out, p.Phase)
	}
	return out
}

func (ru *run) proc(i int) Proc {
	ru.t.Helper()
	var p Proc
	if err := json.Unmarshal(ru.describe().Processes[i].Vars, &p); err != nil {
		ru.t.Fatal(err)
	}
	return p
}

func (ru *run) network() []string {
	out := []string{}
	for _, m := range ru.describe().Network {
		s := m.Message
		if m.Count > 1 {
			s += " x " + strconv.Itoa(m.Count)
		}
		out = append(out, s)
	}
	return out
}

func (ru *run) snapshot() model.Snapshot { return ru.w.Snapshot(ru.state) }

func (ru *run) wantNetwork(want ...string) {
	ru.t.Helper()
	if got := ru.network(); !slices.Equal(got, want) {
		ru.t.Errorf("network = %q, want %q", got, want)
	}
}

func (ru *run) wantPhases(want ...string) {
	ru.t.Helper()
	if got := ru.phases(); !reflect.DeepEqual(got, want) {
		ru.t.Errorf("phases = %v, want %v", got, want)
	}
}

// semantics.md §3, initial state: all Idle, queues empty, and the network
// holds exactly TOKEN(0, rc=1, cc=0, ch=false). The same for both readings.
func TestInitialNetwork(t *testing.T) {
	for _, v := range []string{Repaired, Literal} {
		ru := start(t, v, 4, 1)
		ru.wantNetwork("TOKEN(->P0, rc=1, cc=0, ch=F)")
		ru.wantPhases("Idle", "Idle", "Idle", "Idle")
		for i := range 4 {
			if p := ru.proc(i); len(p.Waiting) != 0 || p.Has {
				t.Errorf("%s: P%d = %+v", v, i, p)
			}
		}
		if got := ru.snapshot().Tokens(); got != 1 {
			t.Errorf("%s: tokens = %d", v, got)
		}
	}
}

// semantics.md §3 rule 3 and algorithms/torus.md A4: the literal reading,
// d = 2, R = 1, the 9-step prefix of the starvation lasso. It ends with P0
// having left its CS (cc = 2 = d: cc = 0, sent down) and the token in transit
// to P2 with fields (1, 0, F); then 4 token deliveries return to the same
// state while P1 waits with Waiting_1 = [1].
func TestLiteralStarvationPrefix(t *testing.T) {
	ru := start(t, Literal, 4, 1)
	ru.step("Request(P0)") // 1
	ru.wantNetwork("REQUEST(origin=P0, ->P1)", "TOKEN(->P0, rc=1, cc=0, ch=F)")
	ru.step("Deliver TOKEN(->P0, rc=1, cc=0, ch=F)") // 2: rc = 2 = d: skip
	ru.wantNetwork("REQUEST(origin=P0, ->P1)", "TOKEN(->P1, rc=2, cc=-1, ch=T)")
	ru.step("Deliver REQUEST(origin=P0, ->P1)") // 3: Waiting_1 = [0], forwarded
	if got := ru.proc(1).Waiting; !reflect.DeepEqual(got, []int{0}) {
		t.Errorf("Waiting_1 = %v", got)
	}
	ru.step("Deliver TOKEN(->P1, rc=2, cc=-1, ch=T)") // 4: column entry, tour start, not own
	ru.wantNetwork("REQUEST(origin=P0, ->P0)", "TOKEN(->P0, rc=1, cc=1, ch=F)")
	ru.step("Request(P1)")                           // 5
	ru.step("Deliver REQUEST(origin=P0, ->P0)")      // 6: back home, dropped
	ru.step("Deliver REQUEST(origin=P1, ->P0)")      // 7: PCL_1, dropped
	ru.step("Deliver TOKEN(->P0, rc=1, cc=1, ch=F)") // 8: cc = 2, own: P0 enters
	ru.wantPhases("InCS", "Waiting", "Idle", "Idle")
	if p := ru.proc(0); !p.Has || p.RC != 1 || p.CC != 2 || p.Ch {
		t.Errorf("P0 = %+v, want holding (1, 2, F)", p)
	}
	ru.wantNetwork()
	ru.step("Exit(P0)") // 9
	ru.wantPhases("Idle", "Waiting", "Idle", "Idle")
	ru.wantNetwork("TOKEN(->P2, rc=1, cc=0, ch=F)")
	if p := ru.proc(0); p.Has || len(p.Waiting) != 0 {
		t.Errorf("P0 = %+v after Exit", p)
	}
	if got := ru.proc(1).Waiting; !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("Waiting_1 = %v, want [1]", got)
	}
	lasso := bytes.Clone(ru.state)
	ru.step(
		"Deliver TOKEN(->P2, rc=1, cc=0, ch=F)",  // rc = 2 = d: skip
		"Deliver TOKEN(->P3, rc=2, cc=-1, ch=T)", // entry, empty: down
		"Deliver TOKEN(->P1, rc=1, cc=0, ch=F)",  // rc = 2 = d: skip, P1's request unseen
		"Deliver TOKEN(->P0, rc=2, cc=-1, ch=T)", // entry, empty: down
	)
	if !bytes.Equal(ru.state, lasso) {
		t.Error("the 4-delivery cycle does not return to the state after step 9")
	}
}

// algorithms/torus.md "Handlers": in the repaired reading the tour returns to
// the node that started it (TE = d+1), which sends the token down.
func TestRepairedTourReturnsToJoint(t *testing.T) {
	ru := start(t, Repaired, 4, 1).step(
		"Request(P1)",
		"Deliver REQUEST(origin=P1, ->P0)",      // Waiting_0 = [1]
		"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)", // rc = 2 < CE = 3, marked: tour start, not own
		"Deliver TOKEN(->P1, rc=2, cc=1, ch=F)", // cc = 2, own: enter
		"Exit(P1)",                              // cc = 2 != TE: right
	)
	ru.wantNetwork("REQUEST(origin=P1, ->P1)", "TOKEN(->P0, rc=2, cc=2, ch=F)")
	ru.step("Deliver TOKEN(->P0, rc=2, cc=2, ch=F)") // cc = 3 = TE at the joint: down
	ru.wantNetwork("REQUEST(origin=P1, ->P1)", "TOKEN(->P2, rc=2, cc=0, ch=F)")
}

// semantics.md §3 and algorithms/torus.md "Real time": with no requests the
// token moves forever: a lap of d*d moves in the literal reading and d(d+1)
// in the repaired one, back to the initial state.
func TestIdleTokenLap(t *testing.T) {
	for _, c := range []struct {
		variant string
		lap     []string
	}{
		{Literal, []string{
			"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)", "Deliver TOKEN(->P1, rc=2, cc=-1, ch=T)",
			"Deliver TOKEN(->P3, rc=1, cc=0, ch=F)", "Deliver TOKEN(->P2, rc=2, cc=-1, ch=T)",
		}},
		{Repaired, []string{
			"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)", "Deliver TOKEN(->P2, rc=2, cc=0, ch=F)",
			"Deliver TOKEN(->P3, rc=3, cc=-1, ch=T)", "Deliver TOKEN(->P1, rc=1, cc=0, ch=F)",
			"Deliver TOKEN(->P3, rc=2, cc=0, ch=F)", "Deliver TOKEN(->P2, rc=3, cc=-1, ch=T)",
		}},
	} {
		ru := start(t, c.variant, 4, 1)
		init := bytes.Clone(ru.state)
		ru.step(c.lap...)
		if !bytes.Equal(ru.state, init) {
			t.Errorf("%s: lap does not return to the initial state: %v", c.variant, ru.network())
		}
	}
}

// algorithms/torus.md, copy-on-enter: two tokens after step 4, two
// processes in the CS after step 6.
func TestCopyOnEnter(t *testing.T) {
	ru := start(t, CopyOnEnter, 4, 1).step(
		"Request(P1)",
		"Deliver REQUEST(origin=P1, ->P0)",
		"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)",
	)
	if got := ru.snapshot().Tokens(); got != 1 {
		t.Fatalf("tokens after step 3 = %d", got)
	}
	ru.step("Deliver TOKEN(->P1, rc=2, cc=1, ch=F)") // 4: P1 enters and sends a copy
	if got := ru.snapshot().Tokens(); got != 2 {
		t.Errorf("tokens after step 4 = %d, want 2", got)
	}
	if invariants.SingleToken.Holds(ru.snapshot()) {
		t.Error("single-token holds after step 4")
	}
	ru.wantNetwork("REQUEST(origin=P1, ->P1)", "TOKEN(->P0, rc=2, cc=2, ch=F)")
	ru.step("Request(P0)", "Deliver TOKEN(->P0, rc=2, cc=2, ch=F)") // 5, 6
	ru.wantPhases("InCS", "InCS", "Idle", "Idle")
	if invariants.Mutex.Holds(ru.snapshot()) {
		t.Error("mutex holds after step 6")
	}
}

// algorithms/torus.md, enter-if-marked: P0 enters its CS while Idle in 3
// steps.
func TestEnterIfMarked(t *testing.T) {
	ru := start(t, EnterIfMarked, 4, 1).step(
		"Request(P1)",
		"Deliver REQUEST(origin=P1, ->P0)",
		"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)",
	)
	ru.wantPhases("InCS", "Waiting", "Idle", "Idle")
	if ru.flags&model.FlagUnrequestedEntry == 0 {
		t.Error("entry from Idle not flagged")
	}
	if WaitingShape.Holds(ru.snapshot()) {
		t.Error("waiting-shape holds with P0 InCS and Waiting_0 = [1]")
	}
}

// algorithms/torus.md, skip-column-end: the 9-step prefix, after which P0 is
// a column-change node that never looks at its queue: a 4-delivery cycle
// returns to the same state with P0 Waiting.
func TestSkipColumnEndPrefix(t *testing.T) {
	ru := start(t, SkipColumnEnd, 4, 1).step(
		"Request(P1)",
		"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)",  // rc = 2 = CE: skip
		"Deliver TOKEN(->P1, rc=2, cc=-1, ch=T)", // entry, own: enter
		"Exit(P1)",                               // cc = 1: right
		"Deliver TOKEN(->P0, rc=1, cc=1, ch=F)",  // cc = 2, empty: right
		"Deliver REQUEST(origin=P1, ->P0)",       // Waiting_0 = [1], forwarded
		"Request(P0)",                            // [1, 0]: PCL_2, no REQUEST
		"Deliver REQUEST(origin=P1, ->P1)",       // home: dropped
		"Deliver TOKEN(->P1, rc=1, cc=2, ch=F)",  // cc = 3 = TE: down
	)
	ru.wantPhases("Waiting", "Idle", "Idle", "Idle")
	ru.wantNetwork("TOKEN(->P3, rc=1, cc=0, ch=F)")
	if got := ru.proc(0).Waiting; !reflect.DeepEqual(got, []int{1, 0}) {
		t.Errorf("Waiting_0 = %v, want [1 0]", got)
	}
	lasso := bytes.Clone(ru.state)
	ru.step(
		"Deliver TOKEN(->P3, rc=1, cc=0, ch=F)",
		"Deliver TOKEN(->P2, rc=2, cc=-1, ch=T)",
		"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)", // rc = 2 = CE: skip, P0's request unseen
		"Deliver TOKEN(->P1, rc=2, cc=-1, ch=T)",
	)
	if !bytes.Equal(ru.state, lasso) {
		t.Error("the 4-delivery cycle does not return to the state after step 9")
	}
}

// algorithms/torus.md, endless-tour: d = 2, after P1's CS the token circles
// row 0 (P0 -> P1 -> P0) and never goes down.
func TestEndlessTour(t *testing.T) {
	ru := start(t, EndlessTour, 4, 1).step(
		"Request(P1)",
		"Deliver REQUEST(origin=P1, ->P0)",
		"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)",
		"Deliver TOKEN(->P1, rc=2, cc=1, ch=F)",
		"Exit(P1)",
		"Request(P2)",
		"Deliver TOKEN(->P0, rc=2, cc=2, ch=F)", // cc = 3 = TE: right with cc = 1
	)
	lasso := bytes.Clone(ru.state)
	ru.step("Deliver TOKEN(->P1, rc=2, cc=1, ch=F)", "Deliver TOKEN(->P0, rc=2, cc=2, ch=F)")
	if !bytes.Equal(ru.state, lasso) {
		t.Errorf("the token does not circle row 0: %v", ru.network())
	}
}

// algorithms.md §8.7, clear-own-first: the joint clears its own request at
// the tour start and does not enter.
func TestClearOwnFirst(t *testing.T) {
	ru := start(t, ClearOwnFirst, 4, 1).step(
		"Request(P0)",
		"Deliver TOKEN(->P0, rc=1, cc=0, ch=F)", // rc = 2, marked: tour start, cleared first
	)
	ru.wantPhases("Waiting", "Idle", "Idle", "Idle")
	ru.wantNetwork("REQUEST(origin=P0, ->P1)", "TOKEN(->P1, rc=2, cc=1, ch=F)")
	if got := ru.proc(0).Waiting; len(got) != 0 {
		t.Errorf("Waiting_0 = %v", got)
	}
}

func TestSideErrors(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{5, "torus needs N = d*d with d >= 2; N=5 is not a square (try 4 or 9)"},
		{3, "torus needs N = d*d with d >= 2; N=3 is not a square (try 4 or 9)"},
		{10, "torus needs N = d*d with d >= 2; N=10 is not a square (try 9 or 16)"},
		{1, "torus needs N = d*d with d >= 2; N=1 gives d=1 (try 4 or 9)"},
	} {
		_, err := Side(c.n)
		if err == nil || err.Error() != c.want {
			t.Errorf("Side(%d) = %v, want %q", c.n, err, c.want)
		}
	}
	for n, d := range map[int]int{4: 2, 9: 3, 16: 4, 25: 5} {
		if got, err := Side(n); got != d || err != nil {
			t.Errorf("Side(%d) = %d, %v", n, got, err)
		}
	}
	if _, err := New("torus/bogus", 4, 1); err == nil || !strings.Contains(err.Error(), "torus/literal") {
		t.Errorf("unknown variant: %v", err)
	}
	if _, err := New(Repaired, 4, 0); err == nil {
		t.Error("r = 0 accepted")
	}
	for _, v := range Variants() {
		if p, err := New(v, 9, 1); err != nil || p.Name != v {
			t.Errorf("New(%q) = %v, %v", v, p, err)
		}
	}
}

func TestCanonicalEncoding(t *testing.T) {
	var e1, e2 model.Encoder
	encodeProc(&e1, &Proc{Waiting: []int{}, RC: 3, CC: 2, Ch: true})
	encodeProc(&e2, &Proc{})
	if !bytes.Equal(e1.Bytes(), e2.Bytes()) {
		t.Error("stale token fields of a non-holder are encoded")
	}
	a := start(t, Repaired, 4, 1).step("Request(P1)", "Request(P2)")
	b := start(t, Repaired, 4, 1).step("Request(P2)", "Request(P1)")
	if !bytes.Equal(a.state, b.state) {
		t.Error("commuting requests give different bytes")
	}
}

// The shortest copy-on-enter counterexamples (found by breadth-first search
// in the registry's tests): two tokens after 2 steps, two processes in the
// CS after 4.
func TestCopyOnEnterShortest(t *testing.T) {
	ru := start(t, CopyOnEnter, 4, 1).step("Request(P0)", "Deliver TOKEN(->P0, rc=1, cc=0, ch=F)")
	if got := ru.snapshot().Tokens(); got != 2 {
		t.Errorf("tokens after step 2 = %d, want 2", got)
	}
	ru.step("Request(P1)", "Deliver TOKEN(->P1, rc=2, cc=1, ch=F)")
	ru.wantPhases("InCS", "InCS", "Idle", "Idle")
}
