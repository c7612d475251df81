package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// checkWritable runs before the search: it must not leave a file behind
// (an interrupted or failed run would otherwise leave an empty report),
// and it must refuse a directory that cannot take the file.
func TestCheckWritableCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.html")
	if err := checkWritable(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("checkWritable created %s (stat: %v)", path, err)
	}
	if err := checkWritable(filepath.Join(dir, "missing", "run.html")); err == nil {
		t.Error("a report in a directory that does not exist was accepted")
	}
	if err := checkWritable(dir); err == nil {
		t.Error("a directory was accepted as the report file")
	}
}
