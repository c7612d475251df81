package measure

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"sync"
	"time"
)

// PanicError is Run's error when a replication panicked: a bug in the
// algorithm's model or in measure, not bad input.
type PanicError struct {
	Replication int    // the replication's index (0-based)
	Value       any    // the panic value
	Stack       []byte // debug.Stack() where it was recovered
}

// Error renders the panic.
func (e *PanicError) Error() string {
	return fmt.Sprintf("replication %d panicked: %v", e.Replication, e.Value)
}

// Result is a measurement: every figure is a mean over the replications
// with its 95% confidence interval. A figure without a sample (no
// synchronisation delay at light load, say) is NaN.
type Result struct {
	Config Config
	// MessagesPerCS counts every message but idle circulation.
	MessagesPerCS Stat
	// IdlePerCS is the idle circulation of a perpetually moving token.
	IdlePerCS Stat
	// ByKind splits MessagesPerCS by message kind: the messages of each
	// kind per CS entry.
	ByKind map[string]Stat
	// Forwarded is forwarded requests per CS entry (Banerjee-Chrysanthis).
	Forwarded Stat
	// Response runs from a request to its exit, Waiting to its entry, Sync
	// from an exit with a process Waiting to the next entry.
	Response, Waiting, Sync Stat
	// At light load: the share of requests that entered at once, and the
	// messages per request of those that did (Local) and did not (Remote).
	LocalShare, LocalMsgs, RemoteMsgs Stat
	// Entries is the number of measured CS entries over all replications,
	// Events the number of events fired.
	Entries, Events int64
	// Unserved sums the processes still Waiting at the end of each
	// replication; Stranded those of them that had waited for more than a
	// fifth of the replication's simulated time (and 100 (T_msg+T_exec)): a
	// request the algorithm lost. Stalled counts replications that ended
	// because nothing entered the CS for a long stretch (a deadlock).
	Unserved, Stranded, Stalled int
	// Blocked counts the stalled replications of a system with a
	// whole-state Guard that ended with nothing scheduled but events the
	// Guard still refused (package doc, "Whole-state hooks").
	Blocked int
	// Postponed counts the events the Guard refused when they were due
	// and that were held for a later step (0 without a Guard).
	Postponed int64
	// Violation names the first safety property violated, "" if none.
	Violation string
	// Interrupted: ctx was cancelled; the figures cover the replications
	// that finished (Config.Replications still says how many were asked).
	Interrupted bool
	Elapsed     time.Duration
}

// Run measures cfg (after Defaults). The replications run on up to workers
// goroutines; the result does not depend on workers. Cancelling ctx stops
// early with the replications finished so far (an error if none). A
// system with a whole-state Guard or Normalize hook is stepped through
// its LocalWorker, never normalised, with every event passing the Guard
// (see the package doc); a panic in a replication is returned as a
// *PanicError.
func Run(ctx context.Context, cfg Config, workers int) (*Result, error) {
	cfg.Defaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	b, err := build(&cfg)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	// A replication's simulator is made when a worker takes it and shed
	// of its working state when it ends: the memory held is that of the
	// workers' running replications plus a summary per replication, not
	// a whole simulator per replication (10,000 of them at N=64 took 2 GB).
	sims := make([]*sim, cfg.Replications)
	errs := make([]error, cfg.Replications)
	var err0 error
	if sims[0], err0 = newSim(&cfg, b, 0); err0 != nil {
		return nil, err0
	}
	workers = max(1, min(workers, cfg.Replications))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for k := range next {
				if sims[k] == nil {
					if sims[k], errs[k] = newSim(&cfg, b, k); errs[k] != nil {
						continue
					}
				}
				sims[k].ctx = ctx
				errs[k] = runRecovered(sims[k], k)
				sims[k].shed()
			}
		})
	}
	done := 0
feed:
	for k := range sims {
		select {
		case <-ctx.Done():
			break feed
		case next <- k:
			done++
		}
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var fin []*sim
	for _, s := range sims[:done] {
		if s != nil && s.finished {
			fin = append(fin, s)
		}
	}
	if len(fin) == 0 {
		return nil, fmt.Errorf("interrupted before a replication finished: %v", ctx.Err())
	}
	r := summarize(&cfg, fin, time.Since(start))
	r.Interrupted = len(fin) < len(sims)
	return r, nil
}

// runRecovered runs replication k of s, turning a panic into a
// *PanicError (a panic in a goroutine would end the program).
func runRecovered(s *sim, k int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Replication: k, Value: p, Stack: debug.Stack()}
		}
	}()
	s.run()
	return nil
}

func summarize(cfg *Config, sims []*sim, elapsed time.Duration) *Result {
	r := &Result{Config: *cfg, Elapsed: elapsed}
	col := func(f func(c *counts) float64) Stat {
		xs := make([]float64, len(sims))
		for k, s := range sims {
			xs[k] = f(&s.c)
		}
		return statOf(xs)
	}
	r.MessagesPerCS = col(func(c *counts) float64 { return ratio(c.msgs, c.entries) })
	r.IdlePerCS = col(func(c *counts) float64 { return ratio(c.idle, c.entries) })
	r.Forwarded = col(func(c *counts) float64 { return ratio(c.forwarded, c.entries) })
	r.Response = col(func(c *counts) float64 { return fratio(c.resp, c.nResp) })
	r.Waiting = col(func(c *counts) float64 { return fratio(c.wait, c.nWait) })
	r.Sync = col(func(c *counts) float64 { return fratio(c.sync, c.nSync) })
	if cfg.Load.Kind == "light" {
		r.LocalShare = col(func(c *counts) float64 { return ratio(c.local, c.local+c.remote) })
		r.LocalMsgs = col(func(c *counts) float64 { return ratio(c.localMsgs, c.local) })
		r.RemoteMsgs = col(func(c *counts) float64 { return ratio(c.remoteMsgs, c.remote) })
	} else {
		nan := Stat{Mean: math.NaN(), Half: math.NaN()}
		r.LocalShare, r.LocalMsgs, r.RemoteMsgs = nan, nan, nan
	}
	r.ByKind = map[string]Stat{}
	for _, s := range sims {
		for k := range s.c.byKind {
			if _, ok := r.ByKind[k]; !ok {
				r.ByKind[k] = col(func(c *counts) float64 { return ratio(c.byKind[k], c.entries) })
			}
		}
	}
	for _, s := range sims {
		r.Entries += s.c.entries
		r.Events += s.events
		r.Unserved += s.nUnserved
		r.Stranded += s.nStranded
		if s.stalled {
			r.Stalled++
		}
		if s.blocked {
			r.Blocked++
		}
		r.Postponed += s.postponed
		if r.Violation == "" && s.violation != "" {
			r.Violation = s.violation
		}
	}
	return r
}
