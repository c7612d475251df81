package explore

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// searchModes are the searches whose results must agree on a grid.
var searchModes = []Options{
	{Workers: 1}, {Workers: 2}, {Workers: 4}, {Workers: 2, Exact: true},
	{DFS: true}, {DFS: true, Exact: true},
}

func modeName(o Options) string {
	if o.DFS {
		return fmt.Sprintf("dfs exact=%v", o.Exact)
	}
	return fmt.Sprintf("bfs workers=%d exact=%v", o.Workers, o.Exact)
}

// A violation on the last admitted level is a violation: a search bounded
// at exactly its depth reports it, by BFS and by DFS, with a path of that
// length; one level less is incomplete, not ok. The grid reaches each
// state only by paths of one length, so DFS's path is as short as BFS's.
func TestViolationAtTheDepthBound(t *testing.T) {
	const dims, k = 3, 3 // depth 9
	target := []byte{1, 2, 1}
	corner := []byte{k, k, k}
	cases := []struct {
		name  string
		prop  model.Property
		depth int // the depth of the violating state: the bound to set and the counterexample's length
	}{
		{"invariant at depth 4", stateIs("not-121", func(s []byte) bool { return bytes.Equal(s, target) }), 4},
		{"terminal state at depth 9", terminalIs("not-corner", func(s []byte) bool { return bytes.Equal(s, corner) }), 9},
	}
	for _, c := range cases {
		for _, mode := range searchModes {
			sys := grid(dims, k)
			o := mode
			o.Properties = []model.Property{c.prop}

			o.MaxDepth = c.depth
			r := mustCheck(t, sys, o)
			if r.Verdict != Violated || r.Violation.Property.Name != c.prop.Name || r.Violation.Len() != c.depth {
				t.Errorf("%s, %s, max-depth %d: %s %q, want a violation after %d steps", c.name, modeName(mode), c.depth, r.Verdict, r.StopReason, c.depth)
			} else {
				checkPath(t, sys, r.Violation.Path)
			}

			o.MaxDepth = c.depth - 1
			r = mustCheck(t, sys, o)
			if r.Verdict != Incomplete || r.StopReason != "max-depth" {
				t.Errorf("%s, %s, max-depth %d: %s %q, want incomplete (max-depth)", c.name, modeName(mode), c.depth-1, r.Verdict, r.StopReason)
			}
		}
	}
}

// A bad step out of a state on the last admitted level is found too: the
// state is expanded (its transitions are counted), only its successors
// are not admitted.
func TestBadStepOutOfTheDepthBound(t *testing.T) {
	sys := grid(2, 3)
	inner := sys.succ
	sys.succ = func(s []byte) []edge {
		out := inner(s)
		for i := range out {
			out[i].bad = bytes.Equal(s, []byte{2, 1}) && bytes.Equal(out[i].to, []byte{3, 1})
		}
		return out
	}
	for _, mode := range searchModes {
		o := mode
		o.Properties = []model.Property{badStep}
		o.MaxDepth = 3
		r := mustCheck(t, sys, o)
		if r.Verdict != Violated || r.Violation.Property.Name != "bad-step" || r.Violation.Len() != 4 {
			t.Errorf("%s: %s, want bad-step after 4 steps", modeName(mode), r.Verdict)
			continue
		}
		if got := r.Violation.Path[4]; !bytes.Equal(got, []byte{3, 1}) {
			t.Errorf("%s: the path ends at %v, want [3 1]", modeName(mode), got)
		}
		checkPath(t, sys, r.Violation.Path)
	}
}

// Under a depth bound d every search admits exactly the states at
// distance <= d and expands each of them, so states and transitions equal
// an enumeration of the grid's tuples; the depth is d and the verdict is
// incomplete until d reaches the grid's depth.
func TestDepthBoundExactCounts(t *testing.T) {
	const dims, k = 3, 4 // 125 states, depth 12
	for d := 1; d <= dims*k+1; d++ {
		ws, wt := gridCount(dims, k, d)
		for _, mode := range searchModes {
			o := mode
			o.MaxDepth = d
			r := mustCheck(t, grid(dims, k), o)
			wantVerdict, wantStop, wantDepth := Incomplete, "max-depth", d
			if d >= dims*k {
				wantVerdict, wantStop, wantDepth = OK, "", dims*k
			}
			if r.States != ws || r.Transitions != wt || r.Depth != wantDepth || r.Verdict != wantVerdict || r.StopReason != wantStop {
				t.Errorf("%s, max-depth %d: %d states %d transitions depth %d, %s %q; want %d %d %d, %s %q",
					modeName(mode), d, r.States, r.Transitions, r.Depth, r.Verdict, r.StopReason, ws, wt, wantDepth, wantVerdict, wantStop)
			}
		}
	}
	// Without a bound: the whole grid, as the enumeration counts it.
	ws, wt := gridCount(dims, k, dims*k)
	if ws != 125 || wt != 3*4*25 {
		t.Fatalf("the enumeration counts %d states %d transitions, want 125 and 300", ws, wt)
	}
}

// A state bound admits exactly that many states, in every search.
func TestStateBoundExactCounts(t *testing.T) {
	for _, max := range []int64{1, 2, 7, 64, 100, 124} {
		for _, mode := range searchModes {
			o := mode
			o.MaxStates = max
			r := mustCheck(t, grid(3, 4), o)
			if r.States != max || r.Verdict != Incomplete || r.StopReason != "max-states" {
				t.Errorf("%s, max-states %d: %d states, %s %q", modeName(mode), max, r.States, r.Verdict, r.StopReason)
			}
		}
	}
}

// A context cancelled before the search starts stops every search, even on
// a model far smaller than the interval between two context checks.
func TestInterruptBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, mode := range searchModes {
		r, err := Check(ctx, grid(2, 2), mode)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Incomplete || r.StopReason != "interrupted" || r.States > 1 {
			t.Errorf("%s: %s %q with %d states, want incomplete (interrupted) before any expansion", modeName(mode), r.Verdict, r.StopReason, r.States)
		}
	}
}

// A context cancelled in the middle of a search stops it soon after, with
// the counts so far: far fewer than the model's.
func TestInterruptMidSearch(t *testing.T) {
	const dims, k = 3, 40 // 68921 states
	all, _ := gridCount(dims, k, dims*k)
	for _, mode := range searchModes {
		ctx, cancel := context.WithCancel(context.Background())
		sys := grid(dims, k)
		var calls atomic.Int64
		sys.onSucc = func() {
			if calls.Add(1) == 100 {
				cancel()
			}
		}
		r, err := Check(ctx, sys, mode)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Incomplete || r.StopReason != "interrupted" || r.States >= all/4 {
			t.Errorf("%s: %s %q with %d of %d states after %d expansions, want an interrupt soon after the 100th", modeName(mode), r.Verdict, r.StopReason, r.States, all, calls.Load())
		}
	}
}
