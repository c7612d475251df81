package explore

import (
	"bytes"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// replayPath rebuilds the path of the liveness graph from the init-th
// initial state along the transition indices acts (as pathActions and the
// analyses give them) and checks it against the graph: each state reached
// must have the phases (and, with occupancy, the groups) the graph
// recorded for it, as many successors if the graph expanded it, and a
// state the path visits twice must be the same state both times (a
// lasso's cycle closes). Any difference means the model is not
// deterministic.
func (g *graph) replayPath(w model.Worker, name string, init int, acts []int) ([][]byte, error) {
	path, err := replayActions(w, name, init, acts)
	if err != nil {
		return nil, err
	}
	id, err := g.initialState(init)
	if err != nil {
		return nil, err
	}
	first := map[uint32]int{}
	for step, s := range path {
		if step > 0 {
			lo, hi := g.edges(id)
			if e := lo + int64(acts[step-1]); e < hi {
				id = g.target(e)
			} else {
				return nil, fmt.Errorf("liveness graph: state %d has no transition %d", id, acts[step-1])
			}
		}
		if at, ok := first[id]; ok && !bytes.Equal(path[at], s) {
			return nil, notDeterministic(name, fmt.Sprintf("steps %d and %d of the path should reach the same state but reach %s and %s", at, step, showState(path[at]), showState(s)))
		}
		if _, ok := first[id]; !ok {
			first[id] = step
		}
		if what := g.differs(w, id, s); what != "" {
			return nil, notDeterministic(name, fmt.Sprintf("state %s (step %d of the path) %s", showState(s), step, what))
		}
	}
	return path, nil
}

// differs compares state s with what the graph recorded for state id and
// says how they differ, or returns "".
func (g *graph) differs(w model.Worker, id uint32, s []byte) string {
	snap := w.Snapshot(s)
	wm, im := phaseMasks(snap, g.n)
	if rec := g.waitMask(id); wm != rec {
		return fmt.Sprintf("has waiting processes %b (bit i: process i) where the search recorded %b", wm, rec)
	}
	if len(g.incs) > 0 {
		if im != g.incs[id] {
			return fmt.Sprintf("has processes in their critical section %b where the search recorded %b", im, g.incs[id])
		}
		for i := range g.n {
			if x := snap.Group(i); uint8(x) != g.groups[int(id)*g.n+i] {
				return fmt.Sprintf("has process %d in group %d where the search recorded group %d", i, x, g.groups[int(id)*g.n+i])
			}
		}
	}
	if g.expanded(id) {
		n := 0
		w.Successors(s, func(*model.Transition, []byte) bool { n++; return true })
		if lo, hi := g.edges(id); int64(n) != hi-lo {
			return fmt.Sprintf("gave %d successors where the search recorded %d", n, hi-lo)
		}
	}
	return ""
}

// initialState returns the id of the init-th initial state (counting
// every state Initial yields).
func (g *graph) initialState(init int) (uint32, error) {
	roots := uint32(0)
	if len(g.levels) > 1 {
		roots = g.levels[1]
	} else if g.nstates > 0 {
		roots = uint32(g.nstates)
	}
	for id := range roots {
		p, a, err := g.parentOf(id)
		if err != nil {
			return 0, err
		}
		if p == noParent && int(a) == init {
			return id, nil
		}
	}
	return 0, fmt.Errorf("liveness graph: no initial state %d", init)
}
