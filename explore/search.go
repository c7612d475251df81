package explore

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/tokenmc/tokenmc/explore/internal/ticker"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/sysmem"
)

// Check explores the reachable states of sys and checks opts.Properties.
// It returns an error only for invalid options, a model a breadth-first
// search cannot number (a state with more than 65,536 transitions, a level
// of more than 2^32-1 states: depth-first search handles both), or a model
// whose Initial or Successors are not deterministic, found when the
// breadth-first search rebuilds a counterexample by re-running them and
// does not reach the violating state; verdicts are values in the Result.
// Cancelling ctx stops the search with an Incomplete result holding the
// counts so far.
func Check(ctx context.Context, sys model.System, opts Options) (*Result, error) {
	return search(ctx, sys, opts, nil)
}

// search is Check; cov, when not nil, is told every transition of a
// breadth-first search and every level (Coverage).
func search(ctx context.Context, sys model.System, opts Options, cov *coverageWalk) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.MemoryBudget >= 64<<20 {
		// Make the collector work harder as the heap nears the budget
		// rather than let garbage push the process over it.
		old := debug.SetMemoryLimit(opts.MemoryBudget / 10 * 9)
		defer debug.SetMemoryLimit(old)
	}
	var gc gcTuner
	defer gc.restore()
	start := time.Now()
	wd := &workDir{parent: opts.WorkDir}
	defer wd.remove()
	live := liveCounters{wd: wd, budget: opts.MemoryBudget, gc: &gc}
	stop := startProgress(&opts, &live, start)
	var res *Result
	var seen *seenSet
	var sk *sketch
	if opts.DFS {
		d := newDFS(sys, opts, &live)
		res, seen, sk = d.run(ctx), d.seen, d.sk
	} else {
		b := newBFS(sys, opts, &live, wd)
		b.cov = cov
		var pos int64
		if opts.Resume != "" {
			var err error
			if pos, err = b.restoreCheckpoint(opts.Resume); err != nil {
				b.close()
				b.seen.free()
				stop()
				return nil, err
			}
		}
		res, seen, sk = b.run(ctx, pos), b.seen, b.sk
		if b.fatal != nil {
			seen.free()
			stop()
			return nil, b.fatal
		}
	}
	seen.describe(res)
	res.Sketch = sk.sorted()
	seen.free()
	stop()
	res.Elapsed = time.Since(start)
	res.PeakRSS = sysmem.PeakRSS()
	res.SpilledBytes = wd.spilled.Load()
	res.MemoryBudget = opts.MemoryBudget
	res.ResumedStates = live.resumed.Load()
	res.CapacityBlocked = live.capBlocked.Load()
	res.Exact = opts.Exact
	return res, nil
}

// gcPercent is the collector's heap growth target once a search holds
// gcTuneStates states, unless the GOGC environment variable sets one. The
// seen set lives outside the Go heap (see allocTable) and a large search
// reuses its buffers, so a small target then costs few collections and
// keeps garbage from inflating the resident set; on a small search (a
// small heap) it would only multiply collections, so it waits.
const (
	gcPercent    = 20
	gcTuneStates = 1 << 20
)

// gcTuner lowers the collector's target once and restores it at the end.
type gcTuner struct {
	set bool
	old int
}

func (g *gcTuner) tune(states int64) {
	if !g.set && states >= gcTuneStates && os.Getenv("GOGC") == "" {
		g.set, g.old = true, debug.SetGCPercent(gcPercent)
	}
}

func (g *gcTuner) restore() {
	if g.set {
		debug.SetGCPercent(g.old)
		g.set = false
	}
}

// liveCounters are read by the progress goroutine while a search runs.
type liveCounters struct {
	states, transitions, frontier atomic.Int64
	depth                         atomic.Int64
	wd                            *workDir // nil if the search spills nothing
	budget                        int64
	resumed                       atomic.Int64 // states restored from a checkpoint
	capBlocked                    atomic.Int64 // capacity-blocked states (Result.CapacityBlocked)
	gc                            *gcTuner     // nil outside Check
}

func startProgress(opts *Options, live *liveCounters, start time.Time) (stop func()) {
	if opts.Progress == nil {
		return func() {}
	}
	return ticker.Every(opts.ProgressEvery, func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		p := Progress{
			States:       live.states.Load(),
			Transitions:  live.transitions.Load(),
			Frontier:     live.frontier.Load(),
			Depth:        int(live.depth.Load()),
			Elapsed:      time.Since(start),
			HeapBytes:    ms.HeapInuse,
			RSSBytes:     sysmem.CurrentRSS(),
			MemoryBudget: live.budget,
		}
		p.ResumedStates = live.resumed.Load()
		if live.wd != nil {
			p.SpilledBytes = live.wd.spilled.Load()
		}
		opts.Progress(p)
	})
}
