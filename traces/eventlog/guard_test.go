package eventlog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// pingTimer is a two-process protocol with a whole-state guard: P0's
// request sends P1 a message and enters; P1's timer (once) may fire only
// when no message is in transit (guard quiet), never (guard never), or
// whenever it is enabled (no guard).
func pingTimer(guard int) model.System {
	type proc struct{ Ticks int }
	type msg struct{ To int }
	p := &protocol.Protocol[proc, msg]{
		Name: "ping-timer",
		N:    2,
		R:    1,
		Options: protocol.Options{
			Timers: 1,
		},
		Init: func(int) proc { return proc{} },
		Codec: protocol.Codec[proc, msg]{
			EncodeProc: func(e *model.Encoder, p *proc) { e.Int(p.Ticks) },
			DecodeProc: func(d *model.Decoder, p *proc) { p.Ticks = d.Int() },
			EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *msg) { m.To = d.Int() },
			To:         func(m *msg) int { return m.To },
		},
		Format: protocol.Format[proc, msg]{
			FormatMsg: func(m *msg) string { return fmt.Sprintf("M(->P%d)", m.To) },
		},
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) {
			c.Send(msg{To: 1 - c.ID})
			c.Enter()
		},
		OnExit:    func(*protocol.Ctx[proc, msg]) {},
		OnDeliver: func(*protocol.Ctx[proc, msg], *msg) {},
		Hooks: protocol.Hooks[proc, msg]{
			TimerEnabled: func(i int, _ model.Phase, p *proc, _ int) bool { return i == 1 && p.Ticks < 1 },
		},
		OnTimer: func(c *protocol.Ctx[proc, msg], _ int) { c.Self.Ticks++ },
	}
	switch guard {
	case quiet:
		p.Guard = func(v *protocol.View[proc, msg], a *protocol.Action[msg]) bool {
			return a.Kind != model.Timer || v.InTransit() == 0
		}
	case never:
		p.Guard = func(_ *protocol.View[proc, msg], a *protocol.Action[msg]) bool { return a.Kind != model.Timer }
	}
	return p.System()
}

const (
	none = iota
	quiet
	never
)

// A guarded model's log is replayed in its file order (the order the
// runtime took the steps in), with the guard asked on the state reached:
// P1's timer is explained after the message P0 sent has been received, or
// before P0 sent it, but not while it is in transit, which the same log
// against the unguarded model allows.
func TestGuardedLogsFollowFileOrder(t *testing.T) {
	const header = `{"format":"tokenmc-eventlog","version":1,"algorithm":"ping-timer","params":{"n":2,"r":1}}` + "\n"
	const (
		request = `{"p":0,"seq":1,"kind":"request"}
{"p":0,"seq":2,"kind":"send","msg":"M(->P1)","mid":"a","to":1}
{"p":0,"seq":3,"kind":"enter"}
`
		timer1  = `{"p":1,"seq":1,"kind":"timer"}` + "\n"
		receive = `{"p":1,"seq":1,"kind":"receive","msg":"M(->P1)","mid":"a","from":0}` + "\n"
		timer2  = `{"p":1,"seq":2,"kind":"timer"}` + "\n"
		recv2   = `{"p":1,"seq":2,"kind":"receive","msg":"M(->P1)","mid":"a","from":0}` + "\n"
	)
	for _, c := range []struct {
		name, log string
		guard     int
		ok        bool
	}{
		{"timer after the receive", request + receive + timer2, quiet, true},
		{"timer before the send", timer1 + request + recv2, quiet, true},
		{"timer while in transit", request + timer1 + recv2, quiet, false},
		{"timer while in transit, unguarded", request + timer1 + recv2, none, true},
		{"a timer that never fires", request + receive + timer2, never, false},
	} {
		l, err := eventlog.Read(strings.NewReader(header+c.log), c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sys := pingTimer(c.guard)
		res := eventlog.Validate(sys, l)
		if res.OK != c.ok {
			t.Fatalf("%s: ok %v (%s: %s), want %v", c.name, res.OK, res.Failed, res.Reason, c.ok)
		}
		if !c.ok && (res.Failed == nil || res.Failed.Kind != eventlog.KindTimer || !strings.Contains(res.Reason, "guard")) {
			t.Fatalf("%s: failed at %s: %s; want the timer refused by the guard", c.name, res.Failed, res.Reason)
		}
	}
}

// The search of a partial log asks the guard too: a log that records
// only P1's timer is a behaviour of the model whose timer fires when
// nothing is in transit (before P0's request) but not of the model whose
// guard never lets it fire.
func TestGuardedPartialLog(t *testing.T) {
	const text = `{"format":"tokenmc-eventlog","version":1,"algorithm":"ping-timer","params":{"n":2,"r":1},"observed":{"kinds":["timer"]}}
{"p":1,"seq":1,"kind":"timer"}
`
	for _, c := range []struct {
		guard int
		ok    bool
	}{{none, true}, {quiet, true}, {never, false}} {
		l, err := eventlog.Read(strings.NewReader(text), "partial")
		if err != nil {
			t.Fatal(err)
		}
		if res := eventlog.Validate(pingTimer(c.guard), l); res.OK != c.ok {
			t.Fatalf("guard %d: ok %v (%s), want %v", c.guard, res.OK, res.Reason, c.ok)
		}
	}
}
