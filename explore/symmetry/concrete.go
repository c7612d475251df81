package symmetry

import (
	"bytes"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// Concretize turns a path of the quotient (canonical states, as in a
// counterexample found on Reduce(sys, sym)) into a path of sys with the
// same length whose k-th state is in the orbit of path[k]: it starts at an
// initial state of sys in the orbit of path[0] and, at each step, takes
// the first concrete transition whose successor is in the orbit of the
// next quotient state. When lastStep is not nil, the final step must also
// satisfy it (for a transition invariant: the concrete transition must
// violate it too). An error means that no such concrete step exists:
// sym is not a symmetry of sys.
func Concretize(sys model.System, sym *model.Symmetry, path [][]byte, lastStep func(*model.Transition) bool) ([][]byte, error) {
	if len(path) == 0 {
		return nil, nil
	}
	w := sys.NewWorker()
	c := NewCanonicalizer(sym)
	var cur []byte
	w.Initial(func(s []byte) bool {
		if bytes.Equal(c.Canonical(s), path[0]) {
			cur = append([]byte(nil), s...)
			return false
		}
		return true
	})
	if cur == nil {
		return nil, fmt.Errorf("symmetry: no initial state of %s is in the orbit of the quotient's initial state; the declared symmetry (%s) is not one of the model", sys.Info().Name, sym.Name)
	}
	out := [][]byte{cur}
	for k := 1; k < len(path); k++ {
		var next []byte
		w.Successors(cur, func(t *model.Transition, s []byte) bool {
			if k == len(path)-1 && lastStep != nil && !lastStep(t) {
				return true
			}
			if bytes.Equal(c.Canonical(s), path[k]) {
				next = append([]byte(nil), s...)
				return false
			}
			return true
		})
		if next == nil {
			return nil, fmt.Errorf("symmetry: step %d of the quotient path has no concrete counterpart in %s; the declared symmetry (%s) is not one of the model", k, sys.Info().Name, sym.Name)
		}
		out = append(out, next)
		cur = next
	}
	return out, nil
}
