package cli

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/symmetry"
	"github.com/tokenmc/tokenmc/model"
)

// symmetryJSON is the "symmetry" field of check --json: the group the
// search was reduced by. States and transitions then count orbits.
type symmetryJSON struct {
	Group string `json:"group"`
	Order uint64 `json:"order"`
}

// reduceBySymmetry returns the system to search for check: sys itself
// without --symmetry, or its quotient by the algorithm's symmetry group.
// It refuses (bad input) an algorithm without a declared symmetry, a
// property not known to be symmetric, and liveness.
func reduceBySymmetry(cat *catalog, on bool, a algorithms.Algorithm, variant string, params map[string]int, sys model.System,
	selected, extra []model.Property, liveness []string) (model.System, *model.Symmetry, error) {
	if !on {
		return sys, nil, nil
	}
	if len(liveness) > 0 {
		return nil, nil, badInput("--symmetry does not support liveness (%s) yet; check it without --symmetry", strings.Join(liveness, ", "))
	}
	var sym *model.Symmetry
	if a.Symmetry != nil {
		var err error
		if sym, err = a.Symmetry(variant, params); err != nil {
			return nil, nil, badInput("%v", err)
		}
	}
	if sym == nil && a.Symmetry != nil {
		return nil, nil, badInput("%s has no symmetry but the identity at these parameters, so --symmetry cannot reduce it; run without --symmetry", variant)
	}
	if sym == nil {
		return nil, nil, badInput("%s declares no symmetry, so --symmetry cannot reduce it; run without --symmetry (algorithms with one: %s)", variant, strings.Join(symmetricAlgorithms(cat), ", "))
	}
	red, err := symmetry.Reduce(sys, sym, selected, extra)
	if err != nil {
		return nil, nil, badInput("--symmetry: %v", err)
	}
	return red, sym, nil
}

func symmetricAlgorithms(cat *catalog) []string {
	var out []string
	for _, a := range cat.all() {
		if a.Symmetry != nil {
			out = append(out, a.Name)
		}
	}
	return out
}

// concretizeViolation replaces the quotient counterexample of res by a
// concrete path of sys (the unreduced system), so that the trace replays
// without symmetry.
func concretizeViolation(sys model.System, sym *model.Symmetry, res *explore.Result) error {
	if sym == nil || res.Violation == nil {
		return nil
	}
	v := res.Violation
	var last func(*model.Transition) bool
	if v.Property.Kind == model.TransitionInvariant {
		last = func(t *model.Transition) bool { return !v.Property.HoldsOn(t) }
	}
	path, actions, err := symmetry.ConcretizeSteps(sys, sym, v.Path, last)
	if err != nil {
		return fmt.Errorf("turning the counterexample into a concrete trace: %v", err)
	}
	v.Path, v.Actions = path, actions
	return nil
}

// concretizeModelError turns the path of a model failure found by a
// reduced search into a path of the concrete system, as
// concretizeViolation does for a violation.
func concretizeModelError(sys model.System, sym *model.Symmetry, me *explore.ModelError) error {
	if sym == nil || me == nil {
		return nil
	}
	path, actions, err := symmetry.ConcretizeSteps(sys, sym, me.Path, nil)
	if err != nil {
		return fmt.Errorf("turning the path to the model's failure into a concrete trace: %v", err)
	}
	me.Path, me.Actions = path, actions
	return nil
}

func symmetryReport(sym *model.Symmetry) *symmetryJSON {
	if sym == nil {
		return nil
	}
	return &symmetryJSON{Group: sym.Name, Order: sym.Order()}
}

// symmetryLine is the summary line of a reduced search.
func symmetryLine(s *symmetryJSON) string {
	return fmt.Sprintf("symmetry: reduced by %s (%d elements); states and transitions count orbits, traces are concrete", s.Group, s.Order)
}
