package simulate_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/model"
)

// endless returns Suzuki-Kasami at n=3 with so many requests per process
// that no test walk reaches the end: a run stops only at its step bound or
// when it is interrupted.
func endless(t testing.TB) (model.System, []model.Property) {
	return skSystem(t, "", 3, 1<<30)
}

// TestInterruptCountsWhatWasDone (issue 12): an interrupted simulation
// reports the steps actually fired, the runs cut short included, and the
// progress reports count steps while a single long run is going on (they
// used to say "0 runs, 0 steps" until a run ended, and the interrupted
// summary "steps: 0").
func TestInterruptCountsWhatWasDone(t *testing.T) {
	sys, props := endless(t)
	for _, c := range []struct {
		name string
		sys  model.System
	}{{"in-place", sys}, {"encoded", encodedOnly{sys}}, {"successors", hidden{sys}}} {
		for _, workers := range []int{1, 2} {
			ctx, cancel := context.WithCancel(context.Background())
			var mu sync.Mutex
			var reports []simulate.Progress
			opts := simulate.Options{
				Properties: props, Runs: 3, Steps: 1 << 40, Seed: 5, Workers: workers,
				ProgressEvery: 20 * time.Millisecond,
				Progress: func(p simulate.Progress) {
					mu.Lock()
					defer mu.Unlock()
					reports = append(reports, p)
					// stop once a report counts steps (the runs never end by
					// themselves), or give up after 10 s
					if p.Steps > 0 && len(reports) >= 2 || len(reports) >= 500 {
						cancel()
					}
				},
			}
			res, err := simulate.Run(ctx, c.sys, opts)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			last := reports[len(reports)-1]
			mu.Unlock()
			if last.Steps == 0 || last.Runs != 0 {
				t.Errorf("%s, %d workers: progress %+v during unfinished runs: want steps > 0 and 0 runs", c.name, workers, last)
			}
			var fired int64
			for _, n := range res.Fired {
				fired += n
			}
			if res.Steps < last.Steps || res.Steps != fired || res.Runs != 0 || res.Violation != nil {
				t.Errorf("%s, %d workers: interrupted result: %d steps (fired %d), %d runs; progress had %d steps",
					c.name, workers, res.Steps, fired, res.Runs, last.Steps)
			}
			if res.Distinct < 2 {
				t.Errorf("%s, %d workers: distinct estimate %d after %d steps", c.name, workers, res.Distinct, res.Steps)
			}
		}
	}
}

// TestLongRunMemory (issue 12: memory grew about 9 MB/s on long runs): a
// run keeps nothing that grows with its length. The walk used to record
// its schedule, 4 bytes per step, in case it met a violation; now a
// violating run is run again to rebuild its path. A run of 400,000 steps
// must allocate well under one byte per step.
func TestLongRunMemory(t *testing.T) {
	sys, props := endless(t)
	const steps = 400_000
	for _, c := range []struct {
		name string
		sys  model.System
	}{{"in-place", sys}, {"encoded", encodedOnly{sys}}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := simulate.Run(context.Background(), c.sys, simulate.Options{Properties: props, Runs: 1, Steps: steps, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if res.Steps != steps {
			t.Fatalf("%s: %d steps, want %d", c.name, res.Steps, steps)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > steps/4 {
			t.Errorf("%s: a run of %d steps allocated %d bytes", c.name, steps, got)
		}
	}
}
