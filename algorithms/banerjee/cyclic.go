package banerjee

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// cyclic wraps a system with cyclic clients (Protocol.Cyclic: every Idle
// process may request again, forever) and keeps its state space finite
// (algorithms.md §6.6, §10.1):
//
//   - Renumbering (exact). After every step the round numbers are replaced
//     by their rank: the distinct values of every process's Round, of every
//     PRIVILEGE's round and of every NEW-ARBITER that is not stale become
//     0, 1, 2, ... in increasing order; a NEW-ARBITER that is stale (round
//     <= its receiver's Round, so that its delivery is ignored, and it stays
//     so, since a Round never decreases) becomes the content-free stale
//     message NEW-ARBITER(->k, a=P0, Q=[], round=0).
//   - Backlog bound (a restriction of the clients only). Request(i) is
//     enabled only while at most Backlog NEW-ARBITER messages (copies) are in
//     transit and no REQUEST of i (j = i) is: otherwise the broadcasts of
//     fast rounds pile up at a slow receiver without bound (and in
//     banerjee-sf the resubmissions of earlier requests of i), and no
//     renumbering can make that finite. In banerjee an Idle process never
//     has a REQUEST in transit, so there only the first condition matters.
//
// banerjee-seq also renumbers its request numbers under a lag rule
// (seqNumbers, lagging). See the package doc ("Cyclic clients") for why the renumbered model is
// bisimilar to the model with absolute rounds and why a lasso found under
// the backlog bound is a lasso of the unbounded system.
type cyclic struct {
	inner   model.System
	cfg     config
	backlog int
}

func (s cyclic) Info() model.Info { return s.inner.Info() }

func (s cyclic) NewWorker() model.Worker {
	return &cyclicWorker{
		Worker: s.inner.NewWorker(),
		probe:  s.inner.NewWorker(),
		local:  s.inner.(model.LocalSystem).NewLocalWorker(),
		cfg:    s.cfg,
		max:    s.backlog,
	}
}

type cyclicWorker struct {
	model.Worker
	probe model.Worker // a second worker: Snapshot must not run inside Successors
	local model.LocalWorker
	cfg   config
	max   int

	procs []Proc
	msgs  []Msg
	enc   model.Encoder
}

// Initial yields the inner initial state, renumbered (all rounds are 0, so
// it is unchanged).
func (w *cyclicWorker) Initial(yield func([]byte) bool) {
	w.Worker.Initial(func(s []byte) bool { return yield(w.renumber(s)) })
}

// Successors yields the inner successors, renumbered, without the requests
// the backlog bound disables.
func (w *cyclicWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	backlog := 0
	var requesting uint64 // bit j: a REQUEST(j) is in transit
	w.probe.Snapshot(state).(*model.View[Proc, Msg]).Messages(func(m *Msg, copies int) {
		switch m.Kind {
		case NEWARBITER:
			backlog += copies
		case REQUEST:
			requesting |= 1 << m.J
		}
	})
	var next [][]byte
	var trs []model.Transition
	w.Worker.Successors(state, func(t *model.Transition, s []byte) bool {
		if t.Kind == model.Request && (backlog > w.max || requesting&(1<<t.Proc) != 0 || w.lagging(state, t.Proc)) {
			return true
		}
		trs = append(trs, *t)
		next = append(next, slices.Clone(s))
		return true
	})
	for k := range trs {
		if !yield(&trs[k], w.renumber(next[k])) {
			return
		}
	}
}

// SeqGap is the largest difference between the request numbers of two
// processes that the cyclic banerjee-seq keeps exactly (see seqNumbers).
const SeqGap = 2

// lagging reports, for banerjee-seq, whether some process's request number
// is at least SeqGap above i's: then i may not request (its gap to that
// process is no longer known exactly).
func (w *cyclicWorker) lagging(state []byte, i int) bool {
	if !w.cfg.seq {
		return false
	}
	v := w.probe.Snapshot(state).(*model.View[Proc, Msg])
	sn := v.Local(i).SN
	for j := range v.Processes() {
		if v.Local(j).SN >= sn+SeqGap {
			return true
		}
	}
	return false
}

// seqNumbers renumbers banerjee-seq's request numbers: the distinct values
// of the processes' SN, in increasing order, become c_1 = min(v_1, 1) and
// c_(m+1) = c_m + min(v_(m+1) - v_m, SeqGap); every number that belongs to
// process j (SN_j, L[j] in a token, the n of its collected entries and of its
// REQUESTs, all within SN_j - 1 .. SN_j) moves by c(SN_j) - SN_j.
func (w *cyclicWorker) seqNumbers() {
	vals := make([]int, 0, len(w.procs))
	for i := range w.procs {
		vals = append(vals, w.procs[i].SN)
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	comp := make([]int, len(vals))
	comp[0] = min(vals[0], 1)
	for k := 1; k < len(vals); k++ {
		comp[k] = comp[k-1] + min(vals[k]-vals[k-1], SeqGap)
	}
	shift := make([]int, len(w.procs))
	for i := range w.procs {
		k, _ := slices.BinarySearch(vals, w.procs[i].SN)
		shift[i] = comp[k] - w.procs[i].SN
	}
	for i := range w.procs {
		p := &w.procs[i]
		p.SN += shift[i]
		for e, j := range p.Q {
			p.QN[e] += shift[j]
		}
		for j := range p.L {
			p.L[j] += shift[j]
		}
	}
	for k := range w.msgs {
		m := &w.msgs[k]
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

// renumber replaces the round numbers of state by their ranks (see
// cyclic).
func (w *cyclicWorker) renumber(state []byte) []byte {
	locals, network, faults := w.local.Split(state)
	n := len(locals)
	w.procs = slices.Grow(w.procs[:0], n)[:n]
	for i := range locals {
		d := model.NewDecoder(locals[i].Local)
		w.cfg.decodeProc(&d, &w.procs[i])
	}
	w.msgs = slices.Grow(w.msgs[:0], len(network))[:len(network)]
	vals := make([]int, 0, n+len(network))
	for i := range w.procs {
		vals = append(vals, w.procs[i].Round)
	}
	for k := range network {
		m := &w.msgs[k]
		d := model.NewDecoder(network[k])
		decodeMsg(&d, m)
		switch m.Kind {
		case NEWARBITER:
			if m.Round <= w.procs[m.To].Round {
				// stale: ignored on delivery whatever it says
				m.Round, m.J, m.Q = 0, 0, m.Q[:0]
			} else {
				vals = append(vals, m.Round)
			}
		case PRIVILEGE:
			vals = append(vals, m.Round)
		}
	}
	if w.cfg.seq {
		w.seqNumbers()
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	rank := func(r int) int {
		k, _ := slices.BinarySearch(vals, r)
		return k
	}
	for i := range w.procs {
		w.procs[i].Round = rank(w.procs[i].Round)
		w.enc.Reset()
		w.cfg.encodeProc(&w.enc, &w.procs[i])
		locals[i].Local = slices.Clone(w.enc.Bytes())
	}
	for k := range network {
		m := &w.msgs[k]
		switch {
		case m.Kind == PRIVILEGE, m.Kind == NEWARBITER && m.Round > 0:
			m.Round = rank(m.Round)
		}
		w.enc.Reset()
		encodeMsg(&w.enc, m)
		network[k] = slices.Clone(w.enc.Bytes())
	}
	return w.local.Assemble(locals, network, faults)
}
