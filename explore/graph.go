package explore

import (
	"context"
	"errors"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// defaultGraphMaxStates is the bound of Graph when Options.MaxStates is
// 0: a graph that size is still readable once rendered, or at least
// renderable by GraphViz.
const defaultGraphMaxStates = 5000

// ErrGraphTooLarge is returned (wrapped) by Graph when the state space has
// more states than its bound (Options.MaxStates, or 5000).
var ErrGraphTooLarge = errors.New("state space too large for a graph")

// GraphState is one reachable state of a Graph.
type GraphState struct {
	ID          int                    `json:"id"`                 // index in Graph.States, in breadth-first order
	Depth       int                    `json:"depth"`              // length of a shortest path from an initial state
	Initial     bool                   `json:"initial,omitempty"`  // an initial state
	Terminal    bool                   `json:"terminal,omitempty"` // no transition is enabled
	Violates    []string               `json:"violates,omitempty"` // the properties the state violates
	Description model.StateDescription `json:"state"`              // the state, as Worker.Describe renders it
}

// GraphEdge is one transition of a Graph.
type GraphEdge struct {
	From     int      `json:"from"`               // GraphState ID
	To       int      `json:"to"`                 // GraphState ID
	Label    string   `json:"label"`              // Worker.Label of the transition
	Violates []string `json:"violates,omitempty"` // the transition invariants it violates
}

// StateGraph is the whole reachable state graph of a small system.
type StateGraph struct {
	States []GraphState
	Edges  []GraphEdge
}

// Violating counts the states and transitions that violate a property.
func (g *StateGraph) Violating() int {
	n := 0
	for _, s := range g.States {
		if len(s.Violates) > 0 {
			n++
		}
	}
	for _, e := range g.Edges {
		if len(e.Violates) > 0 {
			n++
		}
	}
	return n
}

// Graph walks the whole reachable state space of sys breadth first and
// returns it as a graph, every state stored in full (no fingerprints), for
// export (GraphViz, JSON). Of opts it reads three fields, and ignores the
// others:
//
//   - MaxStates is the most states the graph may have (0: 5000, a graph
//     still readable once rendered, or at least renderable by GraphViz);
//     a larger space is refused with an error wrapping ErrGraphTooLarge.
//   - Properties mark the states (Invariant and Terminal properties) and
//     transitions (TransitionInvariant) that violate them. The walk goes
//     on past a violation: the graph is the whole reachable space.
//   - MemoryBudget, if positive, bounds the resident memory of the
//     process; the walk stops with an error rather than exceed it.
//
// It stops with ctx's error when ctx is done.
func Graph(ctx context.Context, sys model.System, opts Options) (*StateGraph, error) {
	max := int(opts.MaxStates)
	if max <= 0 {
		max = defaultGraphMaxStates
	}
	// w steps; d decodes and labels, so that no call of d's touches the
	// scratch memory of w's Successors while it runs.
	w, d := sys.NewWorker(), sys.NewWorker()
	g := &StateGraph{}
	index := map[string]int{}
	var frontier []string // the states of g.States, by ID
	tooLarge := func() error {
		return fmt.Errorf("%w: more than %d states reachable", ErrGraphTooLarge, max)
	}
	add := func(state []byte, depth int, initial bool) (int, error) {
		if id, ok := index[string(state)]; ok {
			return id, nil
		}
		if len(g.States) >= max {
			return 0, tooLarge()
		}
		id := len(g.States)
		key := string(state)
		index[key] = id
		stored := []byte(key)
		g.States = append(g.States, GraphState{ID: id, Depth: depth, Initial: initial,
			Violates:    violated(opts.Properties, model.Invariant, d.Snapshot(stored)),
			Description: d.Describe(stored)})
		frontier = append(frontier, key)
		return id, nil
	}
	var err error
	w.Initial(func(state []byte) bool {
		_, err = add(state, 0, true)
		return err == nil
	})
	for next := 0; err == nil && next < len(frontier); next++ {
		if next%256 == 0 {
			if e := ctx.Err(); e != nil {
				return nil, e
			}
			if overBudget(opts.MemoryBudget) {
				return nil, fmt.Errorf("the state graph would exceed the memory budget of %d MiB after %d states", opts.MemoryBudget>>20, len(g.States))
			}
		}
		from, state := next, []byte(frontier[next])
		depth := g.States[from].Depth + 1
		enabled := false
		w.Successors(state, func(t *model.Transition, succ []byte) bool {
			enabled = true
			label := d.Label(state, t)
			var to int
			if to, err = add(succ, depth, false); err != nil {
				return false
			}
			g.Edges = append(g.Edges, GraphEdge{From: from, To: to, Label: label, Violates: violatedOn(opts.Properties, t)})
			return true
		})
		if err == nil && !enabled {
			s := &g.States[from]
			s.Terminal = true
			s.Violates = append(s.Violates, violated(opts.Properties, model.Terminal, d.Snapshot(state))...)
		}
		frontier[next] = "" // the state stays a key of index
	}
	if err != nil {
		return nil, err
	}
	return g, nil
}

// violated names the properties of kind that snap violates.
func violated(props []model.Property, kind model.PropertyKind, snap model.Snapshot) []string {
	var names []string
	for _, p := range props {
		if p.Kind == kind && p.Holds != nil && !p.Holds(snap) {
			names = append(names, p.Name)
		}
	}
	return names
}

// violatedOn names the transition invariants that t violates.
func violatedOn(props []model.Property, t *model.Transition) []string {
	var names []string
	for _, p := range props {
		if p.Kind == model.TransitionInvariant && p.HoldsOn != nil && !p.HoldsOn(t) {
			names = append(names, p.Name)
		}
	}
	return names
}
