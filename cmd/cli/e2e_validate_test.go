package cli

// End-to-end tests of 'tokenmc validate' (issues 12 and 15): logs written
// by 'tokenmc run' validate with their parameters as they are, partial
// logs of 10,000 CS events validate and an edit that makes two CS stays
// overlap is rejected, --follow reports a divergence before the log ends,
// and bad logs get one-line errors with file:line.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/traces"
)

// runLog runs 'tokenmc run' and returns the log's path.
func runLog(t *testing.T, args ...string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "run.jsonl")
	r := runCLI(t, append(append([]string{"run"}, args...), "--log", file)...)
	r.wantCode(t, 0)
	return file
}

// Issue 15: validation takes the run's parameters as they are; r has no
// upper bound for runs.
func TestValidateRunWithManyRequests(t *testing.T) {
	file := runLog(t, "--algo", "suzuki-kasami", "--n", "3", "--r", "20", "--duration", "5s",
		"--max-delay", "50us", "--max-cs", "50us", "--max-think", "50us")
	r := runCLI(t, "validate", file, "--json")
	r.wantCode(t, 0)
	var rep validateReport
	r.decodeJSON(t, &rep)
	if !rep.OK || rep.Verdict != "ok" || rep.Explained != rep.Events || rep.Events < 3*20*3 {
		t.Fatalf("%+v", rep)
	}
}

// Issue 12: a header with a huge n, and a line over the reader's limit,
// are one-line errors naming file and line (exit 2).
func TestValidateBadLogs(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.jsonl")
	os.WriteFile(huge, []byte(`{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":1000000000000}}`+"\n"+`{"p":0,"seq":1,"kind":"request"}`+"\n"), 0o644)
	r := runCLI(t, "validate", huge)
	r.wantCode(t, 2)
	r.wantOneLineError(t, "huge.jsonl:1: the header's params need \"n\" in 1..1000")

	long := filepath.Join(dir, "long.jsonl")
	os.WriteFile(long, []byte(`{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}`+"\n"+
		`{"p":0,"seq":1,"kind":"request"}`+"\n"+`{"p":0,"seq":2,"kind":"exit","msg":"`+strings.Repeat("x", 5<<20)+`"}`+"\n"), 0o644)
	r = runCLI(t, "validate", long)
	r.wantCode(t, 2)
	r.wantOneLineError(t, "long.jsonl:3: the line is longer than")

	r = runCLI(t, "validate", huge, "--max-states", "0")
	r.wantCode(t, 2)
	r.wantOneLineError(t, "--max-states must be at least 1")
}

// csOnly rewrites a full log of 'run' as a partial log of its first
// limit request, enter and exit events. counted keeps their seq and vector
// timestamps (which count every event); otherwise the timestamps are
// dropped and each process's events renumbered 1, 2, 3, ..., so that
// their t_ns alone order them.
func csOnly(t *testing.T, full string, limit int, counted bool) []map[string]any {
	t.Helper()
	f, err := os.Open(full)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var out []map[string]any
	seq := map[float64]int{}
	for sc.Scan() && len(out) <= limit {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if len(out) == 0 {
			obs := map[string]any{"kinds": []string{"request", "enter", "exit"}}
			if counted {
				obs["seq_counts_all"] = true
			}
			m["observed"] = obs
			out = append(out, m)
			continue
		}
		switch m["kind"] {
		case "request", "enter", "exit":
			if !counted {
				p := m["p"].(float64)
				seq[p]++
				m["seq"] = seq[p]
				delete(m, "vc")
			}
			out = append(out, m)
		}
	}
	if len(out) <= limit {
		t.Fatalf("the run logged only %d CS events", len(out)-1)
	}
	return out
}

func writeLines(t *testing.T, file string, lines []map[string]any) {
	t.Helper()
	var b strings.Builder
	for _, m := range lines {
		j, _ := json.Marshal(m)
		b.Write(j)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Issue 15 acceptance: a CS-only log of 10,000 events from 'tokenmc run'
// validates (with the behaviour that explains it written as a trace),
// and a one-event edit that makes two CS stays overlap is rejected at
// one of the two stays. Two processes keep the search small (see
// docs/eventlog.md for larger figures).
func TestValidateCSOnlyLogOf10000Events(t *testing.T) {
	events, duration := 10000, "2s"
	if os.Getenv("TOKENMC_HEAVY") == "" {
		events, duration = 1000, "1s" // the same checks on a tenth of the log
	}
	full := runLog(t, "--algo", "suzuki-kasami", "--n", "2", "--r", "100000", "--duration", duration,
		"--max-delay", "1us", "--max-cs", "1us", "--max-think", "1us")
	dir := t.TempDir()
	for _, counted := range []bool{true, false} {
		lines := csOnly(t, full, events, counted)
		file := filepath.Join(dir, fmt.Sprintf("cs-%v.jsonl", counted))
		writeLines(t, file, lines)
		witness := filepath.Join(dir, "witness.trace.json")
		r := runCLI(t, "validate", file, "--json", "--witness", witness)
		r.wantCode(t, 0)
		var rep validateReport
		r.decodeJSON(t, &rep)
		if !rep.OK || !rep.Partial || rep.Events != events || rep.Explained != events || rep.Steps < events {
			t.Fatalf("counted=%v: %+v", counted, rep)
		}
		tr, err := traces.ReadFile(witness)
		if err != nil || len(tr.Steps) != rep.Steps {
			t.Fatalf("witness: %v, %d steps", err, len(tr.Steps))
		}
		// The witness makes every request, entry and exit the log has.
		counts := map[string]int{}
		for _, s := range tr.Steps {
			counts[s.Kind]++
		}
		logged := map[string]int{}
		for _, m := range lines[1:] {
			logged[m["kind"].(string)]++
		}
		if counts["Request"] != logged["request"] || counts["Exit"] != logged["exit"] {
			t.Fatalf("the witness has %v, the log %v", counts, logged)
		}
		// The witness is a trace file that replay accepts as a behaviour.
		rr := runCLI(t, "replay", witness, "--quiet")
		rr.wantCode(t, 0)
		if !strings.Contains(rr.stdout, "witness replays") {
			t.Fatalf("replay of the witness: %s", rr.stdout)
		}
	}
	// The edit: the first exit followed, before its process's next event,
	// by another process's entry gets a time just after that entry.
	lines := csOnly(t, full, events, false)
	exit, enter := -1, -1
	for i := 1; i < len(lines) && exit < 0; i++ {
		if lines[i]["kind"] != "exit" {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			if lines[j]["p"] == lines[i]["p"] {
				break
			}
			if lines[j]["kind"] == "enter" {
				exit, enter = i, j
				break
			}
		}
	}
	if exit < 0 {
		t.Fatal("no exit followed by another process's entry")
	}
	moved := lines[exit]
	moved["t_ns"] = lines[enter]["t_ns"].(float64) + 1
	edited := append(append(append([]map[string]any{}, lines[:exit]...), lines[exit+1:enter+1]...), moved)
	edited = append(edited, lines[enter+1:]...)
	file := filepath.Join(dir, "overlap.jsonl")
	writeLines(t, file, edited)
	r := runCLI(t, "validate", file, "--json")
	r.wantCode(t, 1)
	var rep validateReport
	r.decodeJSON(t, &rep)
	// Lines are 1-based with the header first: the other process's entry
	// moved up to line enter, the exit is at line enter+1; the stay it
	// ends began at line stay+1. The search names the earliest event at
	// the frontier it could not pass: one of these three.
	stay := exit - 1
	for lines[stay]["kind"] != "enter" || lines[stay]["p"] != moved["p"] {
		stay--
	}
	if rep.Verdict != "violation" || rep.Line != enter && rep.Line != enter+1 && rep.Line != stay+1 {
		t.Fatalf("overlap (the stay from line %d now ends at line %d, the entry at line %d): %+v", stay+1, enter+1, enter, rep)
	}
	r = runCLI(t, "validate", file, "--max-states", "3")
	r.wantCode(t, 3)
	if !strings.Contains(r.stdout, "validate: undecided:") {
		t.Fatalf("budget: %s", r.stdout)
	}
}

// Issue 15: --follow checks a log while it is written and reports the
// first divergence at once, long before the writer ends.
func TestValidateFollow(t *testing.T) {
	data, err := os.ReadFile("../../traces/eventlog/testdata/send-in-cs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(data)), "\n")
	lines[len(lines)-1] += "\n"
	file := filepath.Join(t.TempDir(), "live.jsonl")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The mutant's log against the correct model diverges at line 12; the
	// writer writes 14 lines, then nothing for 30 s.
	go func() {
		for _, l := range lines[:14] {
			f.WriteString(l)
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	r := runCLI(t, "validate", file, "--follow", "--algo", "suzuki-kasami", "--json")
	r.wantCode(t, 1)
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the divergence was reported after %v", d)
	}
	var rep validateReport
	r.decodeJSON(t, &rep)
	if rep.Line != 12 || !strings.Contains(rep.Reason, "TOKEN(->P1") {
		t.Fatalf("%+v", rep)
	}
	// The same from standard input, whose writer never closes it.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	stdin := os.Stdin
	os.Stdin = pr
	defer func() { os.Stdin = stdin }()
	go func() {
		for _, l := range lines[:14] {
			pw.WriteString(l)
		}
	}()
	r = runCLI(t, "validate", "-", "--follow", "--algo", "suzuki-kasami")
	r.wantCode(t, 1)
	if !strings.Contains(r.stdout, "validate: NOT a behaviour of suzuki-kasami: line 12 (P0 #4 send TOKEN(->P1") {
		t.Fatalf("%s", r.stdout)
	}
	// A correct log being written: ok once the writer has been idle.
	good := filepath.Join(t.TempDir(), "good.jsonl")
	g, _ := os.Create(good)
	defer g.Close()
	go func() {
		for _, l := range lines {
			g.WriteString(l)
			time.Sleep(5 * time.Millisecond)
		}
	}()
	r = runCLI(t, "validate", good, "--follow", "--idle", "1s")
	r.wantCode(t, 0)
	if !strings.Contains(r.stdout, fmt.Sprintf("validate: ok, %d events", len(lines)-1)) {
		t.Fatalf("%s", r.stdout)
	}
}

// Issue 15: a log in an implementation's own words validates through a
// mapping file; a broken mapping file is a one-line error with its line.
func TestValidateWithMapping(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "own.jsonl")
	os.WriteFile(log, []byte(`{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":1}}
{"p":"beta","seq":1,"kind":"acquire"}
{"p":"beta","seq":2,"kind":"send","msg":{"type":"Ask","seq":1},"mid":"a","to":"alpha"}
{"p":"alpha","seq":1,"kind":"receive","msg":{"type":"Ask","seq":1},"mid":"a","from":"beta"}
{"p":"alpha","seq":2,"kind":"send","msg":{"type":"Privilege","queue":[]},"mid":"b","to":"beta"}
{"p":"beta","seq":3,"kind":"receive","msg":{"type":"Privilege"},"mid":"b","from":"alpha"}
{"p":"beta","seq":4,"kind":"acquired"}
`), 0o644)
	mapping := filepath.Join(dir, "map.json")
	os.WriteFile(mapping, []byte(`{"processes":{"alpha":0,"beta":1},"events":{"acquire":"request","acquired":"enter"},
"messages":{"Ask":"REQ","Privilege":"TOKEN"},"fields":{"type":"kind","seq":"sn","queue":"q"}}`), 0o644)
	r := runCLI(t, "validate", log, "--mapping", mapping)
	r.wantCode(t, 0)
	if !strings.Contains(r.stdout, "validate: ok, 6 events in 3 steps") {
		t.Fatalf("%s", r.stdout)
	}
	r = runCLI(t, "validate", log)
	r.wantCode(t, 2)
	r.wantOneLineError(t, "own.jsonl:2: not a JSON event object")
	os.WriteFile(mapping, []byte("{\"processes\":{\"alpha\":0},\n\"kinds\":{}}"), 0o644)
	r = runCLI(t, "validate", log, "--mapping", mapping)
	r.wantCode(t, 2)
	r.wantOneLineError(t, "map.json:2: not a mapping")
}

// TestValidateQuiet: --quiet prints the verdict line only, for an accepted
// log and for a rejected one (without the state table that follows it
// otherwise), with the same exit codes.
func TestValidateQuiet(t *testing.T) {
	for _, c := range []struct {
		file string
		code int
	}{
		{"../../traces/eventlog/testdata/suzuki-kasami.jsonl", exitOK},
		{"../../traces/eventlog/testdata/edited-enter-without-token.jsonl", exitViolation},
	} {
		loud := runCLI(t, "validate", c.file)
		quiet := runCLI(t, "validate", c.file, "--quiet")
		loud.wantCode(t, c.code)
		quiet.wantCode(t, c.code)
		first, _, _ := strings.Cut(loud.stdout, "\n")
		if quiet.stdout != first+"\n" {
			t.Errorf("%s: --quiet printed %q, want only the verdict line %q", c.file, quiet.stdout, first)
		}
		if c.code == exitViolation && strings.Count(loud.stdout, "\n") < 2 {
			t.Errorf("%s: without --quiet, a rejection should show the state reached:\n%s", c.file, loud.stdout)
		}
	}
}
