package suzukikasami

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
// transition label at a time, and check the rule of semantics.md §2 (or the
// mutant of algorithms.md §1) named in each test.

// run is a scripted path through a system.
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

// step takes the transition labelled label, failing with the enabled labels
// when there is none.
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

func (ru *run) enabled() []string {
	var out []string
	ru.w.Successors(ru.state, func(tr *model.Transition, _ []byte) bool {
		out = append(out, ru.w.Label(ru.state, tr))
		return true
	})
	return out
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

// network renders the network as "MSG" or "MSG x k", in canonical order.
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

func (ru *run) holds(p model.Property) bool { return p.Holds(ru.w.Snapshot(ru.state)) }

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func eqProc(t *testing.T, who string, got Proc, rn []int, has bool, ln, q []int) {
	t.Helper()
	want := Proc{RN: rn, Has: has, LN: ln, Q: q}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("%s = %s, want %s", who, g, w)
	}
}

// semantics.md §1: process 0 holds the token at the start, every RN is 0, the
// network is empty.
func TestInitialState(t *testing.T) {
	ru := start(t, Default, 3, 1)
	if got := ru.network(); len(got) != 0 {
		t.Errorf("network = %v, want empty", got)
	}
	eqProc(t, "P0", ru.proc(0), []int{0, 0, 0}, true, []int{0, 0, 0}, []int{})
	eqProc(t, "P1", ru.proc(1), []int{0, 0, 0}, false, nil, nil)
	if got, want := ru.enabled(), []string{"Request(P0)", "Request(P1)", "Request(P2)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("enabled = %v, want %v", got, want)
	}
	if !ru.describe().Processes[0].HoldsToken || ru.describe().Processes[1].HoldsToken {
		t.Error("HoldsToken must be true for P0 only")
	}
}

// semantics.md §2 rule 1: an idle holder enters its CS at once, sends no
// message and leaves RN_i[i] unchanged.
func TestRequestByIdleHolderEntersWithoutMessage(t *testing.T) {
	ru := start(t, Default, 3, 1).step("Request(P0)")
	if got := ru.phases(); !reflect.DeepEqual(got, []string{"InCS", "Idle", "Idle"}) {
		t.Errorf("phases = %v", got)
	}
	if got := ru.network(); len(got) != 0 {
		t.Errorf("network = %v, want empty", got)
	}
	eqProc(t, "P0", ru.proc(0), []int{0, 0, 0}, true, []int{0, 0, 0}, []int{})
}

// semantics.md §2 rule 1: a requester without the token increments
// RN_i[i] and sends REQ(i, j, RN_i[i]) to every j != i.
func TestRequestWithoutTokenBroadcasts(t *testing.T) {
	ru := start(t, Default, 3, 1).step("Request(P1)")
	if got := ru.phases(); !reflect.DeepEqual(got, []string{"Idle", "Waiting", "Idle"}) {
		t.Errorf("phases = %v", got)
	}
	if got, want := ru.network(), []string{"REQ(P1->P0, sn=1)", "REQ(P1->P2, sn=1)"}; !sameSet(got, want) {
		t.Errorf("network = %v, want %v", got, want)
	}
	eqProc(t, "P1", ru.proc(1), []int{0, 1, 0}, false, nil, nil)
}

// semantics.md §2 rules 3 and 4: a REQ with sn == LN[j]+1 delivered to the
// idle holder makes it send the token (without a copy); delivering the
// token puts the requester in its CS.
func TestReqToIdleHolderSendsToken(t *testing.T) {
	ru := start(t, Default, 3, 1).step("Request(P1)", "Deliver REQ(P1->P0, sn=1)")
	eqProc(t, "P0", ru.proc(0), []int{0, 1, 0}, false, nil, nil)
	if got, want := ru.network(), []string{"REQ(P1->P2, sn=1)", "TOKEN(->P1, LN=[0,0,0], Q=[])"}; !sameSet(got, want) {
		t.Errorf("network = %v, want %v", got, want)
	}
	if !ru.holds(invariants.SingleToken) {
		t.Error("single-token fails with the token in transit")
	}
	ru.step("Deliver TOKEN(->P1, LN=[0,0,0], Q=[])")
	if got := ru.phases(); !reflect.DeepEqual(got, []string{"Idle", "InCS", "Idle"}) {
		t.Errorf("phases = %v", got)
	}
	if ru.flags&model.FlagUnrequestedEntry != 0 {
		t.Error("entry of a Waiting process flagged as unrequested")
	}
	eqProc(t, "P1", ru.proc(1), []int{0, 1, 0}, true, []int{0, 0, 0}, []int{})
}

// semantics.md §2 rule 3: a holder in its CS only records the request.
func TestReqToHolderInCSOnlyUpdatesRN(t *testing.T) {
	ru := start(t, Default, 2, 1).step("Request(P0)", "Request(P1)", "Deliver REQ(P1->P0, sn=1)")
	eqProc(t, "P0", ru.proc(0), []int{0, 1}, true, []int{0, 0}, []int{})
	if got := ru.network(); len(got) != 0 {
		t.Errorf("network = %v, want empty", got)
	}
}

// semantics.md §2 rule 2: Exit sets LN[i] = RN_i[i], appends the
// outstanding requesters in ascending id order (whatever order their REQs
// arrived in), pops the head and sends the token with the rest of Q.
func TestExitAppendsAscendingAndPopsHead(t *testing.T) {
	ru := start(t, Default, 3, 1).step(
		"Request(P0)", "Request(P2)", "Request(P1)",
		"Deliver REQ(P2->P0, sn=1)", "Deliver REQ(P1->P0, sn=1)",
		"Exit(P0)")
	if got := ru.phases(); !reflect.DeepEqual(got, []string{"Idle", "Waiting", "Waiting"}) {
		t.Errorf("phases = %v", got)
	}
	eqProc(t, "P0", ru.proc(0), []int{0, 1, 1}, false, nil, nil)
	want := []string{"REQ(P1->P2, sn=1)", "REQ(P2->P1, sn=1)", "TOKEN(->P1, LN=[0,0,0], Q=[2])"}
	if got := ru.network(); !sameSet(got, want) {
		t.Errorf("network = %v, want %v", got, want)
	}
	// P1 serves P2 next: LN[1] = 1, Q = [2] pops 2.
	ru.step("Deliver TOKEN(->P1, LN=[0,0,0], Q=[2])", "Exit(P1)")
	want = []string{"REQ(P1->P2, sn=1)", "REQ(P2->P1, sn=1)", "TOKEN(->P2, LN=[0,1,0], Q=[])"}
	if got := ru.network(); !sameSet(got, want) {
		t.Errorf("network = %v, want %v", got, want)
	}
}

// semantics.md §2 rule 2: with no outstanding request the releaser keeps the
// token, and LN[i] records its served request.
func TestExitKeepsTokenWhenQueueEmpty(t *testing.T) {
	ru := start(t, Default, 2, 1).step("Request(P1)", "Deliver REQ(P1->P0, sn=1)",
		"Deliver TOKEN(->P1, LN=[0,0], Q=[])", "Exit(P1)")
	eqProc(t, "P1", ru.proc(1), []int{0, 1}, true, []int{0, 1}, []int{})
	if got := ru.network(); len(got) != 0 {
		t.Errorf("network = %v, want empty", got)
	}
	// semantics.md §1: every process Idle with made = R and an empty network
	// is normal termination, not a deadlock.
	ru.step("Request(P0)", "Deliver REQ(P0->P1, sn=1)", "Deliver TOKEN(->P0, LN=[0,1], Q=[])", "Exit(P0)")
	if e := ru.enabled(); len(e) != 0 {
		t.Fatalf("enabled = %v, want none", e)
	}
	if !ru.holds(invariants.NoDeadlock) {
		t.Error("normal termination reported as deadlock")
	}
	if !ru.holds(TokenServesWaiting) {
		t.Error("token-serves-waiting fails at termination")
	}
}

// semantics.md §1, state identity: equal states encode to equal bytes,
// whatever path led to them, and a process without the token encodes no
// token data.
func TestCanonicalEncoding(t *testing.T) {
	a := start(t, Default, 3, 1).step("Request(P1)", "Request(P2)")
	b := start(t, Default, 3, 1).step("Request(P2)", "Request(P1)")
	if !bytes.Equal(a.state, b.state) {
		t.Error("Request(P1);Request(P2) and Request(P2);Request(P1) give different bytes")
	}
	var e1, e2 model.Encoder
	encodeProc(&e1, &Proc{RN: []int{0, 1}, Has: false, LN: []int{3, 4}, Q: []int{1}})
	encodeProc(&e2, &Proc{RN: []int{0, 1}})
	if !bytes.Equal(e1.Bytes(), e2.Bytes()) {
		t.Error("stale token data of a non-holder is encoded")
	}
}

func TestFormatMsg(t *testing.T) {
	for _, c := range []struct {
		m    Msg
		want string
	}{
		{Msg{Kind: REQ, From: 1, To: 0, SN: 1}, "REQ(P1->P0, sn=1)"},
		{Msg{Kind: TOKEN, To: 2, LN: []int{1, 0, 0}}, "TOKEN(->P2, LN=[1,0,0], Q=[])"},
		{Msg{Kind: TOKEN, To: 2, LN: []int{1, 0, 0}, Q: []int{0, 1}}, "TOKEN(->P2, LN=[1,0,0], Q=[0,1])"},
	} {
		if got := FormatMsg(&c.m); got != c.want {
			t.Errorf("FormatMsg(%+v) = %q, want %q", c.m, got, c.want)
		}
		// round trip through the encoding
		var e model.Encoder
		encodeMsg(&e, &c.m)
		var m Msg
		d := model.NewDecoder(e.Bytes())
		decodeMsg(&d, &m)
		if got := FormatMsg(&m); got != c.want || !d.Done() {
			t.Errorf("decoded %q, want %q", got, c.want)
		}
	}
}

// algorithms.md §1, send-in-cs (the literal step 3): N = 2, two processes in
// the CS after exactly 4 steps.
func TestSendInCSBreaksMutexIn4Steps(t *testing.T) {
	ru := start(t, SendInCS, 2, 1).step("Request(P0)", "Request(P1)", "Deliver REQ(P1->P0, sn=1)")
	if !ru.holds(invariants.Mutex) || !ru.holds(invariants.SingleToken) {
		t.Fatal("violation before step 4")
	}
	ru.step("Deliver TOKEN(->P1, LN=[0,0], Q=[])")
	if got := ru.phases(); !reflect.DeepEqual(got, []string{"InCS", "InCS"}) {
		t.Errorf("phases = %v", got)
	}
	if ru.holds(invariants.Mutex) {
		t.Error("mutex holds with two processes in the CS")
	}
	// The former holder leaves without the token: it only becomes Idle.
	ru.step("Exit(P0)")
	eqProc(t, "P0", ru.proc(0), []int{0, 1}, false, nil, nil)
}

// algorithms.md §1, keep-copy: single-token fails as soon as the token is
// sent, mutex two steps later.
func TestKeepCopy(t *testing.T) {
	ru := start(t, KeepCopy, 2, 1).step("Request(P1)", "Deliver REQ(P1->P0, sn=1)")
	if ru.holds(invariants.SingleToken) {
		t.Error("single-token holds with a kept copy and a TOKEN in transit")
	}
	ru.step("Request(P0)", "Deliver TOKEN(->P1, LN=[0,0], Q=[])")
	if ru.holds(invariants.Mutex) {
		t.Error("mutex holds")
	}
}

// algorithms.md §1, no-ln-update: the releaser still looks outstanding,
// queues itself and sends the token to itself; the delivery is an entry
// from Idle.
func TestNoLNUpdate(t *testing.T) {
	ru := start(t, NoLNUpdate, 2, 1).step("Request(P1)", "Deliver REQ(P1->P0, sn=1)",
		"Deliver TOKEN(->P1, LN=[0,0], Q=[])", "Exit(P1)")
	if got, want := ru.network(), []string{"TOKEN(->P1, LN=[0,0], Q=[])"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("network = %v, want %v", got, want)
	}
	ru.step("Deliver TOKEN(->P1, LN=[0,0], Q=[])")
	if ru.flags&model.FlagUnrequestedEntry == 0 {
		t.Error("entry from Idle not flagged")
	}
}

// algorithms.md §1, dup-in-q: N = 3, R = 1, the trace given there: P1
// appends 2 a second time, and P2 finally sends the token to itself.
func TestDupInQ(t *testing.T) {
	ru := start(t, DupInQ, 3, 1).step("Request(P0)", "Request(P1)", "Request(P2)",
		"Deliver REQ(P1->P0, sn=1)", "Deliver REQ(P1->P2, sn=1)",
		"Deliver REQ(P2->P0, sn=1)", "Deliver REQ(P2->P1, sn=1)",
		"Exit(P0)", "Deliver TOKEN(->P1, LN=[0,0,0], Q=[2])",
		"Exit(P1)")
	if got, want := ru.network(), []string{"TOKEN(->P2, LN=[0,1,0], Q=[2])"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("network = %v, want %v", got, want)
	}
	ru.step("Deliver TOKEN(->P2, LN=[0,1,0], Q=[2])", "Exit(P2)")
	if got, want := ru.network(), []string{"TOKEN(->P2, LN=[0,1,1], Q=[])"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("network = %v, want %v", got, want)
	}
	if ru.holds(TokenServesWaiting) {
		t.Error("token-serves-waiting holds with a TOKEN to an Idle process")
	}
	ru.step("Deliver TOKEN(->P2, LN=[0,1,1], Q=[])")
	if ru.flags&model.FlagUnrequestedEntry == 0 {
		t.Error("entry from Idle not flagged")
	}
}

// algorithms.md §1, no-increment: the request carries sn == LN[i], is never
// outstanding, and the run ends with P1 Waiting: a deadlock.
func TestNoIncrementDeadlocks(t *testing.T) {
	ru := start(t, NoIncrement, 2, 1).step("Request(P1)", "Deliver REQ(P1->P0, sn=0)", "Request(P0)", "Exit(P0)")
	if e := ru.enabled(); len(e) != 0 {
		t.Fatalf("enabled = %v, want none", e)
	}
	if ru.holds(invariants.NoDeadlock) {
		t.Error("no-deadlock holds with P1 Waiting in a terminal state")
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		variant string
		n, r    int
		want    string
	}{
		{"suzuki-kasami/bogus", 3, 1, `unknown Suzuki-Kasami variant "suzuki-kasami/bogus"; valid: suzuki-kasami, `},
		{Default, 1, 1, "suzuki-kasami needs n >= 2 processes, got n=1"},
		{SendInCS, 2, 0, "suzuki-kasami/send-in-cs needs r >= 1 requests per process, got r=0"},
	} {
		_, err := New(c.variant, c.n, c.r)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("New(%q, %d, %d) = %v, want %q", c.variant, c.n, c.r, err, c.want)
		}
	}
	for _, v := range Variants() {
		if p, err := New(v, 2, 1); err != nil || p.Name != v {
			t.Errorf("New(%q) = %v, %v", v, p, err)
		}
	}
}
