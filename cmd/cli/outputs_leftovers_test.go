package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// symlinkTo makes dir/out a symbolic link to real (relative, in dir),
// which does not exist yet unless old is not "" (then it holds old).
func symlinkTo(t *testing.T, dir, real, old string) string {
	t.Helper()
	if old != "" {
		if err := os.WriteFile(filepath.Join(dir, real), []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	if err := os.Symlink(real, out); err != nil {
		t.Skip("no symlinks:", err)
	}
	return out
}

// wantLinkKept fails unless link is still a symbolic link to real, and
// dir holds only the names given (no temporary file left behind).
func wantLinkKept(t *testing.T, link, real string, names ...string) {
	t.Helper()
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symbolic link: %v", link, err)
	}
	if l, err := os.Readlink(link); err != nil || l != real {
		t.Fatalf("%s now points to %q (%v), want %q", link, l, err, real)
	}
	ents, _ := os.ReadDir(filepath.Dir(link))
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Fatalf("the directory holds %v, want %v", got, names)
	}
}

// An explicit --trace-out that is a symbolic link is written through, as
// every explicit output path is: check (safety and liveness) and simulate
// write the file the link points to, the link stays a link, and the trace
// replays through it. The replaced file's old content is gone and the
// replacement is announced.
func TestTraceOutWritesThroughSymlink(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		prop string
	}{
		{"check", []string{"check", "--algo", "suzuki-kasami/keep-copy", "--n", "2", "--progress", "0"}, "single-token"},
		{"check-liveness", []string{"check", "--algo", "coord-res/no-aging", "--props", "starvation-freedom", "--progress", "0"}, "starvation-freedom"},
		{"simulate", []string{"simulate", "--algo", "suzuki-kasami/keep-copy", "--n", "2", "--runs", "50", "--seed", "1", "--progress", "0"}, "single-token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := symlinkTo(t, dir, "real.json", "old content")
			r := runCLI(t, append(c.args, "--trace-out", out)...)
			r.wantCode(t, exitViolation)
			tr, err := traces.ReadFile(filepath.Join(dir, "real.json"))
			if err != nil {
				t.Fatalf("real.json: %v\nstderr: %s", err, r.stderr)
			}
			if tr.Property != c.prop {
				t.Fatalf("real.json holds a trace of %q, want %q", tr.Property, c.prop)
			}
			if !strings.Contains(r.stderr, "replacing the existing trace file "+out) {
				t.Errorf("the replacement of real.json was not said:\n%s", r.stderr)
			}
			names := []string{"out", "real.json"}
			if c.name == "check-liveness" {
				// other starving processes' traces go to names derived
				// from --trace-out, beside the link
				ents, _ := os.ReadDir(dir)
				names = names[:0]
				for _, e := range ents {
					if n := e.Name(); n == "out" || n == "real.json" || strings.HasPrefix(n, "out.P") {
						names = append(names, n)
					}
				}
			}
			wantLinkKept(t, out, "real.json", names...)
			runCLI(t, "replay", out, "--quiet").wantCode(t, exitOK)
		})
	}
}

// check --report through a symbolic link writes the page the link points
// to; the link stays.
func TestReportWritesThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	out := symlinkTo(t, dir, "real.html", "old page")
	runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "2", "--r", "1", "--report", out, "--quiet").wantCode(t, exitOK)
	b, err := os.ReadFile(filepath.Join(dir, "real.html"))
	if err != nil || !strings.HasPrefix(string(b), "<!DOCTYPE html>") || !strings.HasSuffix(string(b), "</html>\n") {
		t.Fatalf("real.html: %v\n%.80s", err, b)
	}
	wantLinkKept(t, out, "real.html", "out", "real.html")
}

// validate --witness through a symbolic link writes the witness to the
// file the link points to; the link stays, and the witness replays.
func TestWitnessWritesThroughSymlink(t *testing.T) {
	full := runLog(t, "--algo", "suzuki-kasami", "--n", "2", "--r", "5", "--duration", "2s",
		"--max-delay", "1us", "--max-cs", "1us", "--max-think", "1us")
	logDir := t.TempDir()
	file := filepath.Join(logDir, "cs.jsonl")
	writeLines(t, file, csOnly(t, full, 12, false))
	dir := t.TempDir()
	out := symlinkTo(t, dir, "real.trace.json", "old content")
	runCLI(t, "validate", file, "--witness", out).wantCode(t, exitOK)
	tr, err := traces.ReadFile(filepath.Join(dir, "real.trace.json"))
	if err != nil || !tr.IsWitness() {
		t.Fatalf("real.trace.json: %v, kind %q", err, tr.PropertyKind)
	}
	wantLinkKept(t, out, "real.trace.json", "out", "real.trace.json")
	if r := runCLI(t, "replay", out, "--quiet"); r.code != exitOK || !strings.Contains(r.stdout, "witness replays") {
		t.Fatalf("replay of the witness through the link: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
