package protocol_test

import (
	"bytes"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// localCrossCheck explores every reachable state of sys breadth first and
// checks, for every Request, Exit, Timer and Deliver transition, that
// stepping the acting process alone with LocalWorker.Step and assembling
// the result gives exactly the successor the global Worker yields. It
// returns the number of transitions compared.
func localCrossCheck(t *testing.T, sys model.System) int {
	t.Helper()
	ls, ok := sys.(protosys.LocalSystem)
	if !ok {
		t.Fatalf("%s: a protocol system does not implement protosys.LocalSystem", sys.Info().Name)
	}
	w := sys.NewWorker()
	lw := ls.NewLocalWorker()
	var queue [][]byte
	seen := map[string]bool{}
	w.Initial(func(s []byte) bool {
		queue = append(queue, append([]byte(nil), s...))
		seen[string(s)] = true
		return true
	})
	// The initial state is the assembly of the initial local states and messages.
	var locals []protosys.LocalState
	for i := range sys.Info().Processes {
		locals = append(locals, lw.InitialLocal(i))
	}
	if got := lw.Assemble(locals, lw.InitialMessages(), 0); !bytes.Equal(got, queue[0]) {
		t.Fatalf("%s: assembled initial state differs from Worker.Initial", sys.Info().Name)
	}
	compared := 0
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		locals, network, faults := lw.Split(s)
		if again := lw.Assemble(locals, network, faults); !bytes.Equal(again, s) {
			t.Fatalf("Assemble(Split(s)) != s")
		}
		type succ struct {
			t    model.Transition
			next []byte
		}
		var succs []succ
		w.Successors(s, func(tr *model.Transition, next []byte) bool {
			c := *tr
			c.Msg = append([]byte(nil), tr.Msg...)
			succs = append(succs, succ{c, append([]byte(nil), next...)})
			return true
		})
		for _, sc := range succs {
			if !seen[string(sc.next)] {
				seen[string(sc.next)] = true
				queue = append(queue, sc.next)
			}
			if sc.t.Kind == model.Lose {
				continue
			}
			i := sc.t.Proc
			res, err := lw.Step(i, locals[i], protosys.LocalEvent{Kind: sc.t.Kind, Arg: sc.t.Arg, Msg: sc.t.Msg})
			if err != nil {
				t.Fatalf("%s: %s enabled globally but Step says: %v", sys.Info().Name, w.Label(s, &sc.t), err)
			}
			if got := assembleAfter(lw, locals, network, faults, &sc.t, res); !bytes.Equal(got, sc.next) {
				t.Fatalf("%s: local step of %s differs from the global successor", sys.Info().Name, w.Label(s, &sc.t))
			}
			if res.Flags != sc.t.Flags {
				t.Fatalf("%s: flags %v, global %v", w.Label(s, &sc.t), res.Flags, sc.t.Flags)
			}
			for _, m := range res.Sent {
				if to := lw.To(m); to < 0 || to >= sys.Info().Processes {
					t.Fatalf("message %s to P%d", lw.FormatMsg(m), to)
				}
			}
			compared++
		}
	}
	return compared
}

func TestLocalStepMatchesGlobalSuzukiKasami(t *testing.T) {
	for _, v := range []string{suzukikasami.Default, suzukikasami.SendInCS, suzukikasami.KeepCopy} {
		p, err := suzukikasami.New(v, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		if n := localCrossCheck(t, p.System()); n < 100 {
			t.Fatalf("%s: only %d transitions compared", v, n)
		}
	}
}

func TestLocalStepMatchesGlobalTorus(t *testing.T) {
	p, err := torus.New(torus.Repaired, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := localCrossCheck(t, p.System()); n < 100 {
		t.Fatalf("only %d transitions compared", n)
	}
}

func TestLocalStepRejectsDisabledEvents(t *testing.T) {
	p, err := suzukikasami.New(suzukikasami.Default, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	lw := p.System().(protosys.LocalSystem).NewLocalWorker()
	s0 := lw.InitialLocal(0)
	if _, err := lw.Step(0, s0, protosys.LocalEvent{Kind: model.Exit}); err == nil {
		t.Fatal("Exit of an Idle process accepted")
	}
	r, err := lw.Step(0, s0, protosys.LocalEvent{Kind: model.Request})
	if err != nil || !r.Entered || r.Next.Phase != model.InCS || len(r.Sent) != 0 {
		t.Fatalf("P0 holds the token and must enter at once without sending: %+v, %v", r, err)
	}
	if !lw.HoldsToken(r.Next) {
		t.Fatal("P0 does not hold the token after entering")
	}
	if _, err := lw.Step(0, r.Next, protosys.LocalEvent{Kind: model.Request}); err == nil {
		t.Fatal("Request of an InCS process accepted")
	}
	// P1 requests: it broadcasts REQ(P1->P0, sn=1), addressed to P0.
	r1, err := lw.Step(1, lw.InitialLocal(1), protosys.LocalEvent{Kind: model.Request})
	if err != nil || len(r1.Sent) != 1 || lw.To(r1.Sent[0]) != 0 || lw.FormatMsg(r1.Sent[0]) != "REQ(P1->P0, sn=1)" {
		t.Fatalf("P1's request: %+v, %v", r1, err)
	}
	if _, err := lw.Step(1, r1.Next, protosys.LocalEvent{Kind: model.Deliver, Msg: r1.Sent[0]}); err == nil {
		t.Fatal("a message to P0 delivered to P1")
	}
	if _, err := lw.Step(1, r1.Next, protosys.LocalEvent{Kind: model.Request}); err == nil {
		t.Fatal("a second request beyond R=1 accepted")
	}
}

// assembleAfter is the global state after process t.Proc took step t
// locally with result res: its new local state, the delivered message
// (one copy) gone from network, the sent ones added.
func assembleAfter(lw protosys.LocalWorker, locals []protosys.LocalState, network [][]byte, faults int, t *model.Transition, res protosys.LocalResult) []byte {
	nl := append([]protosys.LocalState(nil), locals...)
	nl[t.Proc] = res.Next
	var net [][]byte
	removed := false
	for _, m := range network {
		if t.Kind == model.Deliver && !removed && bytes.Equal(m, t.Msg) {
			removed = true
			continue
		}
		net = append(net, m)
	}
	return lw.Assemble(nl, append(net, res.Sent...), faults)
}
