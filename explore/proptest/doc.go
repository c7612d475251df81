// Package proptest checks a model inside a user's own go test with rapid
// (pgregory.net/rapid): each rapid test case is a schedule, a sequence of
// choices among the enabled transitions, and the model's safety properties
// are checked at every step. When a schedule violates a property, rapid
// shrinks it (deleting choices and moving them towards the first enabled
// transition) and proptest writes the minimal failing schedule as a tokenmc
// trace file, which `tokenmc replay FILE` re-executes and renders.
//
// One call does it:
//
//	func TestMyAlgorithm(t *testing.T) {
//		p, _ := myalgo.New(4, 1) // a *model.Protocol
//		sys := p.System()
//		props := invariants.Applicable(invariants.With(myalgo.Properties()...), sys.Info())
//		proptest.Check(t, sys, props, proptest.Options{})
//	}
//
// rapid's own flags apply: -rapid.checks (default 100 test cases),
// -rapid.seed to reproduce a run, -rapid.shrinktime. Property returns the
// rapid property for use with rapid.MakeCheck or rapid.MakeFuzz, and Find
// runs the checks outside a test and returns the minimal failing trace,
// for tests that expect a violation (of a deliberately broken model).
//
// The schedules are the same random walks as package simulate draws, with
// rapid as the source of choices; simulate is the tool for large N and
// millions of steps, proptest for a shrunk story inside go test.
package proptest
