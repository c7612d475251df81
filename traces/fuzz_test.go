package traces_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// FuzzRead: Read never panics; what it accepts, Write and Render accept
// too, and it reads back equal.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "tiny", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format": "tokenmc-trace", "version": 1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := traces.Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := traces.Write(&out, tr); err != nil {
			t.Fatalf("Write refuses what Read accepted: %v", err)
		}
		if err := traces.Render(&bytes.Buffer{}, tr); err != nil {
			t.Fatalf("Render refuses what Read accepted: %v", err)
		}
		back, err := traces.Read(&out)
		if err != nil {
			t.Fatalf("Read refuses what Write wrote: %v\n%s", err, out.Bytes())
		}
		if !reflect.DeepEqual(back, tr) {
			t.Fatalf("read, written and read again, the trace changed")
		}
	})
}
