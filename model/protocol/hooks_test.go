package protocol_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// toyGuard is a whole-state guard for the toy protocol (inplace_test.go)
// over plain decoded data, so that the test can apply it both through the
// layer (Protocol.Guard, on a View) and by hand (on a Split state). It
// refuses something of every kind of action.
func toyGuard(phases []model.Phase, procs []toyProc, msgs []toyMsg, kind model.ActionKind, proc, arg int, m *toyMsg) bool {
	const req, token, ping = 0, 1, 2
	in := func(f func(x toyMsg) bool) bool {
		for _, x := range msgs {
			if f(x) {
				return true
			}
		}
		return false
	}
	switch kind {
	case model.Timer: // no ping of its own in transit
		return !in(func(x toyMsg) bool { return x.Kind == ping && x.From == proc })
	case model.Request: // P1 only with at most 2 messages in transit
		return proc != 1 || len(msgs) <= 2
	case model.Exit: // P2 only when P0 is not Waiting
		return proc != 2 || phases[0] != model.Waiting
	case model.Deliver: // a request only when no token is in transit
		return m.Kind != req || !in(func(x toyMsg) bool { return x.Kind == token })
	case model.Lose: // nothing P0 sent
		return m.From != 0
	}
	return true
}

// smallToy is the toy protocol at R = 1, F = 1, one group: small enough
// for exhaustive comparisons.
func smallToy() *protocol.Protocol[toyProc, toyMsg] {
	p := toyProtocol(3)
	p.R, p.Faults, p.Groups = 1, 1, 1
	p.TimerEnabled = func(i int, ph model.Phase, q *toyProc, _ int) bool { return ph == model.Idle && q.Ticks < 1 }
	p.InitialMessages = func() []toyMsg { return []toyMsg{{2, 0, 2}, {2, 1, 2}, {1, 1, 2}} } // two pings, a token
	return p
}

// guardedToy is the small toy with toyGuard as its Guard.
func guardedToy() *protocol.Protocol[toyProc, toyMsg] {
	p := smallToy()
	p.Guard = func(v *protocol.View[toyProc, toyMsg], a *protocol.Action[toyMsg]) bool {
		phases := make([]model.Phase, v.Processes())
		procs := make([]toyProc, v.Processes())
		for i := range procs {
			phases[i], procs[i] = v.Phase(i), *v.Local(i)
		}
		var msgs []toyMsg
		v.Messages(func(m *toyMsg, copies int) {
			for range copies {
				msgs = append(msgs, *m)
			}
		})
		return toyGuard(phases, procs, msgs, a.Kind, a.Proc, a.Arg, a.Msg)
	}
	return p
}

// split decodes a toy state by the local stepping API.
func splitToy(lw protosys.LocalWorker, p *protocol.Protocol[toyProc, toyMsg], s []byte) ([]model.Phase, []toyProc, []toyMsg) {
	locals, network, _ := lw.Split(s)
	var phases []model.Phase
	var procs []toyProc
	for _, l := range locals {
		var x toyProc
		var d model.Decoder
		d.Reset(l.Local)
		p.DecodeProc(&d, &x)
		phases, procs = append(phases, l.Phase), append(procs, x)
	}
	var msgs []toyMsg
	for _, b := range network {
		var m toyMsg
		var d model.Decoder
		d.Reset(b)
		p.DecodeMsg(&d, &m)
		msgs = append(msgs, m)
	}
	return phases, procs, msgs
}

// bfs returns the reachable states of sys and its number of transitions,
// keeping only the transitions keep allows.
func bfs(sys model.System, keep func(s []byte, t *model.Transition) bool) (map[string]bool, int) {
	w := sys.NewWorker()
	seen := map[string]bool{}
	var queue [][]byte
	w.Initial(func(s []byte) bool {
		seen[string(s)] = true
		queue = append(queue, append([]byte(nil), s...))
		return true
	})
	transitions := 0
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		w.Successors(s, func(t *model.Transition, next []byte) bool {
			if !keep(s, t) {
				return true
			}
			transitions++
			if !seen[string(next)] {
				seen[string(next)] = true
				queue = append(queue, append([]byte(nil), next...))
			}
			return true
		})
	}
	return seen, transitions
}

// The guard removes exactly the transitions it refuses: the guarded toy
// reaches the same states with the same transitions as the unguarded toy
// filtered by hand (the predicate applied to the state decoded by Split,
// not through the View), and the explorer agrees with both.
func TestGuardMatchesHandFilter(t *testing.T) {
	raw := smallToy()
	rawSys := raw.System()
	lw := rawSys.(protosys.LocalSystem).NewLocalWorker()
	refused := map[model.ActionKind]int{}
	want, wantTr := bfs(rawSys, func(s []byte, tr *model.Transition) bool {
		phases, procs, msgs := splitToy(lw, raw, s)
		var m *toyMsg
		if tr.Kind == model.Deliver || tr.Kind == model.Lose {
			var x toyMsg
			var d model.Decoder
			d.Reset(tr.Msg)
			raw.DecodeMsg(&d, &x)
			m = &x
		}
		ok := toyGuard(phases, procs, msgs, tr.Kind, tr.Proc, tr.Arg, m)
		if !ok {
			refused[tr.Kind]++
		}
		return ok
	})
	for _, k := range []model.ActionKind{model.Request, model.Exit, model.Deliver, model.Timer, model.Lose} {
		if refused[k] == 0 {
			t.Errorf("the hand filter never refused a %s: the test does not exercise it", k)
		}
	}
	sys := guardedToy().System()
	got, gotTr := bfs(sys, func([]byte, *model.Transition) bool { return true })
	if len(got) != len(want) || gotTr != wantTr {
		t.Fatalf("guarded: %d states, %d transitions; hand-filtered: %d, %d", len(got), gotTr, len(want), wantTr)
	}
	for s := range want {
		if !got[s] {
			t.Fatal("a hand-filtered state is not reached with the guard")
		}
	}
	t.Logf("guarded: %d states, %d transitions; refused by hand: %v", len(got), gotTr, refused)
	res, err := explore.Check(context.Background(), sys, explore.Options{Exact: true, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.States != int64(len(want)) || res.Transitions != int64(wantTr) {
		t.Fatalf("explore: %d states, %d transitions; want %d, %d", res.States, res.Transitions, len(want), wantTr)
	}
	// the guard refused every kind somewhere, and the reachable set shrank
	if all, _ := bfs(rawSys, func([]byte, *model.Transition) bool { return true }); len(all) <= len(got) {
		t.Fatalf("the guard removed no state: %d of %d", len(got), len(all))
	}
	// random walks: the encoded stepper (Sampler) and InPlace agree
	checkInPlace(t, "guarded toy", sys, 200, 60)
}

// blankPings is a normalisation of the toy that keeps behaviour: a ping's
// sender is never read (OnDeliver ignores pings), so it becomes 0, and
// pings to one receiver become copies of one message.
func blankPings(_ []model.Phase, _ []toyProc, msgs []toyMsg) {
	for k := range msgs {
		if msgs[k].Kind == 2 {
			msgs[k].From = 0
		}
	}
}

// Normalize is applied to every state: the normalised toy reaches exactly
// the images of the raw toy's reachable states, the images computed by
// hand (Split, decode, blank, encode, Assemble), with the same number of
// distinct transitions; and some images merge messages into copies.
func TestNormalizeReachesTheImages(t *testing.T) {
	raw := smallToy()
	raw.Faults = 0
	rawSys := raw.System()
	lw := rawSys.(protosys.LocalSystem).NewLocalWorker()
	merged := false
	image := func(s []byte) string {
		locals, network, faults := lw.Split(s)
		var out [][]byte
		distinct := map[string]bool{}
		for _, b := range network {
			var m toyMsg
			var d model.Decoder
			d.Reset(b)
			raw.DecodeMsg(&d, &m)
			if m.Kind == 2 {
				m.From = 0
			}
			var e model.Encoder
			raw.EncodeMsg(&e, &m)
			out = append(out, e.Bytes())
			distinct[string(b)] = true
		}
		img := lw.Assemble(locals, out, faults)
		if _, n, _ := lw.Split(img); len(n) == len(network) {
			seen := map[string]bool{}
			for _, b := range n {
				seen[string(b)] = true
			}
			if len(seen) < len(distinct) {
				merged = true
			}
		}
		return string(img)
	}
	all, _ := bfs(rawSys, func([]byte, *model.Transition) bool { return true })
	want := map[string]bool{}
	for s := range all {
		want[image([]byte(s))] = true
	}
	norm := smallToy()
	norm.Faults = 0
	norm.Normalize = blankPings
	sys := norm.System()
	got, _ := bfs(sys, func([]byte, *model.Transition) bool { return true })
	if len(got) != len(want) {
		t.Fatalf("normalised toy: %d states; images of the raw toy: %d", len(got), len(want))
	}
	for s := range got {
		if !want[s] {
			t.Fatal("a normalised state is not the image of a raw state")
		}
	}
	t.Logf("%d raw states, %d normalised", len(all), len(got))
	if !merged || len(got) >= len(all) {
		t.Fatalf("merged %v, %d normalised states of %d raw: the test does not exercise merging", merged, len(got), len(all))
	}
	// LocalWorker.Normalize is the same map
	nlw := sys.(protosys.LocalSystem).NewLocalWorker()
	for s := range all {
		if string(nlw.Normalize([]byte(s))) != image([]byte(s)) {
			t.Fatal("LocalWorker.Normalize differs from the image computed by hand")
		}
	}
	res, err := explore.Check(context.Background(), sys, explore.Options{Exact: true, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.States != int64(len(want)) {
		t.Fatalf("explore: %d states, want %d", res.States, len(want))
	}
}

// A normalisation that rewrites other processes than the acting one (not
// a behaviour-preserving one: for the plumbing only) and a guard together:
// random walks with Sampler and InPlace agree step by step, and the
// incremental snapshot (SnapshotAfter) equals a fresh one.
func TestHooksRandomWalksAgree(t *testing.T) {
	p := guardedToy()
	p.Normalize = func(_ []model.Phase, procs []toyProc, msgs []toyMsg) {
		blankPings(nil, nil, msgs)
		if procs[0].Has && procs[1].Has {
			procs[1].Has = false // another process than the one that acted
		}
		if procs[1].Ticks > procs[0].Ticks {
			procs[0].Ticks = procs[1].Ticks
		}
	}
	sys := p.System()
	checkInPlace(t, "normalised toy", sys, 200, 60)

	w := sys.NewWorker()
	s, inc := w.(protocol.Sampler), w.(protocol.IncrementalSnapshotter)
	ref := sys.NewWorker()
	rng := rand.New(rand.NewPCG(5, 6))
	var en []model.Transition
	for range 100 {
		var cur []byte
		w.Initial(func(b []byte) bool { cur = append([]byte(nil), b...); return false })
		w.Snapshot(cur)
		for range 40 {
			en = inc.EnabledAfter(en[:0], true)
			if want := s.Enabled(nil, cur); len(want) != len(en) {
				t.Fatalf("EnabledAfter lists %d transitions, Enabled %d", len(en), len(want))
			}
			w.Snapshot(cur) // Enabled parsed cur again
			if len(en) == 0 {
				break
			}
			tr := en[rng.IntN(len(en))]
			next := append([]byte(nil), s.Apply(cur, &tr)...)
			sameSnapshot(t, "normalised toy", ref.Snapshot(next), inc.SnapshotAfter(next, &tr))
			cur = next
		}
	}
}

// Named timers label as Timer(P0, NAME); Params come back in Info; a
// TimerNames of the wrong length is a programming error.
func TestTimerNamesAndParams(t *testing.T) {
	p := toyProtocol(3)
	p.TimerNames = []string{"tick"}
	p.Params = map[string]int{"n": 3}
	sys := p.System()
	if sys.Info().Params["n"] != 3 {
		t.Fatalf("Info().Params = %v", sys.Info().Params)
	}
	w := sys.NewWorker()
	var labels []string
	w.Initial(func(s []byte) bool {
		w.Successors(s, func(tr *model.Transition, _ []byte) bool {
			if tr.Kind == model.Timer {
				labels = append(labels, w.Label(s, tr))
			}
			return true
		})
		return true
	})
	if strings.Join(labels, ",") != "Timer(P0, tick),Timer(P1, tick),Timer(P2, tick)" {
		t.Fatalf("timer labels %v", labels)
	}
	if name := sys.(protosys.LocalSystem).NewLocalWorker().TimerName(0); name != "tick" {
		t.Fatalf("TimerName(0) = %q", name)
	}
	if got := protosys.TimerLabel(1, 0, nil); got != "Timer(P1, t=0)" {
		t.Fatalf("unnamed: %s", got)
	}
	p.TimerNames = []string{"tick", "tock"}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "TimerNames") {
			t.Fatalf("System with 2 names for 1 timer: %v", r)
		}
	}()
	p.System()
}

// Guarded systems' local workers answer Allowed as the global system
// enables: checked on every reachable state of the guarded toy.
func TestLocalAllowedMatchesGlobal(t *testing.T) {
	p := guardedToy()
	sys := p.System()
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	if !lw.Guarded() || smallToy().System().(protosys.LocalSystem).NewLocalWorker().Guarded() {
		t.Fatal("Guarded() wrong")
	}
	states, _ := bfs(sys, func([]byte, *model.Transition) bool { return true })
	w := sys.NewWorker()
	for st := range states {
		s := []byte(st)
		enabled := map[string]bool{}
		w.Successors(s, func(tr *model.Transition, _ []byte) bool {
			if tr.Kind != model.Lose {
				enabled[w.Label(s, tr)] = true
			}
			return true
		})
		locals, network, _ := lw.Split(s)
		for i := range locals {
			evs := []protosys.LocalEvent{{Kind: model.Request, Arg: 0}, {Kind: model.Exit}, {Kind: model.Timer}}
			for _, m := range network {
				if lw.To(m) == i {
					evs = append(evs, protosys.LocalEvent{Kind: model.Deliver, Msg: m})
				}
			}
			for _, ev := range evs {
				if _, err := lw.Step(i, locals[i], ev); err != nil {
					continue
				}
				tr := model.Transition{Kind: ev.Kind, Proc: i, Arg: ev.Arg, Msg: ev.Msg}
				if got := lw.Allowed(s, i, ev); got != enabled[w.Label(s, &tr)] {
					t.Fatalf("Allowed(%s) = %v, the global system says %v", w.Label(s, &tr), got, !got)
				}
			}
		}
	}
}
