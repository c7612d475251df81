package explore_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/traces"
)

// handoff is a hand-made two-process token algorithm whose token moves
// forever. The token carries the process it is meant for; a waiting
// process enters when the token reaches it and is meant for it (P0, the
// home, enters whenever it waits). In the starving variant every hand-off
// addresses the token to P0 again, so the token always returns to P0 first
// and P1, though it sees the token every other step, never may use it. In
// the fair variant each hand-off addresses the token to the receiver.
type hoProc struct{ Has bool }
type hoMsg struct{ To, For int }

func handoff(r int, starving bool) model.System {
	name := "handoff/fair"
	if starving {
		name = "handoff/starving"
	}
	pass := func(c *protocol.Ctx[hoProc, hoMsg]) {
		c.Self.Has = false
		to := 1 - c.ID
		forP := to
		if starving {
			forP = 0
		}
		c.Send(hoMsg{To: to, For: forP})
	}
	p := &protocol.Protocol[hoProc, hoMsg]{
		Name: name,
		N:    2,
		R:    r,
		Init: func(int) hoProc { return hoProc{} },
		Hooks: protocol.Hooks[hoProc, hoMsg]{
			InitialMessages: func() []hoMsg { return []hoMsg{{To: 0, For: 0}} },
			HoldsToken:      func(_ model.Phase, p *hoProc) bool { return p.Has },
			CarriesToken:    func(*hoMsg) bool { return true },
		},
		Codec: protocol.Codec[hoProc, hoMsg]{
			EncodeProc: func(e *model.Encoder, p *hoProc) { e.Bool(p.Has) },
			DecodeProc: func(d *model.Decoder, p *hoProc) { p.Has = d.Bool() },
			EncodeMsg:  func(e *model.Encoder, m *hoMsg) { e.Int(m.To); e.Int(m.For) },
			DecodeMsg:  func(d *model.Decoder, m *hoMsg) { m.To = d.Int(); m.For = d.Int() },
			To:         func(m *hoMsg) int { return m.To },
		},
		Format: protocol.Format[hoProc, hoMsg]{
			FormatMsg: func(m *hoMsg) string { return fmt.Sprintf("TOKEN(->P%d, for P%d)", m.To, m.For) },
		},
		OnRequest: func(*protocol.Ctx[hoProc, hoMsg], int) {},
		OnExit:    pass,
		OnDeliver: func(c *protocol.Ctx[hoProc, hoMsg], m *hoMsg) {
			if c.Phase() == model.Waiting && (m.For == c.ID || c.ID == 0) {
				c.Self.Has = true
				c.Enter()
				return
			}
			pass(c)
		},
	}
	return p.System()
}

func checkStarvation(t *testing.T, sys model.System, fair model.Fairness) *explore.LivenessResult {
	t.Helper()
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true, Fairness: fair})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// lassoTrace builds the trace of a lasso, writes it, reads it back and
// replays it; it returns the replay result.
func lassoTrace(t *testing.T, sys model.System, l explore.Lasso, fair model.Fairness) (*traces.Trace, traces.Result) {
	t.Helper()
	meta := traces.Meta{Algorithm: sys.Info().Name, Params: map[string]int{"n": sys.Info().Processes, "r": sys.Info().Requests},
		Property: invariants.NameStarvationFreedom, Options: map[string]string{"fairness": fair.String()}, Loop: &l.Loop, WaitingProcess: &l.Process}
	tr, err := traces.FromSteps(sys.NewWorker(), meta, l.Path, l.Actions)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "lasso.trace.json")
	if err := traces.WriteFile(file, tr); err != nil {
		t.Fatal(err)
	}
	back, err := traces.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := traces.Replay(sys, nil, back)
	if err != nil {
		t.Fatal(err)
	}
	return back, res
}

func TestHandoffStarves(t *testing.T) {
	sys := handoff(1, true)
	res := checkStarvation(t, sys, model.WeakFairness)
	if res.Verdict != explore.Violated || len(res.Starving) != 1 || res.Deadlock != nil {
		t.Fatalf("verdict %s, starving %d, deadlock %v; want P1 alone to starve", res.Verdict, len(res.Starving), res.Deadlock)
	}
	l := res.Starving[0]
	// Request(P1), then forever: the token to P0, back to P1 (meant for P0).
	if l.Process != 1 || l.Loop != 1 || l.CycleLen() != 2 {
		t.Fatalf("lasso of P%d, prefix %d, cycle %d; want P1, prefix 1, cycle 2", l.Process, l.Loop, l.CycleLen())
	}
	if safe, err := explore.Check(context.Background(), sys, explore.Options{Workers: 1}); err != nil || safe.States != res.States || safe.Transitions != res.Transitions {
		t.Errorf("liveness graph %d states %d transitions, safety search %d/%d", res.States, res.Transitions, safe.States, safe.Transitions)
	}
	tr, rr := lassoTrace(t, sys, l, model.WeakFairness)
	if !rr.OK {
		t.Fatalf("the lasso does not replay: %s", rr.Reason)
	}
	var actions []string
	for _, s := range tr.Steps {
		actions = append(actions, s.Action)
	}
	want := "Request(P1) | Deliver TOKEN(->P0, for P0) | Deliver TOKEN(->P1, for P0)"
	if got := strings.Join(actions, " | "); got != want {
		t.Errorf("lasso steps:\n got %s\nwant %s", got, want)
	}
	var b bytes.Buffer
	if err := traces.Render(&b, tr); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"=== the cycle starts here: steps 2..3 repeat forever ===", "=== back to the state before step 2", "P1 is Waiting forever"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("rendering lacks %q:\n%s", s, b.String())
		}
	}
}

func TestHandoffFairPasses(t *testing.T) {
	for _, r := range []int{1, 2} {
		for _, fair := range []model.Fairness{model.WeakFairness, model.StrongFairness} {
			res := checkStarvation(t, handoff(r, false), fair)
			if res.Verdict != explore.OK || len(res.Starving) != 0 {
				t.Errorf("R=%d %s: verdict %s, starving %d; want ok", r, fair, res.Verdict, len(res.Starving))
			}
			// Cross-check the graph with the safety search.
			safe, err := explore.Check(context.Background(), handoff(r, false), explore.Options{Workers: 1})
			if err != nil || safe.States != res.States || safe.Transitions != res.Transitions {
				t.Errorf("R=%d: liveness graph %d states %d transitions, safety search %d/%d", r, res.States, res.Transitions, safe.States, safe.Transitions)
			}
		}
	}
}

// The lasso found under weak fairness of the graph of TestWeakVersusStrong
// replays under weak fairness, and is refused when the trace claims strong
// fairness (m0 is enabled in the cycle and never delivered).
func TestReplayRejectsUnfairCycle(t *testing.T) {
	g := &graphSys{nodes: 4, procs: 2, waiting: []uint8{0, 1, 1, 0}, edges: [][]gEdge{
		{{Kind: model.Request, Proc: 0, To: 1}},
		{{Kind: model.Exit, Proc: 1, To: 2}, {Kind: model.Deliver, Proc: 0, Msg: 0, To: 3}},
		{{Kind: model.Exit, Proc: 1, To: 1}},
		{{Kind: model.Timer, Proc: 1, To: 3}},
	}}
	res := checkStarvation(t, g, model.WeakFairness)
	if len(res.Starving) != 1 {
		t.Fatalf("want one lasso, got %d", len(res.Starving))
	}
	tr, rr := lassoTrace(t, g, res.Starving[0], model.WeakFairness)
	if !rr.OK {
		t.Fatalf("weak: %s", rr.Reason)
	}
	tr.Options["fairness"] = "strong"
	rr, err := traces.Replay(g, nil, tr)
	if err != nil {
		t.Fatal(err)
	}
	want := "all 3 steps replay and return to the cycle's start, but the cycle is not fair: Deliver m0(->P0) is enabled in it and never taken (strong fairness)"
	if rr.OK || rr.Reason != want {
		t.Errorf("strong: OK=%v %q\nwant %q", rr.OK, rr.Reason, want)
	}
	// A cycle that skips the Exit(P1) enabled throughout is unfair under
	// any fairness: drop the Exit edge 2 -> 1 and loop at node 1 by a timer.
	g.edges[1] = append(g.edges[1], gEdge{Kind: model.Timer, Proc: 0, To: 1})
	l := explore.Lasso{Process: 0, Path: [][]byte{{0}, {1}, {1}}, Actions: []int{0, 2}, Loop: 1}
	tr, rr = lassoTrace(t, g, l, model.WeakFairness)
	want = "all 2 steps replay and return to the cycle's start, but the cycle is not fair: Exit(P1) is enabled throughout it and never taken (weak fairness)"
	if rr.OK || rr.Reason != want {
		t.Errorf("weak: OK=%v %q\nwant %q", rr.OK, rr.Reason, want)
	}
	// Not waiting throughout: claim P1 starves.
	one := 1
	tr.WaitingProcess = &one
	if rr, _ = traces.Replay(g, nil, tr); rr.OK || !strings.Contains(rr.Reason, "P1 is Idle before step 2, inside the cycle") {
		t.Errorf("P1: %+v", rr)
	}
}

func buildAlgo(t testing.TB, name string, params map[string]int) model.System {
	t.Helper()
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, params)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// torus.md A4: the literal torus starves under weak fairness; at d=2, R=1
// P1's shortest lasso prefix has 9 steps (predicted by hand and by an
// independent enumeration). The repaired torus does not starve.
func TestTorusStarvation(t *testing.T) {
	lit := buildAlgo(t, "torus/literal", map[string]int{"n": 4, "r": 1})
	res := checkStarvation(t, lit, model.WeakFairness)
	if res.States != 58868 || res.Transitions != 199790 {
		t.Errorf("graph %d states %d transitions; semantics.md pins 58868/199790", res.States, res.Transitions)
	}
	prefix := map[int]int{}
	for _, l := range res.Starving {
		prefix[l.Process] = l.Loop
		tr, rr := lassoTrace(t, lit, l, model.WeakFairness)
		if !rr.OK {
			t.Errorf("P%d's lasso does not replay: %s", l.Process, rr.Reason)
		}
		if l.Process != 1 {
			continue
		}
		// A4's idle cycle: the token is delivered to P2, P3, P1, P0 and
		// back, passing P1 (a skip node) without serving it.
		var cycle []string
		for _, s := range tr.Steps[l.Loop:] {
			cycle = append(cycle, fmt.Sprintf("%s P%d", s.Kind, s.Process))
		}
		if got := strings.Join(cycle, ", "); got != "Deliver P2, Deliver P3, Deliver P1, Deliver P0" {
			t.Errorf("P1's cycle: %s", got)
		}
	}
	if len(prefix) != 4 || prefix[1] != 9 {
		t.Errorf("starving prefixes %v; want all four processes, P1 with a 9-step prefix", prefix)
	}
	rep := checkStarvation(t, buildAlgo(t, "torus", map[string]int{"n": 4, "r": 1}), model.WeakFairness)
	if rep.Verdict != explore.OK || rep.States != 88608 {
		t.Errorf("repaired torus: %s, %d states, starving %d; want ok on 88608 states", rep.Verdict, rep.States, len(rep.Starving))
	}
}

// Under a state bound the graph is cut; states that could not be expanded
// completely are left out of the analysis, so a lasso found is still real
// (it replays) and the repaired torus gets "incomplete", never a false
// lasso.
func TestLivenessBounded(t *testing.T) {
	for _, bound := range []int64{2000, 20000} {
		lit := buildAlgo(t, "torus/literal", map[string]int{"n": 4, "r": 1})
		res, err := explore.CheckLiveness(context.Background(), lit, explore.LivenessOptions{Starvation: true, Options: explore.Options{MaxStates: bound}})
		if err != nil {
			t.Fatal(err)
		}
		if res.States > bound || res.StopReason != "max-states" {
			t.Errorf("bound %d: %d states, stop reason %q", bound, res.States, res.StopReason)
		}
		for _, l := range res.Starving {
			if _, rr := lassoTrace(t, lit, l, model.WeakFairness); !rr.OK {
				t.Errorf("bound %d: P%d's lasso does not replay: %s", bound, l.Process, rr.Reason)
			}
		}
		rep, err := explore.CheckLiveness(context.Background(), buildAlgo(t, "torus", map[string]int{"n": 4, "r": 1}),
			explore.LivenessOptions{Starvation: true, Options: explore.Options{MaxStates: bound}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != explore.Incomplete || len(rep.Starving) != 0 {
			t.Errorf("repaired torus, bound %d: %s with %d lassos; want incomplete", bound, rep.Verdict, len(rep.Starving))
		}
	}
	res, err := explore.CheckLiveness(context.Background(), buildAlgo(t, "torus/literal", map[string]int{"n": 4, "r": 1}),
		explore.LivenessOptions{Starvation: true, Options: explore.Options{MaxDepth: 13}})
	if err != nil {
		t.Fatal(err)
	}
	// P1's lasso (prefix 9, cycle 4) has its states at depths <= 12, all
	// expanded under MaxDepth 13.
	found := false
	for _, l := range res.Starving {
		found = found || l.Process == 1
	}
	if res.StopReason != "max-depth" || !found {
		t.Errorf("max-depth 13: stop %q, starving %d; want P1's lasso", res.StopReason, len(res.Starving))
	}
}

func TestLivenessInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := explore.CheckLiveness(ctx, buildAlgo(t, "torus/literal", map[string]int{"n": 4, "r": 1}), explore.LivenessOptions{Starvation: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.Incomplete || res.StopReason != "interrupted" || len(res.Starving) != 0 {
		t.Errorf("cancelled: %s %q, %d lassos", res.Verdict, res.StopReason, len(res.Starving))
	}
	if _, err := explore.CheckLiveness(context.Background(), handoff(1, true), explore.LivenessOptions{Options: explore.Options{MaxStates: -1}}); err == nil {
		t.Error("negative MaxStates accepted")
	}
}
