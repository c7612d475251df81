package protocol_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/modelstep"
)

// initialState returns the (single) initial state of w.
func initialState(w model.Worker) []byte {
	var s []byte
	w.Initial(func(b []byte) bool { s = append([]byte(nil), b...); return false })
	return s
}

// A handler's panic comes out of Successors as a *ModelPanic that names
// the handler and the action; the original value is kept (and unwrapped
// when it is an error).
func TestHandlerPanicIsNamed(t *testing.T) {
	p, err := lelann.New(lelann.Default, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	p.OnRequest = func(c *protocol.Ctx[lelann.Proc, lelann.Msg], _ int) {
		if c.ID == 1 {
			panic(boom)
		}
	}
	w := p.System().NewWorker()
	fired := 0
	f := modelstep.New(w).Successors(initialState(w), func(*model.Transition, []byte) bool { fired++; return true })
	if f == nil {
		t.Fatal("Request(P1) panics, but Successors reports no failure")
	}
	if f.Handler != "OnRequest" || f.Action != "Request(P1)" || !errors.Is(f, boom) {
		t.Errorf("failure %+v: want handler OnRequest, action Request(P1), value boom", f)
	}
	if fired != 1 { // Request(P0) was yielded before P1's panicked
		t.Errorf("%d successors yielded before the panic, want 1", fired)
	}
	if want := "OnRequest panicked on Request(P1): boom"; f.Error() != want {
		t.Errorf("Error() = %q, want %q", f.Error(), want)
	}
	if !strings.Contains(string(f.Stack), "modelpanic_test.go") {
		t.Errorf("the stack does not reach the panicking handler:\n%s", f.Stack)
	}
}

// A panic of the caller's own yield is not the model's: it goes through
// Successors untouched, so that the checker's own bugs stay internal
// errors.
func TestYieldPanicIsNotTheModels(t *testing.T) {
	p, err := lelann.New(lelann.Default, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	w := p.System().NewWorker()
	defer func() {
		r := recover()
		if r != "checker bug" {
			t.Fatalf("recovered %#v, want the yield's own panic value", r)
		}
	}()
	modelstep.New(w).Successors(initialState(w), func(*model.Transition, []byte) bool { panic("checker bug") })
	t.Fatal("the yield's panic was swallowed")
}

// panicWorker is a model.Worker not built by the protocol layer whose
// Successors panics: its failure has the value but no action or handler.
type panicWorker struct{ model.Worker }

func (panicWorker) Successors([]byte, func(*model.Transition, []byte) bool) { panic("plain") }

func TestPlainWorkerPanic(t *testing.T) {
	f := modelstep.New(panicWorker{}).Successors(nil, func(*model.Transition, []byte) bool { return true })
	if f == nil || f.Value != "plain" || f.Action != "" || f.Handler != "" || f.Error() != "the model panicked: plain" {
		t.Fatalf("failure %+v, want the value plain with no action or handler", f)
	}
}
