package algorithms

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/suggest"
	"github.com/tokenmc/tokenmc/model"
)

// Param is a numeric parameter of an algorithm.
type Param struct {
	Name    string // as used in Build's map and on the command line: "n", "r"
	Doc     string
	Min     int
	Max     int // 0: no upper bound
	Default int
	// SimMax is the largest value for random simulation and real runs,
	// where exhaustive search's limit does not bind: 0 means Max, -1 no
	// upper bound.
	SimMax int
}

// Variant kinds.
const (
	KindDefault  = "default"  // the model of semantics.md, no reading to choose
	KindLiteral  = "literal"  // the published text read as written
	KindRepaired = "repaired" // the reading recommended by the design notes
	KindMutant   = "mutant"   // deliberately broken, to show the checker finds it
)

// Variant is one selectable reading or mutant.
type Variant struct {
	Name string // full name as typed on the CLI, e.g. "suzuki-kasami/send-in-cs"
	Doc  string // one line
	Kind string // KindDefault, KindLiteral, KindRepaired or KindMutant
	// Breaks lists the properties the variant is known to violate at its
	// default parameters (or, for fault-tolerant models, with faults): the
	// purpose of a mutant, or a finding about a published algorithm that
	// the repaired reading could not or should not hide.
	Breaks []string
	// Params overrides the algorithm's default parameters for this variant
	// where Breaks shows only elsewhere (cyclic clients for a starvation
	// mutant, faults for a recovery model). The report uses them.
	Params map[string]int
}

// Algorithm is one registry entry. Variants[0] is the default, selected by
// the bare Name.
type Algorithm struct {
	Name     string
	Doc      string
	Source   string // where the algorithm comes from: "seed NNN" and section (docs/references.md), design notes
	Params   []Param
	Variants []Variant
	// Build compiles variant (a Variant.Name; "" selects the default) with
	// the given parameter values (keys are Param names; a missing key takes
	// the Param's Default) into a System plus the algorithm-specific
	// properties (may be nil). Bad parameters give a one-line error that says
	// what is wrong and what would be right.
	Build func(variant string, params map[string]int) (model.System, []model.Property, error)
	// BuildSim is Build with the simulation ranges (Param.SimMax): for
	// simulate, run and the replay of their traces. Set by the registry.
	BuildSim func(variant string, params map[string]int) (model.System, []model.Property, error)
	// Symmetry, when set, returns the symmetry group of a variant at the
	// given (complete) parameters, for check --symmetry; nil means none.
	// Filled in by register from symmetries (registry_symmetry.go); it
	// may return an error for parameters the declaration does not cover.
	Symmetry func(variant string, params map[string]int) (*model.Symmetry, error)
}

// Property names that appear only in Breaks: liveness, which has no
// model.Property yet.
const starvationFreedom = "starvation-freedom"

var registry []Algorithm

// register adds an algorithm to the registry; each algorithm's
// registry_NAME.go calls it from init. It panics on a duplicate name or an
// entry without variants: a programming error.
func register(a Algorithm) {
	if len(a.Variants) == 0 || a.Build == nil {
		panic("algorithms: " + a.Name + " has no variants or no Build")
	}
	for _, b := range registry {
		if b.Name == a.Name {
			panic("algorithms: " + a.Name + " registered twice")
		}
	}
	if a.Symmetry == nil {
		a.Symmetry = symmetryHook(a)
	}
	raw := a.Build
	a.Build = checked(a, raw, false)
	a.BuildSim = checked(a, raw, true)
	registry = append(registry, a)
	sort.Slice(registry, func(i, j int) bool { return registry[i].Name < registry[j].Name })
}

// checked wraps a's Build with the checks every algorithm shares: the
// variant belongs to a, every parameter is known and in range, and missing
// parameters take their defaults.
func checked(a Algorithm, build func(string, map[string]int) (model.System, []model.Property, error), sim bool) func(string, map[string]int) (model.System, []model.Property, error) {
	return func(variant string, params map[string]int) (model.System, []model.Property, error) {
		if variant == "" {
			variant = a.Variants[0].Name
		}
		if _, ok := a.variant(variant); !ok {
			return nil, nil, fmt.Errorf("%s has no variant %q; valid: %s", a.Name, variant, strings.Join(a.variantNames(), ", "))
		}
		vals := make(map[string]int, len(a.Params))
		for _, p := range a.Params {
			vals[p.Name] = p.Default
		}
		keys := make([]string, 0, len(params))
		for k := range params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, ok := vals[k]; !ok {
				return nil, nil, fmt.Errorf("%s has no parameter %q; parameters: %s", a.Name, k, a.paramNames())
			}
			vals[k] = params[k]
		}
		for _, p := range a.Params {
			v := vals[p.Name]
			if hi := p.max(sim); v < p.Min || (hi > 0 && v > hi) {
				return nil, nil, fmt.Errorf("%s: %s=%d is out of range %s (%s)", variant, p.Name, v, p.rangeTextFor(sim), firstClause(p.Doc))
			}
		}
		return build(variant, vals)
	}
}

// max returns the upper bound for exhaustive search, or for simulation
// when sim is set; 0 means none.
func (p Param) max(sim bool) int {
	if !sim || p.SimMax == 0 {
		return p.Max
	}
	if p.SimMax < 0 {
		return 0
	}
	return p.SimMax
}

func (p Param) rangeTextFor(sim bool) string {
	if hi := p.max(sim); hi > 0 {
		return fmt.Sprintf("%d..%d", p.Min, hi)
	}
	return fmt.Sprintf("%d..", p.Min)
}

// firstClause shortens a parameter doc to what an error message needs.
func firstClause(doc string) string {
	if k := strings.IndexAny(doc, ";("); k > 0 {
		return strings.TrimSpace(doc[:k])
	}
	return doc
}

func (a Algorithm) variant(name string) (Variant, bool) {
	for _, v := range a.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}

func (a Algorithm) variantNames() []string {
	var out []string
	for _, v := range a.Variants {
		out = append(out, v.Name)
	}
	return out
}

func (a Algorithm) paramNames() string {
	var out []string
	for _, p := range a.Params {
		out = append(out, p.Name)
	}
	return strings.Join(out, ", ")
}

// All returns every algorithm, sorted by Name. The slices are copies, so the
// caller may modify them.
func All() []Algorithm {
	out := make([]Algorithm, len(registry))
	for k, a := range registry {
		a.Params = append([]Param(nil), a.Params...)
		a.Variants = append([]Variant(nil), a.Variants...)
		out[k] = a
	}
	return out
}

// Names returns every name Lookup accepts, sorted: each algorithm's bare
// name followed by its named variants.
func Names() []string {
	var out []string
	for _, a := range registry {
		out = append(out, a.Name)
		for _, v := range a.Variants[1:] {
			out = append(out, v.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Lookup resolves name, "alg" (the default variant) or "alg/variant", to
// its algorithm and variant. An unknown name is an error that suggests the
// closest valid names, or lists the algorithms when none is close.
func Lookup(name string) (Algorithm, Variant, error) {
	base, _, _ := strings.Cut(name, "/")
	for _, a := range All() {
		if a.Name != base {
			continue
		}
		if name == base {
			return a, a.Variants[0], nil
		}
		if v, ok := a.variant(name); ok {
			return a, v, nil
		}
		if hint := suggest.DidYouMean(name, a.variantNames()); hint != "" {
			return Algorithm{}, Variant{}, fmt.Errorf("unknown variant %q of %s%s (valid: %s)", name, a.Name, hint, strings.Join(a.variantNames(), ", "))
		}
		return Algorithm{}, Variant{}, fmt.Errorf("unknown variant %q of %s; valid: %s", name, a.Name, strings.Join(a.variantNames(), ", "))
	}
	if hint := suggest.DidYouMean(name, Names()); hint != "" {
		return Algorithm{}, Variant{}, fmt.Errorf("unknown algorithm %q%s ('tokenmc list' shows every algorithm and variant)", name, hint)
	}
	var bases []string
	for _, a := range registry {
		bases = append(bases, a.Name)
	}
	return Algorithm{}, Variant{}, fmt.Errorf("unknown algorithm %q; the algorithms are %s ('tokenmc list' shows their variants)", name, strings.Join(bases, ", "))
}
