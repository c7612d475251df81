package traces_test

import (
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/traces"
)

// again marks the second copy of a transition in twiceSystem.
const again = 1000

// twiceSystem yields every transition of the inner system twice, the
// second copy labelled "... again": two transitions with one target, which
// only the recorded action index tells apart.
type twiceSystem struct{ model.System }

func (s twiceSystem) NewWorker() model.Worker { return twiceWorker{s.System.NewWorker()} }

type twiceWorker struct{ model.Worker }

func (w twiceWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	w.Worker.Successors(state, func(tr *model.Transition, next []byte) bool {
		if !yield(tr, next) {
			return false
		}
		c := *tr
		c.Choice += again
		return yield(&c, next)
	})
}

func (w twiceWorker) Label(state []byte, tr *model.Transition) string {
	if tr.Choice >= again {
		c := *tr
		c.Choice -= again
		return w.Worker.Label(state, &c) + " again"
	}
	return w.Worker.Label(state, tr)
}

// stepsViolation is a Violation that knows its actions (ViolationSteps);
// plainViolation is one that does not, as a user's own type may be.
type stepsViolation struct {
	prop    model.Property
	states  [][]byte
	actions []int
}

func (v stepsViolation) Violated() (model.Property, [][]byte) { return v.prop, v.states }
func (v stepsViolation) ViolatedActions() []int               { return v.actions }

type plainViolation struct {
	prop   model.Property
	states [][]byte
}

func (v plainViolation) Violated() (model.Property, [][]byte) { return v.prop, v.states }

// TestFromStepsRecordsTheActionTaken builds the eager-mutex trace on a
// system whose every transition has a twin with the same target: given
// the twins' indices (odd), FromSteps and FromViolation record the twins;
// without them (FromPath, a Violation without ViolatedActions) the first
// transition to each target is recorded, as before.
func TestFromStepsRecordsTheActionTaken(t *testing.T) {
	f := eagerMutex
	sys := twiceSystem{f.system()}
	states := walk(sys, f.labels...)
	w := sys.NewWorker()
	var actions []int
	for k, label := range f.labels {
		tk, _, _ := traces.StepLabel(w, states[k], label+" again")
		if tk == nil || tk.Index%2 != 1 {
			t.Fatalf("step %d: twin of %q: %+v", k+1, label, tk)
		}
		actions = append(actions, tk.Index)
	}
	labels := func(tr *traces.Trace) string {
		var out []string
		for _, s := range tr.Steps {
			out = append(out, s.Action)
		}
		return strings.Join(out, "; ")
	}
	first, twins := strings.Join(f.labels, "; "), strings.Join(f.labels, " again; ")+" again"

	tr, err := traces.FromSteps(w, f.meta(), states, actions)
	if err != nil || labels(tr) != twins {
		t.Fatalf("FromSteps: %v, steps %s, want %s", err, labels(tr), twins)
	}
	if tr, err = traces.FromSteps(w, f.meta(), states, nil); err != nil || labels(tr) != first {
		t.Fatalf("FromSteps without actions: %v, steps %s, want %s", err, labels(tr), first)
	}
	v := stepsViolation{invariants.Mutex, states, actions}
	if tr, err = traces.FromViolation(sys, v); err != nil || labels(tr) != twins {
		t.Fatalf("FromViolation(ViolationSteps): %v, steps %s, want %s", err, labels(tr), twins)
	}
	if tr, err = traces.FromViolation(sys, plainViolation{v.prop, v.states}); err != nil || labels(tr) != first {
		t.Fatalf("FromViolation(plain Violation): %v, steps %s, want %s", err, labels(tr), first)
	}
	// Actions that do not lead along the path (the path was replaced
	// after the search) fall back to the lookup by target.
	stale := append([]int{2}, actions[1:]...) // Request(P1) first: not to states[1]
	if tr, err = traces.FromViolation(sys, stepsViolation{invariants.Mutex, states, stale}); err != nil || labels(tr) != first {
		t.Fatalf("FromViolation with stale actions: %v, steps %s, want %s", err, labels(tr), first)
	}
	// Both readings replay: the twin's label is a transition of the system.
	if res, err := traces.Replay(sys, invariants.Standard(), tr); err != nil || !res.OK {
		t.Fatalf("replay: %v, %+v", err, res)
	}

	// A model-error trace records the twins too, and the failure.
	fail := &protocol.ModelPanic{Value: "boom"}
	if tr, err = traces.FromModelErrorSteps(w, f.meta(), states, actions, fail); err != nil || labels(tr) != twins || tr.ModelError == nil || tr.PropertyKind != traces.KindModelError {
		t.Fatalf("FromModelErrorSteps: %v, steps %s, %+v", err, labels(tr), tr)
	}
	if tr, err = traces.FromModelErrorSteps(w, f.meta(), states, nil, fail); err != nil || labels(tr) != first {
		t.Fatalf("FromModelErrorSteps without actions: %v, steps %s, want %s", err, labels(tr), first)
	}

	bad := append([]int(nil), actions...)
	bad[1] = 0 // Request(P0) again, not a transition to states[2]
	if _, err := traces.FromSteps(w, f.meta(), states, bad); err == nil || !strings.Contains(err.Error(), "does not lead to states[2]") {
		t.Errorf("FromSteps with a wrong action: %v", err)
	}
	if _, err := traces.FromSteps(w, f.meta(), states, actions[1:]); err == nil || !strings.Contains(err.Error(), "needs 4 actions, got 3") {
		t.Errorf("FromSteps with too few actions: %v", err)
	}
}

// TestStepLabel checks what StepLabel returns: the transition, its index
// and its target when the label is enabled, the enabled labels when not.
func TestStepLabel(t *testing.T) {
	sys := twiceSystem{eagerMutex.system()}
	w := sys.NewWorker()
	s0 := walk(sys)[0]
	s1 := walk(sys, "Request(P0)")[1]
	tk, enabled, failed := traces.StepLabel(w, s0, "Request(P1) again")
	if tk == nil || failed != nil || enabled != nil {
		t.Fatalf("Request(P1) again: %+v, %q, %v", tk, enabled, failed)
	}
	if tk.Index != 3 || tk.Label != "Request(P1) again" || tk.Transition.Kind != model.Request || tk.Transition.Proc != 1 {
		t.Errorf("Request(P1) again: index %d, label %q, %+v; want index 3 (the twin of the second transition), a Request by P1", tk.Index, tk.Label, tk.Transition)
	}
	want := walk(sys, "Request(P1)")[1]
	if string(tk.Next) != string(want) {
		t.Errorf("Request(P1) again leads to %x, want %x", tk.Next, want)
	}
	if string(walk(sys, "Request(P0)")[1]) != string(s1) {
		t.Fatal("walk is not deterministic")
	}
	tk, enabled, failed = traces.StepLabel(w, s0, "Exit(P0)")
	if tk != nil || failed != nil || strings.Join(enabled, "; ") != "Request(P0); Request(P0) again; Request(P1); Request(P1) again" {
		t.Errorf("Exit(P0) in the initial state: %+v, enabled %q, %v", tk, enabled, failed)
	}
}
