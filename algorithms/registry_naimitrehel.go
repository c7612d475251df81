package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/naimitrehel"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:   naimitrehel.Default,
		Doc:    "Naimi-Trehel (baseline): dynamic last (probable owner) and next pointers, path reversal",
		Source: "classic definition (Naimi, Trehel, Arnold, JPDC 1996, §3); baseline of Neamatollahi et al. (2017) §5 Table 1; the framework survey §3.1",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes", Min: 2, Max: 16, Default: 3},
			{Name: "r", Doc: "requests per process (R); unbounded for simulate and run", Min: 1, Max: 8, Default: 1, SimMax: -1},
		},
		Variants: []Variant{
			{Name: naimitrehel.Default, Kind: spec.KindDefault, Doc: "the 1996 pseudo-code: requests follow last pointers, which are reversed; the root queues one next"},
			{Name: naimitrehel.DropNext, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "a requesting root does not record next: the requester is forgotten"},
			{Name: naimitrehel.SendInCS, Kind: spec.KindMutant, Breaks: []string{"mutex"}, Doc: "the root sends the token on a REQUEST even while in its CS"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := naimitrehel.New(variant, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), naimitrehel.Properties(), nil
		},
	})
}
