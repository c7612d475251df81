package explore

import (
	"fmt"
	"os"
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
	// Bitstate, if positive, replaces the seen set by a bit array of this
	// many bytes (Holzmann's supertrace, 3 bits per state): any size of
	// state space fits, at the price of possibly missing states, so a
	// search without a violation ends OKPartial, not OK.
	Bitstate int64
	DFS      bool // depth-first instead of breadth-first
	// MemoryBudget, if positive, bounds the resident memory of the
	// process in bytes: the Go memory limit is set to 90% of it while the
	// search runs, and the search stops with StopReason "memory" before
	// the seen set would grow past it (0: no budget; the command line's
	// default is 75% of the memory available to the process).
	MemoryBudget int64
	// SpillAbove is how many bytes of states of one BFS level, and of
	// predecessor links in total, are kept in memory before they are
	// written to files in the work directory (0: 4 MiB;
	// negative: never spill). It changes memory and speed only, never
	// counts or counterexamples.
	SpillAbove int64
	// Checkpoint, if set, is a directory where a breadth-first search
	// writes a checkpoint every CheckpointEvery (0: every 10 minutes) and
	// when it stops early on an interrupt or
	// the memory budget. Resume, if set, is a checkpoint directory to
	// continue from; the search then ends with exactly the counts, verdict
	// and counterexample of an uninterrupted run. CheckpointID identifies
	// the search (algorithm, parameters, properties, options, version):
	// resuming a checkpoint with another ID is refused.
	Checkpoint      string
	CheckpointEvery time.Duration
	Resume          string
	CheckpointID    string
	// CheckpointReplace lets the search replace a checkpoint of another
	// search (another CheckpointID, or one that cannot be read) found in
	// the Checkpoint directory; without it Check refuses such a directory
	// (an error that begins "checkpoint: " and names both searches)
	// instead of overwriting that search's checkpoint.
	CheckpointReplace bool
	// WorkDir is where spill files go, in a fresh subdirectory removed at
	// the end of the search ("": the system's temporary directory).
	WorkDir string
	// Progress, if set, is called from a separate goroutine every
	// ProgressEvery (default 5s) while the search runs.
	Progress      func(Progress)
	ProgressEvery time.Duration
	// HashSeed, if not 0, selects another fingerprint function of the
	// same family (0 is Fingerprint): other states then collide in
	// fingerprint mode, and states set other bits in bitstate mode, so
	// searches with different seeds miss different states (swarm
	// verification, see SwarmShard). Counts of a search that misses
	// nothing do not change. Not with checkpoints.
	HashSeed uint64
	// Order is the order in which a depth-first search visits the new
	// successors of a state (0: the model's order; a swarm shard sets the
	// others, SwarmShard.Apply); breadth-first search ignores it. Counts of a search without bounds
	// do not change.
	Order SuccessorOrder
	// Sketch, if positive, asks for Result.Sketch: the Sketch smallest
	// values of Fingerprint (seed 0, whatever HashSeed is) over the
	// states the search admitted, a uniform sample from which the
	// coverage of several searches together is estimated
	// (EstimateSwarmCoverage).
	Sketch int
}

// Progress is a progress report of a running search.
type Progress struct {
	States      int64
	Transitions int64
	Frontier    int64 // states waiting to be expanded
	Depth       int
	Elapsed     time.Duration
	HeapBytes   uint64
	// RSSBytes is the resident memory of the process; MemoryBudget the
	// budget (0: none); SpilledBytes the bytes written to the work
	// directory so far.
	RSSBytes, MemoryBudget, SpilledBytes int64
	// ResumedStates is the number of states restored from a checkpoint
	// (Options.Resume), not explored by this process.
	ResumedStates int64
}

// defaultCheckpointEvery is the interval between checkpoints when
// Options.CheckpointEvery is 0.
const defaultCheckpointEvery = 10 * time.Minute

// defaultSpillAbove is the default of Options.SpillAbove: 4 MiB.
const defaultSpillAbove = 4 << 20

func (o *Options) spillAbove() int64 {
	switch {
	case o.SpillAbove == 0:
		return defaultSpillAbove
	case o.SpillAbove < 0:
		return 0
	}
	return o.SpillAbove
}

// Verdict is the outcome of a search.
type Verdict string

// Verdicts. Incomplete means a bound or an interrupt stopped the search
// before it covered the reachable states, with no violation found so far.
const (
	OK         Verdict = "ok"
	Violated   Verdict = "violation"
	Incomplete Verdict = "incomplete"
	// OKPartial is a bitstate search that found no violation: the states
	// it visited satisfy the properties, but it may have skipped some.
	OKPartial Verdict = "ok-partial"
)

// StopReason says why an incomplete search stopped (Result.StopReason,
// LivenessResult.StopReason; "stop_reason" in the command line's JSON).
// It is an alias of string, so the fields stay plain strings and existing
// callers keep compiling; compare them with the constants below.
type StopReason = string

// Stop reasons.
const (
	StopMaxStates   StopReason = "max-states"  // Options.MaxStates was reached
	StopMaxDepth    StopReason = "max-depth"   // states beyond Options.MaxDepth were not explored
	StopInterrupted StopReason = "interrupted" // the context was cancelled
	StopMemory      StopReason = "memory"      // the memory budget would have been exceeded
	StopDisk        StopReason = "disk"        // a spill file could not be written or read
)

// BitstateStats describe a bitstate search (Options.Bitstate).
type BitstateStats struct {
	Bits   int64 // size of the bit array
	K      int   // bits set per state (hash functions)
	Stored int64 // states that set at least one new bit
	// HashFactor is Bits/Stored, as SPIN reports it: the larger, the
	// fewer states were missed (SPIN: above 100 coverage is likely good).
	HashFactor float64
	// ExpectedCoverage estimates the fraction of the reachable states
	// visited, assuming uniform, independent hash bits. It is optimistic:
	// it counts the states wrongly taken as visited, not the successors
	// that were therefore never reached; trust it only when HashFactor is
	// large.
	ExpectedCoverage float64
	// FalsePositive is the probability, at the end, that a new state would
	// be taken as visited: the fraction of bits set, to the power K.
	FalsePositive float64
}

// Result is what a search found.
type Result struct {
	Verdict Verdict
	States  int64 // distinct states admitted
	// Transitions counts (state, enabled action) pairs over expanded
	// states. When a violation or MaxStates ends a breadth-first search,
	// every state of the level being expanded is counted, up to the end of
	// that level, so the count does not depend on Workers or on how the
	// level was cut into blocks.
	Transitions int64
	Depth       int // BFS: largest distance from an initial state; DFS: deepest stack
	Elapsed     time.Duration
	// SeenBytes is the memory of the visited-state set; LinkBytes that of
	// the predecessor links kept for counterexamples (BFS only).
	SeenBytes, LinkBytes int64
	// StopReason says why an incomplete search stopped: StopMaxStates,
	// StopMaxDepth, StopInterrupted, StopMemory or StopDisk; StopDetail
	// says more for StopMemory and StopDisk.
	StopReason StopReason
	StopDetail string
	Violation  *Violation
	// ModelError is set when the verdict is ModelFailed: the model
	// panicked at a reachable state.
	ModelError *ModelError
	// PeakRSS is the peak resident memory of the whole process in bytes,
	// measured by the kernel (VmHWM) when the search ended; MemoryBudget
	// is Options.MemoryBudget; SpilledBytes the bytes written to spill
	// files (frontier and links).
	PeakRSS, MemoryBudget, SpilledBytes int64
	// Exact is Options.Exact: the search identified states by their
	// bytes, so no two states were confused (see CollisionEstimate).
	Exact bool
	// Bitstate is set by a bitstate search.
	Bitstate *BitstateStats
	// Checkpoint is the directory of the checkpoint written when the
	// search stopped early ("" if none was). ResumedStates is the number
	// of states restored from Options.Resume.
	Checkpoint    string
	ResumedStates int64
	// CapacityBlocked counts the expanded states that have no successor
	// only because a channel capacity disabled their transitions (the
	// worker is a CapacityBlocker): they are not deadlocks, and a search
	// with a capacity is an under-approximation of the unbounded system.
	// States restored from a checkpoint are not counted again.
	CapacityBlocked int64
	// Sketch holds, in increasing order, the Options.Sketch smallest
	// fingerprints (Fingerprint) of the states admitted (all of them if
	// fewer were); nil without Options.Sketch.
	Sketch []uint64
}

// RSSBytesPerState is the peak resident memory of the process per distinct
// state: the honest figure, including the frontier, links, runtime and
// garbage, where BytesPerState counts the seen set alone.
func (r *Result) RSSBytesPerState() float64 {
	if r.States == 0 {
		return 0
	}
	return float64(r.PeakRSS) / float64(r.States)
}

// BytesPerState is the memory of the visited-state set per distinct state.
func (r *Result) BytesPerState() float64 {
	if r.States == 0 {
		return 0
	}
	return float64(r.SeenBytes) / float64(r.States)
}

// StatesPerSecond is the exploration rate of this process (states
// restored from a checkpoint do not count).
func (r *Result) StatesPerSecond() float64 {
	s := r.Elapsed.Seconds()
	if s <= 0 {
		return 0
	}
	return float64(r.States-r.ResumedStates) / s
}

// CollisionEstimate estimates, as TLC does ("optimistic"), the probability
// that two distinct states shared a fingerprint so that one was wrongly
// considered visited: n*(g-n)/2^64 for n distinct states and g generated
// successors. It is 0 for an exact search (Result.Exact).
func (r *Result) CollisionEstimate() float64 {
	return r.CollisionProbability(r.Exact)
}

// CollisionProbability is CollisionEstimate for a search that was exact
// if exact is true, whatever Result.Exact says.
//
// Deprecated: use CollisionEstimate, which knows the search mode.
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
	// Actions holds the transition taken at each step: Actions[k] is the
	// index, in Worker.Successors order, of the transition from Path[k]
	// to Path[k+1], as the search recorded it (len(Path)-1 of them). nil
	// when the search did not record them (a Violation made by hand);
	// traces.FromViolation then looks each transition up by its target.
	// Code that replaces Path replaces Actions too, or sets it to nil
	// (symmetry.ConcretizeSteps gives both).
	Actions []int
}

// Len is the number of steps of the counterexample.
func (v *Violation) Len() int { return len(v.Path) - 1 }

func (o *Options) validate() error {
	if o.MaxStates < 0 {
		return fmt.Errorf("max-states must be >= 0, got %d", o.MaxStates)
	}
	if o.Bitstate < 0 || o.Bitstate > 0 && o.Exact {
		return fmt.Errorf("bitstate size must be > 0 and cannot be combined with exact mode")
	}
	if o.Bitstate > 0 && o.Bitstate < 1<<12 {
		return fmt.Errorf("bitstate array of %d bytes is too small; give at least 4KiB", o.Bitstate)
	}
	if (o.Checkpoint != "" || o.Resume != "") && o.DFS {
		return fmt.Errorf("checkpoints are for breadth-first search; drop --dfs")
	}
	if o.Checkpoint != "" {
		if fi, err := os.Stat(o.Checkpoint); err != nil || !fi.IsDir() {
			return fmt.Errorf("checkpoint directory %q does not exist or is not a directory", o.Checkpoint)
		}
		if err := o.checkpointOwner(); err != nil {
			return err
		}
	}
	if o.Bitstate > 0 && o.MemoryBudget > 0 && o.Bitstate > o.MemoryBudget {
		return fmt.Errorf("a bitstate array of %d MiB does not fit in the memory budget of %d MiB; give a smaller bitstate size or a larger budget",
			o.Bitstate>>20, o.MemoryBudget>>20)
	}
	if o.MemoryBudget < 0 {
		return fmt.Errorf("memory budget must be >= 0, got %d", o.MemoryBudget)
	}
	if o.WorkDir != "" {
		if fi, err := os.Stat(o.WorkDir); err != nil || !fi.IsDir() {
			return fmt.Errorf("work directory %q does not exist or is not a directory", o.WorkDir)
		}
	}
	if err := o.validateSwarm(); err != nil {
		return err
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
