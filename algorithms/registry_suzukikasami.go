package algorithms

import (
	"maps"

	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:    suzukikasami.Default,
		Measure: suzukiKasamiMeasure,
		Doc:     "Suzuki-Kasami broadcast algorithm: REQ(sn) to all, the token carries LN and a queue Q",
		Source:  "Suzuki and Kasami (1985), as in lecture notes on token-based algorithms; exact model docs/semantics.md §2; docs/notes/algorithms.md §1",
		Params: []spec.Param{
			{Name: "n", Doc: "number of processes; at most 16 for check, since every request broadcasts n-1 messages and exhaustive search is out of reach long before; up to 256 for simulate and run", Min: 2, Max: 16, Default: 3, SimMax: 256},
			{Name: "r", Doc: "requests per process (R); RN and LN values never exceed it; up to 8 for check, unbounded for simulate and run", Min: 1, Max: 8, Default: 1, SimMax: -1},
		},
		Variants: []Variant{
			{Name: suzukikasami.Default, Kind: spec.KindDefault, Doc: "semantics.md §2: the token is sent on a REQ only by an Idle holder"},
			{Name: suzukikasami.AnyOrder, Kind: spec.KindLiteral, Doc: "the seed as written: Exit appends the newly eligible ids \"for every site\" in no stated order, so every order is explored (one successor per order); symmetric under all permutations of ids (--symmetry)"},
			{Name: suzukikasami.DupInQ, Kind: spec.KindMutant, Breaks: []string{"no-unrequested-entry"}, Doc: "Exit appends j to Q even if it is already there, so j is served twice"},
			{Name: suzukikasami.KeepCopy, Kind: spec.KindMutant, Breaks: []string{"single-token", "mutex"}, Doc: "the sender of the token keeps has and its copy of LN and Q"},
			{Name: suzukikasami.NoIncrement, Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "a requester does not increment RN_i[i], so its request never looks outstanding"},
			{Name: suzukikasami.NoLNUpdate, Kind: spec.KindMutant, Breaks: []string{"no-unrequested-entry"}, Doc: "Exit omits LN[i] = RN_i[i], so the releaser queues itself and gets the token while Idle"},
			{Name: suzukikasami.SendInCS, Kind: spec.KindMutant, Breaks: []string{"mutex"}, Doc: "the literal step 3 of the notes: the holder sends the token on a REQ even while in its CS"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := suzukikasami.New(variant, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Params = maps.Clone(params) // traces record every parameter
			return p.System(), suzukikasami.Properties(), nil
		},
	})
}
