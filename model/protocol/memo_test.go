package protocol_test

import (
	"bytes"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// agreeWithLocalSteps explores sys breadth-first (at most max states) and
// checks every transition Successors yields against the LocalWorker,
// which runs the handler itself on every call: the successor must be the
// state Assemble builds from the stepped process, the network without the
// delivered (or lost) copy plus the sends, and the faults used, and the
// flags must be the step's. Successors reuses the effects of local steps
// it has met before (the memo), so this checks that a remembered effect
// is the handler's, whatever state it is reused in. It returns the number
// of states and transitions checked.
func agreeWithLocalSteps(t *testing.T, sys model.System, max int) (states, transitions int) {
	t.Helper()
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	w := sys.NewWorker()
	seen := map[string]bool{}
	var queue [][]byte
	add := func(s []byte) {
		if len(seen) < max && !seen[string(s)] {
			seen[string(s)] = true
			queue = append(queue, bytes.Clone(s))
		}
	}
	w.Initial(func(s []byte) bool { add(s); return true })
	for k := 0; k < len(queue); k++ {
		state := queue[k]
		locals, network, faults := lw.Split(state)
		w.Successors(state, func(tr *model.Transition, next []byte) bool {
			transitions++
			want, flags := localSuccessor(t, lw, locals, network, faults, tr)
			if !bytes.Equal(next, want) || tr.Flags != flags {
				t.Fatalf("%s of state %x: Successors gives %x (flags %b), the local step %x (flags %b)",
					w.Label(state, tr), state, next, tr.Flags, want, flags)
			}
			add(next)
			return true
		})
	}
	return len(queue), transitions
}

// localSuccessor is the successor of transition tr computed with lw.
func localSuccessor(t *testing.T, lw protosys.LocalWorker, locals []protosys.LocalState, network [][]byte, faults int, tr *model.Transition) ([]byte, model.Flags) {
	t.Helper()
	next := append([]protosys.LocalState(nil), locals...)
	var net [][]byte
	removed := false
	for _, m := range network {
		if !removed && (tr.Kind == model.Deliver || tr.Kind == model.Lose) && bytes.Equal(m, tr.Msg) {
			removed = true
			continue
		}
		net = append(net, m)
	}
	if tr.Kind == model.Lose {
		return lw.Assemble(next, net, faults+1), 0
	}
	ev := protosys.LocalEvent{Kind: tr.Kind, Arg: tr.Arg}
	if tr.Kind == model.Deliver {
		ev = protosys.LocalEvent{Kind: tr.Kind, Msg: tr.Msg}
	}
	res, err := lw.Step(tr.Proc, locals[tr.Proc], ev)
	if err != nil {
		t.Fatalf("local step %v of P%d: %v", tr.Kind, tr.Proc, err)
	}
	next[tr.Proc] = res.Next
	return lw.Assemble(next, append(net, res.Sent...), faults), res.Flags
}

// Successors agrees with the local steps on the benchmark models, whose
// searches meet every local step many times.
func TestSuccessorsAgreeWithLocalSteps(t *testing.T) {
	tp, err := torus.New(torus.Literal, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := suzukikasami.New(suzukikasami.Default, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, sys := range []model.System{tp.System(), sk.System()} {
		states, transitions := agreeWithLocalSteps(t, sys, 10000)
		if transitions < 2*states {
			t.Errorf("%s: only %d transitions over %d states", sys.Info().Name, transitions, states)
		}
	}
}

// counter is a two-process protocol: P0's timer counts its local state up
// to limit and back to 0, entering the CS (flagged, in group value%2) at
// every multiple of 3 while Waiting; P1 has no timer and never enters
// (it only requests). Every local step of P0 recurs with each of P1's
// three states, and there are more of them than the memo keeps, so that
// the memo is reused and starts over during the search.
func counter(limit int) model.System {
	type cmsg struct{ To int }
	return (&protocol.Protocol[int, cmsg]{
		Name: "counter", N: 2,
		Options: protocol.Options{Cyclic: true, Groups: 2, Timers: 1},
		Init:    func(int) int { return 0 },
		Codec: protocol.Codec[int, cmsg]{
			EncodeProc: func(e *model.Encoder, c *int) { e.Int(*c) },
			DecodeProc: func(d *model.Decoder, c *int) { *c = d.Int() },
			EncodeMsg:  func(e *model.Encoder, m *cmsg) { e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *cmsg) { m.To = d.Int() },
			To:         func(m *cmsg) int { return m.To },
		},
		OnRequest: func(*protocol.Ctx[int, cmsg], int) {},
		OnExit:    func(*protocol.Ctx[int, cmsg]) {},
		OnDeliver: func(*protocol.Ctx[int, cmsg], *cmsg) {},
		Hooks: protocol.Hooks[int, cmsg]{
			TimerEnabled: func(i int, _ model.Phase, _ *int, _ int) bool { return i == 0 },
		},
		OnTimer: func(c *protocol.Ctx[int, cmsg], _ int) {
			*c.Self = (*c.Self + 1) % limit
			if *c.Self%3 == 0 && c.Phase() == model.Waiting {
				c.EnterGroup(*c.Self % 2)
				c.AddFlags(model.FlagsUser << (*c.Self % 5))
			}
		},
	}).System()
}

// A search with more distinct local steps than the memo keeps still
// agrees with the local steps (the memo starts over) and finds the whole
// state space. By the rules of counter, P0 is Idle in group 0 at every
// value (timers from the start) and in group 1 (exits from group 1),
// Waiting in either group at every value, InCS in either group (entered
// in group value%2 at multiples of 3, whose parity alternates, then
// timers) at every value: 6*limit states, with 3 transitions from each
// Idle one (two requests, a timer), 1 from each Waiting one (its timer)
// and 2 from each InCS one (exit, timer), 12*limit in all. P1 is Idle in
// group 0 or Waiting in either group, with 2 requests from Idle. So there
// are 3*6*limit states and 3*12*limit + 2*6*limit transitions.
func TestSuccessorsAgreeBeyondTheMemo(t *testing.T) {
	const limit = 3000 // P0's local steps: 12*limit > 2^14
	states, transitions := agreeWithLocalSteps(t, counter(limit), 1<<20)
	if states != 18*limit || transitions != 48*limit {
		t.Errorf("%d states, %d transitions; want %d, %d", states, transitions, 18*limit, 48*limit)
	}
}
