package traces_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// A trace file over MaxTraceBytes is refused from its size, before any of
// it is read (a sparse file: no disk and no memory spent).
func TestReadFileRefusesOversizedTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.trace.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(traces.MaxTraceBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = traces.ReadFile(path)
	if err == nil || !strings.Contains(err.Error(), "a trace is at most") {
		t.Fatalf("ReadFile of a %d-byte file: %v, want the size refused", traces.MaxTraceBytes+1, err)
	}
}
