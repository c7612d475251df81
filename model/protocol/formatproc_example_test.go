package protocol_test

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// FormatProc renders a process's local state for the views, as FormatMsg
// renders messages: every state description carries it as Text, and the
// state tables (show, replay, check --report, explore, validate) show it
// instead of the JSON of the variables (traces.DisplayFields). Here a
// ring's processes keep a count per process; Describe renders it.
func ExampleProtocol_formatProc() {
	type proc struct {
		Has  bool
		Seen []int // entries seen per process
	}
	type msg struct{ To int }
	ring := &protocol.Protocol[proc, msg]{
		Name: "ring",
		N:    2,
		R:    1,
		Init: func(i int) proc { return proc{Has: i == 0, Seen: make([]int, 2)} },
		Codec: protocol.Codec[proc, msg]{
			EncodeProc: func(e *model.Encoder, p *proc) {
				e.Bool(p.Has)
				e.Ints(p.Seen)
			},
			DecodeProc: func(d *model.Decoder, p *proc) { p.Has = d.Bool(); p.Seen = d.Ints(p.Seen[:0]) },
			EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *msg) { m.To = d.Int() },
			To:         func(m *msg) int { return m.To },
		},
		Format: protocol.Format[proc, msg]{
			FormatMsg:  func(m *msg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) },
			FormatProc: func(p *proc) string { return "seen=" + protocol.FormatInts(p.Seen) },
		},
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) {},
		OnExit:    func(c *protocol.Ctx[proc, msg]) {},
		OnDeliver: func(c *protocol.Ctx[proc, msg], m *msg) {},
		Hooks: protocol.Hooks[proc, msg]{
			HoldsToken:   func(_ model.Phase, p *proc) bool { return p.Has },
			CarriesToken: func(*msg) bool { return true },
		},
	}
	w := ring.System().NewWorker()
	w.Initial(func(s []byte) bool {
		sd := w.Describe(s)
		for _, p := range sd.Processes {
			fmt.Printf("P%d %s: text %q, vars %s\n", p.ID, p.Phase, p.Text, p.Vars)
		}
		return false
	})
	// Output:
	// P0 Idle: text "seen=[0,0]", vars {"Has":true,"Seen":[0,0]}
	// P1 Idle: text "seen=[0,0]", vars {"Has":false,"Seen":[0,0]}
}
