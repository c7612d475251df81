package chart_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/traces"
)

type rnProc struct{ SN int }
type rnMsg struct{ From, To, SN int }

// renumbering is a toy protocol with a normal form: a Request increments
// the requester's counter SN and sends REQ(sn=SN) to the other process;
// Normalize subtracts the smallest counter from every counter and every
// message. So when P0 has requested (SN 1, REQ(P0->P1, sn=1) in transit)
// and P1 requests (SN 1), the normal form is SN 0 for both and the REQ in
// transit becomes REQ(P0->P1, sn=0): the step sent only REQ(P1->P0,
// sn=0), though two messages appear in the network and one vanished.
func renumbering() model.System {
	p := &protocol.Protocol[rnProc, rnMsg]{
		Name: "renumbering",
		N:    2,
		R:    2,
		Init: func(int) rnProc { return rnProc{} },
		Codec: protocol.Codec[rnProc, rnMsg]{
			EncodeProc: func(e *model.Encoder, p *rnProc) { e.Int(p.SN) },
			DecodeProc: func(d *model.Decoder, p *rnProc) { p.SN = d.Int() },
			EncodeMsg:  func(e *model.Encoder, m *rnMsg) { e.Int(m.From); e.Int(m.To); e.Int(m.SN) },
			DecodeMsg:  func(d *model.Decoder, m *rnMsg) { m.From, m.To, m.SN = d.Int(), d.Int(), d.Int() },
			To:         func(m *rnMsg) int { return m.To },
		},
		Format: protocol.Format[rnProc, rnMsg]{
			FormatMsg: func(m *rnMsg) string { return fmt.Sprintf("REQ(P%d->P%d, sn=%d)", m.From, m.To, m.SN) },
		},
		OnRequest: func(c *protocol.Ctx[rnProc, rnMsg], _ int) {
			c.Self.SN++
			c.Send(rnMsg{From: c.ID, To: 1 - c.ID, SN: c.Self.SN})
			c.Enter()
		},
		OnExit:    func(*protocol.Ctx[rnProc, rnMsg]) {},
		OnDeliver: func(*protocol.Ctx[rnProc, rnMsg], *rnMsg) {},
		Hooks: protocol.Hooks[rnProc, rnMsg]{
			Normalize: func(_ []model.Phase, procs []rnProc, msgs []rnMsg) {
				low := min(procs[0].SN, procs[1].SN)
				for i := range procs {
					procs[i].SN -= low
				}
				for i := range msgs {
					msgs[i].SN -= low
				}
			},
		},
	}
	return p.System()
}

// pathOf follows the actions named by labels from the initial state.
func pathOf(t *testing.T, w model.Worker, labels ...string) [][]byte {
	t.Helper()
	var cur []byte
	w.Initial(func(s []byte) bool { cur = bytes.Clone(s); return false })
	path := [][]byte{cur}
	for _, l := range labels {
		var next []byte
		w.Successors(cur, func(tr *model.Transition, s []byte) bool {
			if w.Label(cur, tr) == l {
				next = bytes.Clone(s)
				return false
			}
			return true
		})
		if next == nil {
			t.Fatalf("%s is not enabled", l)
		}
		cur = next
		path = append(path, cur)
	}
	return path
}

// With a Normalize hook a step's sends are what the step sent (in normal
// form), not the difference of the two networks; show's chart and replay
// agree on the messages in transit.
func TestNormalFormSends(t *testing.T) {
	sys := renumbering()
	w := sys.NewWorker()
	path := pathOf(t, w, "Request(P0)", "Request(P1)", "Deliver REQ(P0->P1, sn=0)")
	tr, err := traces.FromSteps(sys.NewWorker(), traces.Meta{Algorithm: "renumbering", Property: "mutex", PropertyKind: model.Invariant}, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tr.Steps[1].Sent, ", "); got != "REQ(P1->P0, sn=0)" {
		t.Errorf("Request(P1) sends [%s], want [REQ(P1->P0, sn=0)] only (the other REQ was renamed, not sent)", got)
	}
	if got := strings.Join(tr.Steps[0].Sent, ", "); got != "REQ(P0->P1, sn=1)" {
		t.Errorf("Request(P0) sends [%s], want [REQ(P0->P1, sn=1)]", got)
	}
	// mutex holds (both InCS is allowed here only because the toy has no
	// mutual exclusion); replay checks every step, sends included.
	mutex := model.Property{Name: "mutex", Kind: model.Invariant, Holds: func(s model.Snapshot) bool { return false }}
	res, err := traces.Replay(sys, []model.Property{mutex}, tr)
	if err != nil || !res.OK {
		t.Fatalf("replay: %v %+v", err, res)
	}
	c := chart.FromTrace(tr)
	var b strings.Builder
	if err := chart.Text(&b, c); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if strings.Contains(text, "Request(P1); sends REQ(P0->P1") {
		t.Errorf("the chart draws a send that never happened:\n%s", text)
	}
	// the final state has REQ(P1->P0, sn=0) in transit, and nothing else
	if !strings.Contains(text, "in transit at the end: REQ(P1->P0, sn=0)\n") {
		t.Errorf("the chart's messages in transit at the end are not the final state's:\n%s", text)
	}
	// P0's REQ, sent at step 1 and renamed at step 2, is delivered at step 3
	for _, a := range c.Arrows {
		if a.SendRow == 0 && a.RecvRow != 2 {
			t.Errorf("the REQ sent at step 1 is received at row %d, want step 3 (row 2)", a.RecvRow)
		}
	}
}
