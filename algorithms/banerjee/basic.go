package banerjee

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// This file is the basic algorithm of §2.1 and Figure 1 as repaired by
// algorithms.md §6.1 (the default banerjee): handlers 1 to 7 of the package
// doc. Its handlers are the defaults of every variant's handler set.

// useBasic fills a's handler set with the basic algorithm's handlers.
func (a *alg) useBasic() {
	a.exit = a.exitBasic
	a.timerEnabled = a.timerEnabledBasic
	a.timer = a.timerBasic
	a.requestMsg = a.requestMsgBasic
	a.privilege = a.privilegeBasic
	a.newArbiter = a.newArbiterBasic
	a.recovery = nopMsg
	a.requested = noNumber
	a.takeTurn = a.enterTurn
	a.enter = enterCS
	a.passOn = a.passOnBasic
	a.pending = pendingBasic
	a.schedule = a.scheduleBasic
	a.launched = nopVisit
	a.announced = nopList
	a.servedSelf = nop
	a.keepStore = arrival
	a.addEntry = addEntryBasic
	a.initNumbers = nopProc
	a.takeNumbers = nopNumbers
	a.putNumbers = nopPut
	a.lagging = neverLags
	a.renumberSN = keepSN
}

func collecting(p *Proc) bool { return p.Role == Collecting || p.Role == Collecting2 }

// collectReady: the arbiter holds the token, its own turn in the last list
// is over and it is not InCS (the preconditions of handler 6).
func collectReady(phase model.Phase, p *Proc) bool {
	return p.Role == Collecting && phase != model.InCS && p.Has && len(p.TQ) == 0
}

// addEntryBasic appends process j to the collected list if it is absent
// (the basic algorithm's requests carry no number).
func addEntryBasic(p *Proc, j, _ int) {
	if !slices.Contains(p.Q, j) {
		p.Q = append(p.Q, j)
	}
}

func clearCollected(p *Proc) { p.Q, p.QN = p.Q[:0], p.QN[:0] }

// becomeArbiter makes the process the collecting arbiter with an empty list.
func becomeArbiter(c *ctx) {
	p := c.Self
	p.Role = Collecting
	p.Arb = c.ID
	clearCollected(p)
}

// onRequest: handler 1.
func (a *alg) onRequest(c *ctx, _ int) {
	p, i := c.Self, c.ID
	n := a.requested(c)
	switch {
	case collecting(p):
		a.addEntry(p, i, n) // the arbiter's own request: local, no message
	case p.Arb == i:
		// literal only: a process that stopped being arbiter (Figure 1's
		// return from arbiter-node) still names itself; its REQUEST to itself
		// reaches a process that is not collecting and is dropped.
	default:
		a.send(c, Msg{Kind: REQUEST, From: i, To: p.Arb, J: i, N: n})
	}
}

// requestMsgBasic: handler 2.
func (a *alg) requestMsgBasic(c *ctx, m *Msg) {
	p, i := c.Self, c.ID
	switch {
	case collecting(p):
		a.addEntry(p, m.J, m.N)
	case p.Role == Forwarding:
		a.send(c, Msg{Kind: REQUEST, From: i, To: p.Arb, J: m.J, N: m.N, F: m.F})
	default:
		// None: "Any requests arriving after the end of the forwarding
		// phase are dropped" (and so is a request reaching a designated
		// arbiter before it knows).
	}
}

// privilegeBasic: handler 3.
func (a *alg) privilegeBasic(c *ctx, m *Msg) {
	a.receiveToken(c, m, true)
	a.takeTurn(c)
}

// receiveToken takes the token's data; with proof, the tail of the list
// becomes the arbiter at once (the token is proof, §3.1, A3), which it
// reports.
func (a *alg) receiveToken(c *ctx, m *Msg, proof bool) bool {
	p, i := c.Self, c.ID
	p.Has = true
	p.TQ = append(p.TQ[:0], m.Q...)
	p.Round = max(p.Round, m.Round)
	a.takeNumbers(p, m)
	p.Cnt, p.Win = m.Cnt, m.Win
	if proof && len(m.Q) > 0 && m.Q[len(m.Q)-1] == i && p.Role != Collecting {
		becomeArbiter(c)
		return true
	}
	return false
}

// enterTurn: the holder whose turn it is enters its CS. In the variants
// without duplicate grants it always enters, so that a mutant's grant to
// an Idle process is an unrequested entry.
func (a *alg) enterTurn(c *ctx) { a.enter(c) }

func enterCS(c *ctx) { c.Enter() }

// exitBasic: handler 4.
func (a *alg) exitBasic(c *ctx) { a.passOn(c) }

// passOnBasic removes the holder from the head of the token's list and
// sends the token to the new head; the last process (the arbiter) keeps
// it.
func (a *alg) passOnBasic(c *ctx) {
	p, i := c.Self, c.ID
	if !p.Has {
		return
	}
	if len(p.TQ) > 0 && p.TQ[0] == i {
		p.TQ = append(p.TQ[:0], p.TQ[1:]...)
	}
	if len(p.TQ) == 0 {
		p.TQ = p.TQ[:0]
		return // the tail keeps the token: it is the arbiter
	}
	a.sendToken(c, p.TQ[0], false)
}

// sendToken sends PRIVILEGE with the held token data and drops it locally.
func (a *alg) sendToken(c *ctx, to int, via bool) {
	p := c.Self
	m := Msg{Kind: PRIVILEGE, From: c.ID, To: to, Q: p.TQ, Round: p.Round, Cnt: p.Cnt, Win: p.Win, Via: via, Epoch: p.Epoch}
	a.putNumbers(&m, p)
	a.send(c, m)
	p.Has = false
	p.TQ, p.L, p.Cnt, p.Win = p.TQ[:0], p.L[:0], 0, 0
}

// newArbiterBasic: handler 5.
func (a *alg) newArbiterBasic(c *ctx, m *Msg) { acceptNewArbiter(c, m) }

// acceptNewArbiter: handler 5, repaired with rounds (A4): a NEW-ARBITER is
// ignored unless its round is newer than any seen; it reports acceptance.
func acceptNewArbiter(c *ctx, m *Msg) bool {
	p, i := c.Self, c.ID
	if m.Round <= p.Round {
		return false // stale
	}
	p.Round = m.Round
	p.Arb = m.J
	if m.J == i && p.Role != Collecting {
		becomeArbiter(c)
	}
	return true
}

// timerEnabledBasic: the phase ends of §6.2.
func (a *alg) timerEnabledBasic(_ int, phase model.Phase, p *Proc, t int) bool {
	switch Timer(t) {
	case TimerCollect:
		return collectReady(phase, p) && a.pending(p) > 0 // A1: keep collecting until non-empty
	case TimerForward:
		return p.Role == Forwarding
	}
	return false
}

func (a *alg) timerBasic(c *ctx, t int) {
	switch Timer(t) {
	case TimerCollect:
		a.endCollection(c)
	case TimerForward:
		c.Self.Role = None
	}
}

func pendingBasic(p *Proc) int { return len(p.Q) }

// scheduleBasic: the collected entries in arrival order become the list.
func (a *alg) scheduleBasic(c *ctx) []int {
	p := c.Self
	q := append([]int(nil), p.Q...)
	clearCollected(p)
	return q
}

// endCollection: handler 6.
func (a *alg) endCollection(c *ctx) {
	q := a.schedule(c)
	c.Self.Round++
	a.launch(c, q, false)
}

// launch sends a freshly scheduled list on its way: NEW-ARBITER to every
// other process naming the tail, the token to the head (or the CS here).
// visit is set for the list of a monitor visit (banerjee-sf).
func (a *alg) launch(c *ctx, q []int, visit bool) {
	p, i := c.Self, c.ID
	if len(q) == 0 {
		// banerjee-sf monitor with nothing to schedule: it stays the
		// arbiter holding the token and says so.
		p.TQ = p.TQ[:0]
		p.Role, p.Arb = Collecting, i
		a.broadcast(c, i, q)
		return
	}
	if len(q) == 1 && q[0] == i && !visit {
		// the arbiter serves itself and stays arbiter: no message
		p.TQ = append(p.TQ[:0], i)
		a.servedSelf(c)
		a.takeTurn(c)
		return
	}
	t := q[len(q)-1]
	a.launched(c, visit)
	a.broadcast(c, t, q)
	if t == i {
		p.Role, p.Arb = Collecting, i // its own request came last: it stays arbiter
	} else {
		p.Role, p.Arb = Forwarding, t
	}
	p.TQ = append(p.TQ[:0], q...)
	if q[0] == i {
		a.takeTurn(c)
		return
	}
	a.sendToken(c, q[0], false)
}

// broadcast sends NEW-ARBITER(arb, q) to every other process.
func (a *alg) broadcast(c *ctx, arb int, q []int) {
	for k := range a.n {
		if k != c.ID {
			a.send(c, Msg{Kind: NEWARBITER, From: c.ID, To: k, J: arb, Q: q, Round: c.Self.Round})
		}
	}
	a.announced(c, q)
}
