package banerjee

import "github.com/tokenmc/tokenmc/model"

// This file holds the mutants of algorithms.md §6.9 and §9.2 that change
// one handler of their algorithm (plausible bugs the checker must catch).
// The mutants of banerjee-seq (count-from-zero: seq.go's lag), banerjee-sf
// (enter-duplicate, store-unused) and banerjee-rec (forget-waiting) are
// set up in build (banerjee.go).

// sendBeforeCS (banerjee/send-before-cs): the holder hands the token on at
// arrival, then enters.
func (a *alg) sendBeforeCS() {
	a.takeTurn = func(c *ctx) {
		a.passOn(c)
		a.enter(c)
	}
}

// arbiterNoToken (banerjee/arbiter-no-token): the collection phase may end
// without the token, and a fresh token is made up.
func (a *alg) arbiterNoToken() {
	a.timerEnabled = func(_ int, phase model.Phase, p *Proc, t int) bool {
		switch Timer(t) {
		case TimerCollect:
			return p.Role == Collecting && phase != model.InCS && a.pending(p) > 0
		case TimerForward:
			return p.Role == Forwarding
		}
		return false
	}
	a.timer = func(c *ctx, t int) {
		if Timer(t) == TimerCollect && !c.Self.Has {
			c.Self.Has = true // the made-up token
		}
		a.timerBasic(c, t)
	}
}

// keepHead (banerjee/keep-head): the holder does not remove itself from Q
// and hands the token to the next other process of the list.
func (a *alg) keepHead() {
	a.passOn = func(c *ctx) {
		p, i := c.Self, c.ID
		if !p.Has {
			return
		}
		for _, x := range p.TQ {
			if x != i {
				a.sendToken(c, x, false)
				return
			}
		}
	}
}

// enterDuplicate (banerjee-sf/enter-duplicate): a process granted the token
// a second time (its request also resubmitted via the monitor) enters again
// instead of passing it on (A12).
func (a *alg) enterDuplicate() {
	a.takeTurn = func(c *ctx) {
		if c.Phase() != model.InCS {
			a.enter(c)
		}
	}
}

// storeUnused (banerjee-sf/store-unused): the monitor clears its store
// without scheduling it.
func (a *alg) storeUnused() { a.keepStore = arrival }
