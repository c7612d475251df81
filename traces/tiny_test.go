package traces_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/traces"
)

// The tests run on "tiny", a two-process token-passing algorithm written
// here with the protocol layer, so that they depend on nothing but model:
//
//   - Request(i): the holder enters at once; anyone else sends REQ to the
//     other process and waits.
//   - Deliver REQ to i: an Idle holder hands the token over (TOKEN);
//     otherwise i remembers that the other process is pending.
//   - Exit(i): if the other process is pending, pass it the token.
//   - Deliver TOKEN to i: i holds the token and, Waiting, enters.
//
// Its broken variants each violate one property in a few steps:
//
//	tiny/eager      hands the token over even while InCS        -> mutex
//	tiny/push       passes the token on every Exit; a process
//	                that receives it enters, requested or not   -> no-unrequested-entry
//	tiny/forgetful  ignores a REQ it cannot serve at once       -> no-deadlock
//
// and with faults > 0 a lost REQ also leaves a process Waiting forever.

type tinyProc struct {
	Has     bool `json:"has"`     // holds the token
	Pending bool `json:"pending"` // the other process has asked for it
}

const (
	tinyREQ = iota
	tinyTOKEN
)

type tinyMsg struct {
	Kind, From, To int
}

func tinyProtocol(name string, r, faults int) *protocol.Protocol[tinyProc, tinyMsg] {
	pass := func(c *protocol.Ctx[tinyProc, tinyMsg]) {
		c.Self.Has, c.Self.Pending = false, false
		c.Send(tinyMsg{tinyTOKEN, c.ID, 1 - c.ID})
	}
	return &protocol.Protocol[tinyProc, tinyMsg]{
		Name: name,
		N:    2,
		R:    r,
		Options: protocol.Options{
			Faults: faults,
		},
		Init: func(i int) tinyProc { return tinyProc{Has: i == 0} },
		Codec: protocol.Codec[tinyProc, tinyMsg]{
			EncodeProc: func(e *model.Encoder, p *tinyProc) {
				e.Bool(p.Has)
				e.Bool(p.Pending)
			},
			DecodeProc: func(d *model.Decoder, p *tinyProc) {
				p.Has = d.Bool()
				p.Pending = d.Bool()
			},
			EncodeMsg: func(e *model.Encoder, m *tinyMsg) {
				e.Uint(uint64(m.Kind))
				e.Uint(uint64(m.From))
				e.Uint(uint64(m.To))
			},
			DecodeMsg: func(d *model.Decoder, m *tinyMsg) {
				m.Kind, m.From, m.To = int(d.Uint()), int(d.Uint()), int(d.Uint())
			},
			To: func(m *tinyMsg) int { return m.To },
		},
		Format: protocol.Format[tinyProc, tinyMsg]{
			FormatMsg: func(m *tinyMsg) string {
				return fmt.Sprintf("%s(P%d->P%d)", [...]string{"REQ", "TOKEN"}[m.Kind], m.From, m.To)
			},
		},
		OnRequest: func(c *protocol.Ctx[tinyProc, tinyMsg], _ int) {
			if c.Self.Has {
				c.Enter()
				return
			}
			c.Send(tinyMsg{tinyREQ, c.ID, 1 - c.ID})
		},
		OnExit: func(c *protocol.Ctx[tinyProc, tinyMsg]) {
			if c.Self.Pending || name == "tiny/push" {
				pass(c)
			}
		},
		OnDeliver: func(c *protocol.Ctx[tinyProc, tinyMsg], m *tinyMsg) {
			switch {
			case m.Kind == tinyTOKEN:
				c.Self.Has = true
				if c.Phase() == model.Waiting || name == "tiny/push" {
					c.Enter()
				}
			case c.Self.Has && (c.Phase() == model.Idle || name == "tiny/eager"):
				pass(c)
			case name != "tiny/forgetful":
				c.Self.Pending = true
			}
		},
		Hooks: protocol.Hooks[tinyProc, tinyMsg]{
			HoldsToken:   func(_ model.Phase, p *tinyProc) bool { return p.Has },
			CarriesToken: func(m *tinyMsg) bool { return m.Kind == tinyTOKEN },
		},
	}
}

// walk follows actions, given by label, from the first initial state of sys
// and returns the states visited. It panics when an action is not enabled:
// the fixtures below are fixed paths.
func walk(sys model.System, labels ...string) [][]byte {
	w := sys.NewWorker()
	var cur []byte
	w.Initial(func(s []byte) bool {
		cur = bytes.Clone(s)
		return false
	})
	path := [][]byte{cur}
	for _, want := range labels {
		tk, enabled, failed := traces.StepLabel(w, cur, want)
		if tk == nil {
			panic(fmt.Sprintf("walk: %q is not enabled after %d steps; enabled: %q (model failure: %v)", want, len(path)-1, enabled, failed))
		}
		path = append(path, tk.Next)
		cur = tk.Next
	}
	return path
}

// fixture is a violating path of a tiny variant.
type fixture struct {
	name    string // golden file name under testdata/tiny/
	variant string
	r       int
	faults  int
	prop    model.Property
	labels  []string
}

func (f fixture) system() model.System { return tinyProtocol(f.variant, f.r, f.faults).System() }

func (f fixture) meta() traces.Meta {
	m := traces.Meta{
		Algorithm:    f.variant,
		Params:       map[string]int{"n": 2, "r": f.r},
		Property:     f.prop.Name,
		PropertyKind: f.prop.Kind,
	}
	if f.faults > 0 {
		m.Options = map[string]string{"faults": fmt.Sprint(f.faults)}
	}
	return m
}

// trace builds the fixture's trace with FromSteps (nil actions).
func (f fixture) trace(t testing.TB) *traces.Trace {
	t.Helper()
	sys := f.system()
	tr, err := traces.FromSteps(sys.NewWorker(), f.meta(), walk(sys, f.labels...), nil)
	if err != nil {
		t.Fatalf("%s: FromSteps: %v", f.name, err)
	}
	return tr
}

var (
	eagerMutex = fixture{"eager-mutex", "tiny/eager", 1, 0, invariants.Mutex,
		[]string{"Request(P0)", "Request(P1)", "Deliver REQ(P1->P0)", "Deliver TOKEN(P0->P1)"}}
	pushUnrequested = fixture{"push-unrequested-entry", "tiny/push", 1, 0, invariants.NoUnrequestedEntry,
		[]string{"Request(P0)", "Exit(P0)", "Deliver TOKEN(P0->P1)"}}
	forgetfulDeadlock = fixture{"forgetful-deadlock", "tiny/forgetful", 1, 0, invariants.NoDeadlock,
		[]string{"Request(P0)", "Request(P1)", "Deliver REQ(P1->P0)", "Exit(P0)"}}
	lostRequest = fixture{"lost-request-deadlock", "tiny", 1, 1, invariants.NoDeadlock,
		[]string{"Request(P1)", "Lose REQ(P1->P0)", "Request(P0)", "Exit(P0)"}}
	// correct is tiny without faults at R=2: a path through every kind
	// of step that violates nothing.
	correct = fixture{"correct", "tiny", 2, 0, invariants.Mutex,
		[]string{"Request(P1)", "Request(P0)", "Deliver REQ(P1->P0)", "Exit(P0)", "Deliver TOKEN(P0->P1)", "Exit(P1)"}}
)

var fixtures = []fixture{eagerMutex, pushUnrequested, forgetfulDeadlock, lostRequest}
