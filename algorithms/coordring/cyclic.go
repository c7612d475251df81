package coordring

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// NewCyclic builds the coordinator ring with cyclic clients (R = infinity:
// every process requests again whenever it is Idle), for starvation
// checks. The protocol is New's with protocol.Protocol.Cyclic set and
// Renumber as its Normalize hook, which renumbers every state (initial and
// successor) and keeps the state space finite (see the package doc,
// "Cyclic clients"). Runs (cmd/internal/live) step it without renumbering,
// on absolute Lamport values.
func NewCyclic(variant string, n int) (*protocol.Protocol[Proc, Msg], error) {
	p, err := newProtocol(variant, n, 0, true)
	if err != nil {
		return nil, err
	}
	p.Normalize = Renumber
	return p, nil
}

// Renumber rewrites the Lamport values of a global state in place: every
// process's Clock, every queued stamp and the stamp or clock of every
// REQUEST, WAIT and TOKEN in transit (RETURN carries none). phases[i] is
// process i's client phase.
//
// The distinct values v1 < v2 < ... < vk become w1 = 0 and
// w(j+1) = wj + g, where g = min(v(j+1) - vj, 2) if vj is a base value and
// g = 1 otherwise. Base values are those a later stamp can be computed
// from by adding one: the clock of P0 and of every client that is not
// Waiting, and the clock carried by a TOKEN in transit (the Waiting
// receiver's clock becomes exactly that value). Order and ties are kept;
// the package doc explains why no other gap can matter.
//
// Renumber allocates nothing for states of up to 64 values (processes,
// queued stamps and stamped messages): it works in arrays on its stack,
// since the hook runs once per successor on every worker at once.
func Renumber(phases []model.Phase, procs []Proc, msgs []Msg) {
	type val struct {
		v    int
		base bool
	}
	var buf [64]val
	var toBuf [64]int
	vals := buf[:0]
	for i := range procs {
		vals = append(vals, val{procs[i].Clock, i == 0 || phases[i] != model.Waiting})
		for _, e := range procs[i].Queue {
			vals = append(vals, val{e.TS, false})
		}
	}
	for i := range msgs {
		if msgs[i].Kind != RETURN {
			vals = append(vals, val{msgs[i].TS, msgs[i].Kind == TOKEN})
		}
	}
	slices.SortFunc(vals, func(a, b val) int {
		if a.v != b.v {
			return a.v - b.v
		}
		if a.base == b.base {
			return 0
		}
		if a.base {
			return -1
		}
		return 1
	})
	// Keep one entry per value, base if any holder is.
	vals = slices.CompactFunc(vals, func(a, b val) bool { return a.v == b.v })
	to := append(toBuf[:0], make([]int, len(vals))...)
	for j := 1; j < len(vals); j++ {
		g := 1
		if vals[j-1].base {
			g = min(vals[j].v-vals[j-1].v, 2)
		}
		to[j] = to[j-1] + g
	}
	m := func(v int) int {
		k, _ := slices.BinarySearchFunc(vals, v, func(a val, v int) int { return a.v - v })
		return to[k]
	}
	for i := range procs {
		procs[i].Clock = m(procs[i].Clock)
		for k := range procs[i].Queue {
			procs[i].Queue[k].TS = m(procs[i].Queue[k].TS)
		}
	}
	for i := range msgs {
		if msgs[i].Kind != RETURN {
			msgs[i].TS = m(msgs[i].TS)
		}
	}
}
