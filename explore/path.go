package explore

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// maxAction is the largest index of a transition of one state that a
// predecessor link can record (16 bits).
const maxAction = 0xffff

// tooManyTransitions is the error of a search that met a state whose
// transitions its predecessor links cannot number; hint says what to do.
func tooManyTransitions(name, hint string) error {
	return fmt.Errorf("a state of %s has more than %d transitions, more than a breadth-first search can record in its predecessor links; %s", name, maxAction+1, hint)
}

// tooManyStates is the error of a breadth-first search whose level holds
// more states than its predecessor links can number.
func tooManyStates(name string, depth int) error {
	return fmt.Errorf("level %d of the breadth-first search of %s has more than %d states, more than its predecessor links can number; search it depth first (--dfs)", depth, name, noParent)
}

func (b *bfs) violation(v candidateViolation) (*Violation, error) {
	path, err := b.pathTo(b.depth, v.k)
	if err != nil {
		return nil, err
	}
	if v.action >= 0 {
		path = append(path, v.target)
	}
	return &Violation{Property: v.prop, Path: path}, nil
}

// pathTo reconstructs the states from an initial state to the state with
// index idx in level lv by following predecessor links back and re-running
// the successor function forward (links store action indices, not states).
func (b *bfs) pathTo(lv int, idx int64) ([][]byte, error) {
	acts := make([]int, lv+1)
	for ; lv >= 0; lv-- {
		p, a, err := b.links.get(lv, idx)
		if err != nil {
			return nil, err
		}
		acts[lv] = int(a)
		if (p == noParent) != (lv == 0) {
			return nil, fmt.Errorf("predecessor links are inconsistent at level %d", lv)
		}
		idx = int64(p)
	}
	// acts[0] is the initial state's index; the rest are action indices
	// from the root down.
	w := b.sys.NewWorker()
	return replayActions(w, acts[0], acts[1:]), nil
}

// replayActions returns the path that starts at the init-th initial state
// and takes, at each step, the transition with the given index.
func replayActions(w model.Worker, init int, acts []int) [][]byte {
	var cur []byte
	i := 0
	w.Initial(func(s []byte) bool {
		if i == init {
			cur = append([]byte(nil), s...)
			return false
		}
		i++
		return true
	})
	path := [][]byte{cur}
	for _, a := range acts {
		var nxt []byte
		j := 0
		w.Successors(cur, func(_ *model.Transition, s []byte) bool {
			if j == a {
				nxt = append([]byte(nil), s...)
				return false
			}
			j++
			return true
		})
		if nxt == nil {
			panic("explore: predecessor link names a transition that does not exist (non-deterministic successor function?)")
		}
		path = append(path, nxt)
		cur = nxt
	}
	return path
}

func reversed(a []int) []int {
	out := make([]int, len(a))
	for i, x := range a {
		out[len(a)-1-i] = x
	}
	return out
}
