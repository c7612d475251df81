package explore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomGraph is a funcSys over nodes 0..n-1 (a state is its node, two
// bytes) with the given adjacency lists, node 0 initial.
func randomGraph(adj [][]int) *funcSys {
	node := func(v int) []byte { return []byte{byte(v), byte(v >> 8)} }
	return &funcSys{
		name: "random graph",
		init: [][]byte{node(0)},
		succ: func(s []byte) []edge {
			var out []edge
			for _, u := range adj[int(s[0])|int(s[1])<<8] {
				out = append(out, edge{to: node(u)})
			}
			return out
		},
	}
}

// findCycles, the specialised Tarjan search, marks exactly the states
// that lie on a cycle of expanded states: checked against the general
// search (sccs) and against brute force (a state reaches itself), on
// random graphs with self-loops and parallel edges, complete and cut by
// MaxStates (so that some states are numbered but not expanded).
func TestFindCyclesMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		n := 1 + rng.IntN(60)
		adj := make([][]int, n)
		deg := rng.IntN(4)
		for v := range adj {
			for range rng.IntN(deg + 1) {
				adj[v] = append(adj[v], rng.IntN(n))
			}
		}
		var maxStates int64
		if trial%3 == 2 {
			maxStates = int64(1 + rng.IntN(n))
		}
		name := fmt.Sprintf("trial %d (%d nodes, max %d)", trial, n, maxStates)
		wd := &workDir{parent: t.TempDir()}
		var live liveCounters
		opts := LivenessOptions{Starvation: true}
		opts.MaxStates = maxStates
		g, _, err := buildGraph(context.Background(), randomGraph(adj), opts, false, &live, wd)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		states := uint32(g.states())
		a := newAnalyzer(g, newAnalysisState(context.Background()))
		a.findCycles()
		got := a.cyclic
		// the general search
		ref := make([]bool, states)
		a.sccs(nil, g.expanded, func(c []uint32) {
			for _, s := range c {
				ref[s] = true
			}
		})
		for s := range states {
			// brute force: s is expanded and reaches itself through
			// expanded states
			onCycle := false
			if g.expanded(s) {
				seen := make([]bool, states)
				work := []uint32{s}
				for len(work) > 0 && !onCycle {
					v := work[len(work)-1]
					work = work[:len(work)-1]
					lo, hi := g.edges(v)
					for e := lo; e < hi; e++ {
						u := g.target(e)
						if u == s {
							onCycle = true
							break
						}
						if g.expanded(u) && !seen[u] {
							seen[u] = true
							work = append(work, u)
						}
					}
				}
			}
			mark := got[s>>6]&(1<<(s&63)) != 0
			if mark != onCycle || ref[s] != onCycle {
				t.Fatalf("%s: state %d: findCycles %v, sccs %v, brute force %v", name, s, mark, ref[s], onCycle)
			}
		}
		for s, x := range a.index {
			if x != 0 {
				t.Fatalf("%s: index[%d] = %d after findCycles, want 0", name, s, x)
			}
		}
		a.free()
		g.close()
		wd.remove()
	}
}
