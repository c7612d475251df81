package traces_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// A trace of Suzuki-Kasami written before it had a FormatProc (no text)
// replays, and so does one whose text was edited: text is a rendering of
// vars, not part of the state. Its views show the text.
func TestReplayIgnoresText(t *testing.T) {
	tr, err := traces.ReadFile("../cmd/cli/testdata/suzuki-kasami_send-in-cs.mutex.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Initial.Processes[0].Text != "" {
		t.Fatal("the test wants a trace written without text")
	}
	a, v, err := algorithms.Lookup(tr.Algorithm)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, tr.Params)
	if err != nil {
		t.Fatal(err)
	}
	if text := sys.NewWorker().Describe(mustInitial(t, sys)).Processes[0].Text; !strings.HasPrefix(text, "RN=[") {
		t.Fatalf("suzuki-kasami's Describe gives text %q, want its FormatProc's RN=[...]", text)
	}
	for _, edit := range []string{"", "anything"} {
		for i := range tr.Steps {
			tr.Steps[i].State.Processes[0].Text = edit
		}
		res, err := traces.Replay(sys, invariants.Standard(), tr)
		if err != nil || !res.OK {
			t.Fatalf("text %q: the trace does not replay: %+v %v", edit, res, err)
		}
	}
	f := traces.DisplayFields(&tr.Steps[0].State.Processes[0], false)
	if last := f[len(f)-1]; last.Name != "state" || last.Value != "anything" || len(f) != 3 {
		t.Errorf("DisplayFields with a text: %v, want phase, made, state", f)
	}
}

func mustInitial(t *testing.T, sys model.System) []byte {
	t.Helper()
	var s []byte
	sys.NewWorker().Initial(func(b []byte) bool { s = bytes.Clone(b); return false })
	if s == nil {
		t.Fatal("no initial state")
	}
	return s
}
