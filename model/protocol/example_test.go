package protocol_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// A token ring written from scratch with the protocol layer: the token
// circulates P0 -> P1 -> ... and a process enters its CS when the token
// reaches it while it waits. The explorer then checks the generic
// properties on every reachable state.
func Example() {
	type proc struct{ Has bool }
	type msg struct{ To int }
	next := func(c *protocol.Ctx[proc, msg]) { c.Self.Has = false; c.Send(msg{To: (c.ID + 1) % c.N}) }
	ring := &protocol.Protocol[proc, msg]{
		Name: "ring", N: 3, R: 1,
		Init:       func(i int) proc { return proc{Has: i == 0} },
		EncodeProc: func(e *model.Encoder, p *proc) { e.Bool(p.Has) },
		DecodeProc: func(d *model.Decoder, p *proc) { p.Has = d.Bool() },
		EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.To) },
		DecodeMsg:  func(d *model.Decoder, m *msg) { m.To = d.Int() },
		To:         func(m *msg) int { return m.To },
		FormatMsg:  func(m *msg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) },
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) {
			if c.Self.Has {
				c.Enter() // an idle holder enters at once
			}
		},
		OnExit: next,
		OnDeliver: func(c *protocol.Ctx[proc, msg], m *msg) {
			if c.Phase() == model.Waiting {
				c.Self.Has = true
				c.Enter()
				return
			}
			next(c) // not interested: pass the token on
		},
		HoldsToken:   func(_ model.Phase, p *proc) bool { return p.Has },
		CarriesToken: func(*msg) bool { return true },
	}
	sys := ring.System()
	res, err := explore.Check(context.Background(), sys, explore.Options{
		Properties: invariants.Applicable(invariants.Standard(), sys.Info()),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Verdict, res.States, "states", res.Transitions, "transitions, depth", res.Depth)
	// Output:
	// ok 41 states 69 transitions, depth 10
}
