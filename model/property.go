package model

// PropertyKind says when the explorer evaluates a property.
type PropertyKind uint8

// Property kinds. An Invariant is checked on every reachable state, a
// TransitionInvariant on every transition, and a Terminal property on every
// reachable state that has no enabled transition.
const (
	Invariant PropertyKind = iota
	TransitionInvariant
	Terminal
)

// String names the kind.
func (k PropertyKind) String() string {
	switch k {
	case Invariant:
		return "invariant"
	case TransitionInvariant:
		return "transition-invariant"
	case Terminal:
		return "terminal"
	}
	return "kind(?)"
}

// Property is a named safety property. Exactly one of Holds and HoldsOn is
// set: Holds for Invariant and Terminal properties, HoldsOn for transition
// invariants. A property that returns false is violated.
type Property struct {
	Name    string
	Kind    PropertyKind
	Doc     string
	Holds   func(s Snapshot) bool
	HoldsOn func(t *Transition) bool
	// Applies reports whether the property makes sense for a system; nil
	// means it always applies. The CLI refuses a property that does not.
	Applies func(Info) bool
	// NotApplicable explains, for people, why Applies returned false.
	NotApplicable string
	// Local, for a TransitionInvariant, declares that HoldsOn reads only
	// what the acting process's step determines: the transition's Kind,
	// Proc, Msg, Flags and Choice, and its Arg for a Request or a Timer
	// (never the Arg of a Deliver or a Lose, which indexes the network).
	// Such a property gives the same verdict wherever the same step is
	// taken, so a breadth-first search need not evaluate it on a
	// transition it knows to repeat a step taken earlier in the search,
	// and may leave such transitions unstepped (explore's BFS does, for
	// protocols whose steps of different processes commute, and for
	// Delivers to one process whose handlers commute). A
	// TransitionInvariant that is not Local makes the search step every
	// transition.
	Local bool
}

// AppliesTo reports whether p applies to a system described by info.
func (p Property) AppliesTo(info Info) bool {
	return p.Applies == nil || p.Applies(info)
}
