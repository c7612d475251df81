package explore_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// starvingProcesses lists the processes of res's lassos.
func starvingProcesses(res *explore.LivenessResult) []int {
	var out []int
	for _, l := range res.Starving {
		out = append(out, l.Process)
	}
	return out
}

// Cancelling the context once the graph is built stops the analysis
// before the next process: the result keeps the lassos of the processes
// analysed before (identical to those of a full run), says "interrupted",
// and is a violation only if one was found.
func TestLivenessAnalysisHonoursCancel(t *testing.T) {
	sys := buildAlgo(t, "torus/literal", map[string]int{"n": 4, "r": 1})
	opts := explore.LivenessOptions{Starvation: true, Fairness: model.WeakFairness}
	full, err := explore.CheckLiveness(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if full.Verdict != explore.Violated || !slices.Equal(starvingProcesses(full), []int{0, 1, 2, 3}) || full.StopReason != "" {
		t.Fatalf("full run: %s %q, starving %v; want lassos for P0..P3 (torus.md A4)", full.Verdict, full.StopReason, starvingProcesses(full))
	}
	for _, at := range []int{0, 1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		restore := explore.SetTestHookAnalysisStep(func(phase string, step int) {
			if phase == "starvation" && step == at {
				cancel()
			}
		})
		res, err := explore.CheckLiveness(ctx, sys, opts)
		restore()
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		want := explore.Incomplete
		if at > 0 {
			want = explore.Violated
		}
		if res.Verdict != want || res.StopReason != "interrupted" || res.States != full.States || res.Transitions != full.Transitions {
			t.Errorf("cancelled before P%d: %s %q, %d states %d transitions; want %s, interrupted, the whole graph (%d, %d)",
				at, res.Verdict, res.StopReason, res.States, res.Transitions, want, full.States, full.Transitions)
		}
		if got := starvingProcesses(res); !slices.Equal(got, []int{0, 1, 2, 3}[:at]) {
			t.Errorf("cancelled before P%d: lassos for %v, want for the processes before", at, got)
			continue
		}
		for i, l := range res.Starving {
			if !slices.Equal(l.Actions, full.Starving[i].Actions) || l.Loop != full.Starving[i].Loop {
				t.Errorf("cancelled before P%d: P%d's lasso differs from the full run's", at, l.Process)
			}
		}
	}
}

// countdownCtx is a context whose Err turns to Canceled after a given
// number of calls, counted from when it is armed: it cancels a search at
// an exact point of its own checks.
type countdownCtx struct {
	context.Context
	armed atomic.Bool
	left  atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.armed.Load() && c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// A cancel within the analysis of one process (here: after its first
// look at the context, at the start of P0's step) stops it in the middle
// of its strongly connected components, a few thousand states later: no
// lasso, not even P0's.
func TestLivenessAnalysisStopsWithinAProcess(t *testing.T) {
	sys := buildAlgo(t, "torus/literal", map[string]int{"n": 4, "r": 1})
	ctx := &countdownCtx{Context: context.Background()}
	ctx.left.Store(1)
	restore := explore.SetTestHookAnalysisStep(func(phase string, step int) {
		if step == 0 {
			ctx.armed.Store(true)
		}
	})
	defer restore()
	res, err := explore.CheckLiveness(ctx, sys, explore.LivenessOptions{Starvation: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.Incomplete || res.StopReason != "interrupted" || len(res.Starving) != 0 || res.FairComponents != 0 {
		t.Errorf("%s %q, starving %v, %d fair components; want incomplete, interrupted, nothing found",
			res.Verdict, res.StopReason, starvingProcesses(res), res.FairComponents)
	}
}

// The occupancy analysis honours a cancel too.
func TestOccupancyAnalysisHonoursCancel(t *testing.T) {
	sys := buildAlgo(t, "drs-gme/no-rs-add", map[string]int{})
	opts := explore.LivenessOptions{Occupancy: true}
	full, err := explore.CheckLiveness(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if full.Verdict != explore.Violated || full.Occupancy == nil {
		t.Fatalf("full run: %s, want an occupancy violation (docs/results.md)", full.Verdict)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	restore := explore.SetTestHookAnalysisStep(func(phase string, step int) {
		if phase == "occupancy" && step == 0 {
			cancel()
		}
	})
	defer restore()
	res, err := explore.CheckLiveness(ctx, sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.Incomplete || res.StopReason != "interrupted" || res.Occupancy != nil {
		t.Errorf("%s %q, occupancy violation found: %v; want incomplete, interrupted, none", res.Verdict, res.StopReason, res.Occupancy != nil)
	}
}

// AnalysisProgress reports the analysis while it runs: the phase, the
// step among the processes, the graph's size. (Each step is slowed down
// by the hook so that reports are due during it.)
func TestLivenessAnalysisProgress(t *testing.T) {
	sys := buildAlgo(t, "torus/literal", map[string]int{"n": 4, "r": 1})
	var mu sync.Mutex
	var got []explore.AnalysisProgress
	// Each step waits (up to 10 s, a bound never reached) until a report
	// of that step has arrived: the test does not depend on how the
	// ticker and the steps interleave (it failed once in 15 runs when a
	// report came before the first step had begun).
	reported := make(chan int, 64)
	restore := explore.SetTestHookAnalysisStep(func(_ string, step int) {
		deadline := time.After(10 * time.Second)
		for {
			select {
			case s := <-reported:
				if s == step {
					return
				}
			case <-deadline:
				t.Errorf("no report of step %d within 10 s at one every 2 ms", step)
				return
			}
		}
	})
	defer restore()
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{
		Starvation: true,
		Options:    explore.Options{ProgressEvery: 2 * time.Millisecond},
		AnalysisProgress: func(p explore.AnalysisProgress) {
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
			select {
			case reported <- p.Step:
			default:
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	n := len(got)
	mu.Unlock()
	time.Sleep(10 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(got) != n {
		t.Error("reports go on after CheckLiveness returned")
	}
	steps := map[int]bool{}
	for _, p := range got {
		if p.Phase != "starvation" || p.Steps != 4 || p.Step < 0 || p.Step > 3 || p.States != res.States ||
			p.Visited < 0 || p.Visited > p.States || p.FairComponents > res.FairComponents || p.Elapsed <= 0 {
			t.Errorf("report %+v: want phase starvation, step 0..3 of 4, %d states", p, res.States)
		}
		steps[p.Step] = true
	}
	if len(steps) != 4 {
		t.Errorf("reports of steps %v, want each of the 4 steps", steps)
	}
}
