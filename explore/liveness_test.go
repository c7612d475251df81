package explore_test

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// The families of the random graphs: each node has at most one edge of
// each, as in a real system (one transition per distinct message, per
// timer, per process's Exit or Request).
var familyPool = []gEdge{
	{Kind: model.Deliver, Proc: 0, Msg: 0},
	{Kind: model.Deliver, Proc: 1, Msg: 1},
	{Kind: model.Deliver, Proc: 0, Msg: 2},
	{Kind: model.Exit, Proc: 0},
	{Kind: model.Exit, Proc: 1},
	{Kind: model.Timer, Proc: 1, Arg: 0},
	{Kind: model.Request, Proc: 0, Arg: 0},
	{Kind: model.Lose, Proc: 0, Msg: 0},
}

func classOf(e gEdge, f model.Fairness) model.FairnessClass {
	switch e.Kind {
	case model.Exit, model.Timer:
		return model.WeaklyFair
	case model.Deliver:
		switch f {
		case model.StrongFairness:
			return model.StronglyFair
		case model.NoFairness:
			return model.Unfair
		}
		return model.WeaklyFair
	}
	return model.Unfair
}

func familyIndex(e gEdge) int {
	for i, f := range familyPool {
		if f.Kind == e.Kind && f.Proc == e.Proc && f.Arg == e.Arg && f.Msg == e.Msg {
			return i
		}
	}
	panic("unknown family")
}

func genGraph(t *rapid.T) *graphSys {
	n := rapid.IntRange(1, 7).Draw(t, "nodes")
	g := &graphSys{nodes: n, procs: 2, edges: make([][]gEdge, n), waiting: make([]uint8, n)}
	for v := range n {
		g.waiting[v] = uint8(rapid.IntRange(0, 3).Draw(t, "waiting"))
		for _, f := range familyPool {
			if rapid.IntRange(0, 99).Draw(t, "p") < 30 {
				e := f
				e.To = rapid.IntRange(0, n-1).Draw(t, "to")
				g.edges[v] = append(g.edges[v], e)
			}
		}
	}
	return g
}

// bruteForce returns, for each process, the smallest BFS depth of a state
// in a fair strongly connected set of states where it waits (-1: none),
// and the smallest depth of a terminal state with a waiting process. It
// enumerates every subset of the reachable states: a set with its internal
// edges is a fair cycle's support iff it is strongly connected with an
// edge and every fair family is taken inside or (weak) disabled somewhere
// in it or (strong) disabled everywhere in it.
func bruteForce(g *graphSys, fair model.Fairness) ([]int, int) {
	depth := make([]int, g.nodes)
	for i := range depth {
		depth[i] = -1
	}
	depth[0] = 0
	queue := []int{0}
	var reach []int
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		reach = append(reach, v)
		for _, e := range g.edges[v] {
			if depth[e.To] < 0 {
				depth[e.To] = depth[v] + 1
				queue = append(queue, e.To)
			}
		}
	}
	dead := -1
	for _, v := range reach {
		if len(g.edges[v]) == 0 && g.waiting[v] != 0 && (dead < 0 || depth[v] < dead) {
			dead = depth[v]
		}
	}
	best := []int{-1, -1}
	for p := range 2 {
		var cand []int
		for _, v := range reach {
			if g.waiting[v]&(1<<p) != 0 {
				cand = append(cand, v)
			}
		}
		for mask := 1; mask < 1<<len(cand); mask++ {
			in := map[int]bool{}
			var set []int
			for k, v := range cand {
				if mask&(1<<k) != 0 {
					in[v] = true
					set = append(set, v)
				}
			}
			if !stronglyConnected(g, set, in) || !fairSet(g, set, in, fair) {
				continue
			}
			for _, v := range set {
				if best[p] < 0 || depth[v] < best[p] {
					best[p] = depth[v]
				}
			}
		}
	}
	return best, dead
}

func stronglyConnected(g *graphSys, set []int, in map[int]bool) bool {
	edges := 0
	for _, v := range set {
		for _, e := range g.edges[v] {
			if in[e.To] {
				edges++
			}
		}
	}
	if edges == 0 {
		return false
	}
	// every node reaches every node inside the set
	for _, s := range set {
		seen := map[int]bool{s: true}
		stack := []int{s}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range g.edges[v] {
				if in[e.To] && !seen[e.To] {
					seen[e.To] = true
					stack = append(stack, e.To)
				}
			}
		}
		if len(seen) != len(set) {
			return false
		}
	}
	return true
}

func fairSet(g *graphSys, set []int, in map[int]bool, fair model.Fairness) bool {
	for fi, f := range familyPool {
		c := classOf(f, fair)
		if c == model.Unfair {
			continue
		}
		taken, enabledAll, enabledSome := false, true, false
		for _, v := range set {
			en := false
			for _, e := range g.edges[v] {
				if familyIndex(e) == fi {
					en = true
					if in[e.To] {
						taken = true
					}
				}
			}
			enabledAll = enabledAll && en
			enabledSome = enabledSome || en
		}
		if taken {
			continue
		}
		if (c == model.WeaklyFair && enabledAll) || (c == model.StronglyFair && enabledSome) {
			return false
		}
	}
	return true
}

// checkLasso verifies a lasso independently of the search: it is a path of
// the graph, it closes, the process waits along the cycle, and the cycle is
// fair.
func checkLasso(t *rapid.T, g *graphSys, l explore.Lasso, fair model.Fairness) {
	if len(l.Path) != len(l.Actions)+1 || l.Loop < 0 || l.Loop >= len(l.Actions) || l.Path[0][0] != 0 {
		t.Fatalf("malformed lasso %+v", l)
	}
	var taken []gEdge
	for k, a := range l.Actions {
		e := g.edges[l.Path[k][0]][a]
		if e.To != int(l.Path[k+1][0]) {
			t.Fatalf("step %d: action %d of node %d leads to %d, the lasso says %d", k, a, l.Path[k][0], e.To, l.Path[k+1][0])
		}
		if k >= l.Loop {
			taken = append(taken, e)
		}
	}
	if l.Path[l.Loop][0] != l.Path[len(l.Path)-1][0] {
		t.Fatalf("the cycle does not close")
	}
	cycle := l.Path[l.Loop : len(l.Path)-1]
	for _, s := range cycle {
		if g.waiting[s[0]]&(1<<l.Process) == 0 {
			t.Fatalf("P%d is not waiting at node %d of the cycle", l.Process, s[0])
		}
	}
	for fi, f := range familyPool {
		c := classOf(f, fair)
		if c == model.Unfair {
			continue
		}
		took := false
		for _, e := range taken {
			took = took || familyIndex(e) == fi
		}
		all, some := true, false
		for _, s := range cycle {
			en := false
			for _, e := range g.edges[s[0]] {
				en = en || familyIndex(e) == fi
			}
			all, some = all && en, some || en
		}
		if !took && ((c == model.WeaklyFair && all) || (c == model.StronglyFair && some)) {
			t.Fatalf("the cycle is unfair to family %+v", f)
		}
	}
}

// TestFairCycleMatchesBruteForce cross-checks CheckLiveness against the
// enumeration of every set of states of random graphs, under each
// fairness assumption: which processes can starve, the shortest prefix
// (the shallowest state of any fair set), and deadlocks.
func TestFairCycleMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := genGraph(t)
		fair := rapid.SampledFrom([]model.Fairness{model.WeakFairness, model.StrongFairness, model.NoFairness}).Draw(t, "fairness")
		want, dead := bruteForce(g, fair)
		res, err := explore.CheckLiveness(context.Background(), g, explore.LivenessOptions{Starvation: true, Fairness: fair})
		if err != nil {
			t.Fatal(err)
		}
		got := []int{-1, -1}
		for _, l := range res.Starving {
			got[l.Process] = l.Loop
			checkLasso(t, g, l, fair)
		}
		if got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("shortest prefix per process: got %v, brute force %v (-1: cannot starve)", got, want)
		}
		gotDead := -1
		if res.Deadlock != nil {
			gotDead = res.Deadlock.Len()
		}
		if gotDead != dead {
			t.Fatalf("deadlock at depth %d, brute force %d", gotDead, dead)
		}
		wantVerdict := explore.OK
		if want[0] >= 0 || want[1] >= 0 || dead >= 0 {
			wantVerdict = explore.Violated
		}
		if res.Verdict != wantVerdict {
			t.Fatalf("verdict %s, want %s", res.Verdict, wantVerdict)
		}
	})
}

// Weak and strong fairness differ on a message that is enabled only
// intermittently: P0 waits at nodes 1 and 2, the cycle 1 -> 2 -> 1 is
// taken by Exit(P1) edges, and message m0 is deliverable at node 1 only
// (into node 3, where P0 no longer waits). Weakly fair: m0 is not
// continuously enabled, so the cycle is fair and P0 starves. Strongly fair:
// m0 is enabled infinitely often, so it must be delivered: no starvation.
func TestWeakVersusStrong(t *testing.T) {
	g := &graphSys{nodes: 4, procs: 2, waiting: []uint8{0, 1, 1, 0}, edges: [][]gEdge{
		{{Kind: model.Request, Proc: 0, To: 1}},
		{{Kind: model.Exit, Proc: 1, To: 2}, {Kind: model.Deliver, Proc: 0, Msg: 0, To: 3}},
		{{Kind: model.Exit, Proc: 1, To: 1}},
		{{Kind: model.Timer, Proc: 1, To: 3}},
	}}
	for _, c := range []struct {
		fair   model.Fairness
		starve bool
	}{{model.WeakFairness, true}, {model.StrongFairness, false}, {model.NoFairness, true}} {
		res, err := explore.CheckLiveness(context.Background(), g, explore.LivenessOptions{Starvation: true, Fairness: c.fair})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.Starving) == 1; got != c.starve {
			t.Errorf("%s fairness: starving %v, want starvation %v", c.fair, res.Starving, c.starve)
		} else if got && (res.Starving[0].Process != 0 || res.Starving[0].Loop != 1 || res.Starving[0].CycleLen() != 2) {
			t.Errorf("%s fairness: lasso %+v, want P0, prefix 1, cycle 2", c.fair, res.Starving[0])
		}
	}
}
