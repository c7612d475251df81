package cli

// End-to-end tests of issue 23's bounds: flags that size allocations are
// range-checked before anything is allocated (they made the Go runtime die
// of out-of-memory, with exit 2, the code of bad input), files read by path
// must be regular files, and checkpoints are not silently replaced or
// silently ignored.

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Each flag value sized an allocation before any check.
func TestSizeFlagsBounded(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "--algo", "suzuki-kasami", "--workers", "2000000000"}, "--workers 2000000000 is out of range; give 1.."},
		{[]string{"simulate", "--algo", "suzuki-kasami", "--strategy", "pct", "--depth", "1000000000"}, "--depth 1000000000 is out of range; give 1..65536"},
		{[]string{"measure", "--algos", "suzuki-kasami", "--n", "4", "--reps", "1000000000"}, "--reps 1000000000 is out of range; give 1..10000"},
		{[]string{"measure", "--algos", "suzuki-kasami", "--n", "4", "--workers", "1000000000"}, "--workers 1000000000 is out of range; give 1.."},
		{[]string{"check", "--algo", "suzuki-kasami", "--bitstate", "1GiB", "--memory", "512MiB"}, "--bitstate 1GiB does not fit in the memory budget of 512 MiB"},
	} {
		r := runCLI(t, c.args...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.want)
	}
}

// Files read by path: a FIFO with no writer, /dev/zero and a symbolic
// link to it are refused at once (they hung or read without end).
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs:", err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip(err)
	}
	log := "../../traces/eventlog/testdata/suzuki-kasami.jsonl"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", log, "--mapping", "/dev/zero"}, "character device"},
		{[]string{"validate", log, "--mapping", zero}, "character device"},
		{[]string{"validate", fifo}, "named pipe"},
		{[]string{"replay", fifo}, "named pipe"},
		{[]string{"replay", zero}, "character device"},
		{[]string{"show", fifo}, "named pipe"},
		{[]string{"history", fifo}, "named pipe"},
		{[]string{"explore", "--trace", zero}, "character device"},
	} {
		done := make(chan cliResult, 1)
		go func() { done <- runCLI(t, c.args...) }()
		select {
		case r := <-done:
			r.wantCode(t, exitBadInput)
			r.wantOneLineError(t, c.want)
		case <-time.After(20 * time.Second):
			t.Fatalf("tokenmc %s does not return", strings.Join(c.args, " "))
		}
	}
}

// check --checkpoint DIR refuses a directory that holds another search's
// checkpoint (naming it and the flag that allows it), accepts the same
// search again, and replaces it with --checkpoint-replace.
func TestCheckpointOfAnotherSearchRefused(t *testing.T) {
	dir := t.TempDir()
	search := func(r string, more ...string) []string {
		return append([]string{"check", "--algo", "suzuki-kasami", "--n", "2", "--r", r, "--progress", "0", "--checkpoint", dir, "--checkpoint-every", "1ns"}, more...)
	}
	sk, other := search("1"), search("2")
	runCLI(t, sk...).wantCode(t, exitOK)
	if _, err := os.Stat(filepath.Join(dir, "CURRENT")); err != nil {
		t.Fatalf("no checkpoint: %v", err)
	}
	r := runCLI(t, other...)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "holds the checkpoint of another search")
	if !strings.Contains(r.stderr, `"r":1`) || !strings.Contains(r.stderr, "--checkpoint-replace") {
		t.Fatalf("the error does not name the other search and the flag: %s", r.stderr)
	}
	runCLI(t, sk...).wantCode(t, exitOK)
	runCLI(t, append(other, "--checkpoint-replace")...).wantCode(t, exitOK)
}

// --resume with liveness properties was silently ignored; --checkpoint
// with liveness properties alone too.
func TestCheckpointWithLivenessRefused(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, "check", "--algo", "torus/literal", "--n", "4", "--r", "1", "--props", "starvation-freedom", "--checkpoint", dir)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "the liveness analysis (starvation-freedom) is not checkpointed")
	runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "2", "--r", "1", "--props", "mutex", "--progress", "0", "--checkpoint", dir, "--checkpoint-every", "1ns").wantCode(t, exitOK)
	r = runCLI(t, "check", "--props", "mutex,starvation-freedom", "--resume", dir)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "--resume continues a safety search; the liveness analysis (starvation-freedom) is not checkpointed")
}

// An error quoting a value of the input (a trace whose phase is 1 MiB
// long) keeps its head and tail: one line of at most about 8 KiB.
func TestLongErrorClipped(t *testing.T) {
	b, err := os.ReadFile("testdata/suzuki-kasami_send-in-cs.mutex.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), `"InCS"`, `"`+strings.Repeat("x", 1<<20)+`"`, 1)
	file := filepath.Join(t.TempDir(), "t.json")
	os.WriteFile(file, []byte(bad), 0o644)
	r := runCLI(t, "show", file)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "bytes cut")
	if len(r.stderr) > maxErrorBytes+100 || !strings.Contains(r.stderr, "want Idle") {
		t.Fatalf("%d bytes of error, ending %q", len(r.stderr), r.stderr[max(0, len(r.stderr)-80):])
	}
}
