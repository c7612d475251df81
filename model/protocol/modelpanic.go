package protocol

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// ModelPanic is a panic of a model's own code (a protocol's handler or
// hook, or any model.Worker's Successors) while a state was stepped: the
// model under check failed, not the checker. The protocol layer re-panics
// with a *ModelPanic that names the action it was running and the
// handler or hook that panicked; Successors (the function) turns any
// other panic of a worker's Successors into one.
type ModelPanic struct {
	// Action is the label of the action being stepped (as Worker.Label
	// renders it), e.g. "Deliver REQ(P1->P0, sn=1)"; "" when the model
	// did not say (a panic outside any action, or a worker not built by
	// this package).
	Action string
	// Handler names the protocol's function that panicked: "OnRequest",
	// "OnExit", "OnDeliver", "OnTimer" or "Guard"; "" when the panic came
	// from elsewhere (an encoder, Normalize, a worker not built by this
	// package).
	Handler string
	// Value is the value the code panicked with; Stack the goroutine's
	// stack where it was recovered (the panicking frame near the top).
	Value any
	Stack []byte
}

// Error renders the failure in one line, e.g. "OnDeliver panicked on
// Deliver REQ(P1->P0, sn=1): runtime error: index out of range [3] with
// length 3".
func (e *ModelPanic) Error() string {
	who := "the model"
	if e.Handler != "" {
		who = e.Handler
	}
	on := ""
	if e.Action != "" {
		on = " on " + e.Action
	}
	v := strings.ReplaceAll(fmt.Sprint(e.Value), "\n", " ")
	return fmt.Sprintf("%s panicked%s: %s", who, on, v)
}

// Unwrap returns Value if it is an error.
func (e *ModelPanic) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Successors runs w.Successors(state, yield) and returns nil, or, if the
// worker panicked, its panic as a *ModelPanic (as the protocol layer
// raised it, or wrapping any other value with the stack where it was
// recovered). A panic of yield itself (the caller's own code) is not the
// model's: it is not recovered and goes on up. It allocates; a Stepper
// does the same without allocating per call.
func Successors(w model.Worker, state []byte, yield func(*model.Transition, []byte) bool) *ModelPanic {
	return NewStepper(w).Successors(state, yield)
}

// Stepper calls a worker's Successors as the function Successors does,
// without allocating per call. It is used by one goroutine at a time.
type Stepper struct {
	w       model.Worker
	yield   func(*model.Transition, []byte) bool
	inYield bool
	call    func(*model.Transition, []byte) bool // s.through, made once
	// direct: w is this package's worker, which raises every failure of
	// the model's code as a *ModelPanic and never recovers a panic of
	// yield, so any other panic is the caller's and yield need not be
	// wrapped (one indirect call less per transition)
	direct bool
}

// panicsAsModelPanic is implemented by this package's workers: every
// panic of the protocol's code leaves their Successors as a *ModelPanic.
type panicsAsModelPanic interface{ panicsAsModelPanic() }

func (w *protocolWorker[P, M]) panicsAsModelPanic() {}
func (c *plainWorker[P, M]) panicsAsModelPanic()    {}

// NewStepper returns a Stepper of w.
func NewStepper(w model.Worker) *Stepper {
	s := &Stepper{w: w}
	s.call = s.through
	_, s.direct = w.(panicsAsModelPanic)
	return s
}

// Successors is the function Successors on the Stepper's worker.
func (s *Stepper) Successors(state []byte, yield func(*model.Transition, []byte) bool) (failed *ModelPanic) {
	if s.direct {
		return s.successorsDirect(state, yield)
	}
	s.yield, s.inYield = yield, false
	defer func() {
		s.yield = nil
		if s.inYield {
			return // the caller's panic: let it through untouched
		}
		if r := recover(); r != nil {
			failed = asModelPanic(r)
		}
	}()
	s.w.Successors(state, s.call)
	return nil
}

// successorsDirect is Successors on this package's worker: a *ModelPanic
// is the model's failure, any other panic the caller's (re-raised).
func (s *Stepper) successorsDirect(state []byte, yield func(*model.Transition, []byte) bool) (failed *ModelPanic) {
	defer func() {
		if r := recover(); r != nil {
			mp, ok := r.(*ModelPanic)
			if !ok {
				panic(r)
			}
			failed = mp
		}
	}()
	s.w.Successors(state, yield)
	return nil
}

func (s *Stepper) through(t *model.Transition, next []byte) bool {
	s.inYield = true
	ok := s.yield(t, next)
	s.inYield = false
	return ok
}

// asModelPanic returns r as a *ModelPanic, wrapping it if need be.
func asModelPanic(r any) *ModelPanic {
	if mp, ok := r.(*ModelPanic); ok {
		return mp
	}
	return &ModelPanic{Value: r, Stack: debug.Stack()}
}

// Hooks that protocolWorker.hook names (ModelPanic.Handler).
const (
	hookNone    = ""
	hookGuard   = "Guard"
	hookRequest = "OnRequest"
	hookExit    = "OnExit"
	hookDeliver = "OnDeliver"
	hookTimer   = "OnTimer"
)

// handlerOf names the handler of an action kind.
func handlerOf(k model.ActionKind) string {
	switch k {
	case model.Request:
		return hookRequest
	case model.Exit:
		return hookExit
	case model.Deliver:
		return hookDeliver
	case model.Timer:
		return hookTimer
	}
	return hookNone
}

// catch is deferred by Successors: a panic of the protocol's code becomes
// a *ModelPanic naming the action being stepped (w.tr, when w.acting) and
// the handler (w.hook). A panic while the worker was yielding is the
// caller's: it is not recovered.
func (w *protocolWorker[P, M]) catch() {
	if w.yielding {
		return
	}
	r := recover()
	if r == nil {
		return
	}
	if mp, ok := r.(*ModelPanic); ok {
		panic(mp)
	}
	mp := &ModelPanic{Value: r, Stack: debug.Stack(), Handler: w.hook}
	if w.actingOn {
		t := w.tr
		mp.Action = w.safeLabel(&t)
	}
	w.hook, w.actingOn = hookNone, false
	panic(mp)
}

// safeLabel is label(t), or a generic rendering if the protocol's
// FormatMsg or DecodeMsg panics too.
func (w *protocolWorker[P, M]) safeLabel(t *model.Transition) (l string) {
	defer func() {
		if recover() != nil {
			l = fmt.Sprintf("%s of P%d", t.Kind, t.Proc)
		}
	}()
	return w.label(t)
}

// catchStep is deferred by LocalWorker.Step: a panic of the protocol's
// code becomes a *ModelPanic naming the event and its handler.
func (l *localWorker[P, M]) catchStep(i int, ev LocalEvent) {
	r := recover()
	if r == nil {
		return
	}
	if mp, ok := r.(*ModelPanic); ok {
		panic(mp)
	}
	t := model.Transition{Kind: ev.Kind, Proc: i, Arg: ev.Arg, Msg: ev.Msg}
	panic(&ModelPanic{Value: r, Stack: debug.Stack(), Handler: handlerOf(ev.Kind), Action: l.w.safeLabel(&t)})
}
