package banerjee

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// NameArbiterSelf is the name of ArbiterSelf.
const NameArbiterSelf = "arbiter-self"

// ArbiterSelf is an assertion of the repaired readings: a process that
// believes itself the arbiter is collecting (a request is never sent to
// oneself), and only a collecting process keeps collected requests.
var ArbiterSelf = protocol.Invariant(NameArbiterSelf,
	"a process that names itself arbiter is collecting (no request is ever addressed to oneself)",
	func(v *protocol.View[Proc, Msg]) bool {
		for i := range v.Processes() {
			p := v.Local(i)
			if p.Arb == i && p.Role != Collecting && !p.Crash {
				return false
			}
		}
		return true
	})

// NameSingleArbiter is the name of SingleArbiter.
const NameSingleArbiter = "single-arbiter"

// SingleArbiter (banerjee/literal-a4 only) says at most one process is
// collecting requests as arbiter (seed 003 §2.1: one arbiter at a time).
// With the round numbers of the repaired readings it holds (the tests
// check the default against it); a stale NEW-ARBITER adopted under
// reordering (A4) makes a process collect again after its term, and the
// requests it collects then are orphaned.
var SingleArbiter = protocol.Invariant(NameSingleArbiter,
	"at most one process is collecting requests as arbiter (a stale NEW-ARBITER makes a second, A4)",
	func(v *protocol.View[Proc, Msg]) bool {
		k := 0
		for i := range v.Processes() {
			if v.Local(i).Role == Collecting {
				k++
			}
		}
		return k <= 1
	})

// NameTokenAtHead is the name of TokenAtHead.
const NameTokenAtHead = "token-at-head"

// TokenAtHead is an assertion of every reading (§2.3: "the token is passed
// to the node at the head position of the ordered list"): a PRIVILEGE in
// transit goes to the head of its Q-list (except a token routed to the
// monitor, banerjee-sf), and a holder with a non-empty list is its head.
var TokenAtHead = protocol.Invariant(NameTokenAtHead,
	"the token goes to, and is held by, the head of its Q-list",
	func(v *protocol.View[Proc, Msg]) bool {
		ok := true
		v.Messages(func(m *Msg, _ int) {
			if m.Kind == PRIVILEGE && !m.Via && (len(m.Q) == 0 || m.Q[0] != m.To) {
				ok = false
			}
		})
		for i := range v.Processes() {
			if p := v.Local(i); p.Has && len(p.TQ) > 0 && p.TQ[0] != i {
				ok = false
			}
		}
		return ok
	})

// ValidSingleToken is banerjee-rec's single-token (algorithms.md §6.5,
// §10.6): at most one valid token exists. A token is valid when its epoch
// is the largest epoch known anywhere (held by a process, carried by a
// PRIVILEGE or an INVALIDATE) and, in transit, not below its receiver's
// epoch, so that the receiver would accept it. Zero valid tokens is allowed:
// a lost PRIVILEGE leaves none until the arbiter regenerates one.
var ValidSingleToken = protocol.Invariant("single-token",
	"at most one valid token (epoch = the largest epoch known, and a token in transit not below its receiver's epoch)",
	func(v *protocol.View[Proc, Msg]) bool { return ValidTokens(v) <= 1 })

// ValidTokens counts the valid tokens of a banerjee-rec state.
func ValidTokens(v *protocol.View[Proc, Msg]) int {
	maxE := 0
	for i := range v.Processes() {
		maxE = max(maxE, v.Local(i).Epoch)
	}
	v.Messages(func(m *Msg, _ int) {
		if m.Kind == PRIVILEGE || m.Kind == INVALIDATE {
			maxE = max(maxE, m.Epoch)
		}
	})
	n := 0
	for i := range v.Processes() {
		if p := v.Local(i); p.Has && p.Epoch == maxE {
			n++
		}
	}
	// A PRIVILEGE of the largest epoch is never below its receiver's
	// epoch, which is at most the largest.
	v.Messages(func(m *Msg, copies int) {
		if m.Kind == PRIVILEGE && m.Epoch == maxE {
			n += copies
		}
	})
	return n
}

// LiveMutex is banerjee-rec's mutex: at most one process that has not
// crashed is InCS (a crashed process stays InCS in the protocol layer's
// phases, but it is not in any CS). Without crashes it is the generic mutex.
var LiveMutex = protocol.Invariant("mutex",
	"at most one process that has not crashed is InCS",
	func(v *protocol.View[Proc, Msg]) bool {
		in := 0
		for i := range v.Processes() {
			if v.Phase(i) == model.InCS && !v.Local(i).Crash {
				in++
			}
		}
		return in <= 1
	})

// LiveNoDeadlock is banerjee-rec's no-deadlock: no state without enabled
// transitions has a process that has not crashed Waiting or InCS. Without
// crashes it is the generic no-deadlock.
var LiveNoDeadlock = func() model.Property {
	p := protocol.Invariant("no-deadlock",
		"no reachable state without enabled transitions has a process that has not crashed Waiting or InCS",
		func(v *protocol.View[Proc, Msg]) bool {
			for i := range v.Processes() {
				if v.Phase(i) != model.Idle && !v.Local(i).Crash {
					return false
				}
			}
			return true
		})
	p.Kind = model.Terminal
	return p
}()

// Properties returns the algorithm-specific properties of variant: the
// token-at-head assertion, the arbiter-self assertion for the repaired
// readings, and for banerjee-rec
// the valid-token single-token that replaces the generic one.
func Properties(variant string) []model.Property {
	out := []model.Property{TokenAtHead}
	switch variant {
	case AdaptiveEq, AdaptiveGe:
		out = append(out, ArbiterSelf, MonitorReachable)
	case Literal:
	case LiteralA4:
		out = append(out, ArbiterSelf, SingleArbiter)
	case Rec, ForgetWaiting, TimersAny, TimersOracle, WaitingFirst:
		out = append(out, ValidSingleToken, LiveMutex, LiveNoDeadlock, ArbiterSelf)
	default:
		out = append(out, ArbiterSelf)
	}
	return slices.Clip(out)
}

// NameMonitorReachable names MonitorReachable.
const NameMonitorReachable = "monitor-reachable"

// MonitorReachable (banerjee-sf/adaptive-eq and adaptive-ge) says the token's
// broadcast counter stays below N. The literal adaptive period routes the
// token via the monitor only when cnt+1 equals the period, the size of the
// last Q-list, which is at most N: once cnt reaches N, the monitor is never
// visited again (A8). Under a ">=" test the counter never gets there.
var MonitorReachable = protocol.Invariant(NameMonitorReachable,
	"banerjee-sf/adaptive-eq, adaptive-ge: the token's broadcast counter stays below N, so the monitor can still be visited (A8)",
	func(v *protocol.View[Proc, Msg]) bool {
		n := v.Processes()
		ok := true
		for i := range n {
			if p := v.Local(i); p.Has && p.Cnt >= n {
				ok = false
			}
		}
		v.Messages(func(m *Msg, _ int) {
			if m.Kind == PRIVILEGE && m.Cnt >= n {
				ok = false
			}
		})
		return ok
	})
