package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/raymond"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:    raymond.Default,
		Measure: raymondMeasure,
		Doc:     "Raymond's tree algorithm (baseline): holder pointers on a static tree rooted at P0, FIFO request queues, ASKED flags",
		Source:  "classic definition (Raymond, ACM TOCS 1989); baseline of Neamatollahi et al. (2017) §5 Table 1; the framework survey §3.1 (and §3.3.3: FAPP builds on it)",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes (tree nodes)", Min: 2, Max: 16, Default: 3},
			{Name: "r", Doc: "requests per process (R); unbounded for simulate and run", Min: 1, Max: 8, Default: 1, SimMax: -1},
			{Name: "tree", Doc: "tree shape rooted at P0: 0 line (i - i+1), 1 balanced binary ((i-1)/2 is the parent of i), 2 star centred on P0", Min: 0, Max: 2, Default: 0},
		},
		Variants: []Variant{
			{Name: raymond.Default, Kind: spec.KindDefault, Doc: "Raymond's ASSIGN_PRIVILEGE and MAKE_REQUEST as published"},
			{Name: raymond.KeepHolder, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "the sender of PRIVILEGE keeps holder = self"},
			{Name: raymond.NoReask, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "no MAKE_REQUEST after passing the token on: requests left in the queue are forgotten"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := raymond.New(variant, params["n"], params["r"], params["tree"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), raymond.Properties(), nil
		},
	})
}
