package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:    torus.Repaired,
		Measure: torusMeasure,
		Doc:     "Neamatollahi et al. two-dimensional torus: the token circulates down columns, requests along rows",
		Source:  "Neamatollahi et al. (2017) Fig. 2 (with §3.1-§3.4); literal model docs/semantics.md §3; docs/notes/torus.md; docs/notes/algorithms.md §8",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes, a square d*d with d >= 2 (4, 9, 16 or 25 for check; 25 is the paper's Fig. 3 scenario; up to 1024 for simulate and run)", Min: 4, Max: 25, Default: 4, SimMax: 1024},
			{Name: "r", Doc: "requests per process (R); up to 8 for check, unbounded for simulate and run", Min: 1, Max: 8, Default: 1, SimMax: -1},
			{Name: "requesters", Doc: "bit mask of the processes that may request (bit i: Pi; 0: all), e.g. 23 = {0,1,2,4}; the others only relay (notes §9.3: the repaired torus at n=9 with 23 or 27)", Min: 0, Max: 1<<25 - 1, Default: 0},
			{Name: "fifo", Doc: "1: FIFO channels between neighbours, a message is delivered only after every older one on its channel (notes §10.2 --fifo); 0: the unordered network of semantics.md", Min: 0, Max: 1, Default: 0},
		},
		Variants: []Variant{
			{Name: torus.Repaired, Kind: spec.KindRepaired, Doc: "tour end and column end d+1: the tour returns to its start node, the column ends at its entry node"},
			{Name: torus.Literal, Kind: spec.KindLiteral, Breaks: []string{starvationFreedom}, Doc: "Fig. 2 as printed, every test against sqrt(N) (semantics.md §3)"},
			{Name: torus.ClearOwnFirst, Kind: spec.KindMutant, Breaks: []string{"waiting-shape", starvationFreedom}, Doc: "at a tour start Waiting is cleared before the test for the own request"},
			{Name: torus.CopyOnEnter, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "a node entering its CS also sends the token on, keeping a copy"},
			{Name: torus.EndlessTour, Kind: spec.KindMutant, Breaks: []string{starvationFreedom}, Doc: "at the tour end the token goes right with cc = 1 instead of down, circling one row forever"},
			{Name: torus.EnterIfMarked, Kind: spec.KindMutant, Breaks: []string{"no-unrequested-entry"}, Doc: "a node enters its CS whenever its Waiting queue is non-empty, not only for its own request"},
			{Name: torus.SkipColumnEnd, Kind: spec.KindMutant, Breaks: []string{starvationFreedom}, Doc: "only the tour end repaired (TE = d+1, CE = d): column-change nodes never look at their queue"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := torus.NewWith(variant, params["n"], params["r"], torus.Options{FIFO: params["fifo"] == 1})
			if err != nil {
				return nil, nil, err
			}
			if err := torus.Restrict(p, params["requesters"]); err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), torus.Properties(), nil
		},
	})
}
