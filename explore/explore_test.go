package explore

import (
	"bytes"
	"context"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

func mustCheck(t *testing.T, sys model.System, o Options) *Result {
	t.Helper()
	r, err := Check(context.Background(), sys, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// naiveCount enumerates the reachable states with a map of full states: an
// independent count of states, transitions and BFS depth.
func naiveCount(sys model.System) (states, transitions int64, depth int) {
	w := sys.NewWorker()
	dist := map[string]int{}
	var queue []string
	w.Initial(func(s []byte) bool {
		if _, ok := dist[string(s)]; !ok {
			dist[string(s)] = 0
			queue = append(queue, string(s))
		}
		return true
	})
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		d := dist[s]
		depth = max(depth, d)
		w.Successors([]byte(s), func(_ *model.Transition, next []byte) bool {
			transitions++
			if _, ok := dist[string(next)]; !ok {
				dist[string(next)] = d + 1
				queue = append(queue, string(next))
			}
			return true
		})
	}
	return int64(len(dist)), transitions, depth
}

func TestCountsAgreeAcrossSearchModes(t *testing.T) {
	for _, cfg := range []struct{ n, r int }{{2, 1}, {3, 1}, {3, 2}, {4, 2}} {
		sys := ring(cfg.n, cfg.r, false)
		ns, nt, nd := naiveCount(sys)
		for _, o := range []Options{
			{Workers: 1}, {Workers: 2}, {Workers: 3}, {Workers: 2, Exact: true},
			{DFS: true}, {DFS: true, Exact: true},
		} {
			o.Properties = standard(sys)
			r := mustCheck(t, sys, o)
			if r.Verdict != OK || r.States != ns || r.Transitions != nt {
				t.Errorf("ring n=%d r=%d %+v: got %s %d states %d transitions, naive %d %d", cfg.n, cfg.r, o, r.Verdict, r.States, r.Transitions, ns, nt)
			}
			if !o.DFS && r.Depth != nd {
				t.Errorf("ring n=%d r=%d %+v: depth %d, naive %d", cfg.n, cfg.r, o, r.Depth, nd)
			}
		}
	}
}

func TestShortestCounterexampleIsDeterministic(t *testing.T) {
	sys := ring(3, 2, true)
	var first *Violation
	for _, workers := range []int{1, 2, 4} {
		r := mustCheck(t, sys, Options{Workers: workers, Properties: standard(sys)})
		if r.Verdict != Violated {
			t.Fatalf("workers=%d: verdict %s, want violation", workers, r.Verdict)
		}
		v := r.Violation
		// P0 requests and enters, exits passing a copy: two tokens after 2 steps.
		if v.Property.Name != "single-token" || v.Len() != 2 {
			t.Fatalf("workers=%d: %s after %d steps, want single-token after 2", workers, v.Property.Name, v.Len())
		}
		if first == nil {
			first = v
			continue
		}
		for i := range v.Path {
			if !bytes.Equal(v.Path[i], first.Path[i]) {
				t.Fatalf("workers=%d: path differs from workers=1 at step %d", workers, i)
			}
		}
	}
	checkPath(t, sys, first.Path)
}

// checkPath asserts that each state of path is a successor of the previous.
func checkPath(t *testing.T, sys model.System, path [][]byte) {
	t.Helper()
	w := sys.NewWorker()
	ok := false
	w.Initial(func(s []byte) bool { ok = ok || bytes.Equal(s, path[0]); return true })
	if !ok {
		t.Fatal("path does not start at an initial state")
	}
	for i := 1; i < len(path); i++ {
		found := false
		w.Successors(path[i-1], func(_ *model.Transition, s []byte) bool {
			found = found || bytes.Equal(s, path[i])
			return !found
		})
		if !found {
			t.Fatalf("step %d is not a transition", i)
		}
	}
}

func TestMutexOnlyViolationLength(t *testing.T) {
	sys := ring(2, 2, true)
	var mutex []model.Property
	for _, p := range standard(sys) {
		if p.Name == "mutex" {
			mutex = append(mutex, p)
		}
	}
	bfs := mustCheck(t, sys, Options{Properties: mutex})
	dfs := mustCheck(t, sys, Options{Properties: mutex, DFS: true})
	if bfs.Verdict != Violated || dfs.Verdict != Violated {
		t.Fatalf("verdicts %s %s", bfs.Verdict, dfs.Verdict)
	}
	// Request(0) enters; Exit(0) keeps a copy; Request(1); Deliver to P1 enters;
	// Request(0) enters again with the kept copy: 5 steps.
	if bfs.Violation.Len() != 5 {
		t.Errorf("BFS mutex counterexample has %d steps, want 5", bfs.Violation.Len())
	}
	if dfs.Violation.Len() < bfs.Violation.Len() {
		t.Errorf("DFS found a shorter counterexample (%d) than BFS (%d)", dfs.Violation.Len(), bfs.Violation.Len())
	}
	checkPath(t, sys, dfs.Violation.Path)
	checkPath(t, sys, bfs.Violation.Path)
}

func TestBounds(t *testing.T) {
	sys := ring(3, 2, false)
	full := mustCheck(t, sys, Options{})
	for _, dfs := range []bool{false, true} {
		r := mustCheck(t, sys, Options{MaxStates: 10, DFS: dfs})
		if r.Verdict != Incomplete || r.StopReason != "max-states" || r.States != 10 {
			t.Errorf("dfs=%v max-states 10: %s %s %d states", dfs, r.Verdict, r.StopReason, r.States)
		}
		r = mustCheck(t, sys, Options{MaxDepth: 3, DFS: dfs})
		if r.Verdict != Incomplete || r.StopReason != "max-depth" {
			t.Errorf("dfs=%v max-depth 3: %s %s", dfs, r.Verdict, r.StopReason)
		}
		r = mustCheck(t, sys, Options{MaxDepth: full.Depth, DFS: dfs})
		if !dfs && (r.Verdict != OK || r.States != full.States) {
			t.Errorf("max-depth = depth: %s %d states, want ok %d", r.Verdict, r.States, full.States)
		}
		r = mustCheck(t, sys, Options{MaxStates: full.States, DFS: dfs})
		if r.Verdict != OK || r.States != full.States {
			t.Errorf("dfs=%v max-states = states: %s %d states, want ok %d", dfs, r.Verdict, r.States, full.States)
		}
	}
	r := mustCheck(t, sys, Options{MaxDepth: 3})
	if r.Depth != 3 {
		t.Errorf("max-depth 3 reached depth %d", r.Depth)
	}
}

func TestInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, dfs := range []bool{false, true} {
		r, err := Check(ctx, ring(4, 2, false), Options{DFS: dfs})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Incomplete || r.StopReason != "interrupted" {
			t.Errorf("dfs=%v: %s %q, want incomplete interrupted", dfs, r.Verdict, r.StopReason)
		}
	}
}

func TestSeenSetExactSeparatesCollidingFingerprints(t *testing.T) {
	s := newSeenSet(true)
	fp := uint64(0x1234_5678_9abc_def1)
	if !s.insert(fp, []byte("a")) || !s.insert(fp, []byte("b")) || s.insert(fp, []byte("a")) {
		t.Fatal("exact mode must tell states with equal fingerprints apart")
	}
	if !s.contains(fp, []byte("b")) || s.contains(fp, []byte("c")) {
		t.Fatal("contains is wrong in exact mode")
	}
	f := newSeenSet(false)
	if !f.insert(fp, []byte("a")) || f.insert(fp, []byte("b")) {
		t.Fatal("fingerprint mode treats equal fingerprints as equal states")
	}
}

func TestSeenSetGrows(t *testing.T) {
	s := newSeenSet(false)
	const n = 300_000
	for i := range n {
		if !s.insert(Fingerprint([]byte{byte(i), byte(i >> 8), byte(i >> 16)}), nil) {
			t.Fatalf("insert %d reported a duplicate", i)
		}
	}
	for i := range n {
		if !s.contains(Fingerprint([]byte{byte(i), byte(i >> 8), byte(i >> 16)}), nil) {
			t.Fatalf("lost %d", i)
		}
	}
	if per := float64(s.bytes()) / n; per > 16 {
		t.Errorf("fingerprint set uses %.1f bytes per state, want <= 16", per)
	}
}

func TestFingerprintIsStable(t *testing.T) {
	// Pinned so that counts and collisions never change between versions.
	if got := Fingerprint([]byte("tokenmc")); got != Fingerprint([]byte("tokenmc")) || got == Fingerprint([]byte("tokenmd")) {
		t.Fatal("fingerprint is not a function of its input")
	}
	seen := map[uint64]bool{}
	for n := range 64 {
		b := make([]byte, n)
		if fp := Fingerprint(b); seen[fp] {
			t.Fatalf("zero strings of different lengths collide at %d", n)
		} else {
			seen[fp] = true
		}
	}
}
