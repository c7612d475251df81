package drsgme

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// NameFCFS is the informational property of variant drs-gme/fcfs.
const NameFCFS = "fcfs"

// flagOvertaken marks a transition in which a process enters its CS while
// a process that requested before it is still Waiting.
const flagOvertaken = model.FlagsUser

// fcfsProperty is §VIII's "satisfies the strongest fairness requirement,
// FCFS" read at the level of individual requests (algorithms.md §7.6, D22):
// nobody enters while an earlier requester still waits. Informational: the
// paper's own example (a later request joining an earlier entry of the
// captain's group) breaks it, and so does the model.
func fcfsProperty() model.Property {
	return model.Property{
		Name:    NameFCFS,
		Kind:    model.TransitionInvariant,
		Doc:     "informational (§VIII, D22): no process enters its CS while a process that requested earlier is still Waiting",
		HoldsOn: func(t *model.Transition) bool { return t.Flags&flagOvertaken == 0 },
		Local:   true, // it reads the step's flags only
	}
}

// withFCFS adds the request-order history of drs-gme/fcfs to p: a history
// variable Proc.Ahead that changes no behaviour, maintained by the
// protocol's Normalize hook after every step.
//
// For a Waiting process Ahead is the number of Waiting processes that
// requested before it (its rank in request order); for any other process
// it is the number of Waiting processes, which is the rank its next
// request will get. So a process that enters its CS, from Waiting or at
// once in its Request step, overtakes an earlier requester exactly when
// its Ahead is positive, and the handlers flag that transition
// (flagOvertaken) when they see it. Normalize then ranks the Waiting
// processes again (one may have entered, one may have joined at the end)
// and gives every other process the new count.
//
// Ahead is a function of the request order and the phases, so the states
// are those of the default reading paired with the order of its Waiting
// processes (13,965 states at N=3, M=2, R=1, over the default's 11,389).
// It is encoded but left out of the JSON of trace states. At run time
// (cmd/internal/live) there is no normalisation, Ahead stays 0 and nothing
// is flagged: fcfs is a property of the model only.
func withFCFS(p *protocol.Protocol[Proc, Msg]) {
	p.EncodeProc = func(e *model.Encoder, q *Proc) { encodeProc(e, q); e.Uint(uint64(q.Ahead)) }
	p.DecodeProc = func(d *model.Decoder, q *Proc) { decodeProc(d, q); q.Ahead = int(d.Uint()) }
	onRequest, onDeliver, onTimer := p.OnRequest, p.OnDeliver, p.OnTimer
	flag := func(c *ctx, before model.Phase) {
		if before == model.Waiting && c.Phase() == model.InCS && c.Self.Ahead > 0 {
			c.AddFlags(flagOvertaken)
		}
	}
	p.OnRequest = func(c *ctx, g int) {
		onRequest(c, g)
		flag(c, model.Waiting) // its rank is the number of Waiting processes
	}
	p.OnDeliver = func(c *ctx, m *Msg) {
		before := c.Phase()
		onDeliver(c, m)
		flag(c, before)
	}
	if onTimer != nil {
		p.OnTimer = func(c *ctx, t int) {
			before := c.Phase()
			onTimer(c, t)
			flag(c, before)
		}
	}
	p.Normalize = func(phases []model.Phase, procs []Proc, _ []Msg) {
		var buf [8]int // N <= 8; on the stack, since workers share p
		waiting := buf[:0]
		for i := range procs {
			if phases[i] == model.Waiting {
				waiting = append(waiting, i)
			}
		}
		// A Waiting process keeps its rank; the one that requested in this
		// step has the rank the count gave it, the largest. Ties cannot
		// occur, so the order is total.
		for a := 1; a < len(waiting); a++ {
			for b := a; b > 0 && procs[waiting[b]].Ahead < procs[waiting[b-1]].Ahead; b-- {
				waiting[b], waiting[b-1] = waiting[b-1], waiting[b]
			}
		}
		for r, i := range waiting {
			procs[i].Ahead = r
		}
		for i := range procs {
			if phases[i] != model.Waiting {
				procs[i].Ahead = len(waiting)
			}
		}
	}
}
