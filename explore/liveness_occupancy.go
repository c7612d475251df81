package explore

import (
	"github.com/tokenmc/tokenmc/model"
)

// checkOccupancy checks concurrent-occupancy (semantics.md §1) on the
// graph. For each process p and group X it computes, by a backward search
// over the edges that are neither an Exit nor a request for a group other
// than X, the states from which p can reach its CS; a reachable state in
// which p waits for X and nobody is InCS with, or Waiting for, another
// group, that is not among them, violates the property. It returns the
// shallowest violation (ties: the lowest state number, then the lowest p),
// with the size of the restricted graph reachable from it as the proof, or
// nil. If st stops the analysis meanwhile it returns nil. The error is that
// of a model (called name) whose path cannot be rebuilt (see
// graph.replayPath).
func checkOccupancy(g *graph, w model.Worker, name string, st *analysisState) (*OccupancyViolation, error) {
	n := g.n
	ns := g.states()
	groups := 0
	for _, x := range g.groups {
		groups = max(groups, int(x)+1)
	}
	for f := range g.fams.class {
		if g.fams.kind[f] == model.Request {
			groups = max(groups, g.fams.arg[f]+1)
		}
	}
	// Reverse edges, packed as the forward ones are: (source, family) by
	// target, outside the Go heap.
	rev, roff, fill := reverseEdges(g)
	defer rev.free()
	defer freeU32(roff.lo)
	allowedFam := func(f uint32, x int) bool {
		switch g.fams.kind[f] {
		case model.Exit:
			return false
		case model.Request:
			return g.fams.arg[f] == x
		}
		return true
	}
	allowed := func(e int64, x int) bool { return allowedFam(g.family(e), x) }
	group := func(s uint32, i int) int { return int(g.groups[int(s)*n+i]) }
	reach := fill // reverseEdges's scratch, zeroed
	defer freeU32(reach)
	stamp := uint32(0)
	var best *OccupancyViolation
	var bestS uint32
	for p := range n {
		for x := range groups {
			if !st.begin("occupancy", p*groups+x, n*groups) {
				return nil, nil
			}
			var cands []uint32
			for s := range uint32(ns) {
				if !g.expanded(s) || !g.isWaiting(s, p) || group(s, p) != x {
					continue
				}
				ok := true
				for q := range n {
					busy := g.isWaiting(s, q) || g.incs[s]&(1<<uint(q)) != 0
					if busy && group(s, q) != x {
						ok = false
						break
					}
				}
				if ok {
					cands = append(cands, s)
				}
			}
			if len(cands) == 0 {
				continue
			}
			stamp++
			var queue []uint32
			for s := range uint32(ns) {
				if g.incs[s]&(1<<uint(p)) != 0 {
					reach[s] = stamp
					queue = append(queue, s)
				}
			}
			for len(queue) > 0 {
				if !st.visit() {
					return nil, nil
				}
				t := queue[0]
				queue = queue[1:]
				lo := roff.at(t)
				hi := lo + int64(roff.lo[t+1]-roff.lo[t])
				for r := lo; r < hi; r++ {
					s, f := rev.get(r)
					if !allowedFam(f, x) {
						continue
					}
					if reach[s] != stamp {
						reach[s] = stamp
						queue = append(queue, s)
					}
				}
			}
			for _, s := range cands {
				if reach[s] == stamp {
					continue
				}
				if best != nil && (g.depth(s) > g.depth(bestS) || (g.depth(s) == g.depth(bestS) && s >= bestS)) {
					continue
				}
				states, edges, complete := forwardRestricted(g, s, x, allowed, st)
				if st.stopped {
					return nil, nil
				}
				if !complete {
					continue // a bound cut the graph below s: no proof
				}
				best = &OccupancyViolation{Process: p, Group: x, Explored: states, ExploredTransitions: edges}
				bestS = s
			}
		}
	}
	if best == nil {
		return nil, nil
	}
	init, acts, err := g.pathActions(bestS)
	if err != nil {
		return nil, err
	}
	best.Actions = acts
	path, err := g.replayPath(w, name, init, acts)
	if err != nil {
		return nil, err
	}
	best.Path = path
	return best, nil
}

// forwardRestricted counts the states and edges reachable from s by
// allowed edges; complete is false if one of them was not expanded, or if
// st stopped the analysis.
func forwardRestricted(g *graph, s uint32, x int, allowed func(int64, int) bool, st *analysisState) (int64, int64, bool) {
	seen := map[uint32]bool{s: true}
	queue := []uint32{s}
	var edges int64
	for len(queue) > 0 {
		if !st.visit() {
			return 0, 0, false
		}
		u := queue[0]
		queue = queue[1:]
		if !g.expanded(u) {
			return 0, 0, false
		}
		lo, hi := g.edges(u)
		for e := lo; e < hi; e++ {
			if !allowed(e, x) {
				continue
			}
			edges++
			if t := g.target(e); !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	return int64(len(seen)), edges, true
}

// reverseEdges returns the graph's edges by target: the edges into t are
// rev[roff.at(t) : roff.at(t+1)], each as (source, family), in the order
// of their sources. zero is a zeroed array of a uint32 per state (its
// scratch), to be freed with freeU32.
func reverseEdges(g *graph) (rev packedEdges, roff offsets, zero []uint32) {
	ns := g.states()
	deg := allocU32(ns)
	for e := range g.numEdges() {
		deg[g.target(e)]++
	}
	roff.lo = allocU32(ns + 1)
	var at int64
	for t := range ns {
		roff.set(uint32(t), at)
		at += int64(deg[t])
		deg[t] = 0 // now the number of edges placed
	}
	roff.set(uint32(ns), at)
	rev = newPackedEdges(g.numEdges(), ns, len(g.fams.class))
	for s := range uint32(ns) {
		lo, hi := g.edges(s)
		for e := lo; e < hi; e++ {
			t, f := g.edge(e)
			rev.set(roff.at(t)+int64(deg[t]), s, f)
			deg[t]++
		}
	}
	clear(deg)
	return rev, roff, deg
}
