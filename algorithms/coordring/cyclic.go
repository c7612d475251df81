package coordring

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// NewCyclic builds the coordinator ring with cyclic clients (R = infinity:
// every process requests again whenever it is Idle), for starvation
// checks. The protocol is New's with model.Protocol.Cyclic set; its states
// are renumbered by Renumber after every step, which keeps the state space
// finite (see the package doc, "Cyclic clients").
func NewCyclic(variant string, n int) (model.System, error) {
	p, err := newProtocol(variant, n, 0, true)
	if err != nil {
		return nil, err
	}
	return Renumbered(p), nil
}

// Renumbered returns p's System with every state (initial and successor)
// renumbered by Renumber. p must not be used afterwards.
func Renumbered(p *model.Protocol[Proc, Msg]) model.System {
	return renumSystem{p.System().(model.LocalSystem)}
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
func Renumber(phases []model.Phase, procs []Proc, msgs []Msg) {
	type val struct {
		v    int
		base bool
	}
	var vals []val
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
	to := make([]int, len(vals))
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

// renumSystem is a protocol System whose states are renumbered.
type renumSystem struct{ inner model.LocalSystem }

func (s renumSystem) Info() model.Info { return s.inner.Info() }

func (s renumSystem) NewWorker() model.Worker {
	return &renumWorker{Worker: s.inner.NewWorker(), lw: s.inner.NewLocalWorker()}
}

// renumWorker delegates to the protocol's worker and renumbers every state
// it yields. Snapshot, Label and Describe are the protocol's: a renumbered
// state is an ordinary state of the protocol.
type renumWorker struct {
	model.Worker
	lw     model.LocalWorker
	procs  []Proc
	msgs   []Msg
	phases []model.Phase
}

func (w *renumWorker) Initial(yield func([]byte) bool) {
	w.Worker.Initial(func(s []byte) bool { return yield(w.renumber(s)) })
}

func (w *renumWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	w.Worker.Successors(state, func(t *model.Transition, next []byte) bool {
		return yield(t, w.renumber(next))
	})
}

// LastSnapshot delegates to the protocol's worker, which parsed the state
// last passed to Successors (renumbering uses a separate LocalWorker).
func (w *renumWorker) LastSnapshot() model.Snapshot {
	return w.Worker.(model.LastSnapshotter).LastSnapshot()
}

// renumber returns state renumbered: state itself when nothing changes.
func (w *renumWorker) renumber(state []byte) []byte {
	locals, network, faults := w.lw.Split(state)
	w.procs = slices.Grow(w.procs[:0], len(locals))[:len(locals)]
	w.phases = w.phases[:0]
	for i := range locals {
		w.phases = append(w.phases, locals[i].Phase)
		d := model.NewDecoder(locals[i].Local)
		decodeProc(&d, &w.procs[i])
	}
	w.msgs = slices.Grow(w.msgs[:0], len(network))[:len(network)]
	for k := range network {
		d := model.NewDecoder(network[k])
		decodeMsg(&d, &w.msgs[k])
	}
	Renumber(w.phases, w.procs, w.msgs)
	changed := false
	var e model.Encoder
	for i := range locals {
		e.Reset()
		encodeProc(&e, &w.procs[i])
		if string(e.Bytes()) != string(locals[i].Local) {
			locals[i].Local = append([]byte(nil), e.Bytes()...)
			changed = true
		}
	}
	for k := range network {
		e.Reset()
		encodeMsg(&e, &w.msgs[k])
		if string(e.Bytes()) != string(network[k]) {
			network[k] = append([]byte(nil), e.Bytes()...)
			changed = true
		}
	}
	if !changed {
		return state
	}
	return w.lw.Assemble(locals, network, faults)
}
