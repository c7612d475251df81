package traces_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// TestReplayComparesDelivered: a step whose recorded "delivered" message
// is not the one its action delivers or loses does not replay, even though
// the action, the acting process and the state after it are as recorded.
func TestReplayComparesDelivered(t *testing.T) {
	tests := []struct {
		name string
		f    fixture
		step int // 1-based
		edit string
		want traces.Result
	}{
		{"deliver", eagerMutex, 3, "REQ(P0->P1)", traces.Result{Steps: 2, DivergedAt: 3,
			Reason: `diverged at step 3: Deliver REQ(P1->P0) delivers "REQ(P1->P0)", but the trace records "REQ(P0->P1)"`}},
		{"deliver another kind", eagerMutex, 4, "REQ(P0->P1)", traces.Result{Steps: 3, DivergedAt: 4,
			Reason: `diverged at step 4: Deliver TOKEN(P0->P1) delivers "TOKEN(P0->P1)", but the trace records "REQ(P0->P1)"`}},
		{"lose", lostRequest, 2, "TOKEN(P0->P1)", traces.Result{Steps: 1, DivergedAt: 2,
			Reason: `diverged at step 2: Lose REQ(P1->P0) loses "REQ(P1->P0)", but the trace records "TOKEN(P0->P1)"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.f.trace(t)
			s := &tr.Steps[tc.step-1]
			if s.Delivered == "" || s.Delivered == tc.edit {
				t.Fatalf("step %d delivers %q; the fixture changed", tc.step, s.Delivered)
			}
			s.Delivered = tc.edit
			if res := replay(t, tc.f, tr); res != tc.want {
				t.Errorf("\n got %+v\nwant %+v", res, tc.want)
			}
		})
	}
}
