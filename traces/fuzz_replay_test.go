package traces_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

// shippedTraces lists every trace file shipped in the repository.
func shippedTraces(tb testing.TB) []string {
	var files []string
	for _, glob := range []string{"testdata/tiny/*.json", "chart/testdata/*.json", "../algorithms/*/testdata/*.json", "../cmd/cli/testdata/*.json"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		tb.Fatalf("found only %d shipped traces", len(files))
	}
	return files
}

// FuzzReadTrace: reading a trace and replaying it against the model its
// header names never panics, whatever the bytes. Seeds: every shipped
// trace file. (FuzzRead checks the Read/Write round trip.)
func FuzzReadTrace(f *testing.F) {
	for _, name := range shippedTraces(f) {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := traces.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		a, v, err := algorithms.Lookup(tr.Algorithm)
		if err != nil {
			return
		}
		sys, extra, err := a.BuildSim(v.Name, tr.Params)
		if err != nil {
			return
		}
		traces.Replay(sys, invariants.With(extra...), tr)
	})
}

// Every shipped trace reads and replays, reproducing its violation: the
// seed corpus above is made of valid traces, not noise.
func TestShippedTracesReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every shipped trace")
	}
	for _, name := range shippedTraces(t) {
		tr, err := traces.ReadFile(name)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		a, v, err := algorithms.Lookup(tr.Algorithm)
		if err != nil {
			if filepath.Base(filepath.Dir(name)) == "tiny" {
				continue // the package's own test models
			}
			t.Errorf("%s: %v", name, err)
			continue
		}
		sys, extra, err := a.BuildSim(v.Name, tr.Params)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		res, err := traces.Replay(sys, invariants.With(extra...), tr)
		if err != nil || !res.OK {
			t.Errorf("%s: replay: %v %s", name, err, res.Reason)
		}
	}
}
