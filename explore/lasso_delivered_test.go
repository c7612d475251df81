package explore_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// A lasso whose recorded "delivered" message of a cycle step was edited no
// longer replays: the step replay of lassos compares it as that of safety
// traces does.
func TestLassoReplayComparesDelivered(t *testing.T) {
	sys := handoff(1, true)
	res := checkStarvation(t, sys, model.WeakFairness)
	if len(res.Starving) != 1 {
		t.Fatalf("%d lassos, want P1's", len(res.Starving))
	}
	tr, rr := lassoTrace(t, sys, res.Starving[0], model.WeakFairness)
	if !rr.OK || len(tr.Steps) != 3 || tr.Steps[2].Delivered != "TOKEN(->P1, for P0)" {
		t.Fatalf("the lasso: %+v, steps %d; want it to replay, 3 steps, the last delivering TOKEN(->P1, for P0)", rr, len(tr.Steps))
	}
	tr.Steps[2].Delivered = "TOKEN(->P1, for P1)"
	got, err := traces.Replay(sys, nil, tr)
	if err != nil {
		t.Fatal(err)
	}
	want := traces.Result{Steps: 2, DivergedAt: 3,
		Reason: `diverged at step 3: Deliver TOKEN(->P1, for P0) delivers "TOKEN(->P1, for P0)", but the trace records "TOKEN(->P1, for P1)"`}
	if got != want {
		t.Errorf("\n got %+v\nwant %+v", got, want)
	}
}
