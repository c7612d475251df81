package simulate

import (
	"fmt"
	"time"

	"github.com/tokenmc/tokenmc/model"
)

// Strategy chooses the next transition of a walk among the enabled ones.
type Strategy string

// The strategies.
const (
	// Uniform picks every enabled transition with equal probability.
	Uniform Strategy = "uniform"
	// PCT is probabilistic concurrency testing (Burckhardt et al., ASPLOS
	// 2010) with processes as threads: each run gives the processes a
	// random priority order and always fires a transition of the
	// highest-priority process that has one (a delivery belongs to its
	// receiver); at Depth-1 random steps the process that acts drops to
	// the lowest priority so far.
	PCT Strategy = "pct"
	// Swarm (Groce et al., ISSTA 2012) switches off, for a whole run, a
	// random subset of the action classes (Request, Exit, Timer, and
	// Deliver and Lose per message type such as "Deliver TOKEN"); a
	// switched-off class fires only when nothing else is enabled, so a
	// run never stops early because of its configuration.
	Swarm Strategy = "swarm"
)

// Options configure a simulation. Zero values take the documented defaults.
type Options struct {
	Properties []model.Property // checked at every step; a violation stops the simulation
	Steps      int              // steps per run at most (default 10000); a run also ends in a state without enabled transitions
	Runs       int              // number of runs (default 1)
	Seed       uint64           // the whole simulation is a function of Seed, whatever Workers is
	Workers    int              // goroutines (default 1, at most 4096)
	Strategy   Strategy         // default Uniform
	// Depth is PCT's d: the bug depth it targets, giving d-1 priority
	// change points per run (default 3, at most 65536).
	Depth int
	// NoShrink keeps the violating walk as found instead of minimising it.
	NoShrink bool
	// ShrinkBudget bounds the steps replayed while shrinking (default
	// 500,000); shrinking stops early, with a shorter but maybe not
	// minimal path, when it runs out.
	ShrinkBudget int
	// Progress, if set, is called every ProgressEvery (default 5s) from a
	// separate goroutine.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is a progress report of a running simulation.
type Progress struct {
	Runs    int64 // runs finished
	Steps   int64 // steps fired so far, in finished and running runs (updated every 4096 steps of a run)
	Elapsed time.Duration
}

// Bounds of the options that size allocations: a walker per worker, and
// PCT's Depth-1 change points per run (Options.Workers and Depth document
// them).
const (
	maxWorkers = 4096
	maxDepth   = 1 << 16
)

func (o *Options) defaults() error {
	if o.Steps < 0 || o.Runs < 0 || o.Workers < 0 || o.Depth < 0 || o.ShrinkBudget < 0 {
		return fmt.Errorf("steps, runs, workers, depth and shrink budget must be >= 0")
	}
	if o.Workers > maxWorkers || o.Depth > maxDepth {
		return fmt.Errorf("workers=%d and depth=%d must be at most %d and %d", o.Workers, o.Depth, maxWorkers, maxDepth)
	}
	if o.Steps == 0 {
		o.Steps = 10000
	}
	if o.Runs == 0 {
		o.Runs = 1
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	if o.Depth == 0 {
		o.Depth = 3
	}
	if o.ShrinkBudget == 0 {
		o.ShrinkBudget = 500_000
	}
	switch o.Strategy {
	case "":
		o.Strategy = Uniform
	case Uniform, PCT, Swarm:
	default:
		return fmt.Errorf("unknown strategy %q; valid: uniform, pct, swarm", o.Strategy)
	}
	for _, p := range o.Properties {
		switch p.Kind {
		case model.Invariant, model.Terminal:
			if p.Holds == nil {
				return fmt.Errorf("property %q has no Holds function", p.Name)
			}
		case model.TransitionInvariant:
			if p.HoldsOn == nil {
				return fmt.Errorf("property %q has no HoldsOn function", p.Name)
			}
		default:
			return fmt.Errorf("property %q has unknown kind %d", p.Name, p.Kind)
		}
	}
	return nil
}

// Result is what a simulation saw. With a violation, the counts cover the
// runs up to and including the violating one, so they too are a function
// of the seed. When the simulation is interrupted (its context cancelled),
// they cover everything done: Runs counts the runs completed, and Steps,
// Fired, Distinct and the waits include the runs cut short.
type Result struct {
	Runs     int   // runs completed (with a violation: up to the violating one)
	Steps    int64 // transitions fired
	Terminal int   // runs that ended in a state without enabled transitions
	// CapacityBlocked counts the runs that ended in a capacity-blocked
	// state: a system with bounded channels (model/protocol's
	// Protocol.Capacity) where every transition would exceed the bound.
	// They are not in Terminal, and the terminal properties (no-deadlock)
	// are not checked there: the unbounded system would go on.
	CapacityBlocked int
	// Distinct estimates the distinct states seen (HyperLogLog, about 1.6%
	// standard error).
	Distinct int64
	// Fired counts the transitions fired per action kind ("Request",
	// "Deliver", ...).
	Fired map[string]int64
	// LongestWait is the longest time, in steps of its run, that any
	// process spent Waiting (counting a wait cut short by the end of a
	// run), and LongestWaitProc that process.
	LongestWait     int
	LongestWaitProc int
	Elapsed         time.Duration
	Violation       *Violation
	// ModelError is set when a walk made the model fail (panic); Run
	// then stops, with no violation.
	ModelError *ModelError
}

// StepsPerSecond is the simulation rate.
func (r *Result) StepsPerSecond() float64 {
	if s := r.Elapsed.Seconds(); s > 0 {
		return float64(r.Steps) / s
	}
	return 0
}

// Violation is a property violation found by a walk.
type Violation struct {
	Property model.Property
	Run      int    // index of the run that found it
	RunSeed  uint64 // its own seed, derived from Options.Seed and Run
	// Path holds the states from an initial state to the violating state,
	// after shrinking (unless Options.NoShrink); for a transition
	// invariant the last step is the violating transition. It is what
	// traces.FromSteps takes.
	Path [][]byte
	// Found is the number of steps of the walk when it hit the violation,
	// before shrinking.
	Found int
}

// Len is the number of steps of the (shrunk) counterexample.
func (v *Violation) Len() int { return len(v.Path) - 1 }
