package model_test

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// lockSys is a System written directly, without the protocol layer: two
// processes share a lock. A state is the bytes {lock, phase0, made0,
// phase1, made1}, where lock is 0 when free and i+1 when process i holds it.
type lockSys struct{}

func (lockSys) Info() model.Info {
	return model.Info{Name: "lock", Processes: 2, Requests: 1, Groups: 1}
}

func (lockSys) NewWorker() model.Worker { return &lockWorker{} }

type lockWorker struct {
	next []byte
	tr   model.Transition
	snap lockSnap
}

func (w *lockWorker) Initial(yield func([]byte) bool) { yield([]byte{0, 0, 0, 0, 0}) }

func (w *lockWorker) Successors(s []byte, yield func(*model.Transition, []byte) bool) {
	for i := range 2 {
		ph, made := model.Phase(s[1+2*i]), s[2+2*i]
		w.next = append(w.next[:0], s...)
		switch {
		case ph == model.Idle && made == 0: // request once
			w.next[1+2*i], w.next[2+2*i] = byte(model.Waiting), 1
			w.tr = model.Transition{Kind: model.Request, Proc: i}
		case ph == model.Waiting && s[0] == 0: // take the free lock
			w.next[0], w.next[1+2*i] = byte(i+1), byte(model.InCS)
			w.tr = model.Transition{Kind: model.Timer, Proc: i}
		case ph == model.InCS: // leave and release
			w.next[0], w.next[1+2*i] = 0, byte(model.Idle)
			w.tr = model.Transition{Kind: model.Exit, Proc: i}
		default:
			continue
		}
		if !yield(&w.tr, w.next) {
			return
		}
	}
}

func (w *lockWorker) Snapshot(s []byte) model.Snapshot { w.snap = lockSnap(s); return w.snap }

func (w *lockWorker) Label(_ []byte, t *model.Transition) string {
	return fmt.Sprintf("%s(P%d)", t.Kind, t.Proc)
}

func (w *lockWorker) Describe(s []byte) model.StateDescription {
	var d model.StateDescription
	for i := range 2 {
		d.Processes = append(d.Processes, model.ProcessDescription{ID: i, Phase: model.Phase(s[1+2*i]).String(), Made: int(s[2+2*i])})
	}
	return d
}

// lockSnap reads the properties' view of a state from its bytes.
type lockSnap []byte

func (s lockSnap) Processes() int          { return 2 }
func (s lockSnap) Phase(i int) model.Phase { return model.Phase(s[1+2*i]) }
func (s lockSnap) Made(i int) int          { return int(s[2+2*i]) }
func (s lockSnap) Group(int) int           { return 0 }
func (s lockSnap) Tokens() int             { return -1 }
func (s lockSnap) InTransit() int          { return 0 }

// A System written directly over byte states: the explorer checks the
// generic properties (mutex, no-deadlock, ...) on every reachable state:
// 4 local states per process (Idle, Waiting, InCS, Idle after its
// request), 16 pairs less the one with both in the CS.
// Most models are written with package model/protocol instead, which
// compiles per-process handlers into a System.
func Example() {
	sys := lockSys{}
	res, err := explore.Check(context.Background(), sys, explore.Options{
		Properties: invariants.Applicable(invariants.Standard(), sys.Info()),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Verdict, res.States, "states", res.Transitions, "transitions")
	// Output:
	// ok 15 states 20 transitions
}
