package coordring

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// reachable returns every reachable state of sys (exact, breadth-first),
// each mapped through f.
func reachable(t *testing.T, sys model.System, f func([]byte) string) map[string]bool {
	t.Helper()
	w := sys.NewWorker()
	seen := map[string]bool{}
	out := map[string]bool{}
	var queue [][]byte
	add := func(s []byte) {
		if !seen[string(s)] {
			seen[string(s)] = true
			out[f(s)] = true
			queue = append(queue, bytes.Clone(s))
		}
	}
	w.Initial(func(s []byte) bool { add(s); return true })
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		w.Successors(s, func(_ *model.Transition, next []byte) bool { add(next); return true })
	}
	return out
}

// Package doc, "Cyclic clients": renumbering is exact. With bounded R the
// raw model (Lamport values never renumbered) is finite, so the claim can
// be tested directly: the states the renumbered model reaches are exactly
// the renumbered images of the raw model's reachable states. A renumbering
// that merged two states with different futures would, at the first step
// where they differ, reach an image that the raw model does not have (or
// miss one it has).
func TestRenumberingExactBoundedR(t *testing.T) {
	var cases []struct {
		variant string
		n, r    int
	}
	for _, c := range []struct {
		variant string
		n, r    int
	}{{Default, 2, 4}, {Default, 3, 2}, {Default, 4, 1}, {LIFO, 3, 2}, {LIFO, 2, 4}} {
		cases = append(cases, c)
	}
	if os.Getenv("TOKENMC_HEAVY") != "" {
		// About 40 s: n = 3, R = 3 (993,948 raw states) and lifo n = 4, R = 2.
		cases = append(cases, struct {
			variant string
			n, r    int
		}{Default, 3, 3}, struct {
			variant string
			n, r    int
		}{LIFO, 4, 2})
	}
	for _, c := range cases {
		raw, err := New(c.variant, c.n, c.r)
		if err != nil {
			t.Fatal(err)
		}
		ren, _ := New(c.variant, c.n, c.r)
		ren.Normalize = Renumber
		rsys := ren.System()
		lw := rsys.(protosys.LocalSystem).NewLocalWorker()
		images := reachable(t, raw.System(), func(s []byte) string { return string(lw.Normalize(s)) })
		got := reachable(t, rsys, func(s []byte) string { return string(s) })
		if len(images) != len(got) {
			t.Errorf("%s n=%d r=%d: renumbered model reaches %d states, raw images %d", c.variant, c.n, c.r, len(got), len(images))
			continue
		}
		for s := range got {
			if !images[s] {
				t.Errorf("%s n=%d r=%d: renumbered state not an image of a raw state", c.variant, c.n, c.r)
				break
			}
		}
	}
}

// Package doc, "Cyclic clients": with cyclic clients WAIT is not sent. WAIT
// only raises the client's clock, and the TOKEN that answers the same
// request raises it at least as far before the clock is used again, so
// dropping WAIT changes no stamp. Checked with bounded R: the model with
// and without WAIT reach the same states once the clocks of Waiting
// clients (the only clocks a WAIT can change before the TOKEN) and the
// WAIT messages are ignored.
func TestNoWaitSameBehaviourBoundedR(t *testing.T) {
	for _, c := range []struct{ n, r int }{{2, 3}, {3, 2}, {4, 1}} {
		with, _ := newProtocol(Default, c.n, c.r, false)
		without, _ := newProtocol(Default, c.n, c.r, false)
		without.OnDeliver = config{noWait: true}.onDeliver
		ls := with.System().(protosys.LocalSystem).NewLocalWorker()
		project := func(s []byte) string {
			locals, network, _ := ls.Split(s)
			var b strings.Builder
			for i, l := range locals {
				var d model.Decoder
				d.Reset(l.Local)
				var p Proc
				decodeProc(&d, &p)
				if l.Phase == model.Waiting {
					p.Clock = -1
				}
				fmt.Fprintf(&b, "%d:%v/%d/%+v;", i, l.Phase, l.Made, p)
			}
			var msgs []string
			for _, m := range network {
				var d model.Decoder
				d.Reset(m)
				var x Msg
				decodeMsg(&d, &x)
				if x.Kind != WAIT {
					msgs = append(msgs, FormatMsg(&x))
				}
			}
			slices.Sort(msgs)
			b.WriteString(strings.Join(msgs, ","))
			return b.String()
		}
		a := reachable(t, with.System(), project)
		b := reachable(t, without.System(), project)
		if len(a) != len(b) {
			t.Errorf("n=%d r=%d: %d projected states with WAIT, %d without", c.n, c.r, len(a), len(b))
			continue
		}
		for s := range a {
			if !b[s] {
				t.Errorf("n=%d r=%d: a projected state with WAIT is not reached without: %s", c.n, c.r, s)
				break
			}
		}
	}
}

func checkCyclic(t *testing.T, variant string, n int) (*explore.LivenessResult, model.System) {
	t.Helper()
	p, err := NewCyclic(variant, n)
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	if sys.Info().Requests != 0 {
		t.Fatalf("Info.Requests = %d, want 0 for cyclic clients", sys.Info().Requests)
	}
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true, Fairness: model.WeakFairness, Options: explore.Options{Exact: true}})
	if err != nil {
		t.Fatal(err)
	}
	return res, sys
}

// algorithms.md §2 "starvation-freedom (FCFS by stamp)": with cyclic
// clients and weak fairness no process waits forever; the safety
// properties hold on the same (renumbered, finite) state space. The counts
// are those of the renumbered model, cross-checked with naiveCount
// (naive_test.go, r < 0: cyclic, with its own renumbering).
func TestCyclicDefaultStarvationFree(t *testing.T) {
	for _, c := range []struct {
		n                   int
		states, transitions int64
		depth               int
	}{{2, 32, 56, 12}, {3, 508, 1210, 19}, {4, 10277, 30983, 26}} {
		res, sys := checkCyclic(t, Default, c.n)
		if res.Verdict != explore.OK || res.States != c.states || res.Transitions != c.transitions || res.Depth != c.depth {
			t.Errorf("n=%d: %s, %d/%d/%d, want ok with %d/%d/%d", c.n, res.Verdict, res.States, res.Transitions, res.Depth, c.states, c.transitions, c.depth)
		}
		if s, tr, d := naiveCount(c.n, -1); int64(s) != c.states || int64(tr) != c.transitions || d != c.depth {
			t.Errorf("naive n=%d cyclic: %d/%d/%d, pinned %d/%d/%d", c.n, s, tr, d, c.states, c.transitions, c.depth)
		}
		sres, err := explore.Check(context.Background(), sys, explore.Options{Workers: 1, Exact: true,
			Properties: invariants.Applicable(props(Properties()...), sys.Info())})
		if err != nil {
			t.Fatal(err)
		}
		if sres.Verdict != explore.OK || sres.States != c.states {
			t.Errorf("n=%d safety: %s, %d states", c.n, sres.Verdict, sres.States)
		}
	}
}

// algorithms.md §2 mutant coord-ring/lifo: serving the newest stamp first
// starves a queued process. The lassos with the shortest prefix, per
// starving process, are pinned as prefix+cycle (package doc, "Variants"):
// at n = 2 the coordinator P0, a client too, starves behind P1; at n = 3
// client P1 starves too.
func TestLIFOStarves(t *testing.T) {
	for _, c := range []struct {
		n    int
		want []string
	}{
		{2, []string{"P0:12+5"}},
		{3, []string{"P0:12+5", "P1:8+12", "P2:8+12"}},
	} {
		res, _ := checkCyclic(t, LIFO, c.n)
		if res.Verdict != explore.Violated || len(res.Starving) == 0 {
			t.Fatalf("%s n=%d cyclic: %s, want a starvation lasso", LIFO, c.n, res.Verdict)
		}
		var got []string
		for _, l := range res.Starving {
			got = append(got, fmt.Sprintf("P%d:%d+%d", l.Process, l.Loop, l.CycleLen()))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("n=%d: lassos %v, want %v", c.n, got, c.want)
		}
	}
}

// Renumber keeps order and ties, caps the gap above a base value at 2 and
// closes every other gap to 1.
func TestRenumber(t *testing.T) {
	procs := []Proc{{Clock: 7, Queue: []Entry{{1, 3}, {2, 8}}}, {Clock: 3}, {Clock: 12}}
	msgs := []Msg{{Kind: REQUEST, From: 2, TS: 12}, {Kind: RETURN, From: 1}, {Kind: TOKEN, To: 1, TS: 7}}
	Renumber([]model.Phase{model.Idle, model.Idle, model.Waiting}, procs, msgs)
	got := fmt.Sprint(procs, msgs)
	// Values 3 (P1's clock, base), 7 (P0's clock, base), 8 (a stamp), 12
	// (P2 is Waiting: not base): gaps 4 -> 2, 1 -> 1, 4 -> 1.
	want := fmt.Sprint([]Proc{{Clock: 2, Queue: []Entry{{1, 0}, {2, 3}}}, {Clock: 0}, {Clock: 4}},
		[]Msg{{Kind: REQUEST, From: 2, TS: 4}, {Kind: RETURN, From: 1}, {Kind: TOKEN, To: 1, TS: 2}})
	if got != want {
		t.Errorf("Renumber = %s, want %s", got, want)
	}
}
