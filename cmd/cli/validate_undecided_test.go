package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A full log in which a step's logged effects fit several alternatives of
// a nondeterministic handler that lead to different states gets no
// verdict: "undecided", exit 3, not a violation.
func TestValidateUndecidedLog(t *testing.T) {
	b, err := os.ReadFile("../../traces/eventlog/testdata/any-order-n4.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	const token = `"msg":"TOKEN(->P2, LN=[0,0,0,1], Q=[1,0])"`
	if strings.Count(string(b), token) != 2 {
		t.Fatalf("the recorded log does not send and receive %s once each", token)
	}
	// Hide the token's queue: Exit(P3) appending [1,0] or [0,1] then
	// explains the send equally well.
	edited := strings.ReplaceAll(string(b), token, `"msg":{"kind":"TOKEN"}`)
	path := filepath.Join(t.TempDir(), "ambiguous.jsonl")
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "validate", path)
	r.wantCode(t, exitIncomplete)
	if !strings.Contains(r.stdout, "validate: undecided: ") || strings.Contains(r.stdout, "NOT a behaviour") {
		t.Errorf("stdout %q, want an undecided verdict", r.stdout)
	}
	if r := runCLI(t, "validate", "../../traces/eventlog/testdata/any-order-n4.jsonl"); r.code != exitOK {
		t.Errorf("the recorded log: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
}
