package banerjee

// This file is banerjee/literal-a4: the repaired reading with only A4
// literal (seed 003 Fig. 1 handler 5; algorithms.md §6.8 A4): NEW-ARBITER
// messages still carry the round number, but a process adopts every one
// it receives, the last delivered winning, so under reordering it can
// adopt an older arbiter or start collecting again after its own term.
// Everything else (token proof, collecting until non-empty) is the
// default's, so the counterexamples are A4's own, not A1's.

func (a *alg) useLiteralA4() { a.newArbiter = newArbiterNoRounds }

// newArbiterNoRounds: handler 5 without the round test (A4).
func newArbiterNoRounds(c *ctx, m *Msg) {
	p, i := c.Self, c.ID
	p.Round = max(p.Round, m.Round) // the next round this process opens stays new
	p.Arb = m.J
	if m.J == i && p.Role != Collecting {
		becomeArbiter(c)
	}
}
