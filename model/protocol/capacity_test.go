package protocol_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/fapp"
	"github.com/tokenmc/tokenmc/algorithms/raymond"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

type capMsg struct{ From, To int }

// capToy is a two-process protocol (R = 1) whose processes never interact:
// Request enters at once after sending reqSends PINGs to the other process,
// Exit sends exitSends PINGs, and a delivery does nothing. Its state graph
// is the product of two copies of one process's graph (its phase and the
// PINGs in transit on its outgoing channel), which the tests enumerate by
// hand.
func capToy(name string, n, reqSends, exitSends int, from func(m *capMsg) int) *protocol.Protocol[struct{}, capMsg] {
	send := func(c *protocol.Ctx[struct{}, capMsg], k int) {
		for range k {
			c.Send(capMsg{From: c.ID, To: (c.ID + 1) % c.N})
		}
	}
	return &protocol.Protocol[struct{}, capMsg]{
		Name: name,
		N:    n,
		R:    1,
		Init: func(int) struct{} { return struct{}{} },
		Codec: protocol.Codec[struct{}, capMsg]{
			EncodeProc: func(*model.Encoder, *struct{}) {},
			DecodeProc: func(*model.Decoder, *struct{}) {},
			EncodeMsg:  func(e *model.Encoder, m *capMsg) { e.Int(m.From); e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *capMsg) { m.From = d.Int(); m.To = d.Int() },
			To:         func(m *capMsg) int { return m.To },
			From:       from,
		},
		Format: protocol.Format[struct{}, capMsg]{
			FormatMsg: func(m *capMsg) string { return fmt.Sprintf("PING(P%d->P%d)", m.From, m.To) },
		},
		OnRequest: func(c *protocol.Ctx[struct{}, capMsg], _ int) {
			send(c, reqSends)
			c.Enter()
		},
		OnExit:    func(c *protocol.Ctx[struct{}, capMsg]) { send(c, exitSends) },
		OnDeliver: func(*protocol.Ctx[struct{}, capMsg], *capMsg) {},
	}
}

func capFrom(m *capMsg) int { return m.From }

// withCapacity returns p's system bounded to k through the public
// interface the command line uses.
func withCapacity(t *testing.T, p *protocol.Protocol[struct{}, capMsg], k int) model.System {
	t.Helper()
	c, ok := p.System().(protosys.Capacitated)
	if !ok {
		t.Fatal("a protocol system does not implement protosys.Capacitated")
	}
	sys, err := c.WithCapacity(k)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// checkAll runs BFS with one and two workers and DFS, and asserts that
// they agree on the verdict, the counts and the capacity-blocked states.
func checkAll(t *testing.T, sys model.System, props []model.Property) *explore.Result {
	t.Helper()
	var first *explore.Result
	for _, o := range []explore.Options{{Workers: 1}, {Workers: 2}, {DFS: true}} {
		o.Properties = props
		res, err := explore.Check(context.Background(), sys, o)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if res.Verdict != first.Verdict || res.CapacityBlocked != first.CapacityBlocked ||
			(res.Verdict == explore.OK && (res.States != first.States || res.Transitions != first.Transitions)) {
			t.Fatalf("dfs=%v workers=%d: %s, %d states, %d transitions, %d capacity-blocked; bfs: %s, %d, %d, %d",
				o.DFS, o.Workers, res.Verdict, res.States, res.Transitions, res.CapacityBlocked,
				first.Verdict, first.States, first.Transitions, first.CapacityBlocked)
		}
	}
	return first
}

func deadlockOnly() []model.Property { return []model.Property{invariants.NoDeadlock} }

// One process of the toy with one PING per Request and per Exit, without
// a bound: (Idle,0) -Request-> (InCS,1); (InCS,1) -Deliver-> (InCS,0) and
// -Exit-> (Done,2); (InCS,0) -Exit-> (Done,1); (Done,2) -> (Done,1) ->
// (Done,0): 6 states, 6 transitions. With capacity 1 the Exit of (InCS,1)
// would leave 2 PINGs on the channel and is disabled, so (Done,2) is
// unreachable: 5 states, 4 transitions. For two processes the graph is the
// product: states 6*6 = 36 and 5*5 = 25, transitions 2*6*6 = 72 and
// 2*5*4 = 40 (each product state has the transitions of both parts).
func TestCapacityDisablesSendsBeyondTheBound(t *testing.T) {
	p := capToy("ping", 2, 1, 1, capFrom)
	for _, c := range []struct {
		k                   int
		states, transitions int64
	}{{0, 36, 72}, {1, 25, 40}, {2, 36, 72}} {
		res := checkAll(t, withCapacity(t, p, c.k), deadlockOnly())
		if res.Verdict != explore.OK || res.States != c.states || res.Transitions != c.transitions || res.CapacityBlocked != 0 {
			t.Errorf("capacity %d: %s, %d states, %d transitions, %d capacity-blocked; want ok, %d, %d, 0",
				c.k, res.Verdict, res.States, res.Transitions, res.CapacityBlocked, c.states, c.transitions)
		}
	}
	// The plain system is the capacity-0 one.
	res := checkAll(t, p.System(), deadlockOnly())
	if res.States != 36 || res.Transitions != 72 {
		t.Errorf("no capacity: %d states, %d transitions; want 36, 72", res.States, res.Transitions)
	}
}

// With two PINGs per Exit and capacity 1, each process stops in its CS
// (Exit is disabled): 2*2 = 4 states, 2*2*1 = 4 transitions, and the state
// where both are InCS has no successor only because of the bound: it is
// capacity-blocked, not a deadlock. Without the bound (and with capacity
// 2) each process goes Idle, InCS, Done with 2, 1, 0 PINGs: 25 states,
// 2*5*4 = 40 transitions, no deadlock.
func TestCapacityBlockedIsNotADeadlock(t *testing.T) {
	p := capToy("double", 2, 0, 2, capFrom)
	for _, c := range []struct {
		k                            int
		states, transitions, blocked int64
	}{{0, 25, 40, 0}, {1, 4, 4, 1}, {2, 25, 40, 0}} {
		res := checkAll(t, withCapacity(t, p, c.k), deadlockOnly())
		if res.Verdict != explore.OK || res.States != c.states || res.Transitions != c.transitions || res.CapacityBlocked != c.blocked {
			t.Errorf("capacity %d: %s, %d states, %d transitions, %d capacity-blocked; want ok, %d, %d, %d",
				c.k, res.Verdict, res.States, res.Transitions, res.CapacityBlocked, c.states, c.transitions, c.blocked)
		}
	}
}

// A real deadlock under a capacity is still one: processes that request
// and never enter stop Waiting with nothing disabled by the bound.
func TestCapacityKeepsRealDeadlocks(t *testing.T) {
	p := capToy("stuck", 2, 0, 0, capFrom)
	p.OnRequest = func(*protocol.Ctx[struct{}, capMsg], int) {}
	for _, dfs := range []bool{false, true} {
		res, err := explore.Check(context.Background(), withCapacity(t, p, 1), explore.Options{Properties: deadlockOnly(), DFS: dfs})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != explore.Violated || res.Violation.Property.Name != invariants.NoDeadlock.Name || res.CapacityBlocked != 0 {
			t.Fatalf("dfs=%v: %s (%v), %d capacity-blocked; want a no-deadlock violation", dfs, res.Verdict, res.Violation, res.CapacityBlocked)
		}
		if !dfs && res.Violation.Len() != 2 {
			t.Fatalf("shortest deadlock has %d steps, want 2 (both Requests)", res.Violation.Len())
		}
	}
}

// The copy being delivered leaves the channel before the handler's sends
// are counted: a process that sends itself a PING on every delivery of
// one keeps exactly one on its channel, so capacity 1 allows it. (Only a
// self-send can share the channel of the delivered message; correct
// models never send one, mutants may.) States: Idle and Waiting with one
// PING; transitions: Request, and the Deliver that loops.
func TestCapacityCountsAfterTheDelivery(t *testing.T) {
	p := capToy("self", 1, 1, 0, capFrom)
	p.OnRequest = func(c *protocol.Ctx[struct{}, capMsg], _ int) { c.Send(capMsg{From: c.ID, To: c.ID}) }
	p.OnDeliver = func(c *protocol.Ctx[struct{}, capMsg], _ *capMsg) { c.Send(capMsg{From: c.ID, To: c.ID}) }
	res := checkAll(t, withCapacity(t, p, 1), deadlockOnly())
	if res.Verdict != explore.OK || res.States != 2 || res.Transitions != 2 || res.CapacityBlocked != 0 {
		t.Fatalf("%s, %d states, %d transitions, %d capacity-blocked; want ok, 2, 2, 0", res.Verdict, res.States, res.Transitions, res.CapacityBlocked)
	}
}

func TestCapacityRefusals(t *testing.T) {
	sys := capToy("nofrom", 2, 1, 1, nil).System().(protosys.Capacitated)
	if _, err := sys.WithCapacity(1); err == nil || !strings.Contains(err.Error(), "From") {
		t.Errorf("WithCapacity(1) without From: %v, want an error naming From", err)
	}
	if _, err := sys.WithCapacity(0); err != nil {
		t.Errorf("WithCapacity(0) without From: %v, want nil (unbounded)", err)
	}
	if _, err := capToy("neg", 2, 1, 1, capFrom).System().(protosys.Capacitated).WithCapacity(-1); err == nil {
		t.Error("WithCapacity(-1): no error")
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "From") {
				t.Errorf("System with Capacity and no From: panic %v, want one naming From", r)
			}
		}()
		p := capToy("nofrom", 2, 1, 1, nil)
		p.Capacity = 1
		p.System()
	}()
	// A From that does not name the sender is caught on the first send: the
	// model's error, which the search reports as such.
	bad := withCapacity(t, capToy("badfrom", 2, 1, 1, func(m *capMsg) int { return m.To }), 1)
	if res, err := explore.Check(context.Background(), bad, explore.Options{Properties: deadlockOnly(), Workers: 1}); err != nil || res.ModelError == nil ||
		!strings.Contains(res.ModelError.Error(), "From must return the sender") {
		t.Errorf("wrong From: result %+v, error %v; want the model error naming From", res, err)
	}
	// Only the workers of a bounded system are CapacityBlockers: liveness
	// checks of unbounded ones go on.
	if _, ok := capToy("plain", 2, 1, 1, capFrom).System().NewWorker().(explore.CapacityBlocker); ok {
		t.Error("the worker of an unbounded protocol is a CapacityBlocker")
	}
	if _, ok := withCapacity(t, capToy("zero", 2, 1, 1, capFrom), 0).NewWorker().(explore.CapacityBlocker); ok {
		t.Error("the worker of WithCapacity(0) is a CapacityBlocker")
	}
	if _, ok := withCapacity(t, capToy("one", 2, 1, 1, capFrom), 1).NewWorker().(explore.CapacityBlocker); !ok {
		t.Error("the worker of WithCapacity(1) is not a CapacityBlocker")
	}
	// Liveness is refused under a capacity, in one line.
	_, err := explore.CheckLiveness(context.Background(), withCapacity(t, capToy("live", 2, 1, 1, capFrom), 1), explore.LivenessOptions{Starvation: true})
	if err == nil || !strings.Contains(err.Error(), "channel capacity") || strings.Contains(err.Error(), "\n") {
		t.Errorf("CheckLiveness under a capacity: %v, want a one-line refusal", err)
	}
}

// An independent construction of the bounded graph: breadth-first over
// the unbounded system, keeping a successor only if no channel of it holds
// more than k messages (the channels read from the rendered network,
// "KIND(Pi->Pj, ...)"). As no state reached has a channel above k, a
// transition leads above k exactly when its own sends do, which is the
// rule of Protocol.Capacity. It counts the states, the transitions kept
// and the states whose every successor was dropped.
func boundedByFilter(t *testing.T, sys model.System, k int) (states, transitions, blocked int64) {
	t.Helper()
	chanRe := regexp.MustCompile(`\(P(\d+)->P(\d+)`)
	over := func(w model.Worker, s []byte) bool {
		count := map[string]int{}
		for _, m := range w.Describe(s).Network {
			ch := chanRe.FindStringSubmatch(m.Message)
			if ch == nil {
				t.Fatalf("message %q names no channel", m.Message)
			}
			count[ch[1]+">"+ch[2]] += m.Count
			if count[ch[1]+">"+ch[2]] > k {
				return true
			}
		}
		return false
	}
	w := sys.NewWorker()
	seen := map[string]bool{}
	var queue [][]byte
	w.Initial(func(s []byte) bool {
		if !seen[string(s)] {
			seen[string(s)] = true
			queue = append(queue, append([]byte(nil), s...))
		}
		return true
	})
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		var next [][]byte
		dropped := false
		w.Successors(s, func(_ *model.Transition, n []byte) bool {
			next = append(next, append([]byte(nil), n...))
			return true
		})
		kept := 0
		for _, n := range next {
			if over(w, n) {
				dropped = true
				continue
			}
			kept++
			if !seen[string(n)] {
				seen[string(n)] = true
				queue = append(queue, n)
			}
		}
		transitions += int64(kept)
		if kept == 0 && dropped {
			blocked++
		}
	}
	return int64(len(seen)), transitions, blocked
}

func TestCapacityMatchesFilteredGraph(t *testing.T) {
	ray, err := raymond.New("", 3, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	fa, err := fapp.New("", 3, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Cyclic clients: infinite without a bound (design notes §10.1), finite
	// with one.
	fc, err := fapp.NewCyclic("", 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		sys  model.System
		k    int
	}{{"raymond", ray.System(), 1}, {"raymond", ray.System(), 2}, {"fapp", fa.System(), 1}, {"fapp-cyclic", fc.System(), 1}} {
		capped, err := c.sys.(protosys.Capacitated).WithCapacity(c.k)
		if err != nil {
			t.Fatal(err)
		}
		res, err := explore.Check(context.Background(), capped, explore.Options{Properties: invariants.Applicable(invariants.Standard(), capped.Info()), Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		states, transitions, blocked := boundedByFilter(t, c.sys, c.k)
		if res.Verdict != explore.OK || res.States != states || res.Transitions != transitions || res.CapacityBlocked != blocked {
			t.Errorf("%s, capacity %d: %s, %d states, %d transitions, %d capacity-blocked; the filtered unbounded graph has %d, %d, %d",
				c.name, c.k, res.Verdict, res.States, res.Transitions, res.CapacityBlocked, states, transitions, blocked)
		}
		t.Logf("%s, capacity %d: %d states, %d transitions, %d capacity-blocked", c.name, c.k, states, transitions, blocked)
	}
}
