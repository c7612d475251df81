package explore

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/tokenmc/tokenmc/explore/internal/ticker"
)

// AnalysisProgress is a progress report of the analysis phase of
// CheckLiveness, the work done on the graph once it is built.
type AnalysisProgress struct {
	// Phase is "starvation" (fair components, one step per process) or
	// "occupancy" (one step per process and group).
	Phase string
	// Step is the number of steps of the phase finished; Steps their
	// number.
	Step, Steps int
	// Visited counts the state visits of the current step so far, in
	// multiples of analysisCheckEvery (a state is visited once per search
	// of the step, so the refinement of a component under strong fairness,
	// or the occupancy checks, can count it again); States is the number
	// of states in the graph.
	Visited, States int64
	// FairComponents is the number of fair components found so far.
	FairComponents int
	Elapsed        time.Duration // since CheckLiveness started
}

// analysisCheckEvery is how many states the analysis visits between two
// looks at the context and two updates of its progress counters.
const analysisCheckEvery = 4096

// testHookAnalysisStep, if set by a test, runs before each step of the
// analysis (a test cancels its context from it at a chosen step).
var testHookAnalysisStep func(phase string, step int)

// analysisState is shared by the analysis, which stops at the first
// cancellation of ctx it sees, and the goroutine that reports progress.
type analysisState struct {
	ctx     context.Context
	stopped bool  // ctx was seen cancelled: the analysis is partial
	visits  int64 // states visited, for visit's period

	phase          atomic.Value // string
	step, steps    atomic.Int64
	visited        atomic.Int64
	fairComponents atomic.Int64
}

func newAnalysisState(ctx context.Context) *analysisState {
	a := &analysisState{ctx: ctx}
	a.phase.Store("")
	return a
}

// begin starts step step of steps in phase and reports whether the
// analysis may go on.
func (a *analysisState) begin(phase string, step, steps int) bool {
	a.phase.Store(phase)
	a.step.Store(int64(step))
	a.steps.Store(int64(steps))
	a.visited.Store(0)
	if testHookAnalysisStep != nil {
		testHookAnalysisStep(phase, step)
	}
	return a.check()
}

// visit counts one more state visited by the current step; every
// analysisCheckEvery states it looks at the context. It reports whether
// the analysis may go on.
func (a *analysisState) visit() bool {
	if a.visits++; a.visits%analysisCheckEvery != 0 {
		return !a.stopped
	}
	a.visited.Add(analysisCheckEvery)
	return a.check()
}

// check looks at the context and reports whether the analysis may go on.
func (a *analysisState) check() bool {
	if !a.stopped && a.ctx.Err() != nil {
		a.stopped = true
	}
	return !a.stopped
}

// report starts the goroutine that calls f every every (default 5s) until
// stop is called, once the first step has begun.
func (a *analysisState) report(f func(AnalysisProgress), interval time.Duration, states int64, start time.Time) (stop func()) {
	if f == nil {
		return func() {}
	}
	return ticker.Every(interval, func() {
		phase := a.phase.Load().(string)
		if phase == "" {
			return // no step has begun: nothing to report yet
		}
		f(AnalysisProgress{
			Phase:          phase,
			Step:           int(a.step.Load()),
			Steps:          int(a.steps.Load()),
			Visited:        a.visited.Load(),
			States:         states,
			FairComponents: int(a.fairComponents.Load()),
			Elapsed:        time.Since(start),
		})
	})
}
