package traces_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ (review the diff)")

// golden compares got with the file testdata/<name>, or rewrites the file
// when the test runs with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./traces -update` to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output; got:\n%s\n(if the change is intended, run `go test ./traces -update` and review the diff)", path, got)
	}
}

// TestGolden pins, for every fixture, the trace file (the format) and its
// text rendering (what a person reads), and replays the file.
func TestGolden(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			tr := f.trace(t)
			var js, txt bytes.Buffer
			if err := traces.Write(&js, tr); err != nil {
				t.Fatal(err)
			}
			if err := traces.Render(&txt, tr); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("tiny", f.name+".json"), js.Bytes())
			golden(t, filepath.Join("tiny", f.name+".txt"), txt.Bytes())

			// The file on disk still replays on today's model.
			read, err := traces.ReadFile(filepath.Join("testdata", "tiny", f.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if res := replay(t, f, read); !res.OK {
				t.Errorf("the golden trace no longer replays: %s", res)
			}
		})
	}
}
