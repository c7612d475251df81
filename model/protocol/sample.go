package protocol

import "github.com/tokenmc/tokenmc/model"

// The worker implements the optional capabilities of explore/simulate
// (Sampler and IncrementalSnapshotter) structurally; the simulator's tests
// assert it on a real protocol.
var _ interface {
	Enabled(dst []model.Transition, state []byte) []model.Transition
	Apply(state []byte, t *model.Transition) []byte
	SnapshotAfter(next []byte, t *model.Transition) model.Snapshot
	EnabledAfter(dst []model.Transition, receivers bool) []model.Transition
} = (*protocolWorker[int, int])(nil)

// Enabled implements the random walks' Sampler capability (explore/internal/capability), in the order of Successors.
func (w *protocolWorker[P, M]) Enabled(dst []model.Transition, state []byte) []model.Transition {
	w.parse(state)
	if w.p.Guard != nil {
		clear(w.view.decoded)
	}
	return w.enabled(dst, true)
}

// EnabledAfter implements the random walks' IncrementalSnapshotter capability.
func (w *protocolWorker[P, M]) EnabledAfter(dst []model.Transition, receivers bool) []model.Transition {
	return w.enabled(dst, receivers)
}

func (w *protocolWorker[P, M]) enabled(dst []model.Transition, receivers bool) []model.Transition {
	p := w.p
	for i := range w.procs {
		ps := w.procs[i]
		switch ps.phase {
		case model.Idle:
			if p.Cyclic || ps.made < p.R {
				for g := range p.Groups {
					dst = w.appendAllowed(dst, model.Transition{Kind: model.Request, Proc: i, Arg: g}, nil)
				}
			}
		case model.InCS:
			dst = w.appendAllowed(dst, model.Transition{Kind: model.Exit, Proc: i}, nil)
		}
		if p.Timers > 0 {
			for k := range p.Timers {
				w.decodeSelf(i)
				if p.TimerEnabled(i, ps.phase, &w.self, k) {
					dst = w.appendAllowed(dst, model.Transition{Kind: model.Timer, Proc: i, Arg: k}, nil)
				}
			}
		}
	}
	for k := range w.msgs {
		to := -1
		if receivers || p.Guard != nil {
			w.decodeMsg(k)
			to = p.To(&w.msg)
		}
		dst = w.appendAllowed(dst, model.Transition{Kind: model.Deliver, Proc: to, Arg: k, Msg: w.bytesOf(w.msgs[k].b)}, &w.msg)
	}
	if w.faults < p.Faults {
		for k := range w.msgs {
			w.decodeMsg(k)
			if p.CanLose != nil && !p.CanLose(&w.msg) {
				continue
			}
			dst = w.appendAllowed(dst, model.Transition{Kind: model.Lose, Proc: p.To(&w.msg), Arg: k, Msg: w.bytesOf(w.msgs[k].b)}, &w.msg)
		}
	}
	return dst
}

// appendAllowed appends t to dst if Protocol.Guard (if any) allows it.
func (w *protocolWorker[P, M]) appendAllowed(dst []model.Transition, t model.Transition, m *M) []model.Transition {
	if w.p.Guard != nil && !w.allowed(&t, m) {
		return dst
	}
	return append(dst, t)
}

// Apply implements Sampler. It reuses the parse of state when Enabled (or
// any other method) parsed the same slice last.
func (w *protocolWorker[P, M]) Apply(state []byte, t *model.Transition) []byte {
	// A random walk does not use the memos: their tables grow with the
	// distinct steps a run meets (up to their bound), and a run must not
	// allocate with its length (TestLongRunMemory).
	w.memoOn = false
	if len(state) == 0 || len(w.state) != len(state) || &w.state[0] != &state[0] {
		w.parse(state)
	}
	if t.Kind == model.Deliver || t.Kind == model.Lose {
		w.decodeMsg(t.Arg)
		t.Proc = w.p.To(&w.msg)
	}
	w.step(t, keepGoing)
	return w.next
}

func keepGoing(*model.Transition, []byte) bool { return true }

// SnapshotAfter is Snapshot(next) for a state next that Apply produced by
// running t on the state of this worker's previous Snapshot or
// SnapshotAfter call (no other call may come in between but Enabled and
// Apply). It reuses the local states that snapshot decoded for every
// process but t.Proc, which a step does not change, so properties that look
// at every process (single-token, say) do not decode N locals per step.
func (w *protocolWorker[P, M]) SnapshotAfter(next []byte, t *model.Transition) model.Snapshot {
	w.parse(next)
	if w.norm != nil {
		clear(w.view.decoded) // normalisation may change every process
	} else if t.Kind != model.Lose {
		w.view.decoded[t.Proc] = false
	}
	return &w.view
}
