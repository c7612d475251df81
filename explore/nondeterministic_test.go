package explore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// ndSys is a two-process system over one-byte states whose successor
// function is not deterministic across workers: the first worker a search
// creates yields the successors of succ in order, every later worker (the
// one that rebuilds a counterexample) changes them as mode says. Phases
// come from phase; a state not in it has both processes Idle.
type ndSys struct {
	succ    map[byte][]ndEdge
	phase   map[byte][2]model.Phase
	mode    ndMode
	workers atomic.Int32
}

type ndEdge struct {
	to   byte
	kind model.ActionKind
	proc int
	arg  int
}

type ndMode int

const (
	ndSame    ndMode = iota // every worker yields the same (deterministic)
	ndReverse               // later workers yield the successors in reverse order
	ndDropOne               // later workers leave out the last successor
)

func (n *ndSys) Info() model.Info {
	return model.Info{Name: "nd", Processes: 2, Requests: 1, Groups: 1}
}

func (n *ndSys) NewWorker() model.Worker {
	return &ndWorker{sys: n, later: n.workers.Add(1) > 1}
}

type ndWorker struct {
	sys   *ndSys
	later bool
	tr    model.Transition
	snap  ndSnap
}

func (w *ndWorker) Initial(yield func([]byte) bool) { yield([]byte{0}) }

func (w *ndWorker) Successors(s []byte, yield func(*model.Transition, []byte) bool) {
	es := slices.Clone(w.sys.succ[s[0]])
	if w.later {
		switch w.sys.mode {
		case ndReverse:
			slices.Reverse(es)
		case ndDropOne:
			if len(es) > 0 {
				es = es[:len(es)-1]
			}
		}
	}
	for _, e := range es {
		w.tr = model.Transition{Kind: e.kind, Proc: e.proc, Arg: e.arg}
		if !yield(&w.tr, []byte{e.to}) {
			return
		}
	}
}

func (w *ndWorker) Snapshot(s []byte) model.Snapshot {
	w.snap = ndSnap{ph: w.sys.phase[s[0]]}
	return &w.snap
}

func (w *ndWorker) Label(s []byte, t *model.Transition) string {
	return fmt.Sprintf("%v P%d %d in %d", t.Kind, t.Proc, t.Arg, s[0])
}

func (w *ndWorker) Describe([]byte) model.StateDescription { return model.StateDescription{} }

type ndSnap struct{ ph [2]model.Phase }

func (s *ndSnap) Processes() int          { return 2 }
func (s *ndSnap) Phase(i int) model.Phase { return s.ph[i] }
func (s *ndSnap) Made(int) int            { return 0 }
func (s *ndSnap) Group(int) int           { return 0 }
func (s *ndSnap) Tokens() int             { return -1 }
func (s *ndSnap) InTransit() int          { return 0 }

// ndTree is the binary tree 0 -> 1, 2; 1 -> 3, 4; 2 -> 5, 6 (timers of
// P0), whose state 5 is bad and whose state 5 has P0 Waiting (a deadlock:
// the leaves have no successors).
func ndTree(mode ndMode) *ndSys {
	t := func(to byte, arg int) ndEdge { return ndEdge{to: to, kind: model.Timer, arg: arg} }
	return &ndSys{
		succ:  map[byte][]ndEdge{0: {t(1, 0), t(2, 1)}, 1: {t(3, 0), t(4, 1)}, 2: {t(5, 0), t(6, 1)}},
		phase: map[byte][2]model.Phase{5: {model.Waiting, model.Idle}},
		mode:  mode,
	}
}

// ndStarve is a starvation lasso: P0 requests (0 -> 1) and waits while P1's
// two timers take turns (1 -> 2 -> 1); from state 1 an unfair request
// (a Request step, which no fairness forces) would let P0 in (state 3).
func ndStarve(mode ndMode) *ndSys {
	waiting := [2]model.Phase{model.Waiting, model.Idle}
	return &ndSys{
		succ: map[byte][]ndEdge{
			0: {{to: 1, kind: model.Request, proc: 0}},
			1: {{to: 2, kind: model.Timer, proc: 1, arg: 0}, {to: 3, kind: model.Request, proc: 1}},
			2: {{to: 1, kind: model.Timer, proc: 1, arg: 1}},
		},
		phase: map[byte][2]model.Phase{1: waiting, 2: waiting, 3: {model.InCS, model.Idle}},
		mode:  mode,
	}
}

// TestNondeterministicSafetyPath: a counterexample whose rebuild re-runs a
// successor function that changed is refused with an error, not a panic
// nor a path to another state; breadth-first search both with the links
// in memory and spilled.
func TestNondeterministicSafetyPath(t *testing.T) {
	bad := model.Property{Name: "not-5", Kind: model.Invariant,
		Holds: func(s model.Snapshot) bool { return s.(*ndSnap).ph[0] != model.Waiting }}
	for _, c := range []struct {
		mode ndMode
		want string // "" for the path 0, 2, 5
	}{
		{ndSame, ""},
		{ndReverse, "reaches state 04 where the search reached state 05"},
		{ndDropOne, "state 00 (step 0 of the path) gave 1 successors where the search took transition 1"},
	} {
		for _, spill := range []int64{0, 1} {
			name := fmt.Sprintf("mode=%d/spill=%d", c.mode, spill)
			res, err := Check(context.Background(), ndTree(c.mode), Options{Properties: []model.Property{bad}, Workers: 1, SpillAbove: spill, WorkDir: t.TempDir()})
			if c.want == "" {
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if res.Violation == nil || !slices.EqualFunc(res.Violation.Path, [][]byte{{0}, {2}, {5}}, slices.Equal) {
					t.Fatalf("%s: violation %+v, want the path 0, 2, 5", name, res.Violation)
				}
				continue
			}
			if err == nil {
				t.Fatalf("%s: no error; result %+v", name, res)
			}
			for _, w := range []string{"nd is not deterministic", c.want, "modeltest.Check"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: error %q does not say %q", name, err, w)
				}
			}
		}
	}
}

// TestNondeterministicLivenessPaths: the deadlock and the starvation lasso
// of a model whose successors changed between the graph's construction
// and the rebuild are refused with an error; with a deterministic model
// the same checks give the expected paths.
func TestNondeterministicLivenessPaths(t *testing.T) {
	for _, c := range []struct {
		name string
		sys  func(ndMode) *ndSys
		want map[ndMode]string
	}{
		{"deadlock", ndTree, map[ndMode]string{
			ndReverse: "state 04 (step 2 of the path) has waiting processes 0 (bit i: process i) where the search recorded 1",
			ndDropOne: "state 00 (step 0 of the path) gave 1 successors where the search took transition 1",
		}},
		{"lasso", ndStarve, map[ndMode]string{
			ndReverse: "state 03 (step 2 of the path) gave 0 successors where the search took transition 0",
			ndDropOne: "state 00 (step 0 of the path) gave 0 successors where the search took transition 0",
		}},
	} {
		res, err := CheckLiveness(context.Background(), c.sys(ndSame), LivenessOptions{Starvation: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		switch c.name {
		case "deadlock":
			if res.Deadlock == nil || !slices.EqualFunc(res.Deadlock.Path, [][]byte{{0}, {2}, {5}}, slices.Equal) {
				t.Fatalf("deadlock %+v, want the path 0, 2, 5", res.Deadlock)
			}
			// 0 -> 2 is state 0's second edge, 2 -> 5 state 2's first.
			if !slices.Equal(res.Deadlock.Actions, []int{1, 0}) {
				t.Fatalf("deadlock actions %v, want [1 0]", res.Deadlock.Actions)
			}
		case "lasso":
			if len(res.Starving) != 1 || !slices.EqualFunc(res.Starving[0].Path, [][]byte{{0}, {1}, {2}, {1}}, slices.Equal) || res.Starving[0].Loop != 1 {
				t.Fatalf("starving %+v, want P0 on 0, 1, 2, 1 looping at 1", res.Starving)
			}
		}
		for _, mode := range []ndMode{ndReverse, ndDropOne} {
			res, err := CheckLiveness(context.Background(), c.sys(mode), LivenessOptions{Starvation: true})
			if err == nil {
				t.Fatalf("%s mode=%d: no error; result %+v", c.name, mode, res)
			}
			for _, w := range []string{"nd is not deterministic", c.want[mode]} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s mode=%d: error %q does not say %q", c.name, mode, err, w)
				}
			}
		}
	}
}
