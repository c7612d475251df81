package protocol_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// A token ring that may lose its token (one fault) and regenerates it at
// P0 on a timeout. The timeout is a perfect failure detector: a Guard that
// sees the whole state lets the timer fire only when no token exists,
// held or in transit, so a regenerated token is never a duplicate. The
// timer is named, so labels read Timer(P0, regen).
func ExampleProtocol_guard() {
	type proc struct{ Has bool }
	type msg struct{ To int }
	pass := func(c *protocol.Ctx[proc, msg]) { c.Self.Has = false; c.Send(msg{To: (c.ID + 1) % c.N}) }
	ring := &protocol.Protocol[proc, msg]{
		Name: "lossy-ring",
		N:    3,
		R:    1,
		Options: protocol.Options{
			Faults: 1,
			Timers: 1,
			Params: map[string]int{"n": 3, "r": 1, "faults": 1},
		},
		Format: protocol.Format[proc, msg]{
			TimerNames: []string{"regen"},
			FormatMsg:  func(m *msg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) },
		},
		Init: func(i int) proc { return proc{Has: i == 0} },
		Codec: protocol.Codec[proc, msg]{
			EncodeProc: func(e *model.Encoder, p *proc) { e.Bool(p.Has) },
			DecodeProc: func(d *model.Decoder, p *proc) { p.Has = d.Bool() },
			EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *msg) { m.To = d.Int() },
			To:         func(m *msg) int { return m.To },
		},
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) {
			if c.Self.Has {
				c.Enter()
			}
		},
		OnExit: pass,
		OnDeliver: func(c *protocol.Ctx[proc, msg], _ *msg) {
			c.Self.Has = true
			if c.Phase() == model.Waiting {
				c.Enter()
				return
			}
			pass(c)
		},
		Hooks: protocol.Hooks[proc, msg]{
			// P0's timeout is locally always armed ...
			TimerEnabled: func(i int, _ model.Phase, _ *proc, _ int) bool { return i == 0 },
			// ... but fires only when the token is really gone.
			Guard: func(v *protocol.View[proc, msg], a *protocol.Action[msg]) bool {
				return a.Kind != model.Timer || v.Tokens() == 0
			},
			HoldsToken:   func(_ model.Phase, p *proc) bool { return p.Has },
			CarriesToken: func(*msg) bool { return true },
		},
		OnTimer: func(c *protocol.Ctx[proc, msg], _ int) {
			c.Self.Has = true // a new token
			if c.Phase() == model.Waiting {
				c.Enter()
				return
			}
			pass(c)
		},
	}
	sys := ring.System()
	// single-token asks for exactly one token, which a loss breaks: check
	// that there is never more than one, with mutex and no-deadlock
	props, err := invariants.Select(invariants.Standard(), sys.Info(), "mutex,no-deadlock")
	if err != nil {
		panic(err)
	}
	props = append(props, protocol.Invariant("at-most-one-token", "no duplicate token",
		func(v *protocol.View[proc, msg]) bool { return v.Tokens() <= 1 }))
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Verdict, res.States, "states", res.Transitions, "transitions")
	fmt.Println(sys.Info().Params)

	// the first state (breadth first) where the token is lost
	w := sys.NewWorker()
	var queue [][]byte
	seen := map[string]bool{}
	w.Initial(func(s []byte) bool { queue = append(queue, append([]byte(nil), s...)); return true })
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if w.Snapshot(s).Tokens() == 0 {
			w.Successors(s, func(t *model.Transition, _ []byte) bool {
				fmt.Println(w.Label(s, t))
				return true
			})
			break
		}
		w.Successors(s, func(_ *model.Transition, next []byte) bool {
			if !seen[string(next)] {
				seen[string(next)] = true
				queue = append(queue, append([]byte(nil), next...))
			}
			return true
		})
	}
	// Output:
	// ok 83 states 164 transitions
	// map[faults:1 n:3 r:1]
	// Timer(P0, regen)
	// Request(P1)
	// Request(P2)
}

// Cyclic clients (R = infinity) on a ring whose token carries a round
// number, which P0 raises at every pass: a process enters at most once per
// round. Rounds grow forever, but only their order and equality matter, so
// Normalize replaces every round number (held, carried or remembered) by
// its rank among those in the state, a renaming that keeps behaviour, and
// the state space is finite.
func ExampleProtocol_normalize() {
	type proc struct {
		Has         bool
		Round, Last int // the round of the token held; the round of the last entry
	}
	type msg struct{ To, Round int }
	pass := func(c *protocol.Ctx[proc, msg]) {
		c.Send(msg{To: (c.ID + 1) % c.N, Round: c.Self.Round})
		c.Self.Has, c.Self.Round = false, 0
	}
	enter := func(c *protocol.Ctx[proc, msg]) bool {
		if !c.Self.Has || c.Self.Last == c.Self.Round {
			return false
		}
		c.Self.Last = c.Self.Round
		c.Enter()
		return true
	}
	ring := &protocol.Protocol[proc, msg]{
		Name: "round-ring",
		N:    2,
		Options: protocol.Options{
			Cyclic: true,
		},
		Init: func(i int) proc { return proc{Has: i == 0, Round: 1} },
		Codec: protocol.Codec[proc, msg]{
			EncodeProc: func(e *model.Encoder, p *proc) {
				e.Bool(p.Has)
				e.Int(p.Round)
				e.Int(p.Last)
			},
			DecodeProc: func(d *model.Decoder, p *proc) { p.Has, p.Round, p.Last = d.Bool(), d.Int(), d.Int() },
			EncodeMsg: func(e *model.Encoder, m *msg) {
				e.Int(m.To)
				e.Int(m.Round)
			},
			DecodeMsg: func(d *model.Decoder, m *msg) { m.To, m.Round = d.Int(), d.Int() },
			To:        func(m *msg) int { return m.To },
		},
		Format: protocol.Format[proc, msg]{
			FormatMsg: func(m *msg) string { return fmt.Sprintf("TOKEN(->P%d, round=%d)", m.To, m.Round) },
		},
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) { enter(c) },
		OnExit:    pass,
		OnDeliver: func(c *protocol.Ctx[proc, msg], m *msg) {
			c.Self.Has, c.Self.Round = true, m.Round
			if c.ID == 0 {
				c.Self.Round++ // a new round
			}
			if c.Phase() != model.Waiting || !enter(c) {
				pass(c)
			}
		},
		Hooks: protocol.Hooks[proc, msg]{
			Normalize: func(_ []model.Phase, procs []proc, msgs []msg) {
				var vals []int // every round number in the state, 0 (none) included
				for _, p := range procs {
					vals = append(vals, p.Round, p.Last)
				}
				for _, m := range msgs {
					vals = append(vals, m.Round)
				}
				slices.Sort(vals)
				vals = slices.Compact(vals)
				rank := func(r int) int { k, _ := slices.BinarySearch(vals, r); return k }
				for i := range procs {
					procs[i].Round, procs[i].Last = rank(procs[i].Round), rank(procs[i].Last)
				}
				for k := range msgs {
					msgs[k].Round = rank(msgs[k].Round)
				}
			},
			HoldsToken:   func(_ model.Phase, p *proc) bool { return p.Has },
			CarriesToken: func(*msg) bool { return true },
		},
	}
	sys := ring.System()
	res, err := explore.Check(context.Background(), sys, explore.Options{
		Properties: invariants.Applicable(invariants.Standard(), sys.Info()),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Verdict, res.States, "states")
	// Output:
	// ok 72 states
}

// A LocalInvariant checks each process on its own; a search checks each
// distinct process state once. Here: a process in its CS holds the token.
func ExampleLocalInvariant() {
	type proc struct{ Has bool }
	type msg struct{ To int }
	pass := func(c *protocol.Ctx[proc, msg]) { c.Self.Has = false; c.Send(msg{To: (c.ID + 1) % c.N}) }
	ring := &protocol.Protocol[proc, msg]{
		Name: "ring",
		N:    3,
		R:    1,
		Init: func(i int) proc { return proc{Has: i == 0} },
		Codec: protocol.Codec[proc, msg]{
			EncodeProc: func(e *model.Encoder, p *proc) { e.Bool(p.Has) },
			DecodeProc: func(d *model.Decoder, p *proc) { p.Has = d.Bool() },
			EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *msg) { m.To = d.Int() },
			To:         func(m *msg) int { return m.To },
		},
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) {
			if c.Self.Has {
				c.Enter()
			}
		},
		OnExit: pass,
		OnDeliver: func(c *protocol.Ctx[proc, msg], _ *msg) {
			if c.Phase() == model.Waiting {
				c.Self.Has = true
				c.Enter()
				return
			}
			pass(c)
		},
	}
	inCSHolds := protocol.LocalInvariant[proc, msg]("in-cs-holds", "a process in its CS holds the token",
		func(_ int, phase model.Phase, p *proc) bool { return phase != model.InCS || p.Has })
	res, err := explore.Check(context.Background(), ring.System(), explore.Options{Properties: []model.Property{inCSHolds}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Verdict, res.States, "states")
	// Output:
	// ok 41 states
}
