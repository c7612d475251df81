package modeltest_test

import (
	"fmt"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

type proc struct{ Has bool }
type msg struct{ To int }

// ring is the token ring of package model's example: the token circulates
// P0 -> P1 -> ... and a waiting process enters when it arrives. With
// keepCopy, a process passing the token on keeps it too (a mutant).
func ring(n int, keepCopy bool) model.System { return ringProtocol(n, keepCopy).System() }

// ringProtocol is ring's protocol, for tests that change a handler.
func ringProtocol(n int, keepCopy bool) *protocol.Protocol[proc, msg] {
	next := func(c *protocol.Ctx[proc, msg]) {
		c.Self.Has = keepCopy
		c.Send(msg{To: (c.ID + 1) % c.N})
	}
	name := "ring"
	if keepCopy {
		name = "ring/keep-copy"
	}
	return &protocol.Protocol[proc, msg]{
		Name: name,
		N:    n,
		R:    1,
		Init: func(i int) proc { return proc{Has: i == 0} },
		Codec: protocol.Codec[proc, msg]{
			EncodeProc: func(e *model.Encoder, p *proc) { e.Bool(p.Has) },
			DecodeProc: func(d *model.Decoder, p *proc) { p.Has = d.Bool() },
			EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *msg) { m.To = d.Int() },
			To:         func(m *msg) int { return m.To },
		},
		Format: protocol.Format[proc, msg]{
			FormatMsg: func(m *msg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) },
		},
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) {
			if c.Self.Has {
				c.Enter()
			}
		},
		OnExit: next,
		OnDeliver: func(c *protocol.Ctx[proc, msg], m *msg) {
			c.Self.Has = true
			if c.Phase() == model.Waiting {
				c.Enter()
				return
			}
			next(c)
		},
		Hooks: protocol.Hooks[proc, msg]{
			HoldsToken:   func(_ model.Phase, p *proc) bool { return p.Has },
			CarriesToken: func(*msg) bool { return true },
		},
	}
}

// Verify runs the conformance checks on a model outside a test; in a test,
// modeltest.Check(t, sys) reports the same failures with t.Error.
func ExampleVerify() {
	fmt.Println(modeltest.Verify(ring(3, false)))
	// Output:
	// <nil>
}
