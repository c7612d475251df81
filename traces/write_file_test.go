package traces_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// WriteFile replaces the file in one step and does not follow a symbolic
// link; WriteFileNew never replaces anything and numbers the new file.
func TestWriteFileAndWriteFileNew(t *testing.T) {
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
	name, err := traces.WriteFileNew(p, tr)
	if err != nil || name != filepath.Join(dir, "a.mutex.1.trace.json") {
		t.Fatalf("WriteFileNew = %s, %v", name, err)
	}
	if err := traces.WriteFile(p, tr); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep me" {
		t.Fatal("WriteFile followed the symlink")
	}
	for _, f := range []string{p, name} {
		back, err := traces.ReadFile(f)
		if err != nil || back.Property != tr.Property || len(back.Steps) != len(tr.Steps) {
			t.Fatalf("%s reads back as %v, %v", f, back, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Fatalf("%d entries; want precious and two traces, no temporary file", len(ents))
	}
}
