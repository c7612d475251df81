package banerjee

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// This file is banerjee-seq: §2.4 and §5.1, REQUEST(j, n) and
// PRIVILEGE(Q, L): a process numbers its requests, the token carries the
// number of the last granted request of each process, entries already
// granted are dropped at the end of a collection and the rest are ordered
// by request number (algorithms.md §6.3). banerjee-rec builds on it.

func (a *alg) useSeq() {
	a.codec.seq = true
	a.addEntry = addEntrySeq
	a.initNumbers = func(p *Proc) { p.L = make([]int, a.n) }
	a.takeNumbers = func(p *Proc, m *Msg) { p.L = append(p.L[:0], m.L...) }
	a.putNumbers = func(m *Msg, p *Proc) { m.L = p.L }
	a.lagging = lagging
	a.renumberSN = seqNumbers
	a.requested = a.seqRequested
	a.enter = a.seqEnter
	a.pending = seqPending
	a.schedule = seqSchedule
}

// addEntrySeq appends request (j, n) to the collected list if j is
// absent, and keeps the larger number if it is there (§2.4).
func addEntrySeq(p *Proc, j, n int) {
	if k := slices.Index(p.Q, j); k >= 0 {
		if n > p.QN[k] {
			p.QN[k] = n
		}
		return
	}
	p.Q = append(p.Q, j)
	p.QN = append(p.QN, n)
}

// seqRequested: the request is SN+1; it carries SN - lag (0 but for the
// mutant count-from-zero, whose L starts at 0).
func (a *alg) seqRequested(c *ctx) int {
	c.Self.SN++
	return c.Self.SN - a.lag
}

// seqEnter records the grant in the token's L.
func (a *alg) seqEnter(c *ctx) {
	p := c.Self
	if p.Has && c.Phase() == model.Waiting {
		p.L[c.ID] = p.SN - a.lag
	}
	c.Enter()
}

// seqPending counts the collected entries not granted already.
func seqPending(p *Proc) int {
	if !p.Has {
		return len(p.Q)
	}
	k := 0
	for e, j := range p.Q {
		if p.QN[e] > p.L[j] {
			k++
		}
	}
	return k
}

// seqSchedule drops the entries already granted and orders the others by
// request number (stable, so ties keep arrival order).
func seqSchedule(c *ctx) []int {
	p := c.Self
	var q []int
	if p.Has {
		type ent struct{ j, n int }
		var es []ent
		for e, j := range p.Q {
			if p.QN[e] > p.L[j] {
				es = append(es, ent{j, p.QN[e]})
			}
		}
		slices.SortStableFunc(es, func(a, b ent) int { return a.n - b.n })
		for _, x := range es {
			q = append(q, x.j)
		}
	} else {
		q = append(q, p.Q...)
	}
	clearCollected(p)
	return q
}
