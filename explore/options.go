package explore

import (
	"fmt"
	"time"

	"github.com/tokenmc/tokenmc/model"
)

// Options configure a search. The zero value checks no property with one
// worker per CPU, fingerprint mode, breadth first, without bounds.
type Options struct {
	Properties []model.Property // properties to check; a search stops at the first violation
	Workers    int              // goroutines for BFS; <= 0 means GOMAXPROCS. DFS uses one.
	MaxStates  int64            // stop after this many distinct states (0: no bound)
	MaxDepth   int              // do not admit states deeper than this (0: no bound)
	Exact      bool             // store full states instead of 64-bit fingerprints
	DFS        bool             // depth-first instead of breadth-first
	// Progress, if set, is called from a separate goroutine every
	// ProgressEvery (default 5s) while the search runs.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is a progress report of a running search.
type Progress struct {
	States      int64
	Transitions int64
	Frontier    int64 // states waiting to be expanded
	Depth       int
	Elapsed     time.Duration
	HeapBytes   uint64
}

// Verdict is the outcome of a search.
type Verdict string

// Verdicts. Incomplete means a bound or an interrupt stopped the search
// before it covered the reachable states, with no violation found so far.
const (
	OK         Verdict = "ok"
	Violated   Verdict = "violation"
	Incomplete Verdict = "incomplete"
)

// Result is what a search found.
type Result struct {
	Verdict     Verdict
	States      int64 // distinct states admitted
	Transitions int64 // (state, enabled action) pairs over expanded states
	Depth       int   // BFS: largest distance from an initial state; DFS: deepest stack
	Elapsed     time.Duration
	// SeenBytes is the memory of the visited-state set; LinkBytes that of
	// the predecessor links kept for counterexamples (BFS only).
	SeenBytes, LinkBytes int64
	// StopReason says why an incomplete search stopped: "max-states",
	// "max-depth" or "interrupted".
	StopReason string
	Violation  *Violation
}

// BytesPerState is the memory of the visited-state set per distinct state.
func (r *Result) BytesPerState() float64 {
	if r.States == 0 {
		return 0
	}
	return float64(r.SeenBytes) / float64(r.States)
}

// StatesPerSecond is the exploration rate.
func (r *Result) StatesPerSecond() float64 {
	s := r.Elapsed.Seconds()
	if s <= 0 {
		return 0
	}
	return float64(r.States) / s
}

// CollisionProbability estimates, as TLC does ("optimistic"), the
// probability that two distinct states shared a fingerprint so that one was
// wrongly considered visited: n*(g-n)/2^64 for n distinct states and g
// generated successors. It is 0 in exact mode.
func (r *Result) CollisionProbability(exact bool) float64 {
	if exact {
		return 0
	}
	n := float64(r.States)
	g := float64(r.Transitions)
	if g < n {
		g = n
	}
	return n * (g - n) / 18446744073709551616.0
}

// Violation is a property violation with its counterexample path.
type Violation struct {
	Property model.Property
	// Path holds the states from an initial state to the violating state
	// (for a transition invariant, the last step is the violating
	// transition). len(Path)-1 steps.
	Path [][]byte
}

// Len is the number of steps of the counterexample.
func (v *Violation) Len() int { return len(v.Path) - 1 }

func (o *Options) validate() error {
	if o.MaxStates < 0 {
		return fmt.Errorf("max-states must be >= 0, got %d", o.MaxStates)
	}
	if o.MaxDepth < 0 {
		return fmt.Errorf("max-depth must be >= 0, got %d", o.MaxDepth)
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
