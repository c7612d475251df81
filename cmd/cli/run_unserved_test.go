package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
)

// A run that ends with requests never served says so in its summary and,
// under --verify, exits 1. lelann/drop-on-exit loses the token on the
// first Exit, so at most one request (the first holder's) is ever served:
// with N=2 R=2 at least three of the four requests wait forever,
// whatever the schedule.
func TestRunUnservedRequests(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--algo", "lelann/drop-on-exit", "--n", "2", "--r", "2", "--duration", "300ms", "--quiet"}
	plain := run(algorithms.All(), append(args, "--log", filepath.Join(dir, "a.jsonl"))...)
	if plain.code != 0 {
		t.Fatalf("without --verify: exit %d, want 0\n%s%s", plain.code, plain.stdout, plain.stderr)
	}
	if !strings.Contains(plain.stdout, "NEVER SERVED") {
		t.Errorf("the summary does not say that requests were never served:\n%s", plain.stdout)
	}
	verified := run(algorithms.All(), append(args, "--log", filepath.Join(dir, "b.jsonl"), "--verify")...)
	if verified.code != 1 {
		t.Fatalf("with --verify: exit %d, want 1\n%s%s", verified.code, verified.stdout, verified.stderr)
	}
	if !strings.Contains(verified.stdout, "never served before the run ended") {
		t.Errorf("--verify does not name the unserved requests as the failure:\n%s", verified.stdout)
	}

	// A run that serves every request stays exit 0 under --verify.
	ok := run(algorithms.All(), "run", "--algo", "lelann", "--n", "2", "--r", "1", "--duration", "5s", "--quiet", "--verify", "--log", filepath.Join(dir, "c.jsonl"))
	if ok.code != 0 || strings.Contains(ok.stdout, "NEVER SERVED") {
		t.Fatalf("lelann: exit %d, want 0 and no unserved request\n%s%s", ok.code, ok.stdout, ok.stderr)
	}
}
