package protocol_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// TestInPlaceMatchesSampler walks every variant of every registered
// algorithm at its default parameters (and with a fault budget where the
// algorithm has one) with the encoded stepper (Sampler) and with InPlace
// side by side, taking the same random choices, and checks at every step
// that both agree: the encoded state, the enabled transitions in order
// (kind, process, argument, message), the flags of the fired transition,
// the snapshot's phases, counts, tokens and messages in transit. It also
// checks that Hash is a function of the state: two visits to one state
// (by bytes) give one hash, and distinct states seen get distinct hashes.
func TestInPlaceMatchesSampler(t *testing.T) {
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			params := defaultsWithFaults(a)
			sys, _, err := a.Build(v.Name, params)
			if err != nil {
				t.Fatalf("%s %v: %v", v.Name, params, err)
			}
			checkInPlace(t, v.Name, sys, 20, 300)
		}
	}
}

// defaultsWithFaults returns a's default parameters, with a fault budget
// of 1 where it has one (so that Lose transitions are enabled).
func defaultsWithFaults(a algorithms.Algorithm) map[string]int {
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
		if (p.Name == "faults" || p.Name == "lose") && p.Default == 0 && p.Max != 0 {
			params[p.Name] = 1
		}
	}
	return params
}

func checkInPlace(t *testing.T, name string, sys model.System, walks, steps int) {
	t.Helper()
	w := sys.NewWorker()
	s, ok := w.(protocol.Sampler)
	ipw, ok2 := w.(protocol.InPlaceWorker)
	if !ok || !ok2 {
		t.Logf("%s: no Sampler or InPlaceWorker; skipped", name)
		return
	}
	ip := ipw.NewInPlace()
	ref := sys.NewWorker() // for snapshots of the encoded states
	var initial [][]byte
	w.Initial(func(b []byte) bool { initial = append(initial, append([]byte(nil), b...)); return true })
	hashOf := map[string]uint64{}
	stateOf := map[uint64]string{}
	rng := rand.New(rand.NewPCG(1, uint64(len(name))))
	var en []model.Transition
	for walk := range walks {
		cur := append([]byte(nil), initial[walk%len(initial)]...)
		ip.Load(cur)
		for step := 0; step <= steps; step++ {
			if got := ip.Encode(nil); !bytes.Equal(got, cur) {
				t.Fatalf("%s walk %d step %d: Encode differs from the encoded walk\n got %x\nwant %x", name, walk, step, got, cur)
			}
			h := ip.Hash()
			if old, ok := hashOf[string(cur)]; ok && old != h {
				t.Fatalf("%s walk %d step %d: one state, two hashes", name, walk, step)
			}
			if old, ok := stateOf[h]; ok && old != string(cur) {
				t.Fatalf("%s walk %d step %d: two states, one hash %x", name, walk, step, h)
			}
			hashOf[string(cur)], stateOf[h] = h, string(cur)
			sameSnapshot(t, name, ref.Snapshot(cur), ip.Snapshot())
			en = s.Enabled(en[:0], cur)
			if n := ip.Count(); n != len(en) {
				t.Fatalf("%s walk %d step %d: Count %d, Sampler lists %d", name, walk, step, n, len(en))
			}
			list := ip.Enabled(nil, true)
			for k := range en {
				want := en[k]
				if want.Kind == model.Deliver || want.Kind == model.Lose {
					want.Proc = -2 // Sampler.Enabled leaves it to Apply for some systems
				}
				for _, got := range []model.Transition{ip.At(k), list[k]} {
					if want.Proc == -2 {
						got.Proc = -2
					}
					if got.Kind != want.Kind || got.Proc != want.Proc || got.Arg != want.Arg || !bytes.Equal(got.Msg, want.Msg) {
						t.Fatalf("%s walk %d step %d: transition %d is %+v, Sampler says %+v", name, walk, step, k, got, en[k])
					}
				}
			}
			if len(en) == 0 {
				break
			}
			k := rng.IntN(len(en))
			ts, ti := en[k], ip.At(k)
			next := append([]byte(nil), s.Apply(cur, &ts)...)
			ip.Fire(&ti)
			if ts.Flags != ti.Flags || ts.Proc != ti.Proc || !bytes.Equal(ts.Msg, ti.Msg) {
				t.Fatalf("%s walk %d step %d: fired %+v, Sampler %+v", name, walk, step, ti, ts)
			}
			cur = next
		}
	}
}

func sameSnapshot(t *testing.T, name string, want, got model.Snapshot) {
	t.Helper()
	if got.Processes() != want.Processes() || got.Tokens() != want.Tokens() || got.InTransit() != want.InTransit() {
		t.Fatalf("%s: snapshot: processes/tokens/in transit %d/%d/%d, want %d/%d/%d", name,
			got.Processes(), got.Tokens(), got.InTransit(), want.Processes(), want.Tokens(), want.InTransit())
	}
	for i := range want.Processes() {
		if got.Phase(i) != want.Phase(i) || got.Made(i) != want.Made(i) || got.Group(i) != want.Group(i) {
			t.Fatalf("%s: snapshot of P%d differs", name, i)
		}
	}
}

// toyMsg and toyProc make a small protocol with every feature InPlace
// handles: groups, timers, duplicate copies of a message, a fault budget
// with CanLose, tokens and a field left out of the encoding.
type toyMsg struct{ Kind, From, To int }

type toyProc struct {
	Has     bool
	Ticks   int
	Scratch int // not encoded: must be reset as a decoder would
}

func toyProtocol(n int) *protocol.Protocol[toyProc, toyMsg] {
	const req, token, ping = 0, 1, 2
	return &protocol.Protocol[toyProc, toyMsg]{
		Name: "toy",
		N:    n,
		R:    2,
		Options: protocol.Options{
			Groups: 2,
			Timers: 1,
			Faults: 2,
		},
		Init: func(i int) toyProc { return toyProc{Has: i == 0} },
		Hooks: protocol.Hooks[toyProc, toyMsg]{
			InitialMessages: func() []toyMsg { return []toyMsg{{ping, 1, 2}, {ping, 1, 2}, {token, 1, 2}} },
			TimerEnabled:    func(i int, ph model.Phase, p *toyProc, t int) bool { return ph == model.Idle && p.Ticks < 2 },
			CanLose:         func(m *toyMsg) bool { return m.Kind != token },
			HoldsToken:      func(_ model.Phase, p *toyProc) bool { return p.Has },
			CarriesToken:    func(m *toyMsg) bool { return m.Kind == token },
		},
		Codec: protocol.Codec[toyProc, toyMsg]{
			EncodeProc: func(e *model.Encoder, p *toyProc) {
				e.Bool(p.Has)
				e.Int(p.Ticks)
			},
			DecodeProc: func(d *model.Decoder, p *toyProc) { p.Has, p.Ticks, p.Scratch = d.Bool(), d.Int(), 0 },
			EncodeMsg: func(e *model.Encoder, m *toyMsg) {
				e.Int(m.Kind)
				e.Int(m.From)
				e.Int(m.To)
			},
			DecodeMsg: func(d *model.Decoder, m *toyMsg) { m.Kind, m.From, m.To = d.Int(), d.Int(), d.Int() },
			To:        func(m *toyMsg) int { return m.To },
		},
		Format: protocol.Format[toyProc, toyMsg]{
			FormatMsg: func(m *toyMsg) string { return fmt.Sprintf("%d(P%d->P%d)", m.Kind, m.From, m.To) },
		},
		OnRequest: func(c *protocol.Ctx[toyProc, toyMsg], g int) {
			if c.Self.Has {
				c.Enter()
				return
			}
			to := (c.ID + 1 + g) % c.N
			c.Send(toyMsg{req, c.ID, to})
			c.Send(toyMsg{req, c.ID, to}) // a second copy
		},
		OnExit: func(c *protocol.Ctx[toyProc, toyMsg]) { c.Self.Scratch++ },
		OnDeliver: func(c *protocol.Ctx[toyProc, toyMsg], m *toyMsg) {
			switch m.Kind {
			case req:
				if c.Self.Has && c.Phase() == model.Idle && c.Self.Scratch == 0 {
					c.Self.Has = false
					c.Send(toyMsg{token, c.ID, m.From})
				}
			case token:
				c.Self.Has = true
				if c.Phase() == model.Waiting {
					c.Enter()
				}
			}
			m.From = -7 // handlers must not change the copies left in transit
		},
		OnTimer: func(c *protocol.Ctx[toyProc, toyMsg], t int) {
			c.Self.Ticks++
			c.Self.Scratch = 5
			c.Send(toyMsg{ping, c.ID, (c.ID + 1) % c.N})
		},
	}
}

// TestInPlaceToy runs the side-by-side check on the toy protocol, which
// exercises what the registered algorithms at their defaults may not:
// Lose transitions, timers, groups, several copies of one message.
func TestInPlaceToy(t *testing.T) {
	sys := toyProtocol(3).System()
	checkInPlace(t, "toy", sys, 200, 60)
	// the walks must have met what they are meant to test
	w := sys.NewWorker()
	ip := w.(protocol.InPlaceWorker).NewInPlace()
	seen := map[model.ActionKind]bool{}
	copies := false
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		w.Initial(func(b []byte) bool { ip.Load(b); return false })
		for range 60 {
			n := ip.Count()
			if n == 0 {
				break
			}
			tr := ip.At(rng.IntN(n))
			seen[tr.Kind] = true
			ip.Fire(&tr)
			if ip.Snapshot().InTransit() > len(ip.Enabled(nil, true)) {
				copies = true
			}
		}
	}
	for _, k := range []model.ActionKind{model.Request, model.Exit, model.Deliver, model.Timer, model.Lose} {
		if !seen[k] {
			t.Errorf("the toy walks never fired a %s", k)
		}
	}
	if !copies {
		t.Error("the toy walks never had two copies of a message in transit")
	}
}
