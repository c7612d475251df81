package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// TestEventLogFormat checks that isEventLog recognises the header
// eventlog.Write writes (eventLogFormat is the format it fills in), and
// does not take a history's first line for one.
func TestEventLogFormat(t *testing.T) {
	var b bytes.Buffer
	if err := eventlog.Write(&b, eventlog.Header{Algorithm: "suzuki-kasami", Params: map[string]int{"n": 2}}, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(log, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if !isEventLog(log) {
		t.Errorf("isEventLog does not recognise the header eventlog.Write writes: %s", b.String())
	}
	other := filepath.Join(dir, "history.jsonl")
	if err := os.WriteFile(other, []byte(`{"model":"lock"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if isEventLog(other) {
		t.Error("isEventLog takes a line without the event log format for a header")
	}
}
