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
// soon after is dropped before its look-up) as without it.
func TestInsertModesAgreeOnAlgorithms(t *testing.T) {
	for _, c := range []struct {
		name string
		n, r int
	}{
		{"suzuki-kasami", 3, 2},
		{"suzuki-kasami/keep-copy", 3, 2},
		{"suzuki-kasami/send-in-cs", 3, 2},
		{"torus/literal", 4, 1},
	} {
		a, v, err := algorithms.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		sys, extra, err := a.Build(v.Name, map[string]int{"n": c.n, "r": c.r})
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
		run := func(direct, deferred bool, serial int, recent bool) (*explore.Result, uint64) {
			defer explore.SetInsertModes(direct, deferred, serial)()
			defer explore.SetRecentFilter(recent)()
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
		want, wantNumbering := run(false, false, 1<<30, false) // serial, filtered, separate insert phase
		for _, m := range []struct {
			mode             string
			direct, deferred bool
			serial           int
			recent           bool
		}{
			{"filtered-parallel", false, false, 0, false}, {"deferred", false, true, 0, false}, {"direct", true, false, 1 << 30, false},
			{"serial+recent", false, false, 1 << 30, true}, {"filtered-parallel+recent", false, false, 0, true},
			{"deferred+recent", false, true, 0, true}, {"direct+recent", true, false, 1 << 30, true},
		} {
			got, numbering := run(m.direct, m.deferred, m.serial, m.recent)
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
