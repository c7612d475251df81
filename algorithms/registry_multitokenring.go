package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/multitokenring"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:   multitokenring.Default,
		Doc:    "several-tokens ring: each request creates a token (SeqNum, PID, resource) that must go once around the ring; mutex per resource",
		Source: "The framework survey §3.3.4; docs/notes/algorithms.md §5; docs/notes/several-tokens.md",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes on the ring", Min: 2, Max: 8, Default: 3},
			{Name: "k", Doc: "number of resources K (one CS per resource; Request(i, g=r) asks for resource r)", Min: 1, Max: 4, Default: 2},
			{Name: "r", Doc: "requests per process (R); sequence numbers stay below n*r+1; unbounded for simulate and run", Min: 1, Max: 6, Default: 1, SimMax: -1},
		},
		Variants: []Variant{
			{Name: multitokenring.Default, Kind: spec.KindRepaired, Doc: "a forwarder with no interest passes the token unchanged (it only updates its HSeqNumSeen)"},
			{Name: multitokenring.Literal, Kind: spec.KindLiteral, Breaks: []string{"no-deadlock"}, Doc: "a forwarder with no interest replaces the token's sequence number by its HSeqNumSeen, as printed"},
			{Name: multitokenring.NoMax, Kind: spec.KindMutant, Breaks: []string{"mutex"}, Doc: "HSeqNumSeen is never updated from received tokens"},
			{Name: multitokenring.NoRelease, Kind: spec.KindMutant, Breaks: []string{"single-token", "no-deadlock"}, Doc: "Exit drops the held-back tokens instead of passing them on"},
			{Name: multitokenring.PassInCS, Kind: spec.KindMutant, Breaks: []string{"mutex"}, Doc: "a process InCS for r passes tokens for r instead of holding them back"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := multitokenring.New(variant, params["n"], params["k"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), multitokenring.Properties(), nil
		},
	})
}
