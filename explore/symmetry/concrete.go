package symmetry

import (
	"bytes"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// ConcretizeSteps turns a path of the quotient (canonical states, as in a
// counterexample found on the quotient Reduce returns) into a path of sys with the
// same length whose k-th state is in the orbit of path[k], with the
// concrete transition taken at each step: it starts at an initial state
// of sys in the orbit of path[0] and, at each step, takes the first
// concrete transition whose successor is in the orbit of the next
// quotient state; actions[k] is that transition's index, in
// Worker.Successors order, from out[k] to out[k+1] (as
// explore.Violation.Actions holds them), so a trace is built from the
// result without searching again. When lastStep is not nil, the final
// step must also satisfy it (for a transition invariant: the concrete
// transition must violate it too). An error means that no such concrete
// step exists: sym is not a symmetry of sys.
func ConcretizeSteps(sys model.System, sym *model.Symmetry, path [][]byte, lastStep func(*model.Transition) bool) (out [][]byte, actions []int, err error) {
	if len(path) == 0 {
		return nil, nil, nil
	}
	w := sys.NewWorker()
	c := newCanonicalizer(sym)
	var cur []byte
	w.Initial(func(s []byte) bool {
		if bytes.Equal(c.Canonical(s), path[0]) {
			cur = append([]byte(nil), s...)
			return false
		}
		return true
	})
	if cur == nil {
		return nil, nil, fmt.Errorf("symmetry: no initial state of %s is in the orbit of the quotient's initial state; the declared symmetry (%s) is not one of the model", sys.Info().Name, sym.Name)
	}
	out = [][]byte{cur}
	actions = []int{}
	for k := 1; k < len(path); k++ {
		var next []byte
		j := 0
		w.Successors(cur, func(t *model.Transition, s []byte) bool {
			if k == len(path)-1 && lastStep != nil && !lastStep(t) {
				j++
				return true
			}
			if bytes.Equal(c.Canonical(s), path[k]) {
				next = append([]byte(nil), s...)
				return false
			}
			j++
			return true
		})
		if next == nil {
			return nil, nil, fmt.Errorf("symmetry: step %d of the quotient path has no concrete counterpart in %s; the declared symmetry (%s) is not one of the model", k, sys.Info().Name, sym.Name)
		}
		out = append(out, next)
		actions = append(actions, j)
		cur = next
	}
	return out, actions, nil
}
