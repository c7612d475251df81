package simulate_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// flakySys wraps a system so that every second Successors call of a
// worker leaves out the last successor: a model that is not deterministic.
// Its workers offer only model.Worker, so walks step through Successors.
type flakySys struct{ model.System }

func (f flakySys) NewWorker() model.Worker { return &flakyWorker{Worker: f.System.NewWorker()} }

type flakyWorker struct {
	model.Worker
	calls int
}

func (w *flakyWorker) Successors(s []byte, yield func(*model.Transition, []byte) bool) {
	w.calls++
	if w.calls%2 == 1 {
		w.Worker.Successors(s, yield)
		return
	}
	type succ struct {
		t    model.Transition
		next []byte
	}
	var all []succ
	w.Worker.Successors(s, func(t *model.Transition, next []byte) bool {
		c := *t
		c.Msg = bytes.Clone(t.Msg)
		all = append(all, succ{c, bytes.Clone(next)})
		return true
	})
	for _, x := range all[:max(0, len(all)-1)] {
		if !yield(&x.t, x.next) {
			return
		}
	}
}

// A walk of a model whose successors change between calls ends with an
// error that says so, not a panic (simulate used to panic, which the
// command line reported as an internal error).
func TestRunReportsANonDeterministicModel(t *testing.T) {
	a, v, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, map[string]int{"n": 3, "r": 2})
	if err != nil {
		t.Fatal(err)
	}
	props := invariants.Applicable(invariants.Standard(), sys.Info())
	for _, workers := range []int{1, 2} {
		res, err := simulate.Run(context.Background(), flakySys{sys}, simulate.Options{Steps: 200, Runs: 50, Seed: 3, Workers: workers, Properties: props})
		if err == nil || res != nil {
			t.Fatalf("%d workers: result %v, error %v; want an error", workers, res, err)
		}
		if !strings.Contains(err.Error(), "suzuki-kasami is not deterministic") || !strings.Contains(err.Error(), "modeltest.Check") {
			t.Errorf("%d workers: %v", workers, err)
		}
	}
	// The same walks on the model itself are fine.
	if _, err := simulate.Run(context.Background(), sys, simulate.Options{Steps: 200, Runs: 50, Seed: 3, Workers: 2, Properties: props}); err != nil {
		t.Fatal(err)
	}
}
