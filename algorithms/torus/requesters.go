package torus

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// Restrict returns sys with Request enabled only for the processes in the
// bit mask requesters (bit i: process i may request); the others never
// request but still relay requests and the token. 0 means every process.
// The design notes (algorithms.md §9.3) expect the repaired torus at d = 3
// to be starvation-free with requesters {0,1,2,4} and {0,1,3,4}, R = 1: a
// restricted set keeps d = 3 small enough to search.
func Restrict(sys model.System, requesters int) (model.System, error) {
	n := sys.Info().Processes
	if requesters == 0 {
		return sys, nil
	}
	if requesters < 0 || (n < 62 && requesters >= 1<<n) {
		return nil, fmt.Errorf("requesters=%d is not a bit mask of the %d processes (1..%d; 0: all)", requesters, n, 1<<n-1)
	}
	return restricted{inner: sys, mask: uint64(requesters)}, nil
}

// RequesterMask parses a list of process ids into a bit mask.
func RequesterMask(ids ...int) int {
	m := 0
	for _, i := range ids {
		m |= 1 << i
	}
	return m
}

type restricted struct {
	inner model.System
	mask  uint64
}

func (r restricted) Info() model.Info { return r.inner.Info() }

// NewWorker wraps the inner worker; when it has the optional capabilities
// of protocol workers (Sampler, IncrementalSnapshotter, LastSnapshotter),
// so does the wrapper, with the masked requests filtered out, so that
// random walks and measurements keep their fast paths.
func (r restricted) NewWorker() model.Worker {
	base := &restrictedWorker{Worker: r.inner.NewWorker(), mask: r.mask}
	if f, ok := base.Worker.(fastWorker); ok {
		return &restrictedFast{restrictedWorker: base, fast: f}
	}
	return base
}

// masked reports whether t is a request of a process outside mask.
func masked(mask uint64, t *model.Transition) bool {
	return t.Kind == model.Request && (t.Proc >= 64 || mask&(1<<uint(t.Proc)) == 0)
}

type restrictedWorker struct {
	model.Worker
	mask uint64
}

func (w *restrictedWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	w.Worker.Successors(state, func(t *model.Transition, next []byte) bool {
		if masked(w.mask, t) {
			return true
		}
		return yield(t, next)
	})
}

// fastWorker is what a protocol worker offers beyond model.Worker.
type fastWorker interface {
	model.Worker
	model.Sampler
	model.IncrementalSnapshotter
	model.LastSnapshotter
}

type restrictedFast struct {
	*restrictedWorker
	fast fastWorker
}

func (w *restrictedFast) filter(dst []model.Transition, from int) []model.Transition {
	out := dst[:from]
	for _, t := range dst[from:] {
		if !masked(w.mask, &t) {
			out = append(out, t)
		}
	}
	return out
}

// Enabled implements model.Sampler.
func (w *restrictedFast) Enabled(dst []model.Transition, state []byte) []model.Transition {
	n := len(dst)
	return w.filter(w.fast.Enabled(dst, state), n)
}

// Apply implements model.Sampler.
func (w *restrictedFast) Apply(state []byte, t *model.Transition) []byte {
	return w.fast.Apply(state, t)
}

// EnabledAfter implements model.IncrementalSnapshotter.
func (w *restrictedFast) EnabledAfter(dst []model.Transition, receivers bool) []model.Transition {
	n := len(dst)
	return w.filter(w.fast.EnabledAfter(dst, receivers), n)
}

// SnapshotAfter implements model.IncrementalSnapshotter.
func (w *restrictedFast) SnapshotAfter(next []byte, t *model.Transition) model.Snapshot {
	return w.fast.SnapshotAfter(next, t)
}

// LastSnapshot implements model.LastSnapshotter.
func (w *restrictedFast) LastSnapshot() model.Snapshot { return w.fast.LastSnapshot() }
