package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/coordring"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:   coordring.Default,
		Doc:    "centralized coordinator token ring: REQUEST to the coordinator, TOKEN or WAIT back, the token returns after each CS, queue by request stamp",
		Source: "The framework survey §3.3.1; docs/notes/algorithms.md §2",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes, P0 the coordinator (also a client: the protocol layer lets every process request)", Min: 2, Max: 8, Default: 3},
			{Name: "r", Doc: "requests per process (R); Lamport stamps stay below n*r+1; ignored when cyclic=1", Min: 1, Max: 6, Default: 1},
			{Name: "cyclic", Doc: "1: cyclic clients (R = infinity, r ignored) with Lamport values renumbered after every step, for starvation-freedom; 0: r requests per process", Min: 0, Max: 1, Default: 0},
		},
		Variants: []Variant{
			{Name: coordring.Default, Kind: spec.KindDefault, Doc: "§3.3.1 as written (literal = repaired): grant iff the coordinator holds the token, else WAIT and queue by (stamp, pid)"},
			{Name: coordring.DropAfterWait, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "the coordinator answers WAIT but does not queue the request"},
			{Name: coordring.GrantIfQueueEmpty, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "the coordinator grants when its queue is empty instead of when it holds the token"},
			{Name: coordring.KeepCopy, Kind: spec.KindMutant, Breaks: []string{"single-token"}, Doc: "a client keeps the token after returning it and enters at once on its next request (mutex too, from r = 2)"},
			{Name: coordring.LIFO, Kind: spec.KindMutant, Params: map[string]int{"cyclic": 1}, Breaks: []string{starvationFreedom}, Doc: "the coordinator serves the newest (largest) stamp first: with cyclic=1 a queued client is overtaken forever"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			if params["cyclic"] == 1 {
				p, err := coordring.NewCyclic(variant, params["n"])
				if err != nil {
					return nil, nil, err
				}
				p.Params = maps.Clone(params) // traces record every parameter
				return p.System(), coordring.Properties(), nil
			}
			p, err := coordring.New(variant, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), coordring.Properties(), nil
		},
	})
}
