package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces"
)

// simulateJSON is the --json report of simulate, decoded strictly.
type simulateJSON struct {
	Algorithm     string           `json:"algorithm"`
	Params        map[string]int   `json:"params"`
	VariantParams map[string]int   `json:"variant_params"`
	Properties    []string         `json:"properties"`
	Strategy      string           `json:"strategy"`
	Seed          uint64           `json:"seed"`
	Verdict       string           `json:"verdict"`
	Runs          int              `json:"runs"`
	Terminal      int              `json:"terminal_runs"`
	Steps         int64            `json:"steps"`
	ElapsedS      float64          `json:"elapsed_s"`
	StepsPerS     float64          `json:"steps_per_s"`
	Distinct      int64            `json:"distinct_states_approx"`
	Fired         map[string]int64 `json:"fired"`
	LongestWait   int              `json:"longest_wait_steps"`
	WaitProc      int              `json:"longest_wait_process"`
	Workers       int              `json:"workers"`
	Violation     *struct {
		Property  string `json:"property"`
		Run       int    `json:"run"`
		RunSeed   uint64 `json:"run_seed"`
		Found     int    `json:"found_length"`
		Length    int    `json:"length"`
		TraceFile string `json:"trace_file"`
	} `json:"violation"`
}

func simulateCLI(t *testing.T, code int, args ...string) simulateJSON {
	t.Helper()
	r := runCLI(t, append(append([]string{"simulate"}, args...), "--json", "--progress", "0")...)
	r.wantCode(t, code)
	var rep simulateJSON
	r.decodeJSON(t, &rep)
	return rep
}

// TestSimulateOK: the default Suzuki-Kasami survives; every run ends with
// all N*R requests made and served, so the counts are exact.
func TestSimulateOK(t *testing.T) {
	rep := simulateCLI(t, exitOK, "--algo", "suzuki-kasami", "--n", "5", "--r", "2", "--runs", "30", "--seed", "9")
	if rep.Verdict != "ok" || rep.Runs != 30 || rep.Terminal != 30 || rep.Violation != nil {
		t.Fatalf("report %+v", rep)
	}
	if rep.Fired["Request"] != 300 || rep.Fired["Exit"] != 300 || rep.Fired["Request"]+rep.Fired["Exit"]+rep.Fired["Deliver"] != rep.Steps {
		t.Errorf("fired %v, steps %d", rep.Fired, rep.Steps)
	}
	if rep.Distinct < 100 || rep.LongestWait < 1 || rep.Strategy != "uniform" || rep.Seed != 9 {
		t.Errorf("report %+v", rep)
	}
}

// TestSimulateSeedAndWorkers: the same seed gives the same walks with one
// or two workers; another seed gives other walks.
func TestSimulateSeedAndWorkers(t *testing.T) {
	for _, s := range []string{"uniform", "pct", "swarm"} {
		a := simulateCLI(t, exitOK, "--algo", "torus", "--n", "9", "--runs", "6", "--steps", "2000", "--seed", "4", "--strategy", s)
		b := simulateCLI(t, exitOK, "--algo", "torus", "--n", "9", "--runs", "6", "--steps", "2000", "--seed", "4", "--strategy", s, "--workers", "2")
		if a.Steps != b.Steps || a.Distinct != b.Distinct || !reflect.DeepEqual(a.Fired, b.Fired) || a.LongestWait != b.LongestWait {
			t.Errorf("%s: workers 1 and 2 differ: %+v vs %+v", s, a, b)
		}
	}
	a := simulateCLI(t, exitOK, "--algo", "suzuki-kasami", "--n", "4", "--runs", "5", "--seed", "1")
	b := simulateCLI(t, exitOK, "--algo", "suzuki-kasami", "--n", "4", "--runs", "5", "--seed", "2")
	if a.Steps == b.Steps && reflect.DeepEqual(a.Fired, b.Fired) && a.Distinct == b.Distinct {
		t.Errorf("seeds 1 and 2 gave the same report")
	}
}

// TestSimulateViolationReplays: a mutant's violation is shrunk, written,
// and replayed by tokenmc replay; the text output tells the story.
func TestSimulateViolationReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sim.json")
	rep := simulateCLI(t, exitViolation, "--algo", "suzuki-kasami/send-in-cs", "--n", "4", "--trace-out", path)
	v := rep.Violation
	if v == nil || v.Property != "mutex" || v.TraceFile != path || v.Length > v.Found || v.Length != 4 {
		t.Fatalf("violation %+v (BFS shortest: mutex in 4 steps)", v)
	}
	if got := replay(t, exitOK, path); !got.Reproduced || got.Steps != v.Length {
		t.Errorf("replay %+v", got)
	}
	r := runCLI(t, "simulate", "--algo", "suzuki-kasami/send-in-cs", "--n", "4", "--trace-out", filepath.Join(t.TempDir(), "t.json"), "--progress", "0")
	r.wantCode(t, exitViolation)
	for _, want := range []string{"verdict: VIOLATION of mutex", "shrunk to 4 steps", "mutex is violated", "tokenmc replay"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text output lacks %q:\n%s", want, r.stdout)
		}
	}
	// --no-shrink keeps the walk as found
	raw := simulateCLI(t, exitViolation, "--algo", "suzuki-kasami/send-in-cs", "--n", "4", "--no-shrink", "--trace-out", filepath.Join(t.TempDir(), "raw.json"))
	if raw.Violation.Length != raw.Violation.Found || raw.Violation.Run != v.Run {
		t.Errorf("--no-shrink: %+v (shrunk run: %+v)", raw.Violation, v)
	}
}

// TestSimulateBadInput: one-line errors and exit code 2.
func TestSimulateBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		word string
	}{
		{[]string{"simulate"}, "--algo"},
		{[]string{"simulate", "--algo", "nope"}, "unknown algorithm"},
		{[]string{"simulate", "--algo", "suzuki-kasami", "--strategy", "random"}, "--strategy"},
		{[]string{"simulate", "--algo", "suzuki-kasami", "--steps", "0"}, "--steps"},
		{[]string{"simulate", "--algo", "suzuki-kasami", "--runs", "-1"}, "--runs"},
		{[]string{"simulate", "--algo", "suzuki-kasami", "--workers", "0"}, "--workers"},
		{[]string{"simulate", "--algo", "suzuki-kasami", "--depth", "0"}, "--depth"},
		{[]string{"simulate", "--algo", "suzuki-kasami", "--props", "nope"}, "nope"},
		{[]string{"simulate", "--algo", "torus", "--n", "5"}, "5"},
		{[]string{"simulate", "extra", "--algo", "torus"}, "positional"},
	} {
		r := runCLI(t, c.args...)
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.word)
		if r.stdout != "" {
			t.Errorf("%v: stdout not empty: %q", c.args, r.stdout)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSimulateInterrupt (issue 12): SIGINT during one long run gives exit
// 3 and a summary that counts the steps done (it said "steps: 0"), and the
// progress lines before it count steps too (they said "0 runs, 0 steps").
func TestSimulateInterrupt(t *testing.T) {
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run([]string{"simulate", "--algo", "suzuki-kasami", "--n", "3", "--r", "50000", "--runs", "1",
			"--steps", "1000000000", "--progress", "50ms", "--json"}, &out, &errb, algorithms.All()...)
	}()
	// the run never ends by itself: a progress line that counts steps must
	// come from the running walk (they used to show 0 until a run ended)
	counted := regexp.MustCompile(`\{"progress":true,"runs":0,"steps":[1-9][0-9]*,`)
	deadline := time.Now().Add(20 * time.Second)
	for !counted.MatchString(errb.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("no progress line counting steps in 20s; stderr:\n%s", errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var code int
	select {
	case code = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("simulate did not stop within 20s of SIGINT")
	}
	if code != exitIncomplete {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitIncomplete, errb.String())
	}
	var rep simulateJSON
	dec := json.NewDecoder(strings.NewReader(out.String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("decoding %q: %v", out.String(), err)
	}
	var fired int64
	for _, n := range rep.Fired {
		fired += n
	}
	if rep.Verdict != "incomplete" || rep.Steps == 0 || rep.Steps != fired || rep.Runs != 0 || rep.Distinct == 0 {
		t.Errorf("interrupted report %+v", rep)
	}
}

// TestSimulateTraceOut (issue 12): a --trace-out that cannot be written is
// refused before the simulation (exit 2, one line), and when a trace file
// cannot be written after all, the text report says so instead of
// "trace written to ; replay it with: tokenmc replay ".
func TestSimulateTraceOut(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ path, word string }{
		{filepath.Join(dir, "missing", "t.json"), "does not exist"},
		{dir, "is a directory"},
	} {
		r := runCLI(t, "simulate", "--algo", "suzuki-kasami/send-in-cs", "--n", "4", "--trace-out", c.path, "--progress", "0")
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.word)
	}
	var b bytes.Buffer
	rep := simulateReport{Algorithm: "x", Params: map[string]int{}, Verdict: "violation", WaitProc: -1,
		Violation: &simViolation{Property: "mutex", Found: 9, Length: 4}}
	printSimReport(&b, &rep, nil, traces.RenderOptions{})
	if s := b.String(); strings.Contains(s, "trace written to") || strings.Contains(s, "tokenmc replay") || !strings.Contains(s, "could not be written") {
		t.Errorf("report without a trace file:\n%s", s)
	}
}

// TestSimulateJSONProgress: with --json, progress lines on stderr are JSON
// objects, each with the counts done so far, never decreasing.
func TestSimulateJSONProgress(t *testing.T) {
	r := runCLI(t, "simulate", "--algo", "suzuki-kasami", "--n", "4", "--r", "1000", "--runs", "4", "--steps", "200000",
		"--seed", "1", "--json", "--progress", "1ms", "--workers", "1")
	r.wantCode(t, exitOK)
	var last int64
	lines := 0
	for _, l := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		var p simProgressJSON
		if err := json.Unmarshal([]byte(l), &p); err != nil || !p.Progress {
			t.Fatalf("stderr line %q is not a JSON progress object: %v", l, err)
		}
		if p.Steps < last {
			t.Fatalf("steps went down: %d after %d", p.Steps, last)
		}
		last = p.Steps
		lines++
	}
	if lines == 0 {
		t.Fatal("no progress line")
	}
}
