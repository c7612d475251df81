package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An output flag naming a device, a named pipe or a socket is refused in
// one line before any work: the outputs are written to a temporary file
// renamed over the path, which would replace the special file itself (as
// root, /dev/null), and a liveness check writes further traces to names
// derived from it (/dev/null.P0). The test uses a named pipe in a
// temporary directory, never /dev/null, so that a regression harms
// nothing. The pipe is still a pipe afterwards, and nothing else was
// written beside it.
func TestOutputToSpecialFileRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	for _, args := range [][]string{
		{"check", "--algo", "coord-res/no-aging", "--props", "starvation-freedom", "--progress", "0", "--out", fifo},
		{"check", "--algo", "suzuki-kasami/keep-copy", "--progress", "0", "--out", fifo},
		{"simulate", "--algo", "suzuki-kasami/keep-copy", "--runs", "5", "--progress", "0", "--out", fifo},
		{"run", "--algo", "suzuki-kasami", "--duration", "10ms", "--out", fifo},
		{"run", "--algo", "suzuki-kasami", "--duration", "10ms", "--out", filepath.Join(dir, "x.jsonl"), "--history", fifo},
		{"report", "--algo", "lelann", "--quiet", "--out", fifo},
	} {
		r := runCLI(t, args...)
		r.wantCode(t, exitBadInput)
		flag := args[len(args)-2]
		r.wantOneLineError(t, flag+" "+fifo+" is a named pipe, not a regular file")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe was replaced: %v, %v", fi.Mode(), err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) != 1 {
		t.Errorf("the refused commands wrote beside the pipe: %s", strings.Join(names, ", "))
	}
}
