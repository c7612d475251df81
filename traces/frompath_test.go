package traces_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// TestFromStepsByTargetSteps checks what FromSteps without actions records for each kind of step.
func TestFromStepsByTargetSteps(t *testing.T) {
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
	if tr.Format != "tokenmc-trace" || tr.Version != 1 || tr.Algorithm != "tiny" ||
		tr.Property != "no-deadlock" || tr.PropertyKind != "terminal" ||
		!reflect.DeepEqual(tr.Params, map[string]int{"n": 2, "r": 1}) ||
		!reflect.DeepEqual(tr.Options, map[string]string{"faults": "1"}) {
		t.Errorf("header: got %+v", tr)
	}
	if got := tr.Steps[1].State.FaultsUsed; got != 1 {
		t.Errorf("faults used after a Lose: %d, want 1", got)
	}
}

// TestFromStepsByTargetRecordsStates: the initial state and the state after each
// step are recorded as the states worked out by hand from the rules of
// tiny (see tiny_test.go), written here in their JSON form (the form of a
// trace file): who holds the token, each phase and request count, the
// messages in transit and the faults used.
func TestFromStepsByTargetRecordsStates(t *testing.T) {
	const (
		idle0    = `{"id":0,"phase":"Idle","made":0,"holds_token":true,"vars":{"has":true,"pending":false}}`
		idle1    = `{"id":1,"phase":"Idle","made":0,"vars":{"has":false,"pending":false}}`
		incs0    = `{"id":0,"phase":"InCS","made":1,"holds_token":true,"vars":{"has":true,"pending":false}}`
		waiting1 = `{"id":1,"phase":"Waiting","made":1,"vars":{"has":false,"pending":false}}`
		req      = `{"message":"REQ(P1->P0)","to":0,"count":1}`
	)
	state := func(p0, p1, network string, faults int) string {
		s := `{"processes":[` + p0 + `,` + p1 + `],"network":[` + network + `]`
		if faults > 0 {
			s += fmt.Sprintf(`,"faults_used":%d`, faults)
		}
		return s + `}`
	}
	tests := []struct {
		f    fixture
		want []string // initial state, then after each step
	}{
		{eagerMutex, []string{
			state(idle0, idle1, ``, 0),
			state(incs0, idle1, ``, 0),     // Request(P0): the holder enters
			state(incs0, waiting1, req, 0), // Request(P1): REQ to the holder
			state(`{"id":0,"phase":"InCS","made":1,"vars":{"has":false,"pending":false}}`, waiting1, // eager: the token leaves the CS
				`{"message":"TOKEN(P0->P1)","to":1,"count":1,"token":true}`, 0),
			state(`{"id":0,"phase":"InCS","made":1,"vars":{"has":false,"pending":false}}`, // P1 enters too
				`{"id":1,"phase":"InCS","made":1,"holds_token":true,"vars":{"has":true,"pending":false}}`, ``, 0),
		}},
		{lostRequest, []string{
			state(idle0, idle1, ``, 0),
			state(idle0, waiting1, req, 0), // Request(P1)
			state(idle0, waiting1, ``, 1),  // Lose REQ(P1->P0): one fault used
			state(incs0, waiting1, ``, 1),  // Request(P0): the holder enters
			state(`{"id":0,"phase":"Idle","made":1,"holds_token":true,"vars":{"has":true,"pending":false}}`, waiting1, ``, 1), // Exit(P0): nobody pending
		}},
	}
	for _, tc := range tests {
		tr := tc.f.trace(t)
		got := []model.StateDescription{tr.Initial}
		for _, s := range tr.Steps {
			got = append(got, s.State)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d states, want %d", tc.f.name, len(got), len(tc.want))
		}
		for i := range got {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(got[i]); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want[i]+"\n" {
				t.Errorf("%s, state %d:\n got %s\nwant %s", tc.f.name, i, b.String(), tc.want[i])
			}
		}
	}
}

func TestFromStepsByTargetErrors(t *testing.T) {
	sys := eagerMutex.system()
	path := walk(sys, eagerMutex.labels...)
	w := sys.NewWorker()
	loopOnly, waiting := eagerMutex.meta(), eagerMutex.meta()
	zero := 0
	loopOnly.Loop, waiting.WaitingProcess = &zero, &zero
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
		{"loop without its process", loopOnly, path, "Meta.Loop needs Meta.WaitingProcess"},
		{"possibility without actions", waiting, path, "needs 4 actions, got 0"},
	}
	for _, tc := range tests {
		_, err := traces.FromSteps(w, tc.meta, tc.path, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
