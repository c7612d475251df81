package algorithms

import (
	"sort"

	"github.com/tokenmc/tokenmc/algorithms/spec"
)

// Variant is one selectable reading or mutant (spec.Variant).
type Variant = spec.Variant

// Algorithm describes one algorithm: a registry entry, or a user's own
// given to cli.Main (spec.Algorithm; a user's model may import package
// spec alone, without linking the built-in algorithms).
type Algorithm = spec.Algorithm

// Property names that appear only in Breaks: liveness, which has no
// model.Property yet.
const starvationFreedom = "starvation-freedom"

var registry []Algorithm

// register adds an algorithm to the registry; each algorithm's
// registry_NAME.go calls it from init. It panics on a duplicate name or an
// entry spec.Prepare refuses: a programming error.
func register(a Algorithm) {
	for _, b := range registry {
		if b.Name == a.Name {
			panic("algorithms: " + a.Name + " registered twice")
		}
	}
	if a.Symmetry == nil {
		a.Symmetry = symmetryHook(a)
	}
	for k := range a.Variants {
		if a.Variants[k].Claim == "" {
			a.Variants[k].Claim = claims[a.Variants[k].Name]
		}
	}
	if a.ClaimRuns == nil {
		a.ClaimRuns = claimRuns[a.Name]
	}
	a, err := spec.Prepare(a)
	if err != nil {
		panic("algorithms: " + err.Error())
	}
	registry = append(registry, a)
	sort.Slice(registry, func(i, j int) bool { return registry[i].Name < registry[j].Name })
}

// All returns every algorithm, sorted by Name. The slices are copies, so the
// caller may modify them.
func All() []Algorithm {
	out := make([]Algorithm, len(registry))
	for k, a := range registry {
		a.Params = append([]spec.Param(nil), a.Params...)
		a.Variants = append([]Variant(nil), a.Variants...)
		out[k] = a
	}
	return out
}

// Lookup resolves name, "alg" (the default variant) or "alg/variant", to
// its algorithm and variant in the registry. An unknown name is an error
// that suggests the closest valid names, or lists the algorithms when none
// is close.
func Lookup(name string) (Algorithm, Variant, error) {
	return spec.LookupIn(All(), name)
}
