package chart

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// A trace holding a 1 MiB action, message and variable renders in a few
// KiB with the cuts said, in every format, and the trace itself is left
// as it was (a hand-edited trace with an 80 MiB string made show --format
// html hold 2 GB).
func TestLongStringsClipped(t *testing.T) {
	tr, err := traces.ReadFile("../../cli/testdata/suzuki-kasami_send-in-cs.mutex.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 1<<20)
	tr.Steps[0].Action += big
	vars, _ := json.Marshal(map[string]string{"zz": big})
	tr.Steps[0].State.Processes[0].Vars = vars
	tr.Steps[1].State.Processes[1].Phase = big
	c := FromTrace(tr)
	for name, render := range map[string]func(*bytes.Buffer) error{
		"text": func(b *bytes.Buffer) error { return Text(b, c) },
		"svg":  func(b *bytes.Buffer) error { return SVG(b, c) },
		"html": func(b *bytes.Buffer) error { return HTML(b, c) },
	} {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		if b.Len() > 200<<10 {
			t.Errorf("%s: %d bytes for a 4-step trace", name, b.Len())
		}
		if !strings.Contains(b.String(), "bytes more") {
			t.Errorf("%s does not say the label was cut", name)
		}
	}
	if len(tr.Steps[0].State.Processes[0].Vars) != len(vars) || len(tr.Steps[1].State.Processes[1].Phase) != len(big) {
		t.Fatal("the chart changed the trace's states")
	}
	if got := clipText(strings.Repeat("é", MaxText)); !strings.HasPrefix(got, strings.Repeat("é", MaxText/2)+"...") {
		t.Fatalf("a cut inside a rune: %.40q", got)
	}
}
