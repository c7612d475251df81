package simulate

import (
	"context"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/modelstep"
)

// ModelError is a failure of the model under simulation: its code (a
// handler or hook of a protocol, or a worker's Successors) panicked when a
// walk stepped a state (Result.ModelError).
type ModelError struct {
	// Panic is the model's panic as its Successors raises it at the
	// failing state (modelstep.Stepper): the action and handler when
	// the model says, the value and the stack.
	Panic   *protocol.ModelPanic
	Run     int    // the run that failed
	RunSeed uint64 // its own seed, derived from Options.Seed and Run
	// Path holds the states of the run from its initial state to the
	// state whose stepping panicked (not shrunk).
	Path [][]byte
}

// Error returns the panic in one line.
func (e *ModelError) Error() string { return e.Panic.Error() }

// Len is the number of steps of the path.
func (e *ModelError) Len() int { return len(e.Path) - 1 }

// reproduceFailure runs walk k again, recording its choices, up to the
// panic that ended it, and returns the model's failure: the first state of
// the recorded path whose Successors panic, with the path to it. It
// returns nil if the walk does not panic again or no state of its path
// makes the model's Successors panic: the panic was then not the model's.
func reproduceFailure(sys model.System, opts *Options, horizon, k int) *ModelError {
	wk := newWalker(sys, opts, horizon)
	panicked := false
	func() {
		defer func() { panicked = recover() != nil }()
		wk.run(context.Background(), k, wk.ch, true, nil)
	}()
	if !panicked || len(wk.sched) == 0 {
		return nil
	}
	sched := wk.sched // the choices up to and including the step that failed
	cur := append([]byte(nil), wk.initial[sched[0]]...)
	path := [][]byte{cur}
	for step := 1; ; step++ {
		if f := modelstep.New(wk.w).Successors(cur, func(*model.Transition, []byte) bool { return true }); f != nil {
			return &ModelError{Panic: f, Run: k, RunSeed: runSeed(opts.Seed, k), Path: path}
		}
		if step >= len(sched) {
			return nil
		}
		wk.en = wk.st.enabled(wk.en[:0], cur)
		if int(sched[step]) >= len(wk.en) {
			return nil
		}
		t := wk.en[sched[step]]
		cur = append([]byte(nil), wk.st.apply(cur, &t)...)
		path = append(path, cur)
	}
}
