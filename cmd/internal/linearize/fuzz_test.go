package linearize_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linearize"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// FuzzReadHistory: reading a history, or an event log turned into one,
// never panics; what Read accepts Validate accepts, Check judges without
// panicking, and Write reads back equal. Seeds: every shipped history and
// event log.
func FuzzReadHistory(f *testing.F) {
	for _, glob := range []string{"../history/testdata/*.jsonl", "../../../traces/eventlog/testdata/*.jsonl"} {
		files, _ := filepath.Glob(glob)
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(`{"p":0,"op":"release","ev":"call","t_ns":4611686018427387904}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if h, err := history.Read(bytes.NewReader(data), "f"); err == nil {
			if err := h.Validate("f"); err != nil {
				t.Fatalf("Validate rejects what Read accepted: %v", err)
			}
			if len(h.Events) <= 64 {
				linearize.Check(h, 100*time.Millisecond)
			}
			var out bytes.Buffer
			if err := history.Write(&out, h); err != nil {
				t.Fatal(err)
			}
			back, err := history.Read(&out, "f")
			if err != nil {
				t.Fatalf("Read refuses what Write wrote: %v\n%s", err, out.Bytes())
			}
			if !reflect.DeepEqual(withoutLines(back.Events), withoutLines(h.Events)) || back.Header.Model != h.Header.Model {
				t.Fatalf("history changed on a round trip")
			}
		}
		l, err := eventlog.Read(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		for _, kind := range []string{history.ModelLock, history.ModelGroupLock, history.ModelLocks} {
			h := history.FromLog(l, kind)
			if h.Validate("f") == nil && len(h.Events) <= 64 {
				linearize.Check(h, 100*time.Millisecond)
			}
		}
	})
}

// withoutLines returns a copy of es with Line cleared (Write adds a header
// line, so lines shift on a round trip).
func withoutLines(es []history.Event) []history.Event {
	out := append([]history.Event(nil), es...)
	for k := range out {
		out[k].Line = 0
	}
	return out
}
