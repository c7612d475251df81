package traces_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// TestFromPathSteps checks what FromPath records for each kind of step.
func TestFromPathSteps(t *testing.T) {
	type step struct {
		action, kind string
		process      int
		delivered    string
		sent         []string
	}
	tests := []struct {
		f    fixture
		want []step
	}{
		{eagerMutex, []step{
			{"Request(P0)", "Request", 0, "", nil},
			{"Request(P1)", "Request", 1, "", []string{"REQ(P1->P0)"}},
			{"Deliver REQ(P1->P0)", "Deliver", 0, "REQ(P1->P0)", []string{"TOKEN(P0->P1)"}},
			{"Deliver TOKEN(P0->P1)", "Deliver", 1, "TOKEN(P0->P1)", nil},
		}},
		{lostRequest, []step{
			{"Request(P1)", "Request", 1, "", []string{"REQ(P1->P0)"}},
			{"Lose REQ(P1->P0)", "Lose", 0, "REQ(P1->P0)", nil},
			{"Request(P0)", "Request", 0, "", nil},
			{"Exit(P0)", "Exit", 0, "", nil},
		}},
	}
	for _, tc := range tests {
		tr := tc.f.trace(t)
		if len(tr.Steps) != len(tc.want) {
			t.Fatalf("%s: %d steps, want %d", tc.f.name, len(tr.Steps), len(tc.want))
		}
		for i, s := range tr.Steps {
			got := step{s.Action, s.Kind, s.Process, s.Delivered, s.Sent}
			if s.Index != i+1 || !reflect.DeepEqual(got, tc.want[i]) {
				t.Errorf("%s step %d (index %d): got %+v, want %+v", tc.f.name, i+1, s.Index, got, tc.want[i])
			}
		}
	}

	tr := lostRequest.trace(t)
	if tr.Format != traces.Format || tr.Version != traces.Version || tr.Algorithm != "tiny" ||
		tr.Property != "no-deadlock" || tr.PropertyKind != "terminal" ||
		!reflect.DeepEqual(tr.Params, map[string]int{"n": 2, "r": 1}) ||
		!reflect.DeepEqual(tr.Options, map[string]string{"faults": "1"}) {
		t.Errorf("header: got %+v", tr)
	}
	if got := tr.Steps[1].State.FaultsUsed; got != 1 {
		t.Errorf("faults used after a Lose: %d, want 1", got)
	}
}

// TestFromPathRecordsDescribe: each step's state is Describe of the path's
// state, and the initial state Describe of the first.
func TestFromPathRecordsDescribe(t *testing.T) {
	sys := eagerMutex.system()
	path := walk(sys, eagerMutex.labels...)
	w := sys.NewWorker()
	tr, err := traces.FromPath(w, eagerMutex.meta(), path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tr.Initial, w.Describe(path[0])) {
		t.Errorf("initial state: got %+v, want %+v", tr.Initial, w.Describe(path[0]))
	}
	for i, s := range tr.Steps {
		if want := w.Describe(path[i+1]); !reflect.DeepEqual(s.State, want) {
			t.Errorf("step %d state: got %+v, want %+v", i+1, s.State, want)
		}
	}
}

func TestFromPathErrors(t *testing.T) {
	sys := eagerMutex.system()
	path := walk(sys, eagerMutex.labels...)
	w := sys.NewWorker()
	tests := []struct {
		name string
		meta traces.Meta
		path [][]byte
		want string
	}{
		{"no step", eagerMutex.meta(), path[:1], "a trace needs at least one step"},
		{"not initial", eagerMutex.meta(), path[1:], "states[0] is not an initial state"},
		{"gap", eagerMutex.meta(), [][]byte{path[0], path[2]}, "no transition leads from states[0] to states[1]"},
		{"no property", traces.Meta{Algorithm: "tiny/eager", PropertyKind: model.Invariant}, path, "needs Meta.Algorithm and Meta.Property"},
	}
	for _, tc := range tests {
		_, err := traces.FromPath(w, tc.meta, tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
