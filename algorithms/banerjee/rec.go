package banerjee

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// This file is banerjee-rec: §6 of the paper (lost requests, the two-phase
// token invalidation protocol), as algorithms.md §6.5 reads it. See doc.go
// for every modelling decision.

// lastGranted is what a process knows of its own entry of the token's L:
// the number of its last granted request.
func lastGranted(phase model.Phase, p *Proc) int {
	if phase == model.Waiting {
		return p.SN - 1
	}
	return p.SN
}

// recNewArbiter runs after an accepted NEW-ARBITER (newer round).
func (cfg config) recNewArbiter(c *model.Ctx[Proc, Msg], m *Msg, in bool) {
	p, i := c.Self, c.ID
	p.Mon = p.Mon[:0] // a newer round: the successor it watched has acted (or was replaced)
	if in || m.J == i {
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
		cfg.send(c, Msg{Kind: REQUEST, From: i, To: m.J, J: i, N: p.SN})
	}
}

// recLaunched: the launching arbiter records the schedule it is on.
func (cfg config) recLaunched(c *model.Ctx[Proc, Msg], q []int) {
	p, i := c.Self, c.ID
	if slices.Contains(q, i) {
		p.Sched = append(p.Sched[:0], q...)
	}
	p.Mon = p.Mon[:0]
	if cfg.crash > 0 && len(q) > 0 && q[len(q)-1] != i {
		p.Mon = append(p.Mon, q...) // §6 "the current arbiter is monitored by the previous arbiter"
	}
}

// recTimerEnabled: the local guards of the recovery timers. The system
// wrapper (quiescent) adds the global one: no message in transit.
func (cfg config) recTimerEnabled(i int, phase model.Phase, p *Proc, t int) bool {
	switch t {
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
		// the wrapper adds the oracle: the watched arbiter has crashed
		return len(p.Mon) > 0 && !collecting(p)
	case TimerCrash:
		return cfg.crash > 0 // the wrapper adds: nobody has crashed yet
	}
	return false
}

func (cfg config) recTimer(c *model.Ctx[Proc, Msg], t int) {
	p, i := c.Self, c.ID
	switch t {
	case TimerRetrans:
		cfg.send(c, Msg{Kind: REQUEST, From: i, To: p.Arb, J: i, N: p.SN})
	case TimerToken:
		if collecting(p) {
			cfg.startEnquiry(c)
			return
		}
		p.Warn = true
		a := p.Sched[len(p.Sched)-1]
		if a == i {
			return
		}
		cfg.send(c, Msg{Kind: WARNING, From: i, To: a})
	case TimerEnquiry:
		cfg.decide(c) // non-responders are presumed failed
	case TimerTakeover:
		cfg.takeover(c)
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
func (cfg config) takeover(c *model.Ctx[Proc, Msg]) {
	p, i := c.Self, c.ID
	route := append([]int(nil), p.Mon...)
	p.Round++
	cfg.broadcast(c, i, nil)
	cfg.becomeArbiter(c)
	p.Sched = append(p.Sched[:0], route...)
	p.Prev = noProcess
	p.Mon = p.Mon[:0]
	if c.Phase() == model.Waiting && !slices.Contains(route, i) {
		cfg.addEntry(p, i, p.SN)
	}
}

// startEnquiry: phase 1. ENQUIRY to every process of the schedule that
// named this arbiter, plus the previous arbiter.
func (cfg config) startEnquiry(c *model.Ctx[Proc, Msg]) {
	p, i := c.Self, c.ID
	p.Rep = p.Rep[:0]
	for k := range cfg.n {
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
			cfg.send(c, Msg{Kind: ENQUIRY, From: i, To: k})
		}
	}
	if !asked {
		cfg.decide(c)
	}
}

// onRecovery handles WARNING, ENQUIRY, REPLY, RESUME and INVALIDATE.
func (cfg config) onRecovery(c *model.Ctx[Proc, Msg], m *Msg) {
	p, i := c.Self, c.ID
	switch m.Kind {
	case WARNING:
		if collecting(p) && !p.Has && len(p.Rep) == 0 {
			cfg.startEnquiry(c)
		}
	case ENQUIRY:
		st := replyHad
		switch {
		case p.Has:
			st = replyHave
			p.Susp = true // it may finish its CS but does not pass the token on
		case c.Phase() == model.Waiting:
			st = replyWaiting
		}
		cfg.send(c, Msg{Kind: REPLY, From: i, To: m.From, J: st, N: lastGranted(c.Phase(), p)})
	case REPLY:
		if len(p.Rep) == 0 || p.Rep[m.From] != replyNone {
			// no enquiry running (it was decided, or abandoned because the
			// token arrived): a holder that suspended itself for it must
			// not wait forever
			if m.J == replyHave {
				cfg.send(c, Msg{Kind: RESUME, From: i, To: m.From})
			}
			return
		}
		p.Rep[m.From] = m.J
		if !slices.Contains(p.Rep, replyNone) {
			cfg.decide(c)
		}
	case RESUME:
		p.Susp = false
		if p.Has && c.Phase() != model.InCS {
			cfg.passOn(c)
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
func (cfg config) decide(c *model.Ctx[Proc, Msg]) {
	p, i := c.Self, c.ID
	rep := append([]int(nil), p.Rep...)
	p.Rep = p.Rep[:0]
	have := 0
	for k, st := range rep {
		if st == replyHave {
			have++
			cfg.send(c, Msg{Kind: RESUME, From: i, To: k})
		}
	}
	if have > 0 {
		return // regular operation proceeds (two HAVEs cannot happen; single-token would say)
	}
	// No token anywhere the arbiter could see: a new epoch, INVALIDATE to
	// the waiting repliers, and a new token for them (in schedule order)
	// followed by the arbiter itself.
	p.Epoch = (p.Epoch/cfg.n+1)*cfg.n + i
	var q []int
	for _, k := range p.Sched {
		if k != i && rep[k] == replyWaiting {
			cfg.send(c, Msg{Kind: INVALIDATE, From: i, To: k, Epoch: p.Epoch})
			if !cfg.forget {
				q = append(q, k)
			}
		}
	}
	q = append(q, i)
	p.Has = true
	p.TQ = append(p.TQ[:0], q...)
	p.L = make([]int, cfg.n)
	if q[0] == i {
		cfg.takeTurn(c)
		return
	}
	cfg.sendToken(c, q[0], false)
}

// quiescent wraps a banerjee-rec system so that the recovery timers fire
// only when what they wait for cannot still be on its way (algorithms.md
// §10.5 "quiescent": a timeout longer than every message delay): the
// request retransmission timer only when no message at all is in transit,
// the token and enquiry timeouts only when nothing but REQUEST messages is
// in transit (a REQUEST brings neither a token nor a reply). Phase ends
// keep firing at any time.
//
// With any set (banerjee-rec/timers-any, algorithms.md §10.5 mode "any"),
// the retransmission, token and enquiry timeouts fire whenever their
// handlers' preconditions hold, also while messages are in transit: a
// premature timeout. To keep the state space finite, a timer of process i
// is disabled while a message that its previous expiry sent is still in
// transit (a REQUEST from i for the retransmission timer, a WARNING or
// ENQUIRY from i for the token timeout, an INVALIDATE or PRIVILEGE from i
// for the enquiry timeout); this removes only behaviours in which one
// process has the messages of two expiries of one timer in flight at once.
//
// With oracle set (banerjee-rec/timers-oracle, algorithms.md §6.5 "--timers
// oracle" and §10.5 mode "oracle"), a timer fires only when the event it
// detects has really happened: the token timeout (a waiting process's
// WARNING, or the arbiter's own enquiry) only when no valid token exists,
// held or in transit (ValidTokens is 0), and the enquiry timeout only when
// every missing reply is really lost (the replier crashed, or neither the
// ENQUIRY to it nor its REPLY is in transit: a delivered ENQUIRY is
// answered at once, so a missing reply with nothing in transit was lost).
// The notes give no oracle for the retransmission timer; it keeps the
// quiescent rule (no message in transit): with the rule of mode "any" a
// waiting process could retransmit forever and the state space at N = 2,
// F = 0 did not end (over 5 million states and growing after 20 s).
type quiescent struct {
	inner  model.System
	any    bool
	oracle bool
}

func (q quiescent) Info() model.Info { return q.inner.Info() }

func (q quiescent) NewWorker() model.Worker {
	return &quiescentWorker{Worker: q.inner.NewWorker(), probe: q.inner.NewWorker(), any: q.any, oracle: q.oracle}
}

type quiescentWorker struct {
	model.Worker
	probe  model.Worker // a second worker, so that Snapshot does not disturb Successors
	any    bool         // timers mode "any" (banerjee-rec/timers-any)
	oracle bool         // timers mode "oracle" (banerjee-rec/timers-oracle)
}

func (w *quiescentWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	v := w.probe.Snapshot(state).(*model.View[Proc, Msg])
	empty, onlyRequests := true, true
	v.Messages(func(m *Msg, _ int) {
		empty = false
		if m.Kind != REQUEST {
			onlyRequests = false
		}
	})
	n := v.Processes()
	// with any: the timers of each process whose expiry messages are in transit
	var busy [][3]bool
	if w.any {
		busy = make([][3]bool, n)
		v.Messages(func(m *Msg, _ int) {
			if m.From < 0 || m.From >= n {
				return
			}
			switch m.Kind {
			case REQUEST:
				busy[m.From][0] = true
			case WARNING, ENQUIRY:
				busy[m.From][1] = true
			case INVALIDATE, PRIVILEGE:
				busy[m.From][2] = true
			}
		})
	}
	crashed := make([]bool, n)
	anyCrashed := false
	for i := range n {
		crashed[i] = v.Local(i).Crash
		anyCrashed = anyCrashed || crashed[i]
	}
	mon := make([]int, n) // the arbiter each process watches, or -1
	for i := range n {
		mon[i] = noProcess
		if m := v.Local(i).Mon; len(m) > 0 {
			mon[i] = m[len(m)-1]
		}
	}
	noToken := false
	var lost []bool // with oracle: every missing reply of process i's enquiry is lost
	if w.oracle {
		noToken = ValidTokens(v) == 0
		lost = make([]bool, n)
		for a := range n {
			rep := v.Local(a).Rep
			lost[a] = true
			for k, st := range rep {
				if st != replyNone || crashed[k] {
					continue
				}
				v.Messages(func(m *Msg, _ int) {
					if (m.Kind == ENQUIRY && m.From == a && m.To == k) || (m.Kind == REPLY && m.From == k && m.To == a) {
						lost[a] = false
					}
				})
			}
		}
	}
	w.Worker.Successors(state, func(t *model.Transition, next []byte) bool {
		switch t.Kind {
		case model.Request, model.Exit:
			if crashed[t.Proc] {
				return true // a crashed process takes no step
			}
		case model.Timer:
			switch {
			case t.Arg == TimerCrash:
				if anyCrashed {
					return true // crash budget: one
				}
			case t.Arg == TimerTakeover:
				if !onlyRequests || mon[t.Proc] < 0 || !crashed[mon[t.Proc]] {
					return true // oracle: a probe of a live arbiter is answered
				}
			case w.oracle && t.Arg == TimerToken:
				if !noToken {
					return true
				}
			case w.oracle && t.Arg == TimerEnquiry:
				if !lost[t.Proc] {
					return true
				}
			case w.any && t.Arg >= TimerRetrans && t.Arg <= TimerEnquiry:
				if busy[t.Proc][t.Arg-TimerRetrans] {
					return true
				}
			case t.Arg == TimerRetrans && !empty, t.Arg > TimerRetrans && !onlyRequests:
				return true
			}
		}
		return yield(t, next)
	})
}
