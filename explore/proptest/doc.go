// Package proptest checks a model inside a user's own go test: with rapid
// (pgregory.net/rapid), where each test case is a schedule, a sequence of
// choices among the enabled transitions, and with native Go fuzzing (go
// test -fuzz), where the fuzzer's bytes are the schedule. The model's
// safety properties are checked at every step.
//
// One call does it:
//
//	func TestMyAlgorithm(t *testing.T) {
//		sys := myalgo.New(4, 1).System() // a *protocol.Protocol
//		props := invariants.Applicable(invariants.With(myalgo.Properties()...), sys.Info())
//		proptest.Check(t, sys, props, proptest.Options{Replay: "go run ./cmd/mytool"})
//	}
//
//	func FuzzMyAlgorithm(f *testing.F) {
//		sys := myalgo.New(4, 1).System()
//		proptest.Fuzz(f, sys, invariants.Applicable(invariants.With(myalgo.Properties()...), sys.Info()))
//	}
//
// When a schedule violates a property, rapid shrinks it (deleting choices
// and moving them towards the first enabled transition), simulate.Shrink
// drops the steps still not needed, and the minimal failing schedule is
// written as a tokenmc trace file; the metadata (algorithm, parameters)
// comes from the system (traces.MetaOf). Check then fails the test with one
// message: the story of the trace, the command that reproduces the
// failure (go test -run '^TestName$' -rapid.seed=N), the trace file, and
// the command that replays it: the user's own program built on cli.Main
// (Options.Replay; `go run ./path/to/main replay FILE`), or tokenmc for a
// built-in algorithm. rapid's log of each draw is not printed: a schedule
// is one draw, logged in one line.
//
// rapid's own flags apply: -rapid.checks (default 100 test cases),
// -rapid.seed to reproduce a run, -rapid.shrinktime. Find runs the checks
// outside a test and returns the minimal failing trace, for tests that
// expect a violation (of a deliberately broken model).
//
// The schedules are the same random walks as package simulate draws, with
// rapid or the fuzzer as the source of choices; simulate is the tool for
// large N and millions of steps, proptest for a shrunk story inside go
// test. Fuzz walks models built with protocol.Protocol in place (their
// state kept decoded), without allocating, so that the fuzzing engine, not
// the model, sets the pace (over 10,000 executions per second on 2 cores for
// Suzuki-Kasami with N=3).
package proptest
