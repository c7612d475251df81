package model

// Sampler is an optional capability of a Worker: it lists the enabled
// transitions of a state without computing their successors, and computes
// the successor of one chosen transition. A random walk needs one successor
// per step, not all of them; with a Sampler a step costs one parse, one
// enumeration and one encoding instead of one encoding per enabled
// transition. Workers of Protocol systems implement it; callers
// type-assert and fall back to Successors otherwise.
type Sampler interface {
	// Enabled appends to dst the enabled transitions of state, in
	// Successors order, and returns the extended slice. Flags are zero
	// (they are known only once a transition runs) and Msg aliases state.
	Enabled(dst []Transition, state []byte) []Transition
	// Apply runs t, one of the transitions Enabled returned for state, and
	// returns the successor. It sets t.Flags as Successors would (and
	// t.Proc, for a delivery listed without its receiver). The
	// result is valid until the next call on the worker; state must not be
	// a slice the worker returned (copy a successor before passing it
	// back), since the worker writes the successor into its own memory.
	Apply(state []byte, t *Transition) []byte
}

var _ Sampler = (*protocolWorker[int, int])(nil)

// Enabled implements Sampler, in the order of Successors.
func (w *protocolWorker[P, M]) Enabled(dst []Transition, state []byte) []Transition {
	w.parse(state)
	if w.p.Guard != nil {
		clear(w.view.decoded)
	}
	return w.enabled(dst, true)
}

// EnabledAfter implements IncrementalSnapshotter.
func (w *protocolWorker[P, M]) EnabledAfter(dst []Transition, receivers bool) []Transition {
	return w.enabled(dst, receivers)
}

func (w *protocolWorker[P, M]) enabled(dst []Transition, receivers bool) []Transition {
	p := w.p
	for i := range w.procs {
		ps := w.procs[i]
		switch ps.phase {
		case Idle:
			if p.Cyclic || ps.made < p.R {
				for g := range p.Groups {
					dst = w.appendAllowed(dst, Transition{Kind: Request, Proc: i, Arg: g}, nil)
				}
			}
		case InCS:
			dst = w.appendAllowed(dst, Transition{Kind: Exit, Proc: i}, nil)
		}
		if p.Timers > 0 {
			for k := range p.Timers {
				w.decodeSelf(i)
				if p.TimerEnabled(i, ps.phase, &w.self, k) {
					dst = w.appendAllowed(dst, Transition{Kind: Timer, Proc: i, Arg: k}, nil)
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
		dst = w.appendAllowed(dst, Transition{Kind: Deliver, Proc: to, Arg: k, Msg: w.bytesOf(w.msgs[k].b)}, &w.msg)
	}
	if w.faults < p.Faults {
		for k := range w.msgs {
			w.decodeMsg(k)
			if p.CanLose != nil && !p.CanLose(&w.msg) {
				continue
			}
			dst = w.appendAllowed(dst, Transition{Kind: Lose, Proc: p.To(&w.msg), Arg: k, Msg: w.bytesOf(w.msgs[k].b)}, &w.msg)
		}
	}
	return dst
}

// appendAllowed appends t to dst if Protocol.Guard (if any) allows it.
func (w *protocolWorker[P, M]) appendAllowed(dst []Transition, t Transition, m *M) []Transition {
	if w.p.Guard != nil && !w.allowed(&t, m) {
		return dst
	}
	return append(dst, t)
}

// Apply implements Sampler. It reuses the parse of state when Enabled (or
// any other method) parsed the same slice last.
func (w *protocolWorker[P, M]) Apply(state []byte, t *Transition) []byte {
	if len(state) == 0 || len(w.state) != len(state) || &w.state[0] != &state[0] {
		w.parse(state)
	}
	if t.Kind == Deliver || t.Kind == Lose {
		w.decodeMsg(t.Arg)
		t.Proc = w.p.To(&w.msg)
	}
	w.step(t, keepGoing)
	return w.next
}

func keepGoing(*Transition, []byte) bool { return true }

// SnapshotAfter is Snapshot(next) for a state next that Apply produced by
// running t on the state of this worker's previous Snapshot or
// SnapshotAfter call (no other call may come in between but Enabled and
// Apply). It reuses the local states that snapshot decoded for every
// process but t.Proc, which a step does not change, so properties that look
// at every process (single-token, say) do not decode N locals per step.
func (w *protocolWorker[P, M]) SnapshotAfter(next []byte, t *Transition) Snapshot {
	w.parse(next)
	if w.norm != nil {
		clear(w.view.decoded) // normalisation may change every process
	} else if t.Kind != Lose {
		w.view.decoded[t.Proc] = false
	}
	return &w.view
}

// IncrementalSnapshotter is implemented by workers that can take the
// snapshot of a successor incrementally (see protocolWorker.SnapshotAfter).
type IncrementalSnapshotter interface {
	SnapshotAfter(next []byte, t *Transition) Snapshot
	// EnabledAfter is Sampler.Enabled for the state of the latest
	// Snapshot or SnapshotAfter call, without parsing it again. With
	// receivers false, deliveries are listed with Proc -1 (their messages
	// are not decoded; Apply fills Proc in): for strategies that do not
	// look at the acting process.
	EnabledAfter(dst []Transition, receivers bool) []Transition
}

var _ IncrementalSnapshotter = (*protocolWorker[int, int])(nil)
