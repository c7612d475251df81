// Package simulate explores a model by random walks: for process counts
// (N = 20, 64, 200) far beyond what exhaustive search (package explore)
// can cover, it fires millions of transitions and checks every safety
// property at every step.
//
// A simulation is Options.Runs walks of at most Options.Steps steps each;
// a walk also ends in a state where nothing is enabled (where terminal
// properties such as no-deadlock are checked). Three strategies choose the
// next transition:
//
//   - Uniform: every enabled transition with equal probability;
//   - PCT (probabilistic concurrency testing): processes get random
//     priorities, the highest-priority process with an enabled transition
//     acts (a delivery belongs to its receiver), and at Depth-1 random
//     steps the acting process drops to the lowest priority. Such schedules
//     starve some processes for long stretches, which is what deep bugs
//     need;
//   - Swarm: each run switches off a random half of the action classes
//     (Request, Exit, "Deliver REQ", "Deliver TOKEN", ...); an off class
//     fires only when nothing else can.
//
// Everything is a function of Options.Seed: run k draws from its own
// generator, seeded with a function of Seed and k, and results are merged in run
// order, so one worker or eight give the same Result (apart from Elapsed),
// and the first violation reported is the one of the lowest-numbered run.
//
// A Result reports steps and steps per second, runs, an approximate count
// of the distinct states seen (HyperLogLog, about 1.6% standard error),
// the transitions fired per kind, and the longest time any process spent
// Waiting. A Violation holds the path as states, ready for
// traces.FromViolation (then traces.WriteFile writes its trace file);
// before it is returned the path is shrunk (see Shrink):
// loops are cut and every step whose removal still reproduces the
// violation is dropped, so the trace tells a short story.
//
// Walk runs a single walk whose choices come from the caller; package
// proptest uses it with rapid as the source of choices, and the fuzz
// targets of package algorithms with fuzzer bytes.
//
// The walks use optional capabilities of a model's Worker, declared in
// explore/internal/capability and implemented structurally by the workers
// of protocol.Protocol systems. With InPlaceWorker the walk keeps its
// state decoded and changes it in place, with the enabled actions, the
// token count and the messages in transit maintained incrementally, so a
// step costs one handler call and the properties, whatever the number of
// messages in transit; the uniform strategy draws its index from the count
// of enabled transitions without listing them. The walk takes exactly the
// choices it would take over encoded states. Only the distinct-state
// estimate differs, because it hashes the decoded state (the in-place
// state's Hash) rather than its encoding: another sample of the same
// HyperLogLog estimator, within its error. Other systems use Sampler and
// IncrementalSnapshotter when they have them (one enumeration and one
// successor per step), else Worker.Successors.
//
// A system with bounded channels (model/protocol's Protocol.Capacity,
// whose workers are explore.CapacityBlockers) is always stepped through
// Worker.Successors, which applies the bound: a walk never takes a step
// the bound disables, and a walk that reaches a state where the bound
// disables every transition ends there as capacity-blocked
// (Result.CapacityBlocked), not as a terminal state: the terminal
// properties (no-deadlock) are not checked there.
//
// A walk keeps nothing that grows with its length: when a run violates a
// property it is run again, recording its choices, to rebuild the path.
// Progress reports and the result of an interrupted simulation count every
// step fired, those of the runs cut short included.
package simulate
