package main

import (
	"flag"
	"fmt"
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

func addParamFlags(fs *flag.FlagSet) *paramFlags {
	docs := map[string][]string{}
	for _, a := range algorithms.All() {
		for _, p := range a.Params {
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

// resolve returns the parameter values for algorithm a: its defaults,
// overridden by the flags that were set. A flag the algorithm does not have
// is an error.
func (pf *paramFlags) resolve(fs *flag.FlagSet, a algorithms.Algorithm) (map[string]int, error) {
	params := map[string]int{}
	var names []string
	for _, p := range a.Params {
		params[p.Name] = p.Default
		names = append(names, "--"+p.Name)
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		v, ok := pf.values[f.Name]
		if !ok || err != nil {
			return
		}
		if _, has := params[f.Name]; !has {
			err = badInput("%s has no parameter --%s; its parameters are %s", a.Name, f.Name, strings.Join(names, ", "))
			return
		}
		params[f.Name] = *v
	})
	return params, err
}
