package explore

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// Graph has the states and transitions Check counts, each state once,
// edges between existing states, depths of a breadth-first walk; with the
// leaking ring, the states it marks are exactly those where mutex fails
// (two processes InCS, read from the description).
func TestGraphMatchesCheck(t *testing.T) {
	for _, leak := range []bool{false, true} {
		sys := ring(3, 1, leak)
		props := standard(sys)
		g, err := Graph(context.Background(), sys, Options{Properties: props})
		if err != nil {
			t.Fatal(err)
		}
		if !leak {
			res, err := Check(context.Background(), sys, Options{Properties: props, Exact: true, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(g.States)) != res.States || int64(len(g.Edges)) != res.Transitions || g.Violating() != 0 {
				t.Errorf("graph %d states %d edges %d violating; Check %d states %d transitions",
					len(g.States), len(g.Edges), g.Violating(), res.States, res.Transitions)
			}
		}
		for i, s := range g.States {
			if s.ID != i || (s.Initial != (s.Depth == 0)) {
				t.Errorf("state %d: %+v", i, s)
			}
			inCS := 0
			for _, p := range s.Description.Processes {
				if p.Phase == "InCS" {
					inCS++
				}
			}
			if (inCS > 1) != slices.Contains(s.Violates, "mutex") {
				t.Errorf("leak=%v state %d: %d InCS, violates %v", leak, i, inCS, s.Violates)
			}
		}
		for _, e := range g.Edges {
			if e.From < 0 || e.From >= len(g.States) || e.To < 0 || e.To >= len(g.States) || e.Label == "" {
				t.Fatalf("edge %+v", e)
			}
			if d := g.States[e.To].Depth; d > g.States[e.From].Depth+1 {
				t.Errorf("edge %d->%d skips from depth %d to %d", e.From, e.To, g.States[e.From].Depth, d)
			}
		}
		if leak && g.Violating() == 0 {
			t.Error("the leaking ring's graph marks no violation")
		}
	}
}

// A space larger than MaxStates is refused with ErrGraphTooLarge; a done
// context stops the walk.
func TestGraphBounds(t *testing.T) {
	sys := ring(3, 1, false)
	if _, err := Graph(context.Background(), sys, Options{MaxStates: 5}); !errors.Is(err, ErrGraphTooLarge) {
		t.Errorf("MaxStates 5: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Graph(ctx, sys, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}
