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
// generator, seeded with RunSeed(Seed, k), and results are merged in run
// order, so one worker or eight give the same Result (apart from Elapsed),
// and the first violation reported is the one of the lowest-numbered run.
//
// A Result reports steps and steps per second, runs, an approximate count
// of the distinct states seen (HyperLogLog, about 1.6% standard error),
// the transitions fired per kind, and the longest time any process spent
// Waiting. A Violation holds the path as states, ready for
// traces.FromPath; before it is returned the path is shrunk (see Shrink):
// loops are cut and every step whose removal still reproduces the
// violation is dropped, so the trace tells a short story.
//
// Walk runs a single walk whose choices come from the caller; package
// proptest uses it with rapid as the source of choices, and the fuzz
// targets of package algorithms with fuzzer bytes.
//
// Models built with model.Protocol implement model.Sampler and
// model.IncrementalSnapshotter, which let a step cost one enumeration of
// the enabled transitions and one successor instead of every successor;
// any other model.System works through Worker.Successors.
package simulate
