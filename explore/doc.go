// Package explore walks the state space of a model.System exhaustively and
// checks safety properties, returning counts, a verdict and, on a
// violation, the counterexample path.
//
// # Breadth first, in parallel, deterministic
//
// The default search is a level-synchronous breadth-first search, so the
// first counterexample found is a shortest one. Each level runs in three
// phases: workers expand chunks of the frontier (check the invariants of
// each state, generate its successors, check transition invariants, and
// keep the successors not yet seen); then each worker inserts the
// candidates that fall in its own shards of the visited set, scanning them
// in frontier order; then the winners become the next frontier, in order.
// The first candidate of a state always wins, whatever the number of
// workers, so state numbering, counts and counterexamples do not depend on
// Options.Workers.
//
// # Visited states and counterexamples
//
// The visited set stores 64-bit fingerprints of states (about 10 to 15
// bytes per state with the table's free slots), split into 256 shards of
// open-addressing tables. Two distinct states with equal fingerprints would
// make the search skip one of them; Result.CollisionProbability estimates
// that chance as TLC does. Options.Exact stores the full states instead and
// rules collisions out. Each state also keeps a predecessor link (the
// parent's number and the index of the action among the parent's
// transitions, 6 bytes); a counterexample is rebuilt by following links back
// to an initial state and re-running the successor function forward.
//
// # Depth first
//
// Options.DFS searches depth first with one worker. It reaches the same
// states and transitions; its counterexample is the search stack, which
// need not be shortest, and Result.Depth is the deepest stack.
//
// # Memory, disk and checkpoints
//
// A breadth-first level is kept in memory up to Options.SpillAbove bytes
// and beyond that in a sequential file of a work directory, read back in
// blocks; predecessor links go to one append-only file per level once they
// exceed the same size. The seen set's large tables are mapped from the
// kernel, outside the Go heap. Options.MemoryBudget makes the search stop
// cleanly (StopReason "memory") before its resident memory would exceed
// the budget; Result.PeakRSS is the measured peak. Options.Checkpoint and
// Options.Resume save and continue a search, with exactly the results of
// an uninterrupted one. Options.Bitstate trades completeness for space
// (Holzmann's supertrace, verdict OKPartial). None of the memory settings
// changes counts or counterexamples.
//
// # Bounds and interrupts
//
// Options.MaxStates and Options.MaxDepth bound a search; cancelling the
// context stops it. Either way the result is Incomplete with the counts so
// far and a StopReason. Options.Progress receives progress reports.
//
// # Swarm verification
//
// Options.HashSeed (another fingerprint and bitstate hash function) and
// Options.Order (the order of a depth-first search's successors) change
// which states a search meets first, never the counts of a complete one;
// a bitstate search with another seed misses other states. SwarmShard
// gives each shard of a swarm its diversification from its index alone,
// and EstimateSwarmCoverage the coverage of the shards together from
// their fingerprint samples (Options.Sketch). The command line runs the
// shards as the jobs of a batch array (docs/distributed.md).
//
// # Liveness
//
// CheckLiveness checks starvation-freedom under weak, strong or no fairness
// for message delivery, and concurrent occupancy for group mutual
// exclusion. It keeps the whole reachable graph (an 8-byte edge per
// transition), finds the strongly connected components of the states where
// a process waits, and accepts a component as a starving cycle only if it is
// fair: every weakly fair action family enabled throughout it is taken in
// it (and, under strong fairness, every family enabled anywhere in it,
// after Emerson-Lei refinement). A violation is a lasso: a shortest prefix
// and a fair cycle. See CheckLiveness for why this beats a nested
// depth-first search here.
package explore
