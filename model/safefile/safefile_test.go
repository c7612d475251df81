package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A regular file is read; a FIFO (with no writer), /dev/zero, a symbolic
// link to either, and a directory are refused at once, naming what they
// are; a file over the cap is refused with its size.
func TestOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "f")
	if err := os.WriteFile(reg, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(reg, 5); err != nil || string(b) != "hello" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile(reg, 4); err == nil || !strings.Contains(err.Error(), "at most 4") {
		t.Fatalf("over the cap: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "zero"))
	os.Symlink(fifo, filepath.Join(dir, "tofifo"))
	for name, want := range map[string]string{
		fifo: "named pipe", "/dev/zero": "character device", filepath.Join(dir, "zero"): "character device",
		filepath.Join(dir, "tofifo"): "named pipe", dir: "directory",
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(name, 1<<20); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v, want an error naming %q", name, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadFile blocks", name)
		}
	}
}
