package traces_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/traces"
)

// Two versions of a user's process type: v2 adds a field Out.
type procV1 struct{ Turn int }
type procV2 struct {
	Turn int
	Out  []int
}

// toyV1 and toyV2 build the same toy twice, over procV1 or procV2; with
// setOut, v2's OnRequest also sets Out (a non-zero value).
func toyV1() model.System {
	p := &protocol.Protocol[procV1, int]{
		Name: "toy",
		N:    2,
		R:    1,
		Init: func(i int) procV1 { return procV1{} },
		Codec: protocol.Codec[procV1, int]{
			EncodeProc: func(e *model.Encoder, p *procV1) { e.Int(p.Turn) },
			DecodeProc: func(d *model.Decoder, p *procV1) { p.Turn = d.Int() },
			EncodeMsg:  func(e *model.Encoder, m *int) { e.Int(*m) },
			DecodeMsg:  func(d *model.Decoder, m *int) { *m = d.Int() },
			To:         func(m *int) int { return *m },
		},
		OnRequest: func(c *protocol.Ctx[procV1, int], _ int) { c.Self.Turn++; c.Enter() },
		OnExit:    func(*protocol.Ctx[procV1, int]) {},
		OnDeliver: func(*protocol.Ctx[procV1, int], *int) {},
	}
	return p.System()
}

func toyV2(setOut bool) model.System {
	p := &protocol.Protocol[procV2, int]{
		Name: "toy",
		N:    2,
		R:    1,
		Init: func(i int) procV2 { return procV2{} },
		Codec: protocol.Codec[procV2, int]{
			EncodeProc: func(e *model.Encoder, p *procV2) { e.Int(p.Turn); e.Ints(p.Out) },
			DecodeProc: func(d *model.Decoder, p *procV2) { p.Turn = d.Int(); p.Out = d.Ints(p.Out[:0]) },
			EncodeMsg:  func(e *model.Encoder, m *int) { e.Int(*m) },
			DecodeMsg:  func(d *model.Decoder, m *int) { *m = d.Int() },
			To:         func(m *int) int { return *m },
		},
		OnRequest: func(c *protocol.Ctx[procV2, int], _ int) {
			c.Self.Turn++
			if setOut {
				c.Self.Out = append(c.Self.Out, 7)
			}
			c.Enter()
		},
		OnExit:    func(*protocol.Ctx[procV2, int]) {},
		OnDeliver: func(*protocol.Ctx[procV2, int], *int) {},
	}
	return p.System()
}

// A saved trace survives a field added to the process type while the
// field keeps its zero value (here Out: null in the replay, absent from
// the trace), and says which field and which step when it does not.
func TestTraceSurvivesAnAddedField(t *testing.T) {
	w := toyV1().NewWorker()
	var s0, s1, s2 []byte
	w.Initial(func(s []byte) bool { s0 = bytes.Clone(s); return false })
	step := func(from []byte, label string) []byte {
		var out []byte
		w.Successors(from, func(tr *model.Transition, s []byte) bool {
			if w.Label(from, tr) == label {
				out = bytes.Clone(s)
				return false
			}
			return true
		})
		if out == nil {
			t.Fatalf("%s not enabled", label)
		}
		return out
	}
	s1 = step(s0, "Request(P0)")
	s2 = step(s1, "Exit(P0)")
	tr, err := traces.FromSteps(w, traces.Meta{Algorithm: "toy", Property: "p", PropertyKind: model.Invariant}, [][]byte{s0, s1, s2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(tr.Steps[0].State.Processes[0].Vars), "Out") {
		t.Fatalf("v1 renders Out: %s", tr.Steps[0].State.Processes[0].Vars)
	}
	never := []model.Property{{Name: "p", Kind: model.Invariant, Holds: func(model.Snapshot) bool { return false }}}
	if res, err := traces.Replay(toyV2(false), never, tr); err != nil || !res.OK {
		t.Fatalf("a field added with its zero value: replay %+v, %v; want it to replay", res, err)
	}
	res, err := traces.Replay(toyV2(true), never, tr)
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.DivergedAt != 1 || !strings.Contains(res.Reason, "Out is absent from the trace and [7] in the replay") {
		t.Fatalf("a field added with a non-zero value: %+v; want a divergence at step 1 naming Out", res)
	}
	// and the other way: a v2 trace (Out null) replays on v1, where the
	// field was removed
	w2 := toyV2(false).NewWorker()
	w2.Initial(func(s []byte) bool { s0 = bytes.Clone(s); return false })
	w = w2
	s1 = step(s0, "Request(P0)")
	tr2, err := traces.FromSteps(w2, traces.Meta{Algorithm: "toy", Property: "p", PropertyKind: model.Invariant}, [][]byte{s0, s1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tr2.Steps[0].State.Processes[0].Vars), `"Out":null`) {
		t.Fatalf("v2 does not render Out: %s", tr2.Steps[0].State.Processes[0].Vars)
	}
	if res, err := traces.Replay(toyV1(), never, tr2); err != nil || !res.OK {
		t.Fatalf("a field removed whose value was zero: replay %+v, %v; want it to replay", res, err)
	}
}
