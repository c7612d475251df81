package cli

// End-to-end tests of the tokenmc command line, run in process through Run.
// They pin the public contract of the command line: exit codes, the --json output of
// list, check and replay, one-line error messages, and trace files that
// replay.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces"
)

// cliResult is what one invocation of run produced.
type cliResult struct {
	args   []string
	code   int
	stdout string
	stderr string
}

// runCLI runs the command line args in process, over the built-in
// algorithms, through the public entry point.
func runCLI(t *testing.T, args ...string) cliResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, &out, &errb, algorithms.All()...)
	return cliResult{args: args, code: code, stdout: out.String(), stderr: errb.String()}
}

// wantCode fails the test unless r exited with code.
func (r cliResult) wantCode(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("tokenmc %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s",
			strings.Join(r.args, " "), r.code, code, r.stdout, r.stderr)
	}
}

// jsonObject decodes r's stdout, which must be exactly one JSON object.
func (r cliResult) jsonObject(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("tokenmc %s: stdout is not a JSON object: %v\n%s", strings.Join(r.args, " "), err, r.stdout)
	}
	if dec.More() {
		t.Fatalf("tokenmc %s: stdout holds more than one JSON value:\n%s", strings.Join(r.args, " "), r.stdout)
	}
	return m
}

// decodeJSON decodes r's stdout strictly into v (unknown fields are an
// error, so a renamed field shows up here).
func (r cliResult) decodeJSON(t *testing.T, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("tokenmc %s: decoding stdout: %v\n%s", strings.Join(r.args, " "), err, r.stdout)
	}
}

// wantOneLineError checks the shape every bad-input report must have:
// exactly one line on stderr, "tokenmc: ...", containing word.
func (r cliResult) wantOneLineError(t *testing.T, word string) {
	t.Helper()
	if !strings.HasSuffix(r.stderr, "\n") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("tokenmc %s: stderr is not exactly one line:\n%q", strings.Join(r.args, " "), r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "tokenmc: ") {
		t.Errorf("tokenmc %s: stderr does not start with \"tokenmc: \": %q", strings.Join(r.args, " "), r.stderr)
	}
	if !strings.Contains(r.stderr, word) {
		t.Errorf("tokenmc %s: stderr does not mention %q: %q", strings.Join(r.args, " "), word, r.stderr)
	}
}

// checkJSON is the --json report of check, with the field names of the
// documented contract. Decoded with DisallowUnknownFields, so a field added
// to the report must be added here too.
type checkJSON struct {
	Algorithm            string         `json:"algorithm"`
	Params               map[string]int `json:"params"`
	VariantParams        map[string]int `json:"variant_params"`
	Properties           []string       `json:"properties"`
	Verdict              string         `json:"verdict"`
	States               int64          `json:"states"`
	Transitions          int64          `json:"transitions"`
	Depth                int            `json:"depth"`
	ElapsedS             float64        `json:"elapsed_s"`
	StatesPerS           float64        `json:"states_per_s"`
	BytesPerState        float64        `json:"bytes_per_state"`
	LinkBytesPerState    float64        `json:"link_bytes_per_state"`
	CollisionProbability float64        `json:"collision_probability"`
	Search               string         `json:"search"`
	Mode                 string         `json:"mode"`
	Workers              int            `json:"workers"`
	StopReason           string         `json:"stop_reason"`
	StopDetail           string         `json:"stop_detail"`
	PeakRSSBytes         int64          `json:"peak_rss_bytes"`
	RSSBytesPerState     float64        `json:"rss_bytes_per_state"`
	MemoryBudgetBytes    int64          `json:"memory_budget_bytes"`
	SpilledBytes         int64          `json:"spilled_bytes"`
	ChannelCapacity      int            `json:"channel_capacity"`
	CapacityBlocked      *int64         `json:"capacity_blocked"`
	Bitstate             *struct {
		Bits             int64   `json:"bits"`
		K                int     `json:"k"`
		Stored           int64   `json:"stored"`
		HashFactor       float64 `json:"hash_factor"`
		ExpectedCoverage float64 `json:"expected_coverage"`
		FalsePositive    float64 `json:"false_positive"`
	} `json:"bitstate"`
	Violation *struct {
		Property  string `json:"property"`
		Length    int    `json:"length"`
		TraceFile string `json:"trace_file"`
	} `json:"violation"`
}

// replayJSON is the --json report of replay.
type replayJSON struct {
	File       string `json:"file"`
	Algorithm  string `json:"algorithm"`
	Property   string `json:"property"`
	Steps      int    `json:"steps"`
	Reproduced bool   `json:"reproduced"`
	DivergedAt int    `json:"diverged_at"`
	Reason     string `json:"reason"`
}

// check runs "check args... --json", expecting exit code, and returns the
// decoded report.
func check(t *testing.T, code int, args ...string) (checkJSON, cliResult) {
	t.Helper()
	r := runCLI(t, append(append([]string{"check"}, args...), "--json")...)
	r.wantCode(t, code)
	var rep checkJSON
	r.decodeJSON(t, &rep)
	return rep, r
}

// replay runs "replay file --json", expecting exit code, and returns the
// decoded report.
func replay(t *testing.T, code int, file string) replayJSON {
	t.Helper()
	r := runCLI(t, "replay", file, "--json")
	r.wantCode(t, code)
	var rep replayJSON
	r.decodeJSON(t, &rep)
	return rep
}

// writeTrace makes a fresh counterexample trace of suzuki-kasami/send-in-cs
// (n=2, r=1: mutex after 4 steps, all four kinds of step but Exit) in a
// temporary directory, through --trace-out, and returns its path.
func writeTrace(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "send-in-cs.json")
	rep, _ := check(t, exitViolation, "--algo", "suzuki-kasami/send-in-cs", "--n", "2", "--r", "1", "--trace-out", path)
	if rep.Violation == nil || rep.Violation.TraceFile != path {
		t.Fatalf("violation %+v, want its trace in %s", rep.Violation, path)
	}
	return path
}

// editTrace reads the trace at path with package traces, lets edit change
// it, and writes it with package traces to a new file, returning its path.
// (Going through the Trace type keeps the JSON layout, in particular the
// order of the keys in "vars", as the CLI writes it.)
func editTrace(t *testing.T, path string, edit func(tr *traces.Trace)) string {
	t.Helper()
	tr, err := traces.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edit(tr)
	edited := filepath.Join(t.TempDir(), "edited.trace.json")
	if err := traces.WriteFile(edited, tr); err != nil {
		t.Fatal(err)
	}
	return edited
}

// editText replaces the first occurrence of old in the file at path, which
// must have one, and writes the result to a new file, returning its path.
// For edits that package traces would refuse to write.
func editText(t *testing.T, path, old, new string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	edited := filepath.Join(t.TempDir(), "edited.trace.json")
	if err := os.WriteFile(edited, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return edited
}
