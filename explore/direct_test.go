package explore

import (
	"bytes"
	"fmt"
	"testing"
)

// Inserting a serial block's successors as they are generated must give
// exactly what the separate insert phase gives: the same counts, depth,
// shortest counterexample and the same state numbering (the same
// predecessor links, so the same path), with 1 and 2 workers, with and
// without spilling.
func TestDirectInsertsChangeNothing(t *testing.T) {
	defer func(d, f bool, s int) { directInserts, deferInserts, serialBelow = d, f, s }(directInserts, deferInserts, serialBelow)
	for _, c := range []struct {
		n, r int
		bug  bool
	}{{3, 2, false}, {4, 1, false}, {3, 2, true}, {4, 2, true}} {
		sys := ring(c.n, c.r, c.bug)
		for _, workers := range []int{1, 2} {
			for _, spill := range []int64{-1, 512} {
				for _, exact := range []bool{false, true} {
					opts := Options{Workers: workers, Properties: standard(sys), SpillAbove: spill, Exact: exact}
					// The reference: every block in three phases, filtered
					// while it is generated, on one goroutine when small.
					directInserts, deferInserts, serialBelow = false, false, 1024
					want := mustCheck(t, sys, opts)
					for _, mode := range []struct {
						name           string
						direct, defers bool
						serialBelow    int
					}{
						{"direct", true, false, 1024},
						{"deferred", false, true, 0},
						{"filtered-parallel", false, false, 0},
						{"default", true, true, 1024},
					} {
						directInserts, deferInserts, serialBelow = mode.direct, mode.defers, mode.serialBelow
						got := mustCheck(t, sys, opts)
						name := fmt.Sprintf("ring n=%d r=%d bug=%v workers=%d spill=%d exact=%v %s", c.n, c.r, c.bug, workers, spill, exact, mode.name)
						sameResult(t, name, got, want)
					}
				}
			}
		}
	}
}

// sameResult fails unless got and want have the same verdict, counts and
// counterexample.
func sameResult(t *testing.T, name string, got, want *Result) {
	t.Helper()
	if got.Verdict != want.Verdict || got.States != want.States || got.Transitions != want.Transitions || got.Depth != want.Depth {
		t.Fatalf("%s: %s %d states %d transitions depth %d, want %s %d %d %d", name,
			got.Verdict, got.States, got.Transitions, got.Depth, want.Verdict, want.States, want.Transitions, want.Depth)
	}
	if (got.Violation == nil) != (want.Violation == nil) {
		t.Fatalf("%s: violation %v, want %v", name, got.Violation != nil, want.Violation != nil)
	}
	if want.Violation != nil {
		if len(got.Violation.Path) != len(want.Violation.Path) {
			t.Fatalf("%s: %d steps, want %d", name, got.Violation.Len(), want.Violation.Len())
		}
		for i := range want.Violation.Path {
			if !bytes.Equal(got.Violation.Path[i], want.Violation.Path[i]) {
				t.Fatalf("%s: counterexample differs at step %d", name, i)
			}
		}
	}
}

// The numbered seen set (the liveness graph's state table) returns each
// state's number, tells states with equal fingerprints apart in exact
// mode, and keeps the numbers when its shards grow.
func TestNumberedSetKeepsIDs(t *testing.T) {
	for _, exact := range []bool{false, true} {
		s := newNumberedSet(exact)
		const n = 50_000
		state := func(i int) []byte { return fmt.Appendf(nil, "state %d", i) }
		for i := range n {
			st := state(i)
			fp := Fingerprint(st)
			if _, found, at := s.find(fp, st); found {
				t.Fatalf("exact=%v: state %d found before it was inserted", exact, i)
			} else {
				s.insertAt(fp, at, st, uint32(i))
			}
		}
		for i := range n {
			st := state(i)
			if id, found, _ := s.find(Fingerprint(st), st); !found || id != uint32(i) {
				t.Fatalf("exact=%v: state %d: found=%v id %d", exact, i, found, id)
			}
		}
		// A different state under the fingerprint of state 7.
		other := []byte("another state")
		id, found, _ := s.find(Fingerprint(state(7)), other)
		if exact && found {
			t.Fatalf("exact: a different state with state 7's fingerprint was found (id %d)", id)
		}
		if !exact && (!found || id != 7) {
			t.Fatalf("fingerprint mode: found=%v id %d, want state 7's id", found, id)
		}
		s.free()
	}
}
