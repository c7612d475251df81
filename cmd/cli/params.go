package cli

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/algorithms"
)

// paramFlags defines one integer flag per parameter name used by any
// registered algorithm (--n, --r, --groups, --faults, ...), so that every
// command that builds an algorithm accepts the same parameter flags.
type paramFlags struct {
	values map[string]*int
}

// addParamFlags defines the parameter flags of cat's algorithms on fs.
// Parameters named in skip, or like a flag fs already has, get no flag
// (measure has its own --n and --timers).
func addParamFlags(fs *flag.FlagSet, cat *catalog, skip ...string) *paramFlags {
	docs := map[string][]string{}
	for _, a := range cat.all() {
		for _, p := range a.Params {
			if slices.Contains(skip, p.Name) || fs.Lookup(p.Name) != nil {
				continue
			}
			docs[p.Name] = append(docs[p.Name], fmt.Sprintf("%s: %s", a.Name, p.Doc))
		}
	}
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	pf := &paramFlags{values: map[string]*int{}}
	for _, n := range names {
		doc := paramDoc(docs[n])
		switch n {
		case "n":
			doc = "number of processes `N` (default: the algorithm's; the torus needs N = d*d)"
		case "r":
			doc = "requests per process `R` (default: the algorithm's)"
		}
		pf.values[n] = fs.Int(n, 0, doc)
	}
	return pf
}

// resolve returns the parameter values for variant v of algorithm a: the
// algorithm's defaults, overridden by the variant's own parameters
// (Variant.Params: what its documented break needs, such as cyclic=1 for a
// starvation mutant), overridden by the flags that were set. fromVariant
// holds the variant's parameters no flag overrode (nil when none), for the
// header line and the JSON. A flag the algorithm does not have is an
// error.
func (pf *paramFlags) resolve(fs *flag.FlagSet, a algorithms.Algorithm, v algorithms.Variant) (params, fromVariant map[string]int, err error) {
	params = map[string]int{}
	var names []string
	for _, p := range a.Params {
		params[p.Name] = p.Default
		names = append(names, "--"+p.Name)
	}
	for k, x := range v.Params {
		if _, has := params[k]; has {
			params[k] = x
		}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		x, ok := pf.values[f.Name]
		if !ok || err != nil {
			return
		}
		if _, has := params[f.Name]; !has {
			err = badInput("%s has no parameter --%s; its parameters are %s", a.Name, f.Name, strings.Join(names, ", "))
			return
		}
		params[f.Name] = *x
		given[f.Name] = true
	})
	for k, x := range v.Params {
		if _, has := params[k]; has && !given[k] {
			if fromVariant == nil {
				fromVariant = map[string]int{}
			}
			fromVariant[k] = x
		}
	}
	return params, fromVariant, err
}

// given returns the parameter flags set on the command line, each of
// which algorithm a must have (nil when none): the parameters a command
// passes on as they are, without a's defaults or a variant's own.
func (pf *paramFlags) given(fs *flag.FlagSet, a algorithms.Algorithm) (map[string]int, error) {
	has := map[string]bool{}
	var names []string
	for _, p := range a.Params {
		if pf.values[p.Name] != nil {
			has[p.Name] = true
			names = append(names, "--"+p.Name)
		}
	}
	var given map[string]int
	var err error
	fs.Visit(func(f *flag.Flag) {
		x, ok := pf.values[f.Name]
		if !ok || err != nil {
			return
		}
		if !has[f.Name] {
			list := "none"
			if len(names) > 0 {
				list = strings.Join(names, ", ")
			}
			err = badInput("%s has no parameter --%s; its parameter flags here are %s", a.Name, f.Name, list)
			return
		}
		if given == nil {
			given = map[string]int{}
		}
		given[f.Name] = *x
	})
	return given, err
}

// variantParamsNote is what a header line says about the parameters the
// variant chose: "; parameters of the variant: cyclic=1 k=1", or "" when
// none.
func variantParamsNote(fromVariant map[string]int) string {
	if len(fromVariant) == 0 {
		return ""
	}
	return "; parameters of the variant: " + paramString(fromVariant)
}
