package traces_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// TestReplayWitness: a witness (a behaviour that explains something, not a
// counterexample) replays when every step does, whatever its final state;
// an edited step makes it diverge there; and it renders without claiming a
// violation.
func TestReplayWitness(t *testing.T) {
	tr := eagerMutex.trace(t)
	tr.Property, tr.PropertyKind = "explains-log", "witness"
	tr.Steps = tr.Steps[:2] // a prefix: its end violates nothing
	if res := replay(t, eagerMutex, tr); !res.OK || res.Steps != 2 || !strings.Contains(res.Reason, "witness replays") {
		t.Fatalf("witness prefix: %+v", res)
	}
	tr.Steps[1].Process = 1 - tr.Steps[1].Process
	if res := replay(t, eagerMutex, tr); res.OK || res.DivergedAt != 2 {
		t.Fatalf("edited witness: %+v", res)
	}
	var b bytes.Buffer
	if err := traces.Render(&b, tr); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "a witness of 2 steps") || strings.Contains(out, "is violated") {
		t.Fatalf("rendering:\n%s", out)
	}
}
