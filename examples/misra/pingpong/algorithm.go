package pingpong

import (
	"fmt"

	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Names of the algorithm's own invariants. With a lost token "exactly one
// token" (tokenmc's single-token) cannot hold, so the model counts each
// token separately and asks for at most one of each.
const (
	NameOnePing = "one-ping"
	NameOnePong = "one-pong"
)

// Properties returns the algorithm's own invariants: at most one ping and
// at most one pong exist, held or in transit.
func Properties() []model.Property {
	count := func(v *protocol.View[Proc, Msg], pong bool) int {
		k := 0
		for i := range v.Processes() {
			if !pong && v.Local(i).Ping {
				k++
			}
		}
		v.Messages(func(m *Msg, copies int) {
			if m.Pong == pong {
				k += copies
			}
		})
		return k
	}
	return []model.Property{
		protocol.Invariant(NameOnePing, "at most one ping token exists, held or in transit",
			func(v *protocol.View[Proc, Msg]) bool { return count(v, false) <= 1 }),
		protocol.Invariant(NameOnePong, "at most one pong token exists, in transit",
			func(v *protocol.View[Proc, Msg]) bool { return count(v, true) <= 1 }),
	}
}

// Algorithm describes the algorithm for tokenmc's command line
// (cli.Main): its parameters, variants and properties.
func Algorithm() spec.Algorithm {
	return spec.Algorithm{
		Name:   "misra",
		Doc:    "Misra's ping-pong detection and regeneration of a lost token on a ring",
		Source: "J. Misra, Detecting termination of distributed computations using markers, PODC 1983 (ping-pong)",
		Params: []spec.Param{
			{Name: "n", Doc: "processes on the ring", Min: 2, Max: 5, Default: 3, SimMax: 64},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 3, Default: 1, SimMax: -1},
			{Name: "faults", Doc: "tokens that may be lost (Lose faults); with 2 both can be lost, and no-deadlock fails", Min: 0, Max: 2, Default: 1, SimMax: -1},
		},
		Variants: []spec.Variant{
			{Name: Correct, Kind: spec.KindDefault, Doc: "as published: the numbers move away from zero when the tokens meet"},
			{Name: NoIncrement, Kind: spec.KindMutant, Doc: "no increment when the tokens meet: pong lapping the ping holder looks like a lost ping",
				Breaks: []string{NameOnePing, invariants.Mutex.Name}},
		},
		Build: func(variant string, p map[string]int) (model.System, []model.Property, error) {
			if variant != Correct && variant != NoIncrement {
				return nil, nil, fmt.Errorf("misra has no variant %q", variant)
			}
			return New(variant, p["n"], p["r"], p["faults"]).System(), Properties(), nil
		},
	}
}
