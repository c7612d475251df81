package torus_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// fifoBuild returns a registered torus variant with parameters over the
// defaults.
func fifoBuild(t testing.TB, variant string, params map[string]int) (model.System, []model.Property) {
	t.Helper()
	a, v, err := algorithms.Lookup(variant)
	if err != nil {
		t.Fatal(err)
	}
	full := map[string]int{"n": 4, "r": 1}
	for k, x := range params {
		full[k] = x
	}
	sys, extra, err := a.Build(v.Name, full)
	if err != nil {
		t.Fatal(err)
	}
	return sys, extra
}

// The FIFO counts equal those of the independent queue-per-channel
// enumerator (fifo_naive_test.go), and for the repaired reading the
// 13,144 states that the notes' own throw-away enumerator found
// (docs/notes/algorithms.md §8.6, "FIFO, 13,144 states"). Safety and
// waiting-shape hold in all three readings, as with the unordered network.
func TestFIFOCountsCrossChecked(t *testing.T) {
	for _, c := range []struct {
		variant string
		te, ce  int
		notes   int64 // states quoted by the notes (0: none quoted)
	}{
		{"torus", 3, 3, 13144},
		{"torus/literal", 2, 2, 0},
		{"torus/skip-column-end", 3, 2, 0},
	} {
		sys, extra := fifoBuild(t, c.variant, map[string]int{"fifo": 1})
		res := algotest.Check(t, sys, invariants.Applicable(invariants.With(extra...), sys.Info()))
		want := nvModel{d: 2, r: 1, te: c.te, ce: c.ce}.enumerate()
		if res.Verdict != explore.OK {
			t.Errorf("%s fifo: %s, want every safety property to hold", c.variant, res.Verdict)
		}
		if res.States != int64(want.states) || res.Transitions != int64(want.transitions) || res.Depth != want.depth {
			t.Errorf("%s fifo d=2 R=1: %d states, %d transitions, depth %d; the queue enumerator has %+v",
				c.variant, res.States, res.Transitions, res.Depth, want)
		}
		if c.notes != 0 && res.States != c.notes {
			t.Errorf("%s fifo d=2 R=1: %d states, the notes' enumerator %d", c.variant, res.States, c.notes)
		}
		algotest.ModesAgree(t, sys, res)
	}
	// the default network is unchanged by the parameter
	sys, _ := fifoBuild(t, "torus", map[string]int{"fifo": 0})
	if res := algotest.Check(t, sys, nil); res.States != 88608 || res.Transitions != 305348 {
		t.Errorf("torus fifo=0: %d states %d transitions, want semantics.md's 88,608 / 305,348", res.States, res.Transitions)
	}
}

// With FIFO channels a message cannot overtake an older one on its
// channel. d = 2, repaired: P0 requests (REQUEST(0) on P0 -> P1), the
// token reaches P0 from above, P0 enters and exits: the token follows
// REQUEST(0) on the same channel and may be delivered only after it.
func TestFIFONoOvertaking(t *testing.T) {
	for _, fifo := range []int{0, 1} {
		sys, _ := fifoBuild(t, "torus", map[string]int{"fifo": fifo})
		s := algotest.NewStepper(t, sys)
		tok := "Deliver TOKEN(->P0, rc=1, cc=0, ch=F)"
		if fifo == 1 {
			tok = "Deliver TOKEN(->P0, rc=1, cc=0, ch=F, seq=-1)"
		}
		s.Steps("Request(P0)", tok, "Exit(P0)")
		net := s.Network()
		want := []string{"REQUEST(origin=P0, ->P1)", "TOKEN(->P1, rc=2, cc=1, ch=F)"}
		if fifo == 1 {
			want = []string{"REQUEST(origin=P0, ->P1, seq=-2)", "TOKEN(->P1, rc=2, cc=1, ch=F, seq=-1)"}
		}
		if !slices.Equal(net, want) {
			t.Fatalf("fifo=%d: network %q, want %q", fifo, net, want)
		}
		var enabled []string
		s.W.Successors(s.State, func(tr *model.Transition, _ []byte) bool {
			enabled = append(enabled, s.W.Label(s.State, tr))
			return true
		})
		canToken := slices.ContainsFunc(enabled, func(l string) bool { return strings.HasPrefix(l, "Deliver TOKEN") })
		if canToken != (fifo == 0) {
			t.Errorf("fifo=%d: enabled %q; the token may overtake the request: %v, want %v", fifo, enabled, canToken, fifo == 0)
		}
		if fifo == 1 {
			s.Step("Deliver REQUEST(origin=P0, ->P1, seq=-2)")
			// delivering the oldest renumbers nothing: the token keeps seq=-1
			s.Step("Deliver TOKEN(->P1, rc=2, cc=1, ch=F, seq=-1)")
		}
	}
}

// docs/notes/algorithms.md §8.6 T-A: the literal torus starves at d = 2,
// R = 1 "with FIFO channels too", and §8.6/§9.3: the repaired torus does
// not (FIFO, 13,144 states). The shipped lasso replays.
func TestFIFOStarvation(t *testing.T) {
	for _, c := range []struct {
		variant string
		starves []int
	}{
		{"torus/literal", []int{0, 1, 2, 3}},
		{"torus", nil},
	} {
		sys, _ := fifoBuild(t, c.variant, map[string]int{"fifo": 1})
		res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true, Fairness: model.WeakFairness})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, s := range res.Starving {
			got = append(got, s.Process)
		}
		if !slices.Equal(got, c.starves) {
			t.Errorf("%s fifo: starving processes %v, want %v", c.variant, got, c.starves)
		}
	}
	sys, extra := fifoBuild(t, "torus/literal", map[string]int{"fifo": 1})
	tr := algotest.ReplayShipped(t, sys, extra, "testdata/literal-d2-r1-fifo.starvation-freedom.P1.trace.json", "starvation-freedom", 13)
	if tr.Params["fifo"] != 1 || tr.Loop == nil || *tr.Loop != 10 || tr.WaitingProcess == nil || *tr.WaitingProcess != 1 {
		t.Fatalf("lasso shape changed: params %v, loop %v, waiting %v; want fifo=1, the cycle at step 10 of 13, P1 waiting", tr.Params, tr.Loop, tr.WaitingProcess)
	}
}

// docs/notes/algorithms.md §8.6 T-B ("d = 3, requesters {0,1,2,4}, R = 1,
// FIFO"): repairing only the tour end is not enough, P1 starves, by the
// mechanism the notes describe (the shipped lasso: P2's request marks P0
// and P1, the tour clears them, P1's own REQUEST is swallowed at P2, and
// P1 is the column-change node of its column ever after); and §9.3: the
// repaired torus is starvation-free with requesters {0,1,2,4} and
// {0,1,3,4}, FIFO and unordered. The counts equal the queue enumerator's.
func TestFIFOD3Requesters(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (d=3 with FIFO channels, about a million states): set TOKENMC_HEAVY=1")
	}
	for _, c := range []struct {
		variant string
		te, ce  int
		mask    int
		starves []int
	}{
		{"torus/skip-column-end", 4, 3, 23, []int{1}},
		{"torus", 4, 4, 23, nil},
		{"torus", 4, 4, 27, nil},
	} {
		sys, _ := fifoBuild(t, c.variant, map[string]int{"n": 9, "fifo": 1, "requesters": c.mask})
		res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true, Fairness: model.WeakFairness})
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, s := range res.Starving {
			got = append(got, s.Process)
		}
		if res.Verdict == explore.Incomplete || !slices.Equal(got, c.starves) {
			t.Errorf("%s fifo n=9 requesters=%d: %s, starving %v, want %v", c.variant, c.mask, res.Verdict, got, c.starves)
		}
		want := nvModel{d: 3, r: 1, te: c.te, ce: c.ce, mask: c.mask}.enumerate()
		if res.States != int64(want.states) || res.Transitions != int64(want.transitions) || res.Depth != want.depth {
			t.Errorf("%s fifo n=9 requesters=%d: %d states, %d transitions, depth %d; the queue enumerator has %+v",
				c.variant, c.mask, res.States, res.Transitions, res.Depth, want)
		}
	}
	sys, extra := fifoBuild(t, "torus/skip-column-end", map[string]int{"n": 9, "fifo": 1, "requesters": 23})
	tr := algotest.ReplayShipped(t, sys, extra, "testdata/skip-column-end-d3-req23-fifo.starvation-freedom.P1.trace.json", "starvation-freedom", 20)
	if tr.Params["fifo"] != 1 || tr.Params["requesters"] != 23 || tr.Loop == nil || *tr.Loop != 12 || tr.WaitingProcess == nil || *tr.WaitingProcess != 1 {
		t.Fatalf("lasso shape changed: params %v, loop %v, waiting %v; want fifo=1 requesters=23, the cycle at step 12 of 20, P1 waiting", tr.Params, tr.Loop, tr.WaitingProcess)
	}
}
