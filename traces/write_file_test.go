package traces_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// WriteFile replaces the file in one step and does not follow a symbolic
// link.
func TestWriteFile(t *testing.T) {
	tr, err := traces.ReadFile(filepath.Join("testdata", "tiny", "eager-mutex.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	precious := filepath.Join(dir, "precious")
	os.WriteFile(precious, []byte("keep me"), 0o644)
	p := filepath.Join(dir, "a.mutex.trace.json")
	if err := os.Symlink(precious, p); err != nil {
		t.Skip(err)
	}
	if err := traces.WriteFile(p, tr); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep me" {
		t.Fatal("WriteFile followed the symlink")
	}
	back, err := traces.ReadFile(p)
	if err != nil || back.Property != tr.Property || len(back.Steps) != len(tr.Steps) {
		t.Fatalf("%s reads back as %v, %v", p, back, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("%d entries; want precious and the trace, no temporary file", len(ents))
	}
}

// WriteFile to a missing directory says so, naming the path given (not a
// temporary file), and over a directory fails without replacing it.
func TestWriteFileErrors(t *testing.T) {
	tr, err := traces.ReadFile(filepath.Join("testdata", "tiny", "eager-mutex.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dir", "a.trace.json")
	if err := traces.WriteFile(missing, tr); err == nil || !strings.Contains(err.Error(), "cannot write "+missing+": the directory") || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("missing directory: %v", err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	if err := traces.WriteFile(sub, tr); err == nil || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("over a directory: %v", err)
	}
	if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
		t.Errorf("the directory was replaced: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d entries; want the directory alone, no temporary file", len(ents))
	}
}
