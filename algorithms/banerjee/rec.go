package banerjee

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// This file is banerjee-rec: §6 of the paper (lost requests, the two-phase
// token invalidation protocol), as algorithms.md §6.5 reads it, on top of
// banerjee-seq. See doc.go for every modelling decision.

// Replies to an ENQUIRY (Proc.Rep, the REPLY's J).
const (
	replyNone     = 0
	replyWaiting  = 1
	replyHad      = 2
	replyHave     = 3
	replyNotAsked = 4
)

// timerMode says when banerjee-rec's recovery timers may fire
// (algorithms.md §10.5; see guardRec).
type timerMode uint8

const (
	timersQuiescent timerMode = iota // a timeout longer than every message delay
	timersAny                        // premature timeouts (banerjee-rec/timers-any)
	timersOracle                     // only when what they detect has happened (banerjee-rec/timers-oracle)
)

func (a *alg) useRec(crash int, mode timerMode) {
	a.useSeq()
	a.codec.rec, a.codec.from, a.codec.had = true, true, true
	a.crash = crash
	a.timers = mode
	a.requested = a.recRequested
	a.privilege = a.privilegeRec
	a.newArbiter = a.newArbiterRec
	a.recovery = a.onRecovery
	a.takeTurn = a.passDuplicate
	a.exit = a.exitRec
	a.timerEnabled = a.recTimerEnabled
	a.timer = a.recTimer
	a.announced = a.recLaunched
	a.servedSelf = func(c *ctx) { c.Self.Sched = append(c.Self.Sched[:0], c.ID) }
}

// recRequested: a new request has no schedule yet and no WARNING out.
func (a *alg) recRequested(c *ctx) int {
	n := a.seqRequested(c)
	p := c.Self
	p.Warn = false
	if !collecting(p) {
		p.Sched = p.Sched[:0]
	}
	return n
}

// privilegeRec: handler 3 with epochs: a stale token of an invalidated
// epoch is discarded; the token ends an enquiry in progress.
func (a *alg) privilegeRec(c *ctx, m *Msg) {
	p := c.Self
	if m.Epoch < p.Epoch {
		return // stale token of an invalidated epoch: discarded
	}
	p.Epoch = m.Epoch
	if a.receiveToken(c, m, true) {
		p.Sched = append(p.Sched[:0], m.Q...)
	}
	p.Warn = false
	p.Rep = p.Rep[:0] // the token came: an enquiry in progress is moot
	a.takeTurn(c)
}

// exitRec: handler 4, unless an ENQUIRY suspended the hand-over.
func (a *alg) exitRec(c *ctx) {
	c.Self.Had = true // "I had the token, and have executed my CS" (seed 003 §6)
	if c.Self.Susp {
		return // suspended by an ENQUIRY: keep the token until RESUME or INVALIDATE
	}
	a.passOn(c)
}

// newArbiterRec: handler 5, then the schedule is recorded.
func (a *alg) newArbiterRec(c *ctx, m *Msg) {
	if acceptNewArbiter(c, m) {
		a.recNewArbiter(c, m, slices.Contains(m.Q, c.ID))
	}
}

// lastGranted is what a process knows of its own entry of the token's L:
// the number of its last granted request.
func lastGranted(phase model.Phase, p *Proc) int {
	if phase == model.Waiting {
		return p.SN - 1
	}
	return p.SN
}

// recNewArbiter runs after an accepted NEW-ARBITER (newer round).
func (a *alg) recNewArbiter(c *ctx, m *Msg, in bool) {
	p, i := c.Self, c.ID
	p.Mon = p.Mon[:0] // a newer round: the successor it watched has acted (or was replaced)
	if in || m.J == i {
		p.Had = false // a newer schedule: it has not executed its CS with this one's token yet
		p.Sched = append(p.Sched[:0], m.Q...)
		if len(p.Sched) == 0 {
			p.Sched = append(p.Sched, i)
		}
		p.Prev = m.From
		p.Warn = false
		return
	}
	// §6 "Lost Request": the NEW-ARBITER is an implicit acknowledgment; a
	// waiting process that does not find itself retransmits to the new
	// arbiter (algorithms.md §6.5 step 1a).
	if c.Phase() == model.Waiting && !p.Has && p.Role != Collecting {
		a.send(c, Msg{Kind: REQUEST, From: i, To: m.J, J: i, N: p.SN})
	}
}

// recLaunched: the launching arbiter records the schedule it is on.
func (a *alg) recLaunched(c *ctx, q []int) {
	p, i := c.Self, c.ID
	if slices.Contains(q, i) {
		p.Sched = append(p.Sched[:0], q...)
		p.Had = false // it is on the list: HAD once it has executed its CS
	} else {
		// at a collection end it sends the token of the list it launches
		// to the head: asked about this round, it had the token
		// (algorithms.md §6.5 step 4: "or k == prev_a and it already sent
		// the PRIVILEGE"); a takeover launches without it
		p.Had = p.Has
	}
	p.Mon = p.Mon[:0]
	if a.crash > 0 && len(q) > 0 && q[len(q)-1] != i {
		p.Mon = append(p.Mon, q...) // §6 "the current arbiter is monitored by the previous arbiter"
	}
}

// recTimerEnabled: the phase ends, with no collection end during an
// enquiry, and the local guards of the recovery timers. The whole-state
// guard (guardRec) adds the global ones: no message in transit, the oracles.
func (a *alg) recTimerEnabled(i int, phase model.Phase, p *Proc, t int) bool {
	if p.Crash {
		return false
	}
	switch Timer(t) {
	case TimerCollect:
		return len(p.Rep) == 0 && collectReady(phase, p) && a.pending(p) > 0
	case TimerForward:
		return p.Role == Forwarding
	case TimerRetrans:
		// waiting, not scheduled, not the arbiter itself: the request was
		// lost or dropped (§6 "appropriate timeouts may also be used to
		// retransmit a request").
		return phase == model.Waiting && !p.Has && !collecting(p) && !slices.Contains(p.Sched, i)
	case TimerToken:
		if collecting(p) {
			// the arbiter's own timeout: it waits for the token of the
			// schedule that named it
			return !p.Has && len(p.Rep) == 0 && len(p.Sched) > 0
		}
		return phase == model.Waiting && !p.Has && !p.Warn && slices.Contains(p.Sched, i)
	case TimerEnquiry:
		return len(p.Rep) > 0 && slices.Contains(p.Rep, replyNone)
	case TimerTakeover:
		// guardRec adds the oracle: the watched arbiter has crashed
		return len(p.Mon) > 0 && !collecting(p)
	case TimerCrash:
		return a.crash > 0 // guardRec adds: nobody has crashed yet
	}
	return false
}

func (a *alg) recTimer(c *ctx, t int) {
	p, i := c.Self, c.ID
	switch Timer(t) {
	case TimerCollect, TimerForward:
		a.timerBasic(c, t)
	case TimerRetrans:
		a.send(c, Msg{Kind: REQUEST, From: i, To: p.Arb, J: i, N: p.SN})
	case TimerToken:
		if collecting(p) {
			a.startEnquiry(c)
			return
		}
		p.Warn = true
		arb := p.Sched[len(p.Sched)-1]
		if arb == i {
			return
		}
		a.send(c, Msg{Kind: WARNING, From: i, To: arb})
	case TimerEnquiry:
		a.decide(c) // non-responders are presumed failed
	case TimerTakeover:
		a.takeover(c)
	case TimerCrash:
		*p = Proc{Arb: p.Arb, Round: p.Round, SN: p.SN, Epoch: p.Epoch, Prev: noProcess, Crash: true}
	}
}

// takeover: §6 "Failed Arbiter node": the previous arbiter, whose probe of
// the arbiter it named goes unanswered, proclaims itself the arbiter with a
// NEW-ARBITER of a newer round. It then waits for the token of the old
// route like any arbiter, so its token timeout enquires that route and
// regenerates the token if it is gone. Its own pending request, sent to the
// crashed arbiter, is collected locally.
func (a *alg) takeover(c *ctx) {
	p, i := c.Self, c.ID
	route := append([]int(nil), p.Mon...)
	p.Round++
	a.broadcast(c, i, nil)
	becomeArbiter(c)
	p.Sched = append(p.Sched[:0], route...)
	p.Prev = noProcess
	p.Mon = p.Mon[:0]
	if c.Phase() == model.Waiting && !slices.Contains(route, i) {
		a.addEntry(p, i, p.SN)
	}
}

// startEnquiry: phase 1. ENQUIRY to every process of the schedule that
// named this arbiter, plus the previous arbiter.
func (a *alg) startEnquiry(c *ctx) {
	p, i := c.Self, c.ID
	p.Rep = p.Rep[:0]
	for k := range a.n {
		st := replyNotAsked
		if k != i && (slices.Contains(p.Sched, k) || k == p.Prev) {
			st = replyNone
		}
		p.Rep = append(p.Rep, st)
	}
	asked := false
	for k, st := range p.Rep {
		if st == replyNone {
			asked = true
			a.send(c, Msg{Kind: ENQUIRY, From: i, To: k})
		}
	}
	if !asked {
		a.decide(c)
	}
}

// onRecovery handles WARNING, ENQUIRY, REPLY, RESUME and INVALIDATE.
func (a *alg) onRecovery(c *ctx, m *Msg) {
	p, i := c.Self, c.ID
	switch m.Kind {
	case WARNING:
		if collecting(p) && !p.Has && len(p.Rep) == 0 {
			a.startEnquiry(c)
		}
	case ENQUIRY:
		// HAVE, then HAD, then WAITING (seed 003 §6: "I had the token, and
		// have executed my CS"; algorithms.md §6.5 step 4): a process that
		// held this schedule's token and has requested again answers HAD.
		// banerjee-rec/waiting-first answers WAITING first instead.
		st := replyHad
		switch {
		case p.Has:
			st = replyHave
			p.Susp = true // it may finish its CS but does not pass the token on
		case p.Had && !a.waitingFirst:
		case c.Phase() == model.Waiting:
			st = replyWaiting
		}
		a.send(c, Msg{Kind: REPLY, From: i, To: m.From, J: st, N: lastGranted(c.Phase(), p)})
	case REPLY:
		if len(p.Rep) == 0 || p.Rep[m.From] != replyNone {
			// no enquiry running (it was decided, or abandoned because the
			// token arrived): a holder that suspended itself for it must
			// not wait forever
			if m.J == replyHave {
				a.send(c, Msg{Kind: RESUME, From: i, To: m.From})
			}
			return
		}
		p.Rep[m.From] = m.J
		if !slices.Contains(p.Rep, replyNone) {
			a.decide(c)
		}
	case RESUME:
		p.Susp = false
		if p.Has && c.Phase() != model.InCS {
			a.passOn(c)
		}
	case INVALIDATE:
		if m.Epoch > p.Epoch {
			p.Epoch = m.Epoch
			if p.Has {
				p.Has = false // an old token is invalid once a newer epoch exists
				p.TQ, p.L = p.TQ[:0], p.L[:0]
			}
		}
	}
}

// decide: phase 2 at the arbiter.
func (a *alg) decide(c *ctx) {
	p, i := c.Self, c.ID
	rep := append([]int(nil), p.Rep...)
	p.Rep = p.Rep[:0]
	have := 0
	for k, st := range rep {
		if st == replyHave {
			have++
			a.send(c, Msg{Kind: RESUME, From: i, To: k})
		}
	}
	if have > 0 {
		return // regular operation proceeds (two HAVEs cannot happen; single-token would say)
	}
	// No token anywhere the arbiter could see: a new epoch, INVALIDATE to
	// the waiting repliers, and a new token for them (in schedule order)
	// followed by the arbiter itself.
	p.Epoch = (p.Epoch/a.n+1)*a.n + i
	var q []int
	for _, k := range p.Sched {
		if k != i && rep[k] == replyWaiting {
			a.send(c, Msg{Kind: INVALIDATE, From: i, To: k, Epoch: p.Epoch})
			if !a.forgetWaiting {
				q = append(q, k)
			}
		}
	}
	q = append(q, i)
	p.Has = true
	p.TQ = append(p.TQ[:0], q...)
	p.L = make([]int, a.n)
	if q[0] == i {
		a.takeTurn(c)
		return
	}
	a.sendToken(c, q[0], false)
}
