package banerjee

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// guardRec is banerjee-rec's whole-state guard (protocol.Protocol.Guard).
// A crashed process takes no step (no Request, no Exit), the crash budget
// is one crash (TimerCrash only while nobody has crashed), and the
// takeover timer fires only when the watched arbiter has really crashed and
// nothing but REQUESTs is in transit (an oracle for the unanswered PROBE).
//
// The recovery timers fire only when what they wait for cannot still be on its way (algorithms.md
// §10.5 "quiescent": a timeout longer than every message delay): the
// request retransmission timer only when no message at all is in transit,
// the token and enquiry timeouts only when nothing but REQUEST messages is
// in transit (a REQUEST brings neither a token nor a reply). Phase ends
// keep firing at any time.
//
// In mode timersAny (banerjee-rec/timers-any, algorithms.md §10.5 mode "any"),
// the retransmission, token and enquiry timeouts fire whenever their
// handlers' preconditions hold, also while messages are in transit: a
// premature timeout. To keep the state space finite, a timer of process i
// is disabled while a message that its previous expiry sent is still in
// transit (a REQUEST from i for the retransmission timer, a WARNING or
// ENQUIRY from i for the token timeout, an INVALIDATE or PRIVILEGE from i
// for the enquiry timeout); this removes only behaviours in which one
// process has the messages of two expiries of one timer in flight at once.
//
// In mode timersOracle (banerjee-rec/timers-oracle, algorithms.md §6.5 "--timers
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
func (a *alg) guardRec(v *protocol.View[Proc, Msg], act *protocol.Action[Msg]) bool {
	i := act.Proc
	switch act.Kind {
	case model.Request, model.Exit:
		return !v.Local(i).Crash // a crashed process takes no step
	case model.Timer:
	default:
		return true
	}
	switch t := Timer(act.Arg); {
	case t == TimerCrash:
		return !anyCrashed(v) // crash budget: one
	case t == TimerTakeover:
		// oracle: a probe of a live arbiter is answered
		mon := v.Local(i).Mon
		return onlyRequests(v) && len(mon) > 0 && v.Local(mon[len(mon)-1]).Crash
	case a.timers == timersOracle && t == TimerToken:
		return ValidTokens(v) == 0
	case a.timers == timersOracle && t == TimerEnquiry:
		return repliesLost(v, i)
	case a.timers == timersAny && t >= TimerRetrans && t <= TimerEnquiry:
		return !expiring(v, i, t)
	case t == TimerRetrans:
		return v.InTransit() == 0
	case t > TimerRetrans:
		return onlyRequests(v)
	}
	return true // the phase ends fire at any time
}

func anyCrashed(v *protocol.View[Proc, Msg]) bool {
	for k := range v.Processes() {
		if v.Local(k).Crash {
			return true
		}
	}
	return false
}

// onlyRequests: nothing but REQUESTs is in transit (a REQUEST brings
// neither a token nor a reply).
func onlyRequests(v *protocol.View[Proc, Msg]) bool {
	ok := true
	v.Messages(func(m *Msg, _ int) {
		if m.Kind != REQUEST {
			ok = false
		}
	})
	return ok
}

// repliesLost: every missing reply of process i's enquiry is really lost:
// its replier crashed, or neither the ENQUIRY to it nor its REPLY is in
// transit.
func repliesLost(v *protocol.View[Proc, Msg], i int) bool {
	for k, st := range v.Local(i).Rep {
		if st != replyNone || v.Local(k).Crash {
			continue
		}
		lost := true
		v.Messages(func(m *Msg, _ int) {
			if (m.Kind == ENQUIRY && m.From == i && m.To == k) || (m.Kind == REPLY && m.From == k && m.To == i) {
				lost = false
			}
		})
		if !lost {
			return false
		}
	}
	return true
}

// expiring (timers-any): a message that the previous expiry of timer t of
// process i sent is still in transit.
func expiring(v *protocol.View[Proc, Msg], i int, t Timer) bool {
	busy := false
	v.Messages(func(m *Msg, _ int) {
		if m.From != i {
			return
		}
		switch m.Kind {
		case REQUEST:
			busy = busy || t == TimerRetrans
		case WARNING, ENQUIRY:
			busy = busy || t == TimerToken
		case INVALIDATE, PRIVILEGE:
			busy = busy || t == TimerEnquiry
		}
	})
	return busy
}
