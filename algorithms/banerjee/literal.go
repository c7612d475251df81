package banerjee

import "github.com/tokenmc/tokenmc/model"

// This file is banerjee/literal: Figure 1 as printed (algorithms.md §6.1,
// A1, A3, A4): no round numbers, no token proof, every NEW-ARBITER
// accepted, and an empty collection phase followed by a second one
// (Collecting2) after which the arbiter returns.

func (a *alg) useLiteral() {
	a.privilege = a.privilegeLiteral
	a.newArbiter = newArbiterLiteral
	a.timerEnabled = timerEnabledLiteral
	a.timer = a.timerLiteral
}

// privilegeLiteral: handler 3 without the token proof: the tail becomes
// the arbiter only when its NEW-ARBITER arrives.
func (a *alg) privilegeLiteral(c *ctx, m *Msg) {
	a.receiveToken(c, m, false)
	a.takeTurn(c)
}

// newArbiterLiteral: every NEW-ARBITER is accepted (no rounds, A4).
func newArbiterLiteral(c *ctx, m *Msg) {
	c.Self.Arb = m.J
	if m.J == c.ID {
		becomeArbiter(c) // arbiter-node starts with q = empty
	}
}

func timerEnabledLiteral(_ int, phase model.Phase, p *Proc, t int) bool {
	switch Timer(t) {
	case TimerCollect:
		// Figure 1 ends a collection phase even with nothing collected (A1)
		return p.Role == Collecting2 || collectReady(phase, p)
	case TimerForward:
		return p.Role == Forwarding
	}
	return false
}

func (a *alg) timerLiteral(c *ctx, t int) {
	p := c.Self
	switch Timer(t) {
	case TimerCollect:
		switch {
		case p.Role == Collecting2:
			// end of Figure 1's second collection phase: arbiter-node
			// returns; whatever was collected is lost (A1).
			p.Role = None
			clearCollected(p)
		case len(p.Q) == 0:
			p.Role = Collecting2
		default:
			a.launch(c, a.schedule(c), false) // no round numbers (A4)
		}
	case TimerForward:
		p.Role = None
	}
}
