package algorithms

import (
	"github.com/tokenmc/tokenmc/algorithms/drsgme"
	"github.com/tokenmc/tokenmc/model"
)

func init() {
	register(Algorithm{
		Name:   drsgme.Default,
		Doc:    "Swaroop-Singh DRS_GME: fault-tolerant token-based group mutual exclusion with captains, followers and dynamic request sets",
		Source: "seeds/002_c4821f18623afbc7.txt §III-§VII and Appendix A; algorithms.md §7; algorithms/drs-gme.md",
		Params: []Param{
			{Name: "n", Doc: "number of processes (N); 3 is the acceptance size, 4 is already large", Min: 2, Max: 8, Default: 3},
			{Name: "r", Doc: "requests per process (R); unbounded for simulate and run", Min: 1, Max: 4, Default: 1, SimMax: -1},
			{Name: "groups", Doc: "number of groups M (forums); drs-gme/ext requests any non-empty subset", Min: 1, Max: 4, Default: 2},
			{Name: "faults", Doc: "message-loss budget F (any message kind, token loss included)", Min: 0, Max: 3, Default: 0},
			{Name: "timers", Doc: "timer mode of T1/T2: 0 auto (off if faults=0, else quiescent), 1 off, 2 quiescent (T1 only with an empty network, T2 only when its session is silent), 3 any (premature expiries too)", Min: 0, Max: 3, Default: 0},
		},
		Variants: []Variant{
			{Name: drsgme.Default, Kind: KindRepaired, Doc: "repairs R1-R10 of algorithms.md §7.2: sessions grow at every pass, LN filters stale requests, (pid, sn) followers"},
			{Name: drsgme.Literal, Kind: KindLiteral, Breaks: []string{"single-token", "no-unrequested-entry", "no-deadlock"}, Doc: "Appendix A as printed (D1-D4, D6-D9, D12, D13): the first hand-over is rejected (D1)"},
			{Name: drsgme.LiteralR1, Kind: KindLiteral, Breaks: []string{"no-unrequested-entry", "no-deadlock"}, Doc: "Appendix A with only session numbering repaired (R1), so the later items show: D3 and D9 deadlocks, D8 stale-request entry"},
			{Name: drsgme.Ext, Kind: KindRepaired, Doc: "extended GME (§VII): a request names a non-empty set of groups (request argument a = subset a+1)"},
			{Name: drsgme.AcceptAnyToken, Kind: KindMutant, Params: map[string]int{"timers": 2}, Breaks: []string{"single-token", "gme-safety", "no-unrequested-entry"}, Doc: "Event 6 without the session test: a regenerated duplicate is accepted next to the original (needs --timers 2 or --faults 1)"},
			{Name: drsgme.AdmitAnyGroup, Kind: KindMutant, Breaks: []string{"gme-safety"}, Doc: "the captain admits a follower whatever group it asked for"},
			{Name: drsgme.KeepToken, Kind: KindMutant, Breaks: []string{"single-token", "gme-safety", "no-unrequested-entry"}, Doc: "an idle holder passing the token keeps a copy and stays HI"},
			{Name: drsgme.NoRSAdd, Kind: KindMutant, Breaks: []string{"no-deadlock"}, Doc: "an idle holder passing the token does not put the new captain into RS_i"},
			{Name: drsgme.PassBeforeComplete, Kind: KindMutant, Breaks: []string{"gme-safety"}, Doc: "Event 4 passes the token on exit while followers are still in their CS"},
		},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			cfg := drsgme.Config{Variant: variant, N: params["n"], M: params["groups"], R: params["r"], F: params["faults"], Timers: params["timers"]}
			sys, err := drsgme.System(cfg)
			if err != nil {
				return nil, nil, err
			}
			return sys, drsgme.Properties(cfg), nil
		},
	})
}
