package explore_test

import (
	"context"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// occGraph is a two-process GME graph. Node 0: both Idle. Node 1: P0
// waits for group 0. Node 2: P0 InCS (group 0). Node 3: P0 waits for 0,
// P1 waits for 1 (another group: the property does not constrain it).
// Node 4: both wait for group 0. Node 5: P1 InCS with group 0, P0 waits.
// Node 6: both InCS with group 0. From node 4 P0 reaches its CS only
// through node 5 and then Exit(P1) (when exitOnly) or through the request
// of P1 for group 1 (node 3, when otherGroup), else both enter together
// (node 6).
func occGraph(exitOnly, otherGroup bool) *graphSys {
	g := &graphSys{nodes: 7, procs: 2, gme: true,
		waiting: []uint8{0, 1, 0, 3, 3, 1, 0},
		incs:    []uint8{0, 0, 1, 0, 0, 2, 3},
		groups:  [][]int{{0, 0}, {0, 0}, {0, 0}, {0, 1}, {0, 0}, {0, 0}, {0, 0}},
		edges: [][]gEdge{
			{{Kind: model.Request, Proc: 0, Arg: 0, To: 1}},
			{{Kind: model.Deliver, Proc: 0, Msg: 0, To: 2}, {Kind: model.Request, Proc: 1, Arg: 0, To: 4}},
			{{Kind: model.Exit, Proc: 0, To: 0}},
			{{Kind: model.Deliver, Proc: 0, Msg: 1, To: 2}},
			nil,
			{{Kind: model.Exit, Proc: 1, To: 2}},
			{{Kind: model.Exit, Proc: 0, To: 0}},
		}}
	switch {
	case exitOnly:
		g.edges[4] = []gEdge{{Kind: model.Deliver, Proc: 1, Msg: 2, To: 5}}
	case otherGroup:
		g.edges[4] = []gEdge{{Kind: model.Request, Proc: 1, Arg: 1, To: 3}}
	default:
		g.edges[4] = []gEdge{{Kind: model.Deliver, Proc: 0, Msg: 0, To: 6}}
	}
	return g
}

func TestConcurrentOccupancy(t *testing.T) {
	for _, c := range []struct {
		name                string
		exitOnly, otherGrp  bool
		violated            bool
		explored, exploredT int64
	}{
		{"direct", false, false, false, 0, 0},
		{"needs an exit", true, false, true, 2, 1},
		{"needs another group", false, true, true, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := occGraph(c.exitOnly, c.otherGrp)
			res, err := explore.CheckLiveness(context.Background(), g, explore.LivenessOptions{Occupancy: true})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Occupancy
			if (o != nil) != c.violated {
				t.Fatalf("violation %+v, want violated=%v", o, c.violated)
			}
			if o == nil {
				return
			}
			// The shallowest violating state is node 4 (depth 2), P0 waiting
			// for group 0.
			if o.Process != 0 || o.Group != 0 || o.Len() != 2 || o.Path[2][0] != 4 || o.Explored != c.explored || o.ExploredTransitions != c.exploredT {
				t.Errorf("violation P%d group %d after %d steps at node %d, explored %d/%d; want P0 group 0 after 2 steps at node 4, explored %d/%d",
					o.Process, o.Group, o.Len(), o.Path[len(o.Path)-1][0], o.Explored, o.ExploredTransitions, c.explored, c.exploredT)
			}
			meta := traces.Meta{Algorithm: "graph", Property: invariants.NameConcurrentOccupancy, WaitingProcess: &o.Process}
			tr, err := traces.FromSteps(g.NewWorker(), meta, o.Path, o.Actions)
			if err != nil {
				t.Fatal(err)
			}
			rr, err := traces.Replay(g, nil, tr)
			if err != nil || !rr.OK || !strings.Contains(rr.Reason, "P0 requests group 0") {
				t.Errorf("replay: %v %+v", err, rr)
			}
		})
	}
	if _, err := explore.CheckLiveness(context.Background(), handoff(1, false), explore.LivenessOptions{Occupancy: true}); err == nil {
		t.Error("concurrent-occupancy accepted a system that is not GME")
	}
}

// TestOccupancyMatchesBruteForce cross-checks concurrent-occupancy on
// random GME graphs against a forward search from every candidate state.
func TestOccupancyMatchesBruteForce(t *testing.T) {
	pool := []gEdge{
		{Kind: model.Deliver, Proc: 0, Msg: 0},
		{Kind: model.Deliver, Proc: 1, Msg: 1},
		{Kind: model.Exit, Proc: 0},
		{Kind: model.Exit, Proc: 1},
		{Kind: model.Request, Proc: 1, Arg: 0},
		{Kind: model.Request, Proc: 1, Arg: 1},
		{Kind: model.Timer, Proc: 0},
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 7).Draw(t, "nodes")
		g := &graphSys{nodes: n, procs: 2, gme: true, edges: make([][]gEdge, n), waiting: make([]uint8, n), incs: make([]uint8, n), groups: make([][]int, n)}
		for v := range n {
			for i := range 2 {
				switch rapid.IntRange(0, 2).Draw(t, "phase") {
				case 1:
					g.waiting[v] |= 1 << i
				case 2:
					g.incs[v] |= 1 << i
				}
				g.groups[v] = append(g.groups[v], rapid.IntRange(0, 1).Draw(t, "group"))
			}
			for _, f := range pool {
				if rapid.IntRange(0, 99).Draw(t, "p") < 35 {
					e := f
					e.To = rapid.IntRange(0, n-1).Draw(t, "to")
					g.edges[v] = append(g.edges[v], e)
				}
			}
		}
		// brute force, states in BFS discovery order
		depth := map[int]int{0: 0}
		order := []int{0}
		for k := 0; k < len(order); k++ {
			for _, e := range g.edges[order[k]] {
				if _, ok := depth[e.To]; !ok {
					depth[e.To] = depth[order[k]] + 1
					order = append(order, e.To)
				}
			}
		}
		wantNode, wantP, wantExplored := -1, -1, 0
	search:
		for _, v := range order {
			for p := range 2 {
				x := g.groups[v][p]
				if g.waiting[v]&(1<<p) == 0 {
					continue
				}
				ok := true
				for q := range 2 {
					busy := (g.waiting[v]|g.incs[v])&(1<<q) != 0
					if busy && g.groups[v][q] != x {
						ok = false
					}
				}
				if !ok {
					continue
				}
				seen := map[int]bool{v: true}
				stack := []int{v}
				enters := false
				for len(stack) > 0 {
					u := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					if g.incs[u]&(1<<p) != 0 {
						enters = true
						break
					}
					for _, e := range g.edges[u] {
						if e.Kind == model.Exit || (e.Kind == model.Request && e.Arg != x) {
							continue
						}
						if !seen[e.To] {
							seen[e.To] = true
							stack = append(stack, e.To)
						}
					}
				}
				if !enters {
					wantNode, wantP, wantExplored = v, p, len(seen)
					break search
				}
			}
		}
		res, err := explore.CheckLiveness(context.Background(), g, explore.LivenessOptions{Occupancy: true})
		if err != nil {
			t.Fatal(err)
		}
		o := res.Occupancy
		if wantNode < 0 {
			if o != nil {
				t.Fatalf("violation %+v, brute force finds none", o)
			}
			return
		}
		if o == nil || int(o.Path[len(o.Path)-1][0]) != wantNode || o.Process != wantP || o.Explored != int64(wantExplored) || o.Len() != depth[wantNode] {
			t.Fatalf("violation %+v; brute force: node %d (depth %d), P%d, %d states explored", o, wantNode, depth[wantNode], wantP, wantExplored)
		}
	})
}
