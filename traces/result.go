package traces

import (
	"maps"

	"github.com/tokenmc/tokenmc/model"
)

// This file goes from a result to a trace file in one call: the metadata
// (algorithm, parameters) comes from the system itself, model.Info.

// MetaOf returns the metadata of a trace of sys that violates prop: the
// algorithm is sys.Info().Name and the parameters are Info.Params, the
// parameters the system was built with (protocol.Protocol.Params). A system
// that records none gets n and r (r only for a finite R) and, when they
// are not the defaults, groups and faults, which is what `tokenmc replay`
// passes back to the algorithm's Build.
func MetaOf(sys model.System, prop model.Property) Meta {
	info := sys.Info()
	return Meta{Algorithm: info.Name, Params: paramsOf(info), Property: prop.Name, PropertyKind: prop.Kind}
}

// paramsOf returns the trace parameters of a system described by info, as
// MetaOf does: a copy of info.Params, or the parameters derived from N, R,
// the groups and the fault budget.
func paramsOf(info model.Info) map[string]int {
	if info.Params != nil {
		return maps.Clone(info.Params)
	}
	p := map[string]int{"n": info.Processes}
	if info.Requests > 0 {
		p["r"] = info.Requests
	}
	if info.Groups > 1 {
		p["groups"] = info.Groups
	}
	if info.Faults > 0 {
		p["faults"] = info.Faults
	}
	return p
}

// Violation is what a trace needs of a search result that ends in a
// violating state: the property violated and the path of encoded states
// from an initial state to that state (for a transition invariant the last
// step is the violating transition). explore.Violation and
// simulate.Violation are ones; traces takes this plain view of them so
// that it does not depend on the explorer.
type Violation interface {
	Violated() (prop model.Property, states [][]byte)
}

// FromViolation builds the trace of a violation that a search found on
// sys: explore.Check, simulate.Run, or the deadlock that
// explore.CheckLiveness reports (LivenessResult.Deadlock). The algorithm
// and its parameters come from the system (MetaOf).
//
// A violation that also knows the transition taken at each step, a method
// ViolatedActions() []int whose k-th index (in Worker.Successors order)
// is the transition from states[k] to states[k+1] (nil when not known),
// as explore.Violation and simulate.Violation have, gets a trace of those
// transitions (FromSteps). Without them, or when they do not lead along
// its states (a path replaced after the search, as by
// symmetry.Concretize, without its actions), each one is looked up by its
// target state (FromSteps with nil actions).
func FromViolation(sys model.System, v Violation) (*Trace, error) {
	prop, states := v.Violated()
	var actions []int
	if vs, ok := v.(interface{ ViolatedActions() []int }); ok {
		actions = vs.ViolatedActions()
	}
	w, meta := sys.NewWorker(), MetaOf(sys, prop)
	if actions != nil {
		if t, err := FromSteps(w, meta, states, actions); err == nil {
			return t, nil
		}
	}
	return FromSteps(w, meta, states, nil)
}
