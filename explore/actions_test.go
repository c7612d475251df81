package explore

import (
	"context"
	"slices"
	"testing"
)

// TestModelErrorCarriesActions: the path to a state whose successors
// panic comes with the transition taken at each step, from the
// breadth-first search's links and the depth-first search's stack. The
// model is a tree: state {d, i} has the successors {d+1, 0}, {d+1, 1},
// {d+1, 2}, and the successor function panics at {3, 2}; its shortest path
// takes transitions 0, 0, 2 (the first states, in order, that reach it).
func TestModelErrorCarriesActions(t *testing.T) {
	sys := &funcSys{name: "tree", init: [][]byte{{0, 0}}, succ: func(s []byte) []edge {
		if s[0] == 3 && s[1] == 2 {
			panic("the model fails at {3, 2}")
		}
		var out []edge
		for i := range byte(3) {
			out = append(out, edge{to: []byte{s[0] + 1, i}})
		}
		return out
	}}
	for _, opts := range []Options{{Workers: 1}, {Workers: 2}, {DFS: true}} {
		res, err := Check(context.Background(), sys, opts)
		if err != nil || res.ModelError == nil {
			t.Fatalf("%+v: %v, %+v", opts, err, res)
		}
		me := res.ModelError
		want := [][]byte{{0, 0}, {1, 0}, {2, 0}, {3, 2}}
		if !slices.EqualFunc(me.Path, want, slices.Equal) || !slices.Equal(me.Actions, []int{0, 0, 2}) {
			t.Errorf("%+v: path %v, actions %v; want %v, [0 0 2]", opts, me.Path, me.Actions, want)
		}
	}
}
