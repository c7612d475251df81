package simulate

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tokenmc/tokenmc/explore/internal/ticker"
	"github.com/tokenmc/tokenmc/model"
)

// Run performs opts.Runs random walks of at most opts.Steps steps on sys,
// checking opts.Properties at every step, and stops at the first violation
// (the one of the lowest-numbered run). Run k is a function of
// opts.Seed and k alone, so the result (apart from Elapsed) is the
// same for any number of workers. A violation's path is shrunk (see
// Shrink) unless opts.NoShrink. Cancelling ctx stops early; the result then
// counts the runs completed and every step fired, including those of the
// runs cut short (see Result). The error is for invalid options, or for a
// model whose successor function is not deterministic (a walk's chosen step
// is gone when its state is stepped again, or a violating run does not
// repeat when it is run again to record its path).
func Run(ctx context.Context, sys model.System, opts Options) (result *Result, err error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	name := sys.Info().Name
	defer func() {
		if e := modelError(recover(), name); e != nil {
			result, err = nil, e
		}
	}()
	start := time.Now()
	horizon := 0
	if opts.Strategy == PCT {
		horizon = pctHorizon(ctx, sys, &opts)
	}
	var (
		next     atomic.Int64
		firstBad atomic.Int64 // lowest run index with a violation so far
		steps    atomic.Int64 // steps fired so far, updated during runs
		done     atomic.Int64
		mu       sync.Mutex
		pending  = map[int]*runOut{}
		merged   = 0
		res      = &Result{Fired: map[string]int64{}, LongestWaitProc: -1}
		modelErr error // a worker's notDeterministic, as an error
		// panicRun is the lowest run that panicked otherwise (-1: none),
		// panicValue its panic
		panicRun   = -1
		panicValue any
		failed     atomic.Bool
		total      sketch
		bad        *runOut
	)
	firstBad.Store(int64(opts.Runs))
	mergeOne := func(out *runOut) {
		if !out.partial {
			res.Runs++
		}
		res.Steps += int64(out.steps)
		if out.terminal {
			res.Terminal++
		}
		if out.capBlock {
			res.CapacityBlocked++
		}
		for k, c := range out.fired {
			if c > 0 {
				res.Fired[model.ActionKind(k).String()] += c
			}
		}
		if out.wait > res.LongestWait {
			res.LongestWait, res.LongestWaitProc = out.wait, out.waitProc
		}
		total.merge(out.sk)
		sketchPool.Put(out.sk)
		if out.violation != nil {
			bad = out
		}
	}
	mergeLocked := func() {
		for bad == nil {
			out, ok := pending[merged]
			if !ok {
				return
			}
			delete(pending, merged)
			merged++
			mergeOne(out)
		}
	}
	stopProgress := startProgress(&opts, &done, &steps, start)
	var wg sync.WaitGroup
	walkers := make([]*walker, opts.Workers)
	for w := range opts.Workers {
		wk := newWalker(sys, &opts, horizon)
		walkers[w] = wk
		wg.Go(func() {
			k := -1
			defer func() {
				r := recover()
				if r == nil {
					return
				}
				mu.Lock()
				if _, nd := r.(notDeterministic); !nd {
					// the model's panic, or simulate's: reproduceFailure tells
					if panicRun < 0 || k < panicRun {
						panicRun, panicValue = k, r
					}
				} else if modelErr == nil {
					modelErr = modelError(r, name)
				}
				mu.Unlock()
				failed.Store(true)
			}()
			for ctx.Err() == nil && !failed.Load() {
				k = int(next.Add(1) - 1)
				if k >= opts.Runs || int64(k) > firstBad.Load() {
					return
				}
				out := wk.run(ctx, k, wk.ch, false, &steps)
				if out.violation != nil {
					out.partial = false
				}
				out.sk = sketchPool.Get().(*sketch)
				*out.sk = wk.sk
				if !out.partial {
					done.Add(1)
				}
				mu.Lock()
				if out.violation != nil {
					for {
						cur := firstBad.Load()
						if int64(k) >= cur || firstBad.CompareAndSwap(cur, int64(k)) {
							break
						}
					}
				}
				pending[k] = out
				mergeLocked()
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	stopProgress()
	if modelErr != nil {
		return nil, modelErr
	}
	if panicValue != nil {
		me := reproduceFailure(sys, &opts, horizon, panicRun)
		if me == nil {
			panic(panicValue) // not the model's: a bug of the walk itself
		}
		res.ModelError = me
		res.Elapsed = time.Since(start)
		return res, nil
	}
	if bad == nil && ctx.Err() != nil {
		// interrupted: count what the runs that finished out of order and
		// the runs cut short did, in run order
		keys := make([]int, 0, len(pending))
		for k := range pending {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if bad == nil {
				mergeOne(pending[k])
			}
		}
	}
	res.Distinct = total.estimate()
	if bad != nil {
		wk := walkers[0] // any walker replays the run; this time it records its choices
		again := wk.run(context.Background(), bad.run, wk.ch, true, nil)
		if again.violation == nil || again.steps != bad.steps || again.violation.Name != bad.violation.Name {
			then := "no violation"
			if again.violation != nil {
				then = again.violation.Name
			}
			return nil, notDeterministic{fmt.Sprintf("run %d violated %s after %d steps, and run again from the same seed it gave %s after %d steps",
				bad.run, bad.violation.Name, bad.steps, then, again.steps)}.err(name)
		}
		path := wk.pathOf(again.schedule)
		v := &Violation{Property: *bad.violation, Run: bad.run, RunSeed: runSeed(opts.Seed, bad.run), Path: path, Found: len(path) - 1}
		if !opts.NoShrink {
			v.Path = Shrink(sys, opts.Properties, v.Property.Name, path, opts.ShrinkBudget)
		}
		res.Violation = v
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

var sketchPool = sync.Pool{New: func() any { return new(sketch) }}

// pctHorizon estimates the length of a run, over which PCT spreads its
// change points: the length of one uniform walk with a seed of its own
// (capped by opts.Steps), so that change points do not fall after the end
// of runs that terminate early.
func pctHorizon(ctx context.Context, sys model.System, opts *Options) int {
	probe := *opts
	probe.Properties = nil
	probe.Strategy = Uniform
	probe.Seed = splitmix64(opts.Seed ^ 0x7063742d686f7269) // "pct-hori"
	wk := newWalker(sys, &probe, 0)
	out := wk.run(ctx, 0, wk.ch, false, nil)
	return max(out.steps, 1)
}

func startProgress(opts *Options, runs, steps *atomic.Int64, start time.Time) (stop func()) {
	if opts.Progress == nil {
		return func() {}
	}
	return ticker.Every(opts.ProgressEvery, func() {
		opts.Progress(Progress{Runs: runs.Load(), Steps: steps.Load(), Elapsed: time.Since(start)})
	})
}
