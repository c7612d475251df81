package cli

import (
	"strings"
	"testing"
)

// validate prints the state reached the way the other views do: a
// Suzuki-Kasami process as its FormatProc renders it (RN=...), not as
// raw JSON, and no group column for an algorithm without groups.
func TestValidateStateUsesFormatProc(t *testing.T) {
	r := runCLI(t, "validate", logDir+"send-in-cs.jsonl", "--algo", "suzuki-kasami")
	r.wantCode(t, exitViolation)
	_, state, ok := strings.Cut(r.stdout, "state reached:\n")
	if !ok {
		t.Fatalf("no state reached in:\n%s", r.stdout)
	}
	if !strings.Contains(state, "  P1  Waiting made 1  RN=[0,1,1]\n") {
		t.Errorf("P1 is not shown with its FormatProc rendering:\n%s", state)
	}
	if strings.Contains(state, "group") || strings.Contains(state, `"rn"`) {
		t.Errorf("the state shows a group column or raw JSON:\n%s", state)
	}
}
