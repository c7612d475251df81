package drsgme

import "github.com/tokenmc/tokenmc/model"

// The protocol layer asks TimerEnabled about the owner's local state only,
// but the timer modes of algorithms.md §7.3 depend on the network, so
// guardedSystem wraps the compiled protocol and drops the Timer
// transitions the mode forbids before the explorer sees them; everything
// else (labels, snapshots, descriptions, counts) is the protocol layer's.
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

type guardedSystem struct {
	inner model.System
	mode  int
}

func guarded(inner model.System, mode int) model.System {
	return &guardedSystem{inner: inner, mode: mode}
}

func (g *guardedSystem) Info() model.Info { return g.inner.Info() }

func (g *guardedSystem) NewWorker() model.Worker {
	return &guardedWorker{Worker: g.inner.NewWorker(), mode: g.mode}
}

type guardedWorker struct {
	model.Worker
	mode  int
	allow []bool // per process and timer: the mode lets it fire
}

// Successors yields the inner successors minus the Timer transitions the
// mode forbids. The snapshot is taken (and used up) before the inner
// Successors runs, since both share the worker's scratch memory.
func (w *guardedWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	v := w.Worker.Snapshot(state).(*model.View[Proc, Msg])
	n := v.Processes()
	if cap(w.allow) < 2*n {
		w.allow = make([]bool, 2*n)
	}
	w.allow = w.allow[:2*n]
	for k := range w.allow {
		w.allow[k] = true
	}
	dup := false
	v.Messages(func(m *Msg, copies int) {
		dup = dup || copies > 1
		switch m.Kind {
		case GEN:
			w.allow[2*m.From+T1] = false
		case ISC:
			w.allow[2*m.From+T2] = false
		case START:
			if w.mode == TimersQuiescent {
				w.allow[2*m.From+T2] = false
			}
		case COMPLETE:
			if w.mode == TimersQuiescent {
				w.allow[2*m.To+T2] = false
			}
		}
	})
	quiet := v.InTransit() == 0
	for i := range n {
		if dup {
			w.allow[2*i+T1], w.allow[2*i+T2] = false, false
		}
		if w.mode == TimersQuiescent && !quiet {
			w.allow[2*i+T1] = false
		}
	}
	w.Worker.Successors(state, func(t *model.Transition, next []byte) bool {
		if t.Kind == model.Timer && !w.allow[2*t.Proc+t.Arg] {
			return true
		}
		return yield(t, next)
	})
}
