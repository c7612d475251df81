package cli

import (
	"fmt"
	"sort"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
)

// catalog is the set of algorithms one Run works over: the ones given to
// Main, each prepared by spec.Prepare. Every name the command line
// resolves (--algo, a trace's algorithm, list, report, the did-you-mean
// hints) is looked up here, never in the global registry.
type catalog struct {
	algs []algorithms.Algorithm // sorted by Name
	prog string                 // the program name messages give (progname.go)
}

// newCatalog prepares algs and sorts them by name. No algorithm, a
// description Prepare refuses, a parameter named like a command's flag
// (checkParamNames), or two algorithms with the same name, is an error.
func newCatalog(algs []algorithms.Algorithm) (*catalog, error) {
	if len(algs) == 0 {
		return nil, fmt.Errorf("no algorithms: give cli.Main at least one (algorithms.All() for the built-in ones)")
	}
	c := &catalog{prog: defaultProgram}
	seen := map[string]bool{}
	for _, a := range algs {
		p, err := spec.Prepare(a)
		if err != nil {
			return nil, err
		}
		if err := checkParamNames(p); err != nil {
			return nil, err
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("two algorithms are named %q; each algorithm given to cli.Main needs its own name", p.Name)
		}
		seen[p.Name] = true
		c.algs = append(c.algs, p)
	}
	sort.Slice(c.algs, func(i, j int) bool { return c.algs[i].Name < c.algs[j].Name })
	return c, nil
}

// all returns the algorithms, sorted by name.
func (c *catalog) all() []algorithms.Algorithm { return c.algs }

// lookup resolves "alg" or "alg/variant" like algorithms.Lookup.
func (c *catalog) lookup(name string) (algorithms.Algorithm, algorithms.Variant, error) {
	return spec.LookupIn(c.algs, name)
}
