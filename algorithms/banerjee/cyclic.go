package banerjee

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Cyclic clients (Options.Cyclic, protocol.Protocol.Cyclic: every Idle process
// may request again, forever) keep the state space finite with two hooks
// of the protocol layer (algorithms.md §6.6, §10.1):
//
//   - Renumbering (protocol.Protocol.Normalize, exact). After every step the
//     round numbers are replaced by their rank: the distinct values of
//     every process's Round, of every PRIVILEGE's round and of every
//     NEW-ARBITER that is not stale become 0, 1, 2, ... in increasing
//     order; a NEW-ARBITER that is stale (round <= its receiver's Round, so
//     that its delivery is ignored, and it stays so, since a Round never
//     decreases) becomes the content-free stale message NEW-ARBITER(->k,
//     a=P0, Q=[], round=0).
//   - Backlog bound (protocol.Protocol.Guard, a restriction of the clients
//     only). Request(i) is enabled only while at most Backlog NEW-ARBITER
//     messages (copies) are in transit and no REQUEST of i (j = i) is:
//     otherwise the broadcasts of fast rounds pile up at a slow receiver
//     without bound (and in banerjee-sf the resubmissions of earlier
//     requests of i), and no renumbering can make that finite. In banerjee
//     an Idle process never has a REQUEST in transit, so there only the
//     first condition matters.
//
// banerjee-seq also renumbers its request numbers under a lag rule
// (seqNumbers, lagging). See the package doc ("Cyclic clients") for why the
// renumbered model is bisimilar to the model with absolute rounds and why a
// lasso found under the backlog bound is a lasso of the unbounded system.
// tokenmc run executes the protocol without the renumbering (absolute
// rounds), with the backlog guard.

// useCyclic installs the two hooks on p.
func (a *alg) useCyclic(p *protocol.Protocol[Proc, Msg], backlog int) {
	p.Guard = func(v *protocol.View[Proc, Msg], act *protocol.Action[Msg]) bool {
		return act.Kind != model.Request || a.mayRequest(v, act.Proc, backlog)
	}
	p.Normalize = a.renumber
}

// mayRequest is the backlog bound (and banerjee-seq's lag rule) for
// Request(i).
func (a *alg) mayRequest(v *protocol.View[Proc, Msg], i, backlog int) bool {
	inTransit, requesting := 0, false
	v.Messages(func(m *Msg, copies int) {
		switch m.Kind {
		case NEWARBITER:
			inTransit += copies
		case REQUEST:
			requesting = requesting || m.J == i
		}
	})
	return inTransit <= backlog && !requesting && !a.lagging(v, i)
}

// SeqGap is the largest difference between the request numbers of two
// processes that the cyclic banerjee-seq keeps exactly (see seqNumbers).
const SeqGap = 2

// lagging reports, for banerjee-seq, whether some process's request number
// is at least SeqGap above i's: then i may not request (its gap to that
// process is no longer known exactly).
func lagging(v *protocol.View[Proc, Msg], i int) bool {
	sn := v.Local(i).SN
	for j := range v.Processes() {
		if v.Local(j).SN >= sn+SeqGap {
			return true
		}
	}
	return false
}

// renumber replaces the round numbers by their ranks (and banerjee-seq's
// request numbers by seqNumbers); msgs has one entry per copy.
//
// The values are collected in an array on the stack (the hook runs once
// per successor, on every worker at once); only a state with more than
// len(buf) of them makes append move them to the heap.
func (a *alg) renumber(_ []model.Phase, procs []Proc, msgs []Msg) {
	var buf [64]int
	vals := buf[:0]
	for i := range procs {
		vals = append(vals, procs[i].Round)
	}
	for k := range msgs {
		m := &msgs[k]
		switch m.Kind {
		case NEWARBITER:
			if m.Round <= procs[m.To].Round {
				// stale: ignored on delivery whatever it says
				m.Round, m.J, m.Q = 0, 0, m.Q[:0]
			} else {
				vals = append(vals, m.Round)
			}
		case PRIVILEGE:
			vals = append(vals, m.Round)
		}
	}
	a.renumberSN(procs, msgs)
	slices.Sort(vals)
	vals = slices.Compact(vals)
	rank := func(r int) int {
		k, _ := slices.BinarySearch(vals, r)
		return k
	}
	for i := range procs {
		procs[i].Round = rank(procs[i].Round)
	}
	for k := range msgs {
		m := &msgs[k]
		switch {
		case m.Kind == PRIVILEGE, m.Kind == NEWARBITER && m.Round > 0:
			m.Round = rank(m.Round)
		}
	}
}

// seqNumbers renumbers banerjee-seq's request numbers: the distinct values
// of the processes' SN, in increasing order, become c_1 = min(v_1, 1) and
// c_(m+1) = c_m + min(v_(m+1) - v_m, SeqGap); every number that belongs to
// process j (SN_j, L[j] in a token, the n of its collected entries and of its
// REQUESTs, all within SN_j - 1 .. SN_j) moves by c(SN_j) - SN_j.
// Like renumber it works in arrays on the stack (N <= len(buf)).
func seqNumbers(procs []Proc, msgs []Msg) {
	var buf, compBuf, shiftBuf [16]int
	vals := buf[:0]
	for i := range procs {
		vals = append(vals, procs[i].SN)
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	comp := append(compBuf[:0], make([]int, len(vals))...)
	comp[0] = min(vals[0], 1)
	for k := 1; k < len(vals); k++ {
		comp[k] = comp[k-1] + min(vals[k]-vals[k-1], SeqGap)
	}
	shift := append(shiftBuf[:0], make([]int, len(procs))...)
	for i := range procs {
		k, _ := slices.BinarySearch(vals, procs[i].SN)
		shift[i] = comp[k] - procs[i].SN
	}
	for i := range procs {
		p := &procs[i]
		p.SN += shift[i]
		for e, j := range p.Q {
			p.QN[e] += shift[j]
		}
		for j := range p.L {
			p.L[j] += shift[j]
		}
	}
	for k := range msgs {
		m := &msgs[k]
		switch m.Kind {
		case REQUEST:
			m.N += shift[m.J]
		case PRIVILEGE:
			for j := range m.L {
				m.L[j] += shift[j]
			}
		}
	}
}
