package explore

import (
	"bytes"
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

// notDeterministic is the error of a counterexample that cannot be
// rebuilt because the model's Initial or Successors gave something else
// on a second call than during the search; what says what differed.
func notDeterministic(name, what string) error {
	return fmt.Errorf("%s is not deterministic: rebuilding the counterexample by re-running its successor function, %s; Initial and Successors must yield the same states in the same order whenever they are called on equal states (modeltest.Check detects this)", name, what)
}

// showState renders a state for an error message: its bytes in hex, cut
// after 32 of them.
func showState(s []byte) string {
	const most = 32
	if len(s) > most {
		return fmt.Sprintf("%x... (%d bytes)", s[:most], len(s))
	}
	return fmt.Sprintf("%x", s)
}

// violation rebuilds the path of the violation v found on the current
// level. A model whose successors differ between the search and the
// rebuild makes the search fail: b.fatal is set (Check returns it) as well
// as the error returned.
func (b *bfs) violation(v candidateViolation) (*Violation, error) {
	path, acts, err := b.pathTo(b.depth, v.k)
	if err != nil {
		return nil, err
	}
	if v.action >= 0 {
		path = append(path, v.target)
		acts = append(acts, v.action)
	}
	return &Violation{Property: v.prop, Path: path, Actions: acts}, nil
}

// pathTo reconstructs the states from an initial state to the state with
// index idx in level lv (the current level) by following predecessor links
// back and re-running the successor function forward (links store action
// indices, not states). The state reached must be the one the level holds
// at idx: if not, the model is not deterministic, and b.fatal is set.
// It returns the action (transition) index of each step too, the path's
// Violation.Actions.
func (b *bfs) pathTo(lv int, idx int64) ([][]byte, []int, error) {
	k := idx
	acts := make([]int, lv+1)
	for ; lv >= 0; lv-- {
		p, a, err := b.links.get(lv, idx)
		if err != nil {
			return nil, nil, err
		}
		acts[lv] = int(a)
		if (p == noParent) != (lv == 0) {
			return nil, nil, fmt.Errorf("predecessor links are inconsistent at level %d", lv)
		}
		idx = int64(p)
	}
	want, err := b.levelState(k)
	if err != nil {
		return nil, nil, err
	}
	// acts[0] is the initial state's index; the rest are action indices
	// from the root down.
	name := b.sys.Info().Name
	path, err := replayActions(b.sys.NewWorker(), name, acts[0], acts[1:])
	if err == nil && !bytes.Equal(path[len(path)-1], want) {
		err = notDeterministic(name, fmt.Sprintf("the path of %d steps reaches state %s where the search reached state %s", len(path)-1, showState(path[len(path)-1]), showState(want)))
	}
	if err != nil {
		b.fatal = err
		return nil, nil, err
	}
	return path, acts[1:], nil
}

// levelState returns a copy of the state with index k in the current
// level, read back from its spill file if need be.
func (b *bfs) levelState(k int64) ([]byte, error) {
	if m := &b.cur.mem; k >= m.base && k < m.base+int64(m.len()) {
		return bytes.Clone(m.state(int(k - m.base))), nil
	}
	var found []byte
	var buf level
	err := b.cur.blocks(&buf, func(blk *level) bool {
		if k >= blk.base && k < blk.base+int64(blk.len()) {
			found = bytes.Clone(blk.state(int(k - blk.base)))
			return false
		}
		return true
	})
	if err == nil && found == nil {
		err = fmt.Errorf("state %d of level %d is not in the frontier (%d states)", k, b.depth, b.cur.count())
	}
	return found, err
}

// replayActions returns the path that starts at the init-th initial state
// of the model called name and takes, at each step, the transition with
// the given index. If the model has no such initial state or transition
// it is not deterministic (the indices were recorded by a search of the
// same model): the error says so.
func replayActions(w model.Worker, name string, init int, acts []int) ([][]byte, error) {
	var cur []byte
	i := 0
	w.Initial(func(s []byte) bool {
		if i == init {
			cur = bytes.Clone(s)
			return false
		}
		i++
		return true
	})
	if cur == nil {
		return nil, notDeterministic(name, fmt.Sprintf("Initial gave %d states where the search took initial state %d", i, init))
	}
	path := [][]byte{cur}
	for step, a := range acts {
		var nxt []byte
		n := 0
		w.Successors(cur, func(_ *model.Transition, s []byte) bool {
			if n == a {
				nxt = bytes.Clone(s)
			}
			n++
			return true
		})
		if nxt == nil {
			return nil, notDeterministic(name, fmt.Sprintf("state %s (step %d of the path) gave %d successors where the search took transition %d (counting from 0)", showState(cur), step, n, a))
		}
		path = append(path, nxt)
		cur = nxt
	}
	return path, nil
}

func reversed(a []int) []int {
	out := make([]int, len(a))
	for i, x := range a {
		out[len(a)-1-i] = x
	}
	return out
}
