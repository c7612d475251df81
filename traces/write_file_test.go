package traces_test

import (
	"os"
	"path/filepath"
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
