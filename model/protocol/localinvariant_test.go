package protocol_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// TestLocalInvariantMatchesInvariant checks torus's waiting-shape, a
// LocalInvariant whose verdicts each worker remembers per process state,
// against the same predicate written as a plain Invariant over the whole
// View: every torus variant at d=2 R=1, searched with 1 and 2 workers
// with the standard properties and one of the two, ends with the same
// verdict, counts and counterexample (clear-own-first breaks it).
func TestLocalInvariantMatchesInvariant(t *testing.T) {
	plain := protocol.Invariant(torus.NameWaitingShape, "waiting-shape over the whole view",
		func(v *protocol.View[torus.Proc, torus.Msg]) bool {
			for i := range v.Processes() {
				w := v.Local(i).Waiting
				own := false
				switch {
				case len(w) == 1:
					own = w[0] == i
				case len(w) == 2:
					if w[0] == i || w[1] != i {
						return false
					}
					own = true
				case len(w) > 2:
					return false
				}
				if own != (v.Phase(i) != model.Idle) {
					return false
				}
			}
			return true
		})
	a, _, err := algorithms.Lookup("torus")
	if err != nil {
		t.Fatal(err)
	}
	broken := 0
	for _, v := range a.Variants {
		sys, _, err := a.Build(v.Name, map[string]int{"n": 4, "r": 1})
		if err != nil {
			t.Fatal(err)
		}
		std := invariants.Applicable(invariants.Standard(), sys.Info())
		for _, workers := range []int{1, 2} {
			run := func(p model.Property) *explore.Result {
				res, err := explore.Check(context.Background(), sys, explore.Options{Workers: workers, Properties: append(append([]model.Property(nil), std...), p)})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			got, want := run(torus.WaitingShape), run(plain)
			if got.Verdict != want.Verdict || got.States != want.States || got.Transitions != want.Transitions {
				t.Fatalf("%s, %d workers: %s %d states %d transitions, want %s %d %d", v.Name, workers,
					got.Verdict, got.States, got.Transitions, want.Verdict, want.States, want.Transitions)
			}
			if want.Violation == nil {
				continue
			}
			if got.Violation.Property.Name != want.Violation.Property.Name || len(got.Violation.Path) != len(want.Violation.Path) {
				t.Fatalf("%s, %d workers: violation of %s in %d steps, want %s in %d", v.Name, workers,
					got.Violation.Property.Name, len(got.Violation.Path), want.Violation.Property.Name, len(want.Violation.Path))
			}
			for k := range want.Violation.Path {
				if !bytes.Equal(got.Violation.Path[k], want.Violation.Path[k]) {
					t.Fatalf("%s, %d workers: counterexamples differ at step %d", v.Name, workers, k)
				}
			}
			if want.Violation.Property.Name == torus.NameWaitingShape {
				broken++
			}
		}
	}
	if broken == 0 {
		t.Fatal("no variant breaks waiting-shape: the test compares only verdicts that hold")
	}
}

// TestLocalsCachedAcrossMemoResets checks View.Local and View.Messages,
// which decode a process state or a message once per distinct one while
// the worker's memo keeps its ids, on a search whose process states and
// messages outnumber the memo's ids (the tables start over and ids are
// given again): a process counts the ticks it is delivered, each tick
// sends the next, and an invariant compares the count its View decodes
// with the tick in transit.
func TestLocalsCachedAcrossMemoResets(t *testing.T) {
	const ticks = 30000
	type proc struct{ C int }
	type msg struct{ To, N int }
	p := &protocol.Protocol[proc, msg]{
		Name: "ticks",
		N:    1,
		R:    1,
		Init: func(int) proc { return proc{} },
		Codec: protocol.Codec[proc, msg]{
			EncodeProc: func(e *model.Encoder, q *proc) { e.Int(q.C) },
			DecodeProc: func(d *model.Decoder, q *proc) { q.C = d.Int() },
			EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.To); e.Int(m.N) },
			DecodeMsg:  func(d *model.Decoder, m *msg) { m.To, m.N = d.Int(), d.Int() },
			To:         func(m *msg) int { return m.To },
		},
		Hooks:     protocol.Hooks[proc, msg]{InitialMessages: func() []msg { return []msg{{To: 0, N: 1}} }},
		OnRequest: func(c *protocol.Ctx[proc, msg], _ int) { c.Enter() },
		OnExit:    func(*protocol.Ctx[proc, msg]) {},
		OnDeliver: func(c *protocol.Ctx[proc, msg], m *msg) {
			c.Self.C = m.N
			if m.N < ticks {
				c.Send(msg{To: 0, N: m.N + 1})
			}
		},
	}
	counted := protocol.Invariant("counted", "the count is one below the tick in transit",
		func(v *protocol.View[proc, msg]) bool {
			ok := true
			v.Messages(func(m *msg, _ int) { ok = ok && v.Local(0).C == m.N-1 })
			return ok
		})
	res, err := explore.Check(context.Background(), p.System(), explore.Options{Workers: 1, Properties: []model.Property{counted}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.OK || res.States != 3*(ticks+1) {
		t.Fatalf("%s, %d states; want ok, %d", res.Verdict, res.States, 3*(ticks+1))
	}
}
