package spec

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/suggest"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/facts"
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
	// mutant, faults for a recovery model). The command line's check,
	// simulate, run, explore and report use them unless a flag overrides
	// them; list shows them.
	Params map[string]int
	// Claim is the published claim, or the expectation of the design
	// notes (docs/notes/algorithms.md §9), that the variant's verdicts at
	// its parameters confirm, in a few words: `tokenmc report` prints it
	// in the variant's row. The built-in variants take theirs from
	// package algorithms (registry_claims.go); "" for none.
	Claim string
}

// ClaimRun is a row of `tokenmc report` beyond the variants at their
// parameters: a variant with the parameters a claim needs, checked the
// same way.
type ClaimRun struct {
	Variant   string         // the variant's full name
	Params    map[string]int // override the variant's parameters
	MaxStates int64          // raises the report's state bound for this row (0: keep it)
	Claim     string         // the claim the row confirms
}

// Algorithm describes one algorithm: a registry entry, or a user's own
// given to cli.Main (see Prepare). Variants[0] is the default, selected by
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
	// what is wrong and what would be right. The system's Info().Name must
	// be the variant's name: traces record it, and replay compares the two.
	Build func(variant string, params map[string]int) (model.System, []model.Property, error)
	// BuildSim is Build with the simulation ranges (Param.SimMax): for
	// simulate, run and the replay of their traces. Set by Prepare.
	BuildSim func(variant string, params map[string]int) (model.System, []model.Property, error)
	// Symmetry, when set, returns the symmetry group of a variant at the
	// given (complete) parameters, for check --symmetry; nil means none.
	// Package algorithms fills it in for the built-in algorithms
	// (registry_symmetry.go); it may return an error for parameters the
	// declaration does not cover.
	Symmetry func(variant string, params map[string]int) (*model.Symmetry, error)
	// Measure is what `tokenmc measure` knows of the algorithm beyond its
	// model: timer durations, idle messages, published message counts
	// (package facts). nil: nothing; every timer lasts T_msg.
	Measure *facts.Measure
	// ClaimRuns are the report's extra rows for the algorithm, checked
	// after its variants, in order.
	ClaimRuns []ClaimRun

	// raw is Build as the description gave it, before Prepare wrapped it
	// with the shared checks; nil until Prepare.
	raw func(variant string, params map[string]int) (model.System, []model.Property, error)
	// wrapped is the code pointer of the Build Prepare made, to tell it
	// from a Build the caller replaced since.
	wrapped uintptr
}

// Prepare checks the description a of an algorithm and returns it ready
// to use: its Build and BuildSim check that the variant belongs to a, that
// every parameter is known and in range (Param.Max for Build, Param.SimMax
// for BuildSim), and fill in missing parameters with their defaults, so
// that a's own Build only ever sees a complete, valid parameter map. The
// registry prepares its entries this way; a user's algorithm given to
// cli.Main is prepared the same way. Preparing a prepared algorithm again
// checks it again and wraps the same Build (unless Build was replaced
// since).
//
// The error says what is wrong with the description: no name, a name with
// a '/' or a space, no variants or no Build, a variant named neither NAME
// (the first, default one) nor NAME/SOMETHING, a variant named twice, a
// kind that is not one of the Kind constants, a parameter named twice or
// with a default outside its range, a variant's Params naming an unknown
// parameter or a value out of range.
func Prepare(a Algorithm) (Algorithm, error) {
	if a.Name == "" || strings.ContainsAny(a.Name, "/ \t\n") {
		return Algorithm{}, fmt.Errorf("algorithm name %q: want a non-empty name without '/' or spaces, e.g. \"my-ring\"", a.Name)
	}
	if len(a.Variants) == 0 {
		return Algorithm{}, fmt.Errorf("%s has no variants; want at least the default one, Variant{Name: %q}", a.Name, a.Name)
	}
	if a.Build == nil {
		return Algorithm{}, fmt.Errorf("%s has no Build function", a.Name)
	}
	params := map[string]Param{}
	for _, p := range a.Params {
		if p.Name == "" {
			return Algorithm{}, fmt.Errorf("%s has a parameter without a name", a.Name)
		}
		if _, dup := params[p.Name]; dup {
			return Algorithm{}, fmt.Errorf("%s has two parameters named %q", a.Name, p.Name)
		}
		if p.Max > 0 && p.Max < p.Min {
			return Algorithm{}, fmt.Errorf("%s: parameter %s has Max %d below Min %d", a.Name, p.Name, p.Max, p.Min)
		}
		if hi := p.max(false); p.Default < p.Min || (hi > 0 && p.Default > hi) {
			return Algorithm{}, fmt.Errorf("%s: default %s=%d is out of range %s", a.Name, p.Name, p.Default, p.rangeTextFor(false))
		}
		params[p.Name] = p
	}
	seen := map[string]bool{}
	for k, v := range a.Variants {
		switch {
		case k == 0 && v.Name != a.Name:
			return Algorithm{}, fmt.Errorf("%s: the first variant is the default and must be named %q, not %q", a.Name, a.Name, v.Name)
		case k > 0 && (!strings.HasPrefix(v.Name, a.Name+"/") || len(v.Name) == len(a.Name)+1):
			return Algorithm{}, fmt.Errorf("%s: variant %q must be named %s/SOMETHING", a.Name, v.Name, a.Name)
		case seen[v.Name]:
			return Algorithm{}, fmt.Errorf("%s: variant %q is named twice", a.Name, v.Name)
		}
		seen[v.Name] = true
		switch v.Kind {
		case "", KindDefault, KindLiteral, KindRepaired, KindMutant:
		default:
			return Algorithm{}, fmt.Errorf("%s: kind %q is not one of %s, %s, %s, %s", v.Name, v.Kind, KindDefault, KindLiteral, KindRepaired, KindMutant)
		}
		keys := make([]string, 0, len(v.Params))
		for name := range v.Params {
			keys = append(keys, name)
		}
		sort.Strings(keys)
		for _, name := range keys {
			p, ok := params[name]
			if !ok {
				return Algorithm{}, fmt.Errorf("%s: Params names %q, which is not a parameter of %s (parameters: %s)", v.Name, name, a.Name, a.paramNames())
			}
			if x, hi := v.Params[name], p.max(false); x < p.Min || (hi > 0 && x > hi) {
				return Algorithm{}, fmt.Errorf("%s: Params %s=%d is out of range %s", v.Name, name, x, p.rangeTextFor(false))
			}
		}
	}
	raw := a.Build
	if a.raw != nil && reflect.ValueOf(a.Build).Pointer() == a.wrapped {
		raw = a.raw // a prepared Build: wrap what it wraps, not the wrapper
	}
	a.raw = raw
	a.Build = checked(a, raw, false)
	a.BuildSim = checked(a, raw, true)
	a.wrapped = reflect.ValueOf(a.Build).Pointer()
	return a, nil
}

// MeasureBuild returns the build function `tokenmc measure` uses for
// variant: BuildSim with the parameter r unbounded (1<<30 requests per
// process), for a measurement runs as long as it needs. The function
// fails when a has no parameter r or bounds it even in simulation
// (Param.SimMax), saying so.
func (a Algorithm) MeasureBuild(variant string) func(params map[string]int) (model.System, []model.Property, error) {
	return func(params map[string]int) (model.System, []model.Property, error) {
		hasR := false
		for _, p := range a.Params {
			if p.Name != "r" {
				continue
			}
			hasR = true
			if p.SimMax >= 0 {
				return nil, nil, fmt.Errorf("%s allows at most r=%d requests per process even in simulation; measure needs an unbounded r", a.Name, max(p.SimMax, p.Max))
			}
			params["r"] = 1 << 30
		}
		if !hasR {
			return nil, nil, fmt.Errorf("%s has no parameter r; measure needs requests per process", a.Name)
		}
		return a.BuildSim(variant, params)
	}
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
				if p.Doc == "" {
					return nil, nil, fmt.Errorf("%s: %s=%d is out of range %s", variant, p.Name, v, p.rangeTextFor(sim))
				}
				return nil, nil, fmt.Errorf("%s: %s=%d is out of range %s (%s)", variant, p.Name, v, p.rangeTextFor(sim), firstClause(p.Doc))
			}
		}
		sys, props, err := build(variant, vals)
		if err == nil && sys != nil && sys.Info().Name != variant {
			// traces record the variant's name and replay compares it
			// with the system's: a mismatch would only show there
			return nil, nil, fmt.Errorf("%s: Build returned a system named %q; the system of a variant must carry the variant's name (model.Info.Name)", variant, sys.Info().Name)
		}
		return sys, props, err
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

func namesOf(algs []Algorithm) []string {
	var out []string
	for _, a := range algs {
		out = append(out, a.Name)
		for _, v := range a.Variants[1:] {
			out = append(out, v.Name)
		}
	}
	sort.Strings(out)
	return out
}

// LookupIn resolves name, "alg" (the default variant) or "alg/variant", to
// its algorithm and variant among algs: a program with its own algorithms
// (cli.Main) resolves names with it, and algorithms.Lookup over the
// registry. An unknown name is an error that suggests the closest valid
// names, or lists the algorithms when none is close.
func LookupIn(algs []Algorithm, name string) (Algorithm, Variant, error) {
	base, _, _ := strings.Cut(name, "/")
	for _, a := range algs {
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
	if hint := suggest.DidYouMean(name, namesOf(algs)); hint != "" {
		return Algorithm{}, Variant{}, fmt.Errorf("unknown algorithm %q%s ('tokenmc list' shows every algorithm and variant)", name, hint)
	}
	var bases []string
	for _, a := range algs {
		bases = append(bases, a.Name)
	}
	return Algorithm{}, Variant{}, fmt.Errorf("unknown algorithm %q; the algorithms are %s ('tokenmc list' shows their variants)", name, strings.Join(bases, ", "))
}
