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
	if requesters < 0 || requesters >= 1<<n {
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

func (r restricted) NewWorker() model.Worker {
	return &restrictedWorker{Worker: r.inner.NewWorker(), mask: r.mask}
}

type restrictedWorker struct {
	model.Worker
	mask uint64
}

func (w *restrictedWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	w.Worker.Successors(state, func(t *model.Transition, next []byte) bool {
		if t.Kind == model.Request && w.mask&(1<<uint(t.Proc)) == 0 {
			return true
		}
		return yield(t, next)
	})
}
