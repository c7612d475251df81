package explore

import (
	"fmt"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// ring is a small token ring used to test the explorer without depending
// on the algorithms packages: the token travels P0 -> P1 -> ... and a
// waiting process enters when it arrives. With leak set, a process that
// passes the token on also keeps it (a mutant that breaks single-token and
// then mutex).
type ringProc struct{ Has bool }
type ringMsg struct{ To int }

func ring(n, r int, leak bool) model.System {
	pass := func(c *protocol.Ctx[ringProc, ringMsg]) {
		c.Self.Has = leak
		c.Send(ringMsg{To: (c.ID + 1) % c.N})
	}
	name := "ring"
	if leak {
		name = "ring/leak"
	}
	p := &protocol.Protocol[ringProc, ringMsg]{
		Name: name, N: n, R: r,
		Init:       func(i int) ringProc { return ringProc{Has: i == 0} },
		EncodeProc: func(e *model.Encoder, p *ringProc) { e.Bool(p.Has) },
		DecodeProc: func(d *model.Decoder, p *ringProc) { p.Has = d.Bool() },
		EncodeMsg:  func(e *model.Encoder, m *ringMsg) { e.Int(m.To) },
		DecodeMsg:  func(d *model.Decoder, m *ringMsg) { m.To = d.Int() },
		To:         func(m *ringMsg) int { return m.To },
		FormatMsg:  func(m *ringMsg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) },
		OnRequest: func(c *protocol.Ctx[ringProc, ringMsg], _ int) {
			if c.Self.Has {
				c.Enter()
			}
		},
		OnExit: pass,
		OnDeliver: func(c *protocol.Ctx[ringProc, ringMsg], _ *ringMsg) {
			if c.Phase() == model.Waiting {
				c.Self.Has = true
				c.Enter()
				return
			}
			if c.Self.Has { // a leaked copy: absorb the token
				return
			}
			pass(c)
		},
		HoldsToken:   func(_ model.Phase, p *ringProc) bool { return p.Has },
		CarriesToken: func(*ringMsg) bool { return true },
	}
	return p.System()
}

func standard(sys model.System) []model.Property {
	return invariants.Applicable(invariants.Standard(), sys.Info())
}
