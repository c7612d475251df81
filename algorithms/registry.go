package algorithms

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/model"
)

// Param is a numeric parameter of an algorithm.
type Param struct {
	Name    string // as used in Build's map and on the command line: "n", "r"
	Doc     string
	Min     int
	Max     int // 0: no upper bound
	Default int
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
	Name   string   // full name as typed on the CLI, e.g. "suzuki-kasami/send-in-cs"
	Doc    string   // one line
	Kind   string   // KindDefault, KindLiteral, KindRepaired or KindMutant
	Breaks []string // properties the variant is expected to violate, e.g. {"mutex"}
}

// Algorithm is one registry entry. Variants[0] is the default, selected by
// the bare Name.
type Algorithm struct {
	Name     string
	Doc      string
	Source   string // seed file and section
	Params   []Param
	Variants []Variant
	// Build compiles variant (a Variant.Name; "" selects the default) with
	// the given parameter values (keys are Param names; a missing key takes
	// the Param's Default) into a System plus the algorithm-specific
	// properties (may be nil). Bad parameters give a one-line error that says
	// what is wrong and what would be right.
	Build func(variant string, params map[string]int) (model.System, []model.Property, error)
}

// Property names that appear only in Breaks: liveness, which has no
// model.Property yet.
const starvationFreedom = "starvation-freedom"

var registry = []Algorithm{
	{
		Name:   suzukikasami.Default,
		Doc:    "Suzuki-Kasami broadcast algorithm: REQ(sn) to all, the token carries LN and a queue Q",
		Source: "seeds/001_8a0a4fe6db268902.txt (whole file); exact model semantics.md §2; algorithms.md §1",
		Params: []Param{
			{Name: "n", Doc: "number of processes; at most 16, since every request broadcasts n-1 messages and exhaustive search is out of reach long before (larger n is only for simulation)", Min: 2, Max: 16, Default: 3},
			{Name: "r", Doc: "requests per process (R); RN and LN values never exceed it", Min: 1, Max: 8, Default: 1},
		},
		Variants: []Variant{
			{Name: suzukikasami.Default, Kind: KindDefault, Doc: "semantics.md §2: the token is sent on a REQ only by an Idle holder"},
			{Name: suzukikasami.DupInQ, Kind: KindMutant, Breaks: []string{"no-unrequested-entry"}, Doc: "Exit appends j to Q even if it is already there, so j is served twice"},
			{Name: suzukikasami.KeepCopy, Kind: KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "the sender of the token keeps has and its copy of LN and Q"},
			{Name: suzukikasami.NoIncrement, Kind: KindMutant, Breaks: []string{"no-deadlock"}, Doc: "a requester does not increment RN_i[i], so its request never looks outstanding"},
			{Name: suzukikasami.NoLNUpdate, Kind: KindMutant, Breaks: []string{"no-unrequested-entry"}, Doc: "Exit omits LN[i] = RN_i[i], so the releaser queues itself and gets the token while Idle"},
			{Name: suzukikasami.SendInCS, Kind: KindMutant, Breaks: []string{"mutex"}, Doc: "the literal step 3 of the notes: the holder sends the token on a REQ even while in its CS"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := suzukikasami.New(variant, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			return p.System(), suzukikasami.Properties(), nil
		},
	},
	{
		Name:   torus.Repaired,
		Doc:    "Neamatollahi et al. two-dimensional torus: the token circulates down columns, requests along rows",
		Source: "seeds/004_302d5382f7b520a9.txt Fig. 2 (with §3.1-§3.4); literal model semantics.md §3; algorithms/torus.md; algorithms.md §8",
		Params: []Param{
			{Name: "n", Doc: "number of processes, a square d*d with d >= 2 (4, 9, 16 or 25; 25 is the paper's Fig. 3 scenario)", Min: 4, Max: 25, Default: 4},
			{Name: "r", Doc: "requests per process (R)", Min: 1, Max: 8, Default: 1},
		},
		Variants: []Variant{
			{Name: torus.Repaired, Kind: KindRepaired, Doc: "tour end and column end d+1: the tour returns to its start node, the column ends at its entry node"},
			{Name: torus.Literal, Kind: KindLiteral, Breaks: []string{starvationFreedom}, Doc: "Fig. 2 as printed, every test against sqrt(N) (semantics.md §3)"},
			{Name: torus.ClearOwnFirst, Kind: KindMutant, Breaks: []string{starvationFreedom}, Doc: "at a tour start Waiting is cleared before the test for the own request"},
			{Name: torus.CopyOnEnter, Kind: KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "a node entering its CS also sends the token on, keeping a copy"},
			{Name: torus.EndlessTour, Kind: KindMutant, Breaks: []string{starvationFreedom}, Doc: "at the tour end the token goes right with cc = 1 instead of down, circling one row forever"},
			{Name: torus.EnterIfMarked, Kind: KindMutant, Breaks: []string{"no-unrequested-entry"}, Doc: "a node enters its CS whenever its Waiting queue is non-empty, not only for its own request"},
			{Name: torus.SkipColumnEnd, Kind: KindMutant, Breaks: []string{starvationFreedom}, Doc: "only the tour end repaired (TE = d+1, CE = d): column-change nodes never look at their queue"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := torus.New(variant, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			return p.System(), torus.Properties(), nil
		},
	},
}

func init() {
	sort.Slice(registry, func(a, b int) bool { return registry[a].Name < registry[b].Name })
	for k := range registry {
		registry[k].Build = checked(registry[k])
	}
}

// checked wraps a's Build with the checks every algorithm shares: the
// variant belongs to a, every parameter is known and in range, and missing
// parameters take their defaults.
func checked(a Algorithm) func(string, map[string]int) (model.System, []model.Property, error) {
	build := a.Build
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
			if v < p.Min || (p.Max > 0 && v > p.Max) {
				return nil, nil, fmt.Errorf("%s: %s=%d is out of range %s (%s)", variant, p.Name, v, p.rangeText(), firstClause(p.Doc))
			}
		}
		return build(variant, vals)
	}
}

func (p Param) rangeText() string {
	if p.Max == 0 {
		return fmt.Sprintf("%d..", p.Min)
	}
	return fmt.Sprintf("%d..%d", p.Min, p.Max)
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
// its algorithm and variant. An unknown name is an error that lists the
// valid names.
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
		return Algorithm{}, Variant{}, fmt.Errorf("unknown variant %q of %s; valid: %s", name, a.Name, strings.Join(a.variantNames(), ", "))
	}
	return Algorithm{}, Variant{}, fmt.Errorf("unknown algorithm %q; valid names: %s", name, strings.Join(Names(), ", "))
}
