package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cutLog writes the first k lines of file (header included) to a
// temporary file and returns its path.
func cutLog(t *testing.T, file string, k int) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	out := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(out, []byte(strings.Join(lines[:k], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// Issue 21: a log cut in the middle of a step is a prefix of a behaviour
// (exit 0), at every cut; with --complete the run claims to have ended
// cleanly, and the cut after P0's request (whose token is P0's own: it
// enters in that step) lacks the enter.
func TestValidateCutLogs(t *testing.T) {
	data, err := os.ReadFile(logDir + "suzuki-kasami.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(data), "\n")
	for k := 1; k <= n; k++ {
		runCLI(t, "validate", "--quiet", cutLog(t, logDir+"suzuki-kasami.jsonl", k)).wantCode(t, exitOK)
	}
	cut := cutLog(t, logDir+"suzuki-kasami.jsonl", 2) // the header and P0's request
	r := runCLI(t, "validate", "--complete", cut)
	r.wantCode(t, exitViolation)
	if !strings.Contains(r.stdout, "the model's step Request(P0) (line 2) enters P0's CS, which the log does not show") {
		t.Fatalf("--complete:\n%s", r.stdout)
	}
	runCLI(t, "validate", "--complete", logDir+"suzuki-kasami.jsonl").wantCode(t, exitOK)
}

// --all lists every divergence in --json; --atomic keeps the old check;
// a log with a process that never requests gets a note.
func TestValidateAllAtomicNotes(t *testing.T) {
	r := runCLI(t, "validate", "--all", "--json", logDir+"edited-enter-without-token.jsonl")
	r.wantCode(t, exitViolation)
	var rep validateReport
	r.decodeJSON(t, &rep)
	if len(rep.Divergences) == 0 || rep.Divergences[0].Line != 10 || rep.Line != 10 {
		t.Fatalf("--all: %+v", rep)
	}
	r = runCLI(t, "validate", "--atomic", logDir+"edited-enter-without-token.jsonl")
	r.wantCode(t, exitViolation)
	if !strings.Contains(r.stdout, "line 10 (P1 #4 enter) cannot be explained: the log has P1 enter its CS but the model's step Request(P1) does not enter (P1 is Waiting after it)") {
		t.Fatalf("--atomic:\n%s", r.stdout)
	}
	cut := cutLog(t, logDir+"suzuki-kasami.jsonl", 4) // P0 requests and enters, P2 requests
	r = runCLI(t, "validate", cut)
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "note: P1 never requested the CS in this log") {
		t.Fatalf("no note:\n%s", r.stdout)
	}
	runCLI(t, "validate", "--all", "--follow", cut).wantCode(t, exitBadInput)
}
