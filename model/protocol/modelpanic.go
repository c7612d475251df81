package protocol

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// ModelPanic is a panic of a model's own code (a protocol's handler or
// hook, or any model.Worker's Successors) while a state was stepped: the
// model under check failed, not the checker. The protocol layer re-panics
// with a *ModelPanic that names the action it was running and the
// handler or hook that panicked; tokenmc's checker, random walks and
// replays turn any other panic of a worker's Successors into one.
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

// PanicsAsModelPanic marks this package's workers for tokenmc's stepper
// (internal/modelstep): every panic of the protocol's code leaves their
// Successors as a *ModelPanic, and they never recover a panic of yield,
// so yield need not be wrapped.
func (w *protocolWorker[P, M]) PanicsAsModelPanic() {}

// PanicsAsModelPanic: see protocolWorker's.
func (c *plainWorker[P, M]) PanicsAsModelPanic() {}

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
func (l *localWorker[P, M]) catchStep(i int, ev protosys.LocalEvent) {
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
