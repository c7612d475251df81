package protocol_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

type cyProc struct{ Has bool }
type cyMsg struct{ To int }

// A token ring whose clients request forever (Cyclic): the state space stays
// finite because no request count is kept, and a process requests again
// after every exit.
func TestCyclicClients(t *testing.T) {
	pass := func(c *protocol.Ctx[cyProc, cyMsg]) { c.Self.Has = false; c.Send(cyMsg{To: (c.ID + 1) % c.N}) }
	p := &protocol.Protocol[cyProc, cyMsg]{
		Name: "cyclic-ring", N: 3, Cyclic: true,
		Init:       func(i int) cyProc { return cyProc{Has: i == 0} },
		EncodeProc: func(e *model.Encoder, p *cyProc) { e.Bool(p.Has) },
		DecodeProc: func(d *model.Decoder, p *cyProc) { p.Has = d.Bool() },
		EncodeMsg:  func(e *model.Encoder, m *cyMsg) { e.Int(m.To) },
		DecodeMsg:  func(d *model.Decoder, m *cyMsg) { m.To = d.Int() },
		To:         func(m *cyMsg) int { return m.To },
		FormatMsg:  func(m *cyMsg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) },
		OnRequest: func(c *protocol.Ctx[cyProc, cyMsg], _ int) {
			if c.Self.Has {
				c.Enter()
			}
		},
		OnExit: pass,
		OnDeliver: func(c *protocol.Ctx[cyProc, cyMsg], _ *cyMsg) {
			if c.Phase() == model.Waiting {
				c.Self.Has = true
				c.Enter()
				return
			}
			pass(c)
		},
		HoldsToken:   func(_ model.Phase, p *cyProc) bool { return p.Has },
		CarriesToken: func(*cyMsg) bool { return true },
	}
	sys := p.System()
	if sys.Info().Requests != 0 {
		t.Fatalf("Info.Requests = %d, want 0 for cyclic clients", sys.Info().Requests)
	}
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: invariants.Applicable(invariants.Standard(), sys.Info())})
	if err != nil {
		t.Fatal(err)
	}
	// Each process is Idle, Waiting or InCS, with or without the token at
	// rest, and the token is held or in transit: a small finite space.
	if res.Verdict != explore.OK || res.States == 0 || res.States > 200 {
		t.Fatalf("verdict %s with %d states", res.Verdict, res.States)
	}
	// P0 can enter, exit and request again: Request(P0) is enabled after Exit(P0).
	w := sys.NewWorker()
	var s []byte
	w.Initial(func(b []byte) bool { s = append([]byte(nil), b...); return false })
	for _, want := range []string{"Request(P0)", "Exit(P0)", "Request(P1)"} {
		var next []byte
		w.Successors(s, func(tr *model.Transition, b []byte) bool {
			if w.Label(s, tr) == want {
				next = append([]byte(nil), b...)
				return false
			}
			return true
		})
		if next == nil {
			t.Fatalf("%s is not enabled", want)
		}
		s = next
	}
	var again bool
	w.Successors(s, func(tr *model.Transition, _ []byte) bool {
		again = again || w.Label(s, tr) == "Request(P0)"
		return true
	})
	if !again {
		t.Fatal("P0 cannot request a second time with cyclic clients")
	}
}
