package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:    lelann.Default,
		Measure: lelannMeasure,
		Doc:     "Le Lann's token ring (baseline): the token circulates forever, a Waiting process keeps it for its CS",
		Source:  "classic definition (Le Lann 1977); baseline of Neamatollahi et al. (2017) §5 Table 1; the framework survey §3.2",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes on the ring", Min: 2, Max: 16, Default: 3},
			{Name: "r", Doc: "requests per process (R); unbounded for simulate and run", Min: 1, Max: 8, Default: 1, SimMax: -1},
		},
		Variants: []Variant{
			{Name: lelann.Default, Kind: spec.KindDefault, Doc: "the token circulates perpetually; a process enters when the token passes while it is Waiting"},
			{Name: lelann.DropOnExit, Kind: spec.KindMutant, Breaks: []string{"single-token", "no-deadlock"}, Doc: "Exit does not pass the token on: it is lost"},
			{Name: lelann.PassOnEntry, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "a process entering its CS also passes the token on, keeping a copy"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := lelann.New(variant, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), lelann.Properties(), nil
		},
	})
}
