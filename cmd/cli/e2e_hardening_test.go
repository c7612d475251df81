package cli

// End-to-end tests of issue 12's hardening of the command line: crashes
// that became one-line errors, exit 4 for internal errors, flags given
// twice or out of range, outputs checked before long work, output files
// that never lose a user's work, and run's handling of signals.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// The shipped edited log crashed history with a nil pointer.
func TestHistoryOfEditedLogIsBadInput(t *testing.T) {
	r := runCLI(t, "history", "../../traces/eventlog/testdata/edited-enter-without-token.jsonl")
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "edited-enter-without-token.jsonl:18: unmatched return: process 1")
}

// A header with a huge n made history and show allocate n x n vector
// clocks before any range check: out of memory.
func TestHugeNInLogHeader(t *testing.T) {
	log := filepath.Join(t.TempDir(), "huge.jsonl")
	os.WriteFile(log, []byte(`{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":1000000000000,"r":1}}`+"\n"+
		`{"p":0,"seq":1,"kind":"request","t_ns":1}`+"\n"), 0o644)
	for _, cmd := range []string{"history", "show", "validate"} {
		r := runCLI(t, cmd, log)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, "huge.jsonl:1:")
	}
}

func TestBadFlagsAreOneLineErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--algo", "suzuki-kasami", "--workers", "2000000000"}, "--workers 2000000000 is out of range; give 1.."},
		{[]string{"check", "--algo", "suzuki-kasami", "--workers", "0"}, "--workers 0 is out of range"},
		{[]string{"check", "--algo", "suzuki-kasami", "--n", "3", "--n", "4"}, "check: --n given twice"},
		{[]string{"check", "--algo", "suzuki-kasami", "--json", "--json"}, "check: --json given twice"},
		{[]string{"replay", "x.json", "--json", "--json"}, "replay: --json given twice"},
		{[]string{"check", "--algo", "suzuki-kasami", "--trace-out", filepath.Join(dir, "missing", "x.json")}, "--out: cannot write"},
		{[]string{"check", "--algo", "suzuki-kasami", "--trace-out", dir}, "is a directory"},
		{[]string{"run", "--algo", "suzuki-kasami", "--max-delay", "-1ms"}, "--max-delay -1ms is negative"},
		{[]string{"run", "--algo", "suzuki-kasami", "--max-cs", "-1ms"}, "--max-cs -1ms is negative"},
		{[]string{"run", "--algo", "suzuki-kasami", "--max-think", "-3s"}, "--max-think -3s is negative"},
		{[]string{"run", "--algo", "suzuki-kasami", "--max-cs", "1h"}, "--max-cs 1h0m0s is longer than --duration"},
		{[]string{"run", "--algo", "suzuki-kasami", "--log", filepath.Join(dir, "missing", "x.jsonl")}, "does not exist"},
		{[]string{"run", "--algo", "suzuki-kasami", "--history", filepath.Join(dir, "missing", "h.jsonl")}, "--history: cannot write"},
		{[]string{"run", "--algo", "suzuki-kasami", "--seed", "1", "--seed", "2"}, "run: --seed given twice"},
		{[]string{"history", "x", "--timeout", "-1s"}, "--timeout -1s is negative"},
		{[]string{"show", "x", "--out", filepath.Join(dir, "missing", "x.svg")}, "--out: cannot write"},
	} {
		start := time.Now()
		r := runCLI(t, c.args...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.want)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("tokenmc %s: the error came after %v; want it before any work", strings.Join(c.args, " "), d)
		}
	}
	// Nothing was left behind by the refused runs.
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the refused commands left %d files in %s", len(ents), dir)
	}
}

// A flag given once still works, and --help still prints the defaults.
func TestFlagsOnceStillWork(t *testing.T) {
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "2", "--r", "1", "--json", "--progress", "0")
	r.wantCode(t, exitOK)
	r = runCLI(t, "help", "run", "--all")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "(default 5s)") || !strings.Contains(r.stdout, "--max-delay D") {
		t.Fatalf("run --help lost its defaults:\n%s", r.stdout)
	}
}

// A panic under a command exits 4 with a short report, not 2.
func TestPanicIsInternalErrorExit4(t *testing.T) {
	registerCommand("panic-for-test", command{order: 99, synopsis: "panic-for-test", summary: "test only",
		run: func(*catalog, []string, io.Writer, io.Writer) (int, error) {
			var m map[string]int
			m["x"] = 1 // a nil map write: a runtime panic
			return 0, nil
		}})
	registerCommand("internal-for-test", command{order: 99, synopsis: "internal-for-test", summary: "test only",
		run: func(*catalog, []string, io.Writer, io.Writer) (int, error) {
			return 0, &internalError{value: errors.New("an invariant broke")}
		}})
	t.Cleanup(func() { delete(commands, "panic-for-test"); delete(commands, "internal-for-test") })
	r := runCLI(t, "panic-for-test", "--flag")
	r.wantCode(t, exitInternal)
	lines := strings.Split(r.stderr, "\n")
	if lines[0] != "tokenmc: internal error: assignment to entry in nil map" || lines[1] != "  command: tokenmc panic-for-test --flag" ||
		!strings.Contains(r.stderr, "e2e_hardening_test.go") || !strings.Contains(r.stderr, "this is a bug in tokenmc") {
		t.Fatalf("report:\n%s", r.stderr)
	}
	r = runCLI(t, "internal-for-test")
	r.wantCode(t, exitInternal)
	if !strings.HasPrefix(r.stderr, "tokenmc: internal error: an invariant broke\n") {
		t.Fatalf("report:\n%s", r.stderr)
	}
}

func TestCheckedWriterRemembersTheFirstError(t *testing.T) {
	w := &checkedWriter{w: failingWriter{}}
	if _, err := io.WriteString(w, "x"); err == nil || w.err == nil {
		t.Fatal("the error was not kept")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// The trace file is written in one step (temporary file, then rename): a
// symbolic link at its name is replaced, not followed, so the file it
// points to is untouched.
func TestTraceFileDoesNotFollowSymlinks(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	const name = "suzuki-kasami_send-in-cs.mutex.trace.json"
	if err := os.WriteFile("precious", []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("precious", name); err != nil {
		t.Skip("no symlinks:", err)
	}
	r := runCLI(t, "check", "--algo", "suzuki-kasami/send-in-cs", "--n", "2", "--progress", "0")
	r.wantCode(t, exitViolation)
	if b, _ := os.ReadFile("precious"); string(b) != "keep me" {
		t.Fatalf("the symlink was followed: precious now holds %.40q", b)
	}
	if st, err := os.Lstat(name); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("%s is not a regular file: %v", name, err)
	}
	runCLI(t, "replay", name, "--quiet").wantCode(t, exitOK)
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("%d files in the directory; want precious and the trace (no temporary file left)", len(ents))
	}
}

// run's default log name never replaces an existing log: the new one is
// numbered and the output says so.
func TestDefaultLogNameIsNumbered(t *testing.T) {
	t.Chdir(t.TempDir())
	for k, want := range []string{"suzuki-kasami.log.jsonl", "suzuki-kasami.1.log.jsonl", "suzuki-kasami.2.log.jsonl"} {
		r := runCLI(t, "run", "--algo", "suzuki-kasami", "--n", "2", "--r", "1")
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, "events written to "+want) || (k > 0) != strings.Contains(r.stdout, "suzuki-kasami.log.jsonl exists and is kept") {
			t.Fatalf("run %d: %s", k, r.stdout)
		}
		if _, err := eventlog.ReadFile(want); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary builds tokenmc once for the tests that need a real process
// (signals, standard output on a full device).
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the tokenmc binary")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tokenmc-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "tokenmc")
		out, err := exec.Command("go", "build", "-o", binPath, "../tokenmc").CombinedOutput()
		if err != nil {
			binErr = errors.New(string(out))
		}
	})
	if binErr != nil {
		t.Fatalf("go build: %v", binErr)
	}
	return binPath
}

// Output to a full device is an error (exit 2), not a silent 0.
func TestOutputToFullDevice(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	cmd := exec.Command(binary(t), "list")
	cmd.Stdout = full
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitBadInput || !strings.Contains(stderr.String(), "tokenmc: cannot write the output:") {
		t.Fatalf("list > /dev/full: %v, stderr %q; want exit 2 and a one-line error", err, stderr.String())
	}
}

// SIGINT and SIGTERM stop a run: the processes stop, the log up to then is
// written (and valid), the summary printed, exit 3.
func TestRunStopsOnSignal(t *testing.T) {
	bin := binary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, tr := range []string{"chan", "tcp"} {
			dir := t.TempDir()
			log := filepath.Join(dir, "run.jsonl")
			cmd := exec.Command(bin, "run", "--algo", "suzuki-kasami", "--n", "3", "--r", "1000000", "--duration", "60s", "--transport", tr, "--log", log)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(700 * time.Millisecond)
			sent := time.Now()
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			if d := time.Since(sent); d > 2*time.Second {
				t.Errorf("%v over %s: the run took %v to stop", sig, tr, d)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitIncomplete {
				t.Fatalf("%v over %s: %v; want exit 3\nstdout %s\nstderr %s", sig, tr, err, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), "interrupted after") || !strings.Contains(stderr.String(), "the log up to that point is complete in "+log) {
				t.Fatalf("%v over %s: no summary:\nstdout %s\nstderr %s", sig, tr, stdout.String(), stderr.String())
			}
			l, err := eventlog.ReadFile(log)
			if err != nil {
				t.Fatalf("%v over %s: the log does not read: %v", sig, tr, err)
			}
			if len(l.Events) == 0 || !strings.Contains(stdout.String(), " "+itoa(len(l.Events))+" events written") {
				t.Fatalf("%v over %s: the log holds %d events; the summary says %s", sig, tr, len(l.Events), stdout.String())
			}
			a, v, err := algorithms.Lookup(l.Header.Algorithm)
			if err != nil {
				t.Fatal(err)
			}
			sys, _, err := a.BuildSim(v.Name, l.Header.Params)
			if err != nil {
				t.Fatal(err)
			}
			if res := eventlog.Validate(sys, l); !res.OK || res.Events != len(l.Events) {
				t.Fatalf("%v over %s: the log is not a behaviour of the model: %s: %s", sig, tr, res.Failed, res.Reason)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Fatalf("%v over %s: %d files in the log's directory; want the log only", sig, tr, len(ents))
			}
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Killing one TCP connection between two processes of a run from outside
// (ss -K, as a crashed peer would) ends the run within 2 s with exit 3 and
// a valid log up to that point. Skipped where ss cannot kill sockets.
func TestRunTCPConnectionKilled(t *testing.T) {
	bin := binary(t)
	if _, err := exec.LookPath("ss"); err != nil {
		t.Skip("no ss")
	}
	log := filepath.Join(t.TempDir(), "k.jsonl")
	cmd := exec.Command(bin, "run", "--algo", "suzuki-kasami", "--n", "3", "--r", "1000000", "--duration", "15s", "--transport", "tcp", "--log", log, "--progress", "0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	out, _ := exec.Command("ss", "-tnpH", "state", "established").Output()
	port := ""
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) >= 4 && strings.Contains(line, "pid="+itoa(cmd.Process.Pid)+",") {
			port = f[3][strings.LastIndex(f[3], ":")+1:] // the peer's port
			break
		}
	}
	if port == "" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Skipf("no established connection of the run found by ss:\n%s", out)
	}
	killed := time.Now()
	if err := exec.Command("ss", "-K", "dst", "127.0.0.1", "dport", "=", ":"+port).Run(); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Skipf("ss -K: %v", err)
	}
	err := cmd.Wait()
	took := time.Since(killed)
	if strings.Contains(stdout.String(), "stopped at the deadline") {
		t.Skip("ss -K did not kill the connection (no kernel support?)")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitIncomplete || took > 2*time.Second {
		t.Fatalf("after the kill: %v after %v; want exit 3 within 2s\nstdout %s\nstderr %s", err, took, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "a peer connection was lost") || !strings.Contains(stdout.String(), "STOPPED EARLY") {
		t.Fatalf("no clear error:\nstdout %s\nstderr %s", stdout.String(), stderr.String())
	}
	r := runCLI(t, "validate", log)
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "validate: ok") {
		t.Fatalf("validate: %s", r.stdout)
	}
}

// A long run reports progress on stderr.
func TestRunReportsProgress(t *testing.T) {
	log := filepath.Join(t.TempDir(), "p.jsonl")
	r := runCLI(t, "run", "--algo", "suzuki-kasami", "--r", "1000000", "--duration", "700ms", "--progress", "200ms", "--log", log)
	r.wantCode(t, exitOK)
	if n := strings.Count(r.stderr, "progress: "); n < 2 || !strings.Contains(r.stderr, " events (") {
		t.Fatalf("%d progress lines in stderr:\n%s", n, r.stderr)
	}
}

// TestCheckSaysWhenItReplacesATrace: a second check that writes the same
// default trace name replaces the file and says so on stderr; the first
// one, which creates the file, says nothing about replacing.
func TestCheckSaysWhenItReplacesATrace(t *testing.T) {
	t.Chdir(t.TempDir())
	args := []string{"check", "--algo", "suzuki-kasami/keep-copy", "--n", "2", "--r", "1", "--json"}
	first := runCLI(t, args...)
	first.wantCode(t, exitViolation)
	if strings.Contains(first.stderr, "replacing") {
		t.Fatalf("first run: %s", first.stderr)
	}
	second := runCLI(t, args...)
	second.wantCode(t, exitViolation)
	want := "replacing the existing trace file suzuki-kasami_keep-copy.single-token.trace.json"
	if !strings.Contains(second.stderr, want) {
		t.Fatalf("second run's stderr %q does not say %q", second.stderr, want)
	}
}

// TestRunQuiet: run --quiet prints no progress, where the same run without
// it does.
func TestRunQuiet(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--algo", "suzuki-kasami", "--n", "3", "--r", "100000", "--duration", "300ms", "--progress", "20ms"}
	loud := runCLI(t, append(args, "--log", filepath.Join(dir, "a.jsonl"))...)
	quiet := runCLI(t, append(args, "--log", filepath.Join(dir, "b.jsonl"), "--quiet")...)
	loud.wantCode(t, exitOK)
	quiet.wantCode(t, exitOK)
	if !strings.Contains(loud.stderr, "progress:") {
		t.Fatalf("without --quiet no progress was printed: %q", loud.stderr)
	}
	if strings.Contains(quiet.stderr, "progress:") {
		t.Fatalf("--quiet printed progress: %q", quiet.stderr)
	}
}
