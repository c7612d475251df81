package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/cmd/cli"
	"github.com/tokenmc/tokenmc/examples/misra/pingpong"
	"github.com/tokenmc/tokenmc/traces"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(args, &out, &errb, pingpong.Algorithm())
	return code, out.String(), errb.String()
}

// The example's own command line, end to end: check finds the mutant's
// violation and writes its trace (exit 1); replay re-executes it (exit 0)
// and show renders it as HTML; the correct variant checks ok (exit 0); a
// built-in algorithm is unknown to this program (exit 2).
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mutant.trace.json")
	code, out, errs := run(t, "check", "--algo", pingpong.NoIncrement, "--n", "3", "--trace-out", file)
	if code != 1 || !strings.Contains(out, "verdict: VIOLATION of "+pingpong.NameOnePing) {
		t.Fatalf("check mutant: exit %d\n%s\n%s", code, out, errs)
	}
	tr, err := traces.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Algorithm != pingpong.NoIncrement || tr.Property != pingpong.NameOnePing || tr.Params["n"] != 3 {
		t.Errorf("trace of %s %v violating %s", tr.Algorithm, tr.Params, tr.Property)
	}
	code, out, errs = run(t, "replay", file, "--quiet")
	if code != 0 || !strings.Contains(out, "replay: ok") {
		t.Errorf("replay: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, "show", file, "--format", "html")
	if code != 0 || !strings.Contains(out, "<html") || !strings.Contains(out, pingpong.NoIncrement) {
		t.Errorf("show --format html: exit %d, %d bytes\n%s", code, len(out), errs)
	}
	code, out, errs = run(t, "check", "--algo", pingpong.Correct, "--n", "3", "--quiet")
	if code != 0 {
		t.Errorf("check misra: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = run(t, "check", "--algo", "suzuki-kasami")
	if code != 2 || !strings.Contains(errs, `unknown algorithm "suzuki-kasami"`) {
		t.Errorf("a built-in algorithm: exit %d, %s", code, errs)
	}
	// an edited trace diverges (exit 1)
	b, _ := os.ReadFile(file)
	bad := filepath.Join(dir, "bad.trace.json")
	if err := os.WriteFile(bad, bytes.Replace(b, []byte(`"m": 1`), []byte(`"m": 5`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs = run(t, "replay", bad, "--quiet"); code != 1 {
		t.Errorf("replay of an edited trace: exit %d\n%s\n%s", code, out, errs)
	}
}
