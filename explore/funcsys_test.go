package explore

import (
	"fmt"
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// funcSys is a model.System given by a successor function over raw byte
// states, for tests that need states crafted byte by byte (exact depths,
// near-colliding fingerprints, violations placed in chosen chunks).
type funcSys struct {
	name string
	init [][]byte
	// succ returns the successors of s in order; a step marked bad
	// violates the transition invariant badStep.
	succ func(s []byte) []edge
	// onSucc, if set, runs at every Successors call (a test cancels its
	// context from it).
	onSucc func()
}

type edge struct {
	to  []byte
	bad bool
}

// flagBad marks a bad step in Transition.Flags.
const flagBad = model.Flags(1 << 30)

func (f *funcSys) Info() model.Info {
	return model.Info{Name: f.name, Processes: 1, Requests: 1, Groups: 1}
}

func (f *funcSys) NewWorker() model.Worker { return &funcWorker{f: f} }

type funcWorker struct {
	f    *funcSys
	snap funcSnap
	tr   model.Transition
}

func (w *funcWorker) Initial(yield func([]byte) bool) {
	for _, s := range w.f.init {
		if !yield(s) {
			return
		}
	}
}

func (w *funcWorker) Successors(s []byte, yield func(*model.Transition, []byte) bool) {
	if w.f.onSucc != nil {
		w.f.onSucc()
	}
	for i, e := range w.f.succ(s) {
		w.tr = model.Transition{Kind: model.Timer, Arg: i}
		if e.bad {
			w.tr.Flags = flagBad
		}
		if !yield(&w.tr, e.to) {
			return
		}
	}
}

func (w *funcWorker) Snapshot(s []byte) model.Snapshot {
	w.snap.s = s
	return &w.snap
}

func (w *funcWorker) Label(s []byte, t *model.Transition) string {
	return fmt.Sprintf("step %d of %v", t.Arg, s)
}

func (w *funcWorker) Describe([]byte) model.StateDescription { return model.StateDescription{} }

// funcSnap exposes the raw state to the properties of the tests.
type funcSnap struct{ s []byte }

func (s *funcSnap) Processes() int        { return 1 }
func (s *funcSnap) Phase(int) model.Phase { return model.Idle }
func (s *funcSnap) Made(int) int          { return 0 }
func (s *funcSnap) Group(int) int         { return 0 }
func (s *funcSnap) Tokens() int           { return -1 }
func (s *funcSnap) InTransit() int        { return 0 }

// stateIs returns an invariant violated exactly in the states bad accepts.
func stateIs(name string, bad func(s []byte) bool) model.Property {
	return model.Property{Name: name, Kind: model.Invariant,
		Holds: func(s model.Snapshot) bool { return !bad(s.(*funcSnap).s) }}
}

// terminalIs returns a terminal property violated exactly in the terminal
// states bad accepts.
func terminalIs(name string, bad func(s []byte) bool) model.Property {
	return model.Property{Name: name, Kind: model.Terminal,
		Holds: func(s model.Snapshot) bool { return !bad(s.(*funcSnap).s) }}
}

// badStep is the transition invariant violated by the steps marked bad.
var badStep = model.Property{Name: "bad-step", Kind: model.TransitionInvariant,
	HoldsOn: func(t *model.Transition) bool { return t.Flags&flagBad == 0 }}

// grid is dims counters, each 0..k; a step increments one counter. Every
// path to a state has the same length, the sum of its counters, so a
// depth-first search at a depth bound admits exactly the states a
// breadth-first one does.
func grid(dims, k int) *funcSys {
	return &funcSys{
		name: fmt.Sprintf("grid(%d,%d)", dims, k),
		init: [][]byte{make([]byte, dims)},
		succ: func(s []byte) []edge {
			var out []edge
			for i := range s {
				if int(s[i]) < k {
					n := slices.Clone(s)
					n[i]++
					out = append(out, edge{to: n})
				}
			}
			return out
		},
	}
}

// gridCount counts, by enumerating the tuples, the states of grid(dims,
// k) at distance <= d from the origin and their transitions.
func gridCount(dims, k, d int) (states, transitions int64) {
	t := make([]int, dims)
	for {
		sum, open := 0, 0
		for _, x := range t {
			sum += x
			if x < k {
				open++
			}
		}
		if sum <= d {
			states++
			transitions += int64(open)
		}
		i := 0
		for i < dims && t[i] == k {
			t[i] = 0
			i++
		}
		if i == dims {
			return
		}
		t[i]++
	}
}
