package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/coordres"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

func init() {
	register(Algorithm{
		Name:   coordres.Default,
		Doc:    "coordinator with one token and one priority queue per resource, requests aged by newer more urgent ones (the seed's proposed approach)",
		Source: "The framework survey §V (Conclusion), with the token return of §3.3.1; docs/notes/algorithms.md §3; docs/notes/coordinator-variants.md B",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes, P0 the coordinator (also a client); base priority of Pi is i", Min: 2, Max: 6, Default: 3},
			{Name: "k", Doc: "number of resources K, one token each (Request(i, g=r) asks for resource r)", Min: 1, Max: 4, Default: 2},
			{Name: "r", Doc: "requests per process (R); ignored when cyclic=1", Min: 1, Max: 6, Default: 1},
			{Name: "cyclic", Doc: "1: cyclic clients (R = infinity, r ignored), for starvation-freedom; 0: r requests per process", Min: 0, Max: 1, Default: 0},
		},
		Variants: []Variant{
			{Name: coordres.Default, Kind: spec.KindRepaired, Doc: "the earliest queued request ages when a more urgent one arrives (the text's two-request sentence, algorithms.md §3 reading (a)); stable service by priority"},
			{Name: coordres.AgeAll, Kind: spec.KindRepaired, Doc: "every queued request with a lower priority ages (FAPP's rule 1; coordinator-variants.md B3)"},
			{Name: coordres.GrantAnyFree, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "the coordinator grants when the resource's queue is empty instead of when it holds the token"},
			{Name: coordres.ReturnWrongQueue, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "RETURN(r) releases the token of resource (r+1) mod k"},
			{Name: coordres.NoAging, Kind: spec.KindMutant, Params: map[string]int{"cyclic": 1, "k": 1}, Breaks: []string{starvationFreedom}, Doc: "no aging: with cyclic=1 a low-priority request is overtaken forever"},
			{Name: coordres.AgeHead, Kind: spec.KindLiteral, Params: map[string]int{"cyclic": 1, "k": 1, "n": 4}, Breaks: []string{starvationFreedom}, Doc: "the aging sentence read as \"the head of the sorted queue ages\" (algorithms.md §3 reading (b)): with cyclic=1 at N=4 a low-priority request that is never the head starves"},
			{Name: coordres.TieByPID, Kind: spec.KindMutant, Params: map[string]int{"cyclic": 1, "k": 1}, Breaks: []string{starvationFreedom}, Doc: "equal priorities are served by the larger pid instead of by arrival: with cyclic=1 an aged request is overtaken forever"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			newp := coordres.New
			if params["cyclic"] == 1 {
				newp = func(v string, n, k, _ int) (*protocol.Protocol[coordres.Proc, coordres.Msg], error) {
					return coordres.NewCyclic(v, n, k)
				}
			}
			p, err := newp(variant, params["n"], params["k"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), coordres.Properties(), nil
		},
	})
}
