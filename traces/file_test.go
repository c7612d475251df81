package traces_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces"
)

// TestRoundTrip: Read(Write(t)) equals t, and writing it again gives the
// same bytes.
func TestRoundTrip(t *testing.T) {
	for _, f := range append(fixtures, correct) {
		t.Run(f.name, func(t *testing.T) {
			tr := f.trace(t)
			var first bytes.Buffer
			if err := traces.Write(&first, tr); err != nil {
				t.Fatal(err)
			}
			back, err := traces.Read(bytes.NewReader(first.Bytes()))
			if err != nil {
				t.Fatalf("Read: %v\n%s", err, first.Bytes())
			}
			if !reflect.DeepEqual(back, tr) {
				t.Errorf("Read(Write(t)) differs from t:\n got %+v\nwant %+v", back, tr)
			}
			var second bytes.Buffer
			if err := traces.Write(&second, back); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first.Bytes(), second.Bytes()) {
				t.Errorf("rewriting a trace changed it:\n%s\n---\n%s", first.Bytes(), second.Bytes())
			}
		})
	}
}

func TestWriteFileReadFile(t *testing.T) {
	tr := eagerMutex.trace(t)
	path := filepath.Join(t.TempDir(), "eager.json")
	if err := traces.WriteFile(path, tr); err != nil {
		t.Fatal(err)
	}
	back, err := traces.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, tr) {
		t.Errorf("ReadFile(WriteFile(t)) differs from t")
	}

	// Format errors name the file; I/O errors are passed through.
	if err := os.WriteFile(path, []byte(`{"format": "tokenmc-trace", "version": 7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = traces.ReadFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":1:40: ") {
		t.Errorf("ReadFile of a version 7 trace: got %v, want an error at %s:1:40", err, path)
	}
	if _, err := traces.ReadFile(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: got %v, want os.ErrNotExist", err)
	}
}

// TestReadErrors: each malformed input gets one line saying where, what is
// wrong and what would be right.
func TestReadErrors(t *testing.T) {
	var good bytes.Buffer
	if err := traces.Write(&good, eagerMutex.trace(t)); err != nil {
		t.Fatal(err)
	}
	valid := good.String()
	edit := func(old, new string) string {
		t.Helper()
		if !strings.Contains(valid, old) {
			t.Fatalf("the fixture has no %q", old)
		}
		return strings.Replace(valid, old, new, 1)
	}
	tests := []struct {
		name  string
		input string
		want  string // the whole error, or its start when it ends with "..."
	}{
		{"empty", "  \n", "trace: the input is empty; want a tokenmc-trace JSON document"},
		{"truncated", valid[:len(valid)/2],
			"trace:38:19: invalid JSON: unexpected end of input (is the file truncated?)"},
		{"syntax", edit(`"kind": "Deliver",`, `"kind": "Deliver"`),
			"trace:47:7: invalid JSON: invalid character '\"' after object key:value pair"},
		{"not an object", `[1, 2]`, "trace:1:1: a trace is a JSON object; got an array"},
		{"not a trace", `{"name": "x"}`,
			`trace:1:1: "format" is missing; a tokenmc trace starts with "format": "tokenmc-trace", "version": 1`},
		{"wrong format", edit(`"tokenmc-trace"`, `"tla-trace"`),
			`trace:2:13: format: format is "tla-trace"; want "tokenmc-trace" (is this a tokenmc trace?)`},
		{"wrong version", edit(`"version": 1`, `"version": 2`),
			"trace:3:14: version: version 2 is not supported; this tokenmc reads tokenmc-trace version 1"},
		{"missing version", edit(`"version": 1,`, ``),
			`trace:1:1: "version" is missing; want "version": 1`},
		{"unknown field", edit(`"algorithm"`, `"colour": "red", "algorithm"`),
			`trace:4:3: unknown field "colour"; known fields here: algorithm, format, initial, loop, model_error, options, params, property, property_kind, steps, version, waiting_process`},
		{"unknown nested field", edit(`"index": 2,`, `"index": 2, "note": "x",`),
			`trace:30:19: steps[1]: unknown field "note"; known fields here: action, delivered, index, kind, process, sent, state`},
		{"wrong case", edit(`"action": "Request(P1)"`, `"Action": "Request(P1)"`),
			`trace:31:7: steps[1]: unknown field "Action"; did you mean "action"?`},
		{"duplicate field", edit(`"property": "mutex",`, `"property": "mutex", "property": "other",`),
			`trace:6:24: property: duplicate field "property"`},
		{"wrong type", edit(`"index": 2,`, `"index": "2",`),
			"trace:30:16: steps[1].index: got a string; want an integer"},
		{"missing algorithm", edit(`"algorithm": "tiny/eager",`, ``),
			`trace:1:1: algorithm: "algorithm" is missing or empty; want the algorithm's name, e.g. "suzuki-kasami"`},
		{"empty property", edit(`"property": "mutex"`, `"property": ""`),
			`trace:6:15: property: "property" is missing or empty; want the violated property's name, e.g. "mutex"`},
		{"unknown property kind", edit(`"invariant"`, `"always"`),
			`trace:7:20: property_kind: property kind "always" is unknown; want "invariant", "transition-invariant", "terminal", "liveness", "possibility", "witness" or "model-error"`},
		{"empty steps", valid[:strings.Index(valid, `"steps": [`)] + "\"steps\": []\n}\n",
			"trace:15:12: steps: the trace has no steps; want at least one step from the initial state"},
		{"misnumbered step", edit(`"index": 2,`, `"index": 3,`),
			"trace:30:16: steps[1].index: step index is 3; want 2 (steps are numbered 1, 2, ... in order)"},
		{"unknown action kind", edit(`"kind": "Request",
      "process": 1`, `"kind": "Send",
      "process": 1`),
			`trace:32:15: steps[1].kind: action kind "Send" is unknown; want Request, Exit, Deliver, Timer or Lose`},
		{"unknown phase", edit(`"phase": "Waiting"`, `"phase": "Hungry"`),
			`trace:38:30: steps[1].state.processes[1].phase: phase "Hungry" is unknown; want Idle, Waiting or InCS`},
		{"delivery without message", edit(`"delivered": "REQ(P1->P0)",`, ``),
			`trace:43:5: steps[2].delivered: step 3 is a Deliver but names no message; want "delivered": the message`},
		{"loop on a safety trace", strings.TrimSuffix(valid, "\n}\n") + `, "loop": 9}`,
			`trace:72:14: loop: a trace of kind invariant has no loop; only liveness traces (lassos) do`},
		{"loop out of range", strings.Replace(strings.TrimSuffix(valid, "\n}\n"), `"invariant"`, `"liveness"`, 1) + `, "loop": 9, "waiting_process": 1}`,
			`trace:72:14: loop: loop is 9; want the index of a step, 1..4`},
		{"lasso without loop", strings.Replace(strings.TrimSuffix(valid, "\n}\n"), `"invariant"`, `"liveness"`, 1) + `, "waiting_process": 1}`,
			`trace:1:1: loop: a liveness trace needs "loop": the index of the step that starts the cycle`},
		{"lasso without waiting process", strings.Replace(strings.TrimSuffix(valid, "\n}\n"), `"invariant"`, `"liveness"`, 1) + `, "loop": 2}`,
			`trace:1:1: waiting_process: a liveness trace needs "waiting_process": the id of the process that waits`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := traces.Read(strings.NewReader(tc.input))
			if err == nil {
				t.Fatalf("Read accepted:\n%s", tc.input)
			}
			var fe *traces.FormatError
			if !errors.As(err, &fe) {
				t.Errorf("error %v is a %T, want a *traces.FormatError", err, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error has several lines: %q", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error:\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

// TestWriteRefusesInvalid: Write and Render refuse what Read would reject,
// so every file written can be read back.
func TestWriteRefusesInvalid(t *testing.T) {
	tr := eagerMutex.trace(t)
	tr.Steps[1].Kind = "Send"
	var b bytes.Buffer
	err := traces.Write(&b, tr)
	want := `trace: steps[1].kind: action kind "Send" is unknown; want Request, Exit, Deliver, Timer or Lose`
	if err == nil || err.Error() != want {
		t.Errorf("Write: got %v, want %s", err, want)
	}
	if b.Len() != 0 {
		t.Errorf("Write wrote %d bytes of an invalid trace", b.Len())
	}
	if err := traces.Render(&b, tr); err == nil || err.Error() != want {
		t.Errorf("Render: got %v, want %s", err, want)
	}
}
