package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/fapp"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

func init() {
	register(Algorithm{
		Name:   fapp.Default,
		Doc:    "FAPP, fairness algorithm for priority processes: Raymond's inverted tree with priority lists, aging (rule 1) and reset (rule 2)",
		Source: "The framework survey §3.3.3; docs/notes/algorithms.md §4; docs/notes/coordinator-variants.md A",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes; P0 is the initial root; base priority of Pi is i (larger = more urgent)", Min: 2, Max: 6, Default: 3},
			{Name: "tree", Doc: "tree shape, 0 = line or 1 = star; the line has edges i -- i+1, the star attaches every process to P0", Min: 0, Max: 1, Default: 0},
			{Name: "r", Doc: "requests per process (R); ignored when cyclic=1", Min: 1, Max: 4, Default: 1},
			{Name: "cyclic", Doc: "1: cyclic clients (R = infinity, r ignored), for starvation-freedom; 0: r requests per process", Min: 0, Max: 1, Default: 0},
		},
		Variants: []Variant{
			{Name: fapp.Default, Kind: spec.KindRepaired, Doc: "an idle root hands the token to the head of its list on a request (Raymond's assign)"},
			{Name: fapp.Literal, Kind: spec.KindLiteral, Breaks: []string{"no-deadlock"}, Doc: "an idle root only ages and inserts a request, as printed: it never hands the token over"},
			{Name: fapp.KeepRoot, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "after sending the token the old root still believes it holds it"},
			{Name: fapp.NoDummy, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "a root that passes the token on does not ask for it back for its remaining entries"},
			{Name: fapp.NoAging, Kind: spec.KindMutant, Params: map[string]int{"cyclic": 1, "n": 2}, Breaks: []string{starvationFreedom}, Doc: "rule 1 removed: requests never age, so with cyclic=1 a low-priority request is overtaken forever"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			newp := fapp.New
			if params["cyclic"] == 1 {
				newp = func(v string, n, tree, _ int) (*protocol.Protocol[fapp.Proc, fapp.Msg], error) {
					return fapp.NewCyclic(v, n, tree)
				}
			}
			p, err := newp(variant, params["n"], params["tree"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), fapp.Properties(), nil
		},
	})
}
