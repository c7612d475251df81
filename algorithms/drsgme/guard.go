package drsgme

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// timerGuard is the protocol's Guard when the timers are on: TimerEnabled
// asks about the owner's local state only, but the timer modes of
// algorithms.md §7.3 depend on the network.
//
// Both modes: T1(i) (T2(i)) fires only when no gen_token (is_complete) of
// i and no second copy of any message is in transit. The second clause
// bounds the state space: every gen_token answered by a relayed request or
// a regenerated token (every is_complete answered by a complete) adds one
// more identical copy, so without it a timer could fill the network with
// copies of one stale message. Further copies change nothing: a stale
// request is dropped, a token copy is invalid once one has been accepted,
// a complete once one has been counted.
//
// Quiescent mode moreover: T1 only when the network is empty, T2 only when
// no START from its owner and no COMPLETE to it is in transit.
//
// Every other action is allowed. At run time (cmd/internal/live) the guard
// is evaluated on the global state the runtime keeps, as an oracle would.
func timerGuard(mode int) func(v *protocol.View[Proc, Msg], a *protocol.Action[Msg]) bool {
	quiescent := mode == TimersQuiescent
	return func(v *protocol.View[Proc, Msg], a *protocol.Action[Msg]) bool {
		if a.Kind != model.Timer {
			return true
		}
		if quiescent && a.Arg == T1 && v.InTransit() != 0 {
			return false
		}
		i, ok := a.Proc, true
		v.Messages(func(m *Msg, copies int) {
			switch {
			case copies > 1:
				ok = false
			case a.Arg == T1:
				ok = ok && !(m.Kind == GEN && m.From == i)
			default: // T2
				ok = ok && !(m.Kind == ISC && m.From == i)
				if quiescent {
					ok = ok && !(m.Kind == START && m.From == i) && !(m.Kind == COMPLETE && m.To == i)
				}
			}
		})
		return ok
	}
}
