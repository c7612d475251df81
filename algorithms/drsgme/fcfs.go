package drsgme

import (
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// NameFCFS is the informational property of variant drs-gme/fcfs.
const NameFCFS = "fcfs"

// flagOvertaken marks a transition in which a process enters its CS while
// a process that requested before it is still Waiting.
const flagOvertaken model.Flags = 1 << 16

// fcfsProperty is §VIII's "satisfies the strongest fairness requirement,
// FCFS" read at the level of individual requests (algorithms.md §7.6, D22):
// nobody enters while an earlier requester still waits. Informational: the
// paper's own example (a later request joining an earlier entry of the
// captain's group) breaks it, and so does the model.
func fcfsProperty() model.Property {
	return model.Property{
		Name:    NameFCFS,
		Kind:    model.TransitionInvariant,
		Doc:     "informational (§VIII, D22): no process enters its CS while a process that requested earlier is still Waiting",
		HoldsOn: func(t *model.Transition) bool { return t.Flags&flagOvertaken == 0 },
	}
}

// fcfsSystem adds a history variable to a system: the Waiting processes
// in request order, appended to the state as the pids followed by their
// count (one byte each, N <= 8). It flags entries that overtake.
type fcfsSystem struct{ inner model.System }

func (s fcfsSystem) Info() model.Info { return s.inner.Info() }

func (s fcfsSystem) NewWorker() model.Worker {
	return &fcfsWorker{Worker: s.inner.NewWorker(), probe: s.inner.NewWorker()}
}

type fcfsWorker struct {
	model.Worker
	probe model.Worker // reads phases without disturbing Successors
	out   []byte
	order []byte
}

// split returns the inner state and the request order of state.
func split(state []byte) ([]byte, []byte) {
	k := int(state[len(state)-1])
	return state[:len(state)-1-k], state[len(state)-1-k : len(state)-1]
}

func (w *fcfsWorker) Initial(yield func([]byte) bool) {
	w.Worker.Initial(func(s []byte) bool {
		w.out = append(append(w.out[:0], s...), 0)
		return yield(w.out)
	})
}

func (w *fcfsWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	inner, order := split(state)
	w.Worker.Successors(inner, func(t *model.Transition, next []byte) bool {
		w.order = append(w.order[:0], order...)
		i := t.Proc
		if t.Kind == model.Request {
			w.order = append(w.order, byte(i))
		}
		if t.Kind != model.Lose && w.probe.Snapshot(next).Phase(i) == model.InCS && w.probe.Snapshot(inner).Phase(i) != model.InCS {
			if k := slices.Index(w.order, byte(i)); k >= 0 {
				if k > 0 {
					t.Flags |= flagOvertaken
				}
				w.order = slices.Delete(w.order, k, k+1)
			}
		}
		w.out = append(append(append(w.out[:0], next...), w.order...), byte(len(w.order)))
		return yield(t, w.out)
	})
}

func (w *fcfsWorker) Snapshot(state []byte) model.Snapshot {
	inner, _ := split(state)
	return w.Worker.Snapshot(inner)
}

func (w *fcfsWorker) Label(state []byte, t *model.Transition) string {
	inner, _ := split(state)
	return w.Worker.Label(inner, t)
}

func (w *fcfsWorker) Describe(state []byte) model.StateDescription {
	inner, _ := split(state)
	return w.Worker.Describe(inner)
}
