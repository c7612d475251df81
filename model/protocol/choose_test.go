package protocol_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces"
)

type scatterProc struct{ Has bool }
type scatterMsg struct{ To int }

// scatter is a token algorithm with open choices: a process that leaves
// its CS, or receives the token without wanting it, sends the token to
// any other process (Ctx.Choose).
func scatter(n, r int) *protocol.Protocol[scatterProc, scatterMsg] {
	pass := func(c *protocol.Ctx[scatterProc, scatterMsg]) {
		c.Self.Has = false
		to := c.Choose(c.N - 1) // one of the others
		if to >= c.ID {
			to++
		}
		c.Send(scatterMsg{To: to})
	}
	return &protocol.Protocol[scatterProc, scatterMsg]{
		Name: "scatter",
		N:    n,
		R:    r,
		Options: protocol.Options{
			Nondeterministic: true,
		},
		Init: func(i int) scatterProc { return scatterProc{Has: i == 0} },
		Codec: protocol.Codec[scatterProc, scatterMsg]{
			EncodeProc: func(e *model.Encoder, p *scatterProc) { e.Bool(p.Has) },
			DecodeProc: func(d *model.Decoder, p *scatterProc) { p.Has = d.Bool() },
			EncodeMsg:  func(e *model.Encoder, m *scatterMsg) { e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *scatterMsg) { m.To = d.Int() },
			To:         func(m *scatterMsg) int { return m.To },
		},
		Format: protocol.Format[scatterProc, scatterMsg]{
			FormatMsg: func(m *scatterMsg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) },
		},
		OnRequest: func(c *protocol.Ctx[scatterProc, scatterMsg], _ int) {
			if c.Self.Has {
				c.Enter()
			}
		},
		OnExit: pass,
		OnDeliver: func(c *protocol.Ctx[scatterProc, scatterMsg], _ *scatterMsg) {
			if c.Phase() == model.Waiting {
				c.Self.Has = true
				c.Enter()
				return
			}
			pass(c)
		},
		Hooks: protocol.Hooks[scatterProc, scatterMsg]{
			HoldsToken:   func(_ model.Phase, p *scatterProc) bool { return p.Has },
			CarriesToken: func(*scatterMsg) bool { return true },
		},
	}
}

// scatterCounts enumerates the reachable states of scatter(n, r) by hand,
// without the protocol layer: a state is the phases, request counts,
// holders and the receivers of the tokens in transit. It returns the
// distinct states and the transitions (one per action and choice).
func scatterCounts(n, r int) (states, transitions int) {
	type state struct {
		phase []model.Phase
		made  []int
		has   []bool
		net   []int // receivers, sorted
	}
	key := func(s state) string { return fmt.Sprint(s.phase, s.made, s.has, s.net) }
	clone := func(s state) state {
		return state{append([]model.Phase(nil), s.phase...), append([]int(nil), s.made...), append([]bool(nil), s.has...), append([]int(nil), s.net...)}
	}
	init := state{make([]model.Phase, n), make([]int, n), make([]bool, n), nil}
	init.has[0] = true
	seen := map[string]bool{key(init): true}
	queue := []state{init}
	add := func(s state) {
		transitions++
		sort.Ints(s.net)
		if k := key(s); !seen[k] {
			seen[k] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for i := range n {
			switch s.phase[i] {
			case model.Idle:
				if s.made[i] < r {
					t := clone(s)
					t.made[i]++
					t.phase[i] = model.Waiting
					if t.has[i] {
						t.phase[i] = model.InCS
					}
					add(t)
				}
			case model.InCS:
				for j := range n {
					if j != i {
						t := clone(s)
						t.phase[i], t.has[i] = model.Idle, false
						t.net = append(t.net, j)
						add(t)
					}
				}
			}
		}
		for k, to := range s.net {
			if k > 0 && s.net[k-1] == to {
				continue // one delivery per distinct message
			}
			rest := append(append([]int(nil), s.net[:k]...), s.net[k+1:]...)
			if s.phase[to] == model.Waiting {
				t := clone(s)
				t.net = rest
				t.has[to], t.phase[to] = true, model.InCS
				add(t)
				continue
			}
			for j := range n {
				if j != to {
					t := clone(s)
					t.net = append(append([]int(nil), rest...), j)
					add(t)
				}
			}
		}
	}
	return len(seen), transitions
}

func TestChooseExploresEveryAlternative(t *testing.T) {
	for _, c := range []struct{ n, r int }{{2, 1}, {3, 1}, {3, 2}, {4, 1}} {
		sys := scatter(c.n, c.r).System()
		res, err := explore.Check(context.Background(), sys, explore.Options{Exact: true, Properties: invariants.Applicable(invariants.Standard(), sys.Info())})
		if err != nil {
			t.Fatal(err)
		}
		states, transitions := scatterCounts(c.n, c.r)
		if res.States != int64(states) || res.Transitions != int64(transitions) {
			t.Errorf("n=%d r=%d: %d states, %d transitions; the hand enumeration has %d, %d", c.n, c.r, res.States, res.Transitions, states, transitions)
		}
		if res.Verdict != explore.OK {
			t.Errorf("n=%d r=%d: verdict %s", c.n, c.r, res.Verdict)
		}
	}
}

// successorsOf returns the labels and choices of the successors of state.
func successorsOf(w model.Worker, state []byte) (labels []string, choices []int, next [][]byte) {
	w.Successors(state, func(t *model.Transition, s []byte) bool {
		labels = append(labels, w.Label(state, t))
		choices = append(choices, t.Choice)
		next = append(next, append([]byte(nil), s...))
		return true
	})
	return labels, choices, next
}

func TestChooseLabelsAndLocalSteps(t *testing.T) {
	p := scatter(3, 1)
	sys := p.System()
	w := sys.NewWorker()
	var init []byte
	w.Initial(func(s []byte) bool { init = append([]byte(nil), s...); return false })
	// P0 requests and enters at once (it holds the token).
	labels, _, next := successorsOf(w, init)
	if labels[0] != "Request(P0)" {
		t.Fatalf("first action %q", labels[0])
	}
	labels, choices, _ := successorsOf(w, next[0])
	var exits []string
	for k, l := range labels {
		if strings.HasPrefix(l, "Exit(P0)") {
			exits = append(exits, fmt.Sprintf("%s #%d", l, choices[k]))
		}
	}
	want := []string{"Exit(P0) (alternative 1 of 2) #0", "Exit(P0) (alternative 2 of 2) #1"}
	if fmt.Sprint(exits) != fmt.Sprint(want) {
		t.Errorf("exits %q, want %q", exits, want)
	}
	for _, l := range labels {
		if strings.HasPrefix(l, "Request") && strings.Contains(l, "alternative") {
			t.Errorf("%q: an action with one outcome has no alternative in its label", l)
		}
	}

	// The same alternatives, one process at a time.
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	s0 := lw.InitialLocal(0)
	in, err := lw.Step(0, s0, protosys.LocalEvent{Kind: model.Request})
	if err != nil {
		t.Fatal(err)
	}
	for k, to := range []int{1, 2} {
		res, err := lw.Step(0, in.Next, protosys.LocalEvent{Kind: model.Exit, Choice: k})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Sent) != 1 || lw.FormatMsg(res.Sent[0]) != fmt.Sprintf("TOKEN(->P%d)", to) {
			t.Errorf("alternative %d sent %v, want TOKEN(->P%d)", k, res.Sent, to)
		}
	}
	if _, err := lw.Step(0, in.Next, protosys.LocalEvent{Kind: model.Exit, Choice: 2}); !errors.Is(err, protocol.ErrNoAlternative) {
		t.Errorf("alternative 2 of 2: error %v, want ErrNoAlternative", err)
	}
}

func TestChooseMisuse(t *testing.T) {
	// A misuse panics in the handler: the search reports the model's error.
	mustPanic := func(name, want string, run func() string) {
		t.Helper()
		if got := run(); !strings.Contains(got, want) {
			t.Errorf("%s: model error %q, want one mentioning %q", name, got, want)
		}
	}
	run := func(p *protocol.Protocol[scatterProc, scatterMsg]) string {
		res, err := explore.Check(context.Background(), p.System(), explore.Options{Workers: 1})
		if err != nil || res.ModelError == nil {
			return fmt.Sprintf("no model error (%v)", err)
		}
		return res.ModelError.Error()
	}
	p := scatter(3, 1)
	p.Nondeterministic = false
	mustPanic("without Nondeterministic", "Nondeterministic", func() string { return run(p) })
	p = scatter(3, 1)
	p.OnExit = func(c *protocol.Ctx[scatterProc, scatterMsg]) { c.Choose(0) }
	mustPanic("Choose(0)", "at least one alternative", func() string { return run(p) })
	calls := 0
	p = scatter(3, 1)
	p.OnExit = func(c *protocol.Ctx[scatterProc, scatterMsg]) {
		calls++
		c.Self.Has = false
		c.Send(scatterMsg{To: 1 + c.Choose(1+calls%2)%2})
	}
	mustPanic("a choice that changes between runs", "not deterministic", func() string { return run(p) })
}

// A counterexample that goes through a chosen alternative becomes a trace
// that replays, and random walks step through every alternative.
func TestChooseTracesAndWalks(t *testing.T) {
	sys := scatter(3, 1).System()
	p2NeverHolds := protocol.Invariant("p2-never-holds", "P2 never holds the token", func(v *protocol.View[scatterProc, scatterMsg]) bool {
		return !v.Local(2).Has
	})
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: []model.Property{p2NeverHolds}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation == nil || res.Violation.Len() != 4 {
		t.Fatalf("want the 4-step path Request(P0), Exit(P0) to P2, Request(P2), Deliver; got %+v", res.Violation)
	}
	tr, err := traces.FromSteps(sys.NewWorker(), traces.Meta{Algorithm: "scatter", Property: "p2-never-holds", PropertyKind: model.Invariant}, res.Violation.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, s := range tr.Steps {
		actions = append(actions, s.Action)
	}
	if !strings.Contains(strings.Join(actions, "; "), "Exit(P0) (alternative 2 of 2)") {
		t.Errorf("steps %q: the token reaches P2 only by the second alternative of Exit(P0)", actions)
	}
	rr, err := traces.Replay(sys, []model.Property{p2NeverHolds}, tr)
	if err != nil || !rr.OK {
		t.Fatalf("replay: %+v, %v", rr, err)
	}

	// A delivery with several outcomes: P0 enters and passes the token to
	// P1, which does not want it and forwards it to P0 or P2. The trace
	// names the delivered message without the alternative.
	w := sys.NewWorker()
	path := make([][]byte, 1)
	w.Initial(func(s []byte) bool { path[0] = append([]byte(nil), s...); return false })
	for _, want := range []string{"Request(P0)", "Exit(P0) (alternative 1 of 2)", "Deliver TOKEN(->P1) (alternative 2 of 2)"} {
		var next []byte
		cur := path[len(path)-1]
		w.Successors(cur, func(t *model.Transition, s []byte) bool {
			if w.Label(cur, t) == want {
				next = append([]byte(nil), s...)
				return false
			}
			return true
		})
		if next == nil {
			t.Fatalf("no step %q", want)
		}
		path = append(path, next)
	}
	fwd, err := traces.FromSteps(sys.NewWorker(), traces.Meta{Algorithm: "scatter", Property: "p2-never-holds", PropertyKind: model.Invariant}, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if last := fwd.Steps[2]; last.Delivered != "TOKEN(->P1)" || fmt.Sprint(last.Sent) != "[TOKEN(->P2)]" {
		t.Errorf("the forwarding step delivers %q and sends %q, want TOKEN(->P1) and [TOKEN(->P2)]", last.Delivered, last.Sent)
	}

	wres, err := simulate.Run(context.Background(), sys, simulate.Options{Steps: 50, Runs: 200, Seed: 1, Properties: []model.Property{p2NeverHolds}, NoShrink: true})
	if err != nil {
		t.Fatal(err)
	}
	if wres.Violation == nil {
		t.Error("200 random walks never passed the token to P2: they do not take the second alternative")
	}
}
