package banerjee

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// This file is banerjee-sf: §4 and §4.1, the starvation-free variant
// (algorithms.md §6.4). A request is forwarded at most tau times; a waiting
// process that misses tau NEW-ARBITERs resubmits its request to the
// monitor P(N-1), which stores it; the token carries a counter of
// NEW-ARBITER broadcasts and visits the monitor when the period is due
// (TimerMonitor), and the monitor appends its store to the list. A process
// granted the token twice (its request also resubmitted) passes it on
// (algorithms.md §6.1 3.3, A12).

func (a *alg) useSF() {
	a.codec.sf = true
	a.requested = sfRequested
	a.requestMsg = a.requestMsgSF
	a.privilege = a.privilegeSF
	a.newArbiter = a.newArbiterSF
	a.takeTurn = a.passDuplicate
	a.timerEnabled = a.timerEnabledSF
	a.timer = a.timerSF
	a.schedule = a.scheduleSF
	a.launched = a.countBroadcast
	a.keepStore = appendStored
	if a.period == 0 {
		a.due = a.dueAny
	} else {
		a.due = a.duePeriod
	}
}

// useAdaptive: §4.1's adaptive period (A8), with a window of one Q size
// carried by the token (Win): the period is the size of the last
// scheduled list. Routing is decided by the due test alone.
func (a *alg) useAdaptive(due func(p *Proc) bool) {
	a.codec.win = true
	a.period = 1 // not "--period any": the adaptive test decides
	a.due = due
	a.announced = recordWindow
	a.launched = a.countBroadcastCapped
}

// dueAdaptiveEq: A8 read literally, "equals the ceiling".
func dueAdaptiveEq(p *Proc) bool { return p.Cnt+1 == max(p.Win, 1) }

// dueAdaptiveGe: A8 repaired, "reaches the ceiling". The counter then
// stays below the window (at most N), so the cap of countBroadcastCapped
// never applies.
func dueAdaptiveGe(p *Proc) bool { return p.Cnt+1 >= max(p.Win, 1) }

// duePeriod: the fixed period: the token visits the monitor when its
// counter reaches period-1.
func (a *alg) duePeriod(p *Proc) bool { return p.Cnt+1 >= a.period }

// dueAny: --period any (algorithms.md §6.4): the visit is forced once
// cnt+1 >= N (and allowed at any collection end, see timerEnabledSF).
func (a *alg) dueAny(p *Proc) bool { return p.Cnt+1 >= a.n }

func sfRequested(c *ctx) int {
	c.Self.Miss, c.Self.Resub = 0, false
	return 0
}

// store adds j to the monitor's store.
func store(p *Proc, j int) {
	if !slices.Contains(p.S, j) {
		p.S = append(p.S, j)
		slices.Sort(p.S)
	}
}

// requestMsgSF: handler 2 with the monitor's store and the forwarding
// threshold (A7).
func (a *alg) requestMsgSF(c *ctx, m *Msg) {
	p, i := c.Self, c.ID
	switch {
	case collecting(p):
		a.addEntry(p, m.J, m.N)
	case i == a.monitor:
		store(p, m.J)
	case p.Role == Forwarding:
		if m.F >= a.tau {
			return // forwarded tau times already: dropped (A7)
		}
		a.send(c, Msg{Kind: REQUEST, From: i, To: p.Arb, J: m.J, N: m.N, F: m.F + 1})
	default:
		// None: dropped, as in handler 2
	}
}

// privilegeSF: a token routed via the monitor is a visit.
func (a *alg) privilegeSF(c *ctx, m *Msg) {
	if m.Via && c.ID == a.monitor {
		a.monitorVisit(c, m)
		return
	}
	a.privilegeBasic(c, m)
}

// passDuplicate: the holder whose turn it is enters if it waits; an Idle
// holder (a duplicate grant, its request also resubmitted) hands the token
// on at once (algorithms.md §6.1 3.3, A12). InCS (banerjee-rec: a
// regenerated token reaching a process that entered with the old one): the
// process keeps the new token and passes it on at its exit.
func (a *alg) passDuplicate(c *ctx) {
	switch c.Phase() {
	case model.Waiting:
		a.enter(c)
	case model.Idle:
		a.passOn(c)
	}
}

// newArbiterSF: handler 5; a waiting process counts the accepted
// NEW-ARBITERs without it and resubmits to the monitor after tau of them.
func (a *alg) newArbiterSF(c *ctx, m *Msg) {
	if !acceptNewArbiter(c, m) {
		return
	}
	p, i := c.Self, c.ID
	if c.Phase() != model.Waiting || p.Has || p.Role == Collecting {
		return
	}
	switch {
	case slices.Contains(m.Q, i):
		p.Miss, p.Resub = 0, false
	case !p.Resub:
		p.Miss++
		if p.Miss >= a.tau {
			p.Miss, p.Resub = 0, true
			if i == a.monitor {
				store(p, i)
			} else {
				a.send(c, Msg{Kind: REQUEST, From: i, To: a.monitor, J: i})
			}
		}
	}
}

func (a *alg) timerEnabledSF(i int, phase model.Phase, p *Proc, t int) bool {
	switch Timer(t) {
	case TimerCollect:
		switch {
		case !collectReady(phase, p):
			return false
		case i == a.monitor:
			return len(p.Q) > 0 || len(p.S) > 0
		case a.due(p):
			return false // the monitor is due: only TimerMonitor
		}
		return a.pending(p) > 0
	case TimerForward:
		return p.Role == Forwarding
	case TimerMonitor:
		// --period any (algorithms.md §6.4): the arbiter may route the token
		// via the monitor at the end of any collection phase, even an empty
		// one, and must once cnt+1 >= N.
		return i != a.monitor && collectReady(phase, p) && (a.period == 0 || a.due(p))
	}
	return false
}

func (a *alg) timerSF(c *ctx, t int) {
	if Timer(t) == TimerMonitor {
		a.routeViaMonitor(c)
		return
	}
	a.timerBasic(c, t)
}

// scheduleSF: the monitor's own collection end also schedules its store
// and resets the counter.
func (a *alg) scheduleSF(c *ctx) []int {
	q := a.scheduleBasic(c)
	if p := c.Self; c.ID == a.monitor {
		q = a.keepStore(q, p.S)
		p.S = p.S[:0]
		p.Cnt = 0
	}
	return q
}

// appendStored appends the stored requests not already in q.
func appendStored(q, stored []int) []int {
	for _, j := range stored {
		if !slices.Contains(q, j) {
			q = append(q, j)
		}
	}
	return q
}

// countBroadcast: one more NEW-ARBITER broadcast since the last monitor
// visit (the monitor's own lists and visits do not count).
func (a *alg) countBroadcast(c *ctx, visit bool) {
	if !visit && c.ID != a.monitor {
		c.Self.Cnt++
	}
}

// countBroadcastCapped: beyond N the equality of the adaptive period can
// never hold again (the period is at most N): capping keeps the state
// space finite.
func (a *alg) countBroadcastCapped(c *ctx, visit bool) {
	if !visit && c.ID != a.monitor {
		c.Self.Cnt = min(c.Self.Cnt+1, a.n)
	}
}

// recordWindow: the window of one Q size travels with the token.
func recordWindow(c *ctx, q []int) {
	if c.Self.Has {
		c.Self.Win = len(q)
	}
}

// routeViaMonitor: §4.1: the arbiter sends the token to the monitor
// without broadcasting; late requests go to the monitor (A9).
func (a *alg) routeViaMonitor(c *ctx) {
	p := c.Self
	q := a.schedule(c)
	p.Round++
	p.TQ = append(p.TQ[:0], q...)
	p.Role, p.Arb = Forwarding, a.monitor
	a.sendToken(c, a.monitor, true)
}

// monitorVisit: the monitor appends its stored requests to the Q-list,
// resets the counter, broadcasts NEW-ARBITER and sends the token on.
func (a *alg) monitorVisit(c *ctx, m *Msg) {
	p := c.Self
	p.Has = true
	p.Round = max(p.Round, m.Round)
	q := a.keepStore(append([]int(nil), m.Q...), p.S)
	p.S = p.S[:0]
	p.Cnt = 0
	if p.Role == Collecting {
		// cannot happen: only the token holder ends a collection phase
		panic("banerjee: the monitor is visited while it is the arbiter")
	}
	a.launch(c, q, true)
}
