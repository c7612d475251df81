package explore_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
)

// The ways a breadth-first block inserts its successors (filtered while
// generated then inserted by shard, deferred to one look-up by the shard's
// owner, or inserted as generated in a serial block) number the states of
// a level the same way (the same states in the same order with the same
// parents and actions), so they agree on counts and pick the same shortest
// counterexample among the many of equal length a broken variant has; and
// so they do with the filter of recent successors (a successor met again
// soon after is dropped before its look-up) as without it, and with the
// transitions that commute with the step that reached a state left
// unstepped (SuccessorsAfter) as without.
func TestInsertModesAgreeOnAlgorithms(t *testing.T) {
	for _, c := range []struct {
		name string
		n, r int
		more map[string]int
	}{
		{"suzuki-kasami", 3, 2, nil},
		{"suzuki-kasami/keep-copy", 3, 2, nil},
		{"suzuki-kasami/send-in-cs", 3, 2, nil},
		{"torus/literal", 4, 1, nil},
		{"banerjee-rec", 2, 1, nil}, // a fault budget: Lose transitions, and timers
		{"drs-gme", 2, 1, map[string]int{"faults": 1}},
		{"naimi-trehel", 3, 2, nil},
		{"coord-res/grant-any-free", 3, 1, nil},
		{"torus", 4, 2, map[string]int{"requesters": 7}}, // a Guard that reads only the acting process
	} {
		a, v, err := algorithms.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]int{"n": c.n, "r": c.r}
		for k, v := range c.more {
			params[k] = v
		}
		sys, extra, err := a.Build(v.Name, params)
		if err != nil {
			t.Fatal(err)
		}
		props, err := invariants.Select(invariants.With(extra...), sys.Info(), "")
		if err != nil {
			t.Fatal(err)
		}
		// run searches in one way and returns the result and a hash of the
		// search's numbering: every admitted state, in level order, with
		// its parent and action.
		run := func(direct, deferred bool, serial int, recent, commute bool) (*explore.Result, uint64) {
			defer explore.SetInsertModes(direct, deferred, serial)()
			defer explore.SetRecentFilter(recent)()
			defer explore.SetCommuteSteps(commute)()
			var h uint64
			defer explore.OnAdmit(func(depth int, state []byte, parent int64, action uint16) {
				h = h*0x100000001b3 ^ explore.Fingerprint(state) ^ uint64(parent)<<20 ^ uint64(action)<<4 ^ uint64(depth)
			})()
			res, err := explore.Check(context.Background(), sys, explore.Options{Workers: 2, Properties: props})
			if err != nil {
				t.Fatal(err)
			}
			return res, h
		}
		want, wantNumbering := run(false, false, 1<<30, false, false) // serial, filtered, separate insert phase
		for _, m := range []struct {
			mode             string
			direct, deferred bool
			serial           int
			recent, commute  bool
		}{
			{"filtered-parallel", false, false, 0, false, false}, {"deferred", false, true, 0, false, false}, {"direct", true, false, 1 << 30, false, false},
			{"serial+recent", false, false, 1 << 30, true, false}, {"filtered-parallel+recent", false, false, 0, true, false},
			{"deferred+recent", false, true, 0, true, false}, {"direct+recent", true, false, 1 << 30, true, false},
			{"serial+commute", false, false, 1 << 30, false, true}, {"filtered-parallel+recent+commute", false, false, 0, true, true},
			{"deferred+recent+commute", false, true, 0, true, true}, {"direct+recent+commute", true, false, 1 << 30, true, true},
		} {
			got, numbering := run(m.direct, m.deferred, m.serial, m.recent, m.commute)
			name := fmt.Sprintf("%s n=%d r=%d %s", c.name, c.n, c.r, m.mode)
			if got.Verdict != want.Verdict || got.States != want.States || got.Transitions != want.Transitions || got.Depth != want.Depth {
				t.Fatalf("%s: %s %d states %d transitions depth %d, want %s %d %d %d", name,
					got.Verdict, got.States, got.Transitions, got.Depth, want.Verdict, want.States, want.Transitions, want.Depth)
			}
			if numbering != wantNumbering {
				t.Fatalf("%s: the levels hold other states, or in another order, or with other parents, than the serial search's", name)
			}
			if (got.Violation == nil) != (want.Violation == nil) {
				t.Fatalf("%s: violation %v, want %v", name, got.Violation != nil, want.Violation != nil)
			}
			if want.Violation == nil {
				continue
			}
			if len(got.Violation.Path) != len(want.Violation.Path) {
				t.Fatalf("%s: %d steps, want %d", name, len(got.Violation.Path), len(want.Violation.Path))
			}
			for i := range want.Violation.Path {
				if !bytes.Equal(got.Violation.Path[i], want.Violation.Path[i]) {
					t.Fatalf("%s: counterexample differs at step %d", name, i)
				}
			}
		}
	}
}
