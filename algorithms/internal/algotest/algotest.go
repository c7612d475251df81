// Package algotest holds the checks that algorithm packages' Go tests
// make, so that each package states only its own facts (counts, lengths):
// a search with a verdict, the agreement of the search modes with a pinned
// result, the shortest counterexample of a mutant, steps by label for
// tests that compute with a state, and the replay of a shipped trace.
//
// Scripted scenarios are data files run by explore/modeltest (RunDir), and
// the checks every model must pass (canonical encoding, search modes
// against a naive enumeration, every process able to enter its CS) are
// modeltest.Check.
//
// It takes systems, not names: algorithm packages cannot import the
// registry, which imports them.
package algotest

import (
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// Check runs a breadth-first search with two workers and fails the test on
// an options error.
func Check(t testing.TB, sys model.System, props []model.Property) *explore.Result {
	t.Helper()
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// ModesAgree checks that one worker, exact mode and depth-first search reach
// the same states and transitions as res, a complete search of sys.
func ModesAgree(t testing.TB, sys model.System, res *explore.Result) {
	t.Helper()
	for _, o := range []explore.Options{{Workers: 1}, {Workers: 2, Exact: true}, {DFS: true}} {
		r, err := explore.Check(context.Background(), sys, o)
		if err != nil {
			t.Fatal(err)
		}
		if r.States != res.States || r.Transitions != res.Transitions {
			t.Errorf("workers=%d exact=%v dfs=%v: %d states %d transitions, want %d %d",
				o.Workers, o.Exact, o.DFS, r.States, r.Transitions, res.States, res.Transitions)
		}
	}
}

// ShortestViolation checks that a breadth-first search for the single
// property prop (taken from the generic properties merged with extra)
// violates it with a shortest counterexample of exactly length steps.
func ShortestViolation(t testing.TB, sys model.System, extra []model.Property, prop string, length int) {
	t.Helper()
	only, err := invariants.Select(invariants.With(extra...), sys.Info(), prop)
	if err != nil {
		t.Fatal(err)
	}
	res := Check(t, sys, only)
	if res.Verdict != explore.Violated {
		t.Fatalf("%s: verdict %s, want %s violated after %d steps", sys.Info().Name, res.Verdict, prop, length)
	}
	if got := res.Violation.Len(); got != length {
		t.Fatalf("%s: %s violated after %d steps, want %d", sys.Info().Name, prop, got, length)
	}
}

// Stepper follows a scripted behaviour of a system by action labels.
type Stepper struct {
	t     testing.TB
	W     model.Worker
	State []byte
}

// NewStepper starts at the first initial state of sys.
func NewStepper(t testing.TB, sys model.System) *Stepper {
	s := &Stepper{t: t, W: sys.NewWorker()}
	s.W.Initial(func(b []byte) bool { s.State = append([]byte(nil), b...); return false })
	return s
}

// Step takes the enabled transition labelled label, failing the test (and
// listing the enabled labels) if there is none.
func (s *Stepper) Step(label string) *model.Transition {
	s.t.Helper()
	tk, enabled, failed := traces.StepLabel(s.W, s.State, label)
	if tk == nil && failed != nil {
		s.t.Fatalf("the model fails looking for %q: %v", label, failed)
	}
	if tk == nil {
		s.t.Fatalf("%q is not enabled; enabled: %q", label, enabled)
	}
	s.State = tk.Next
	return &tk.Transition
}

// Describe renders the current state.
func (s *Stepper) Describe() model.StateDescription { return s.W.Describe(s.State) }

// ReplayShipped reads a trace shipped under testdata, replays it against
// sys with the generic properties merged with extra, and checks that it
// reproduces a violation of prop after steps steps. It returns the trace.
func ReplayShipped(t testing.TB, sys model.System, extra []model.Property, file, prop string, steps int) *traces.Trace {
	t.Helper()
	tr, err := traces.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := traces.Replay(sys, invariants.With(extra...), tr)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK || tr.Property != prop || len(tr.Steps) != steps {
		t.Fatalf("%s: replay %+v of a %d-step %s trace, want %s reproduced after %d steps", file, res, len(tr.Steps), tr.Property, prop, steps)
	}
	return tr
}

// Steps takes the transitions with the given labels, in order.
func (s *Stepper) Steps(labels ...string) {
	s.t.Helper()
	for _, l := range labels {
		s.Step(l)
	}
}

// Network lists the messages in transit, one entry per distinct message.
func (s *Stepper) Network() []string {
	out := []string{}
	for _, m := range s.Describe().Network {
		out = append(out, m.Message)
	}
	return out
}
