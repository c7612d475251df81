package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/ricartagrawala"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:    ricartagrawala.Default,
		Measure: ricartAgrawalaMeasure,
		Doc:     "Ricart-Agrawala (baseline, permission based, no token): REQUEST(sn) to all, replies deferred by (sn, id) priority",
		Source:  "classic definition (Ricart and Agrawala, CACM 1981); baseline of Neamatollahi et al. (2017) §5 Table 1",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes", Min: 2, Max: 16, Default: 3},
			{Name: "r", Doc: "requests per process (R); sequence numbers never exceed n*r; unbounded for simulate and run", Min: 1, Max: 8, Default: 1, SimMax: -1},
		},
		Variants: []Variant{
			{Name: ricartagrawala.Default, Kind: spec.KindDefault, Doc: "the 1981 pseudo-code; sequence numbers bounded by n*r"},
			{Name: ricartagrawala.ForgetDeferred, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "Exit drops the deferred replies instead of sending them"},
			{Name: ricartagrawala.NoMax, Kind: spec.KindMutant, Breaks: []string{"mutex"}, Doc: "a received REQUEST does not raise the highest sequence number seen"},
			{Name: ricartagrawala.ReplyOnTie, Kind: spec.KindMutant, Breaks: []string{"mutex"}, Doc: "equal sequence numbers are not ordered by id: both requesters reply"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := ricartagrawala.New(variant, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), ricartagrawala.Properties(), nil
		},
	})
}
