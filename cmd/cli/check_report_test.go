package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// coverageRows parses the table printCoverage writes: action -> total and
// per-process counts (-1 for "-").
func coverageRows(t *testing.T, out string) map[string][]int64 {
	t.Helper()
	rows := map[string][]int64{}
	in := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  action ") {
			in = true
			continue
		}
		if !in || !strings.HasPrefix(line, "  ") {
			in = in && strings.HasPrefix(line, "  ")
			continue
		}
		f := strings.Fields(line)
		// the name may have spaces: the numbers are the last N+1 fields
		var nums []int64
		k := len(f) - 1
		for ; k >= 0; k-- {
			if f[k] == "-" {
				nums = append([]int64{0}, nums...)
				continue
			}
			n, err := strconv.ParseInt(f[k], 10, 64)
			if err != nil {
				break
			}
			nums = append([]int64{n}, nums...)
		}
		rows[strings.Join(f[:k+1], " ")] = nums
	}
	return rows
}

// check --coverage walks the graph on its own; its counts must equal the
// search's (an independent count of the same graph), each row's total
// must be the sum of its processes, and the totals the transitions.
func TestCoverageCountsMatchTheSearch(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "3", "--r", "1", "--coverage", "--progress", "0", "--trace-out", filepath.Join(dir, "t.json"))
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "states: 726  transitions: 2079  depth: 15") {
		t.Fatalf("the search's counts changed:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "coverage, from a separate walk") || !strings.Contains(r.stdout, "actions fired from all 726 reachable states, 2079 transitions, 16 levels") {
		t.Fatalf("the coverage walk disagrees with the search:\n%s", r.stdout)
	}
	rows := coverageRows(t, r.stdout)
	var sum int64
	for name, nums := range rows {
		if len(nums) != 4 {
			t.Fatalf("row %q has %d numbers, want total + 3 processes", name, len(nums))
		}
		if nums[0] != nums[1]+nums[2]+nums[3] {
			t.Errorf("row %q: total %d is not the sum of %v", name, nums[0], nums[1:])
		}
		sum += nums[0]
	}
	if sum != 2079 {
		t.Errorf("the rows add up to %d transitions, want 2079", sum)
	}
	for _, want := range []string{"Request", "Exit", "Deliver REQ", "Deliver TOKEN"} {
		if _, ok := rows[want]; !ok {
			t.Errorf("no row %q in\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "never fired: nothing; every action fired at every process") {
		t.Errorf("coverage of suzuki-kasami should be complete:\n%s", r.stdout)
	}
}

// In the coordinator ring only the coordinator P0 receives REQUEST and
// RETURN, and it never receives the TOKEN or a WAIT it sends: coverage
// calls those out, as TLC's -coverage does.
func TestCoverageNeverFired(t *testing.T) {
	r := runCLI(t, "check", "--algo", "coord-ring", "--coverage", "--quiet")
	r.wantCode(t, exitOK)
	want := "never fired at some processes: Deliver REQUEST at P1, P2; Deliver RETURN at P1, P2; Deliver TOKEN at P0; Deliver WAIT at P0\n"
	if !strings.HasSuffix(r.stdout, want) {
		t.Fatalf("got:\n%s\nwant it to end with:\n%s", r.stdout, want)
	}
	if !strings.HasPrefix(r.stdout, "verdict: ok, every property holds on all 263 reachable states\n") {
		t.Fatalf("--quiet printed more than the verdict before the coverage:\n%s", r.stdout)
	}
}

// --quiet prints the verdict and the trace file, nothing else, and no
// progress; the exit code is unchanged. --quiet with --json is an error.
func TestQuiet(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "kc.json")
	r := runCLI(t, "check", "--algo", "suzuki-kasami/keep-copy", "--quiet", "--progress", "1ms", "--trace-out", out)
	r.wantCode(t, exitViolation)
	want := "verdict: VIOLATION of single-token after 2 steps\ntrace written to " + out + "\n"
	if r.stdout != want {
		t.Fatalf("stdout:\n%q\nwant:\n%q", r.stdout, want)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, "check", "--algo", "suzuki-kasami", "--quiet", "--json")
	r.wantCode(t, exitBadInput)
	if !strings.Contains(r.stderr, "--quiet and --json exclude each other") {
		t.Fatalf("stderr: %s", r.stderr)
	}
}

// --full prints every step's in-transit list; the default only its
// difference, and the list once at the end.
func TestFullTrace(t *testing.T) {
	dir := t.TempDir()
	short := runCLI(t, "check", "--algo", "suzuki-kasami/keep-copy", "--progress", "0", "--trace-out", filepath.Join(dir, "a.json"))
	full := runCLI(t, "check", "--algo", "suzuki-kasami/keep-copy", "--full", "--progress", "0", "--trace-out", filepath.Join(dir, "b.json"))
	short.wantCode(t, exitViolation)
	full.wantCode(t, exitViolation)
	if !strings.Contains(short.stdout, "in transit: 2 (+2 sent)") || !strings.Contains(short.stdout, "in transit at the end: REQ(P1->P2, sn=1), TOKEN(->P1, LN=[0,0,0], Q=[])") {
		t.Fatalf("default output:\n%s", short.stdout)
	}
	if !strings.Contains(full.stdout, "in transit: REQ(P1->P0, sn=1), REQ(P1->P2, sn=1)\n") || strings.Contains(full.stdout, "in transit at the end") {
		t.Fatalf("--full output:\n%s", full.stdout)
	}
	// replay prints the same two renderings of the trace file.
	rs := runCLI(t, "replay", filepath.Join(dir, "a.json"))
	rf := runCLI(t, "replay", filepath.Join(dir, "a.json"), "--full")
	rs.wantCode(t, exitOK)
	rf.wantCode(t, exitOK)
	if !strings.Contains(rs.stdout, "in transit at the end:") || strings.Contains(rf.stdout, "in transit at the end") ||
		!strings.Contains(rf.stdout, "in transit: REQ(P1->P0, sn=1), REQ(P1->P2, sn=1)\n") {
		t.Fatalf("replay output:\n%s\nreplay --full output:\n%s", rs.stdout, rf.stdout)
	}
}

// --report writes a self-contained page: the verdict, the per-level plot
// with as many points as levels, the coverage table and the chart.
func TestReportFile(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "run.html")
	r := runCLI(t, "check", "--algo", "suzuki-kasami/keep-copy", "--report", page, "--progress", "0", "--trace-out", filepath.Join(dir, "t.json"))
	r.wantCode(t, exitViolation)
	if !strings.HasSuffix(r.stdout, "report written to "+page+"\n") {
		t.Fatalf("stdout does not say where the report is:\n%s", r.stdout)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"VIOLATION of single-token after 2 steps", "<polyline", "Action coverage", "<h2>Counterexample</h2>", `id="cxsvg"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(s) {
		t.Error("the report loads something from elsewhere; it must be self-contained")
	}
	// a complete run: one point per level (depth 15: levels 0..15) and
	// series, and the walk's counts agree with the search's
	ok := filepath.Join(dir, "ok.html")
	runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "3", "--r", "1", "--report", ok, "--quiet").wantCode(t, exitOK)
	b, err = os.ReadFile(ok)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<title>level (\d+): (\d+) new states`).FindAllStringSubmatch(string(b), -1)
	if len(m) != 2*16 || m[15][1] != "15" {
		t.Errorf("%d level points, want 2 series x 16 levels", len(m))
	}
	total := 0
	for _, p := range m[:16] {
		n, _ := strconv.Atoi(p[2])
		total += n
	}
	if total != 726 {
		t.Errorf("the levels add up to %d states, want 726", total)
	}
	if !strings.Contains(string(b), "Its counts equal the search's.") {
		t.Error("the report does not confirm the walk's counts")
	}
	// bad paths are refused before the search
	r = runCLI(t, "check", "--algo", "suzuki-kasami", "--report", dir)
	r.wantCode(t, exitBadInput)
	if !strings.Contains(r.stderr, "is a directory; give a file name") {
		t.Fatalf("stderr: %s", r.stderr)
	}
}

// --dfs with a liveness property is not silently ignored.
func TestDFSLivenessNote(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, "check", "--algo", "torus", "--dfs", "--props", "mutex,starvation-freedom", "--progress", "0", "--trace-out", filepath.Join(dir, "t.json"))
	if !strings.Contains(r.stderr, "note: --dfs applies to the safety search only") {
		t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
	}
	if strings.Count(r.stderr, "note:") != 1 {
		t.Fatalf("the note is printed %d times", strings.Count(r.stderr, "note:"))
	}
}

// simulate --quiet prints the verdict and the trace file only.
func TestSimulateQuiet(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.json")
	r := runCLI(t, "simulate", "--algo", "suzuki-kasami/keep-copy", "--quiet", "--trace-out", out)
	r.wantCode(t, exitViolation)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "verdict: VIOLATION of single-token in run 0 after ") || lines[1] != "trace written to "+out {
		t.Fatalf("stdout:\n%s", r.stdout)
	}
	r = runCLI(t, "simulate", "--algo", "torus", "--quiet", "--runs", "3", "--steps", "50")
	r.wantCode(t, exitOK)
	if r.stdout != "verdict: ok, no violation in 3 runs (a sample, not a proof)\n" || r.stderr != "" {
		t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
	}
}

// check --json --coverage adds a "coverage" member to the one JSON object;
// its counts agree with the search's members.
func TestCoverageJSON(t *testing.T) {
	r := runCLI(t, "check", "--algo", "coord-ring", "--json", "--coverage")
	r.wantCode(t, exitOK)
	m := r.jsonObject(t)
	cov, ok := m["coverage"].(map[string]any)
	if !ok {
		t.Fatalf("no coverage member:\n%s", r.stdout)
	}
	if cov["states"] != m["states"] || cov["transitions"] != m["transitions"] || cov["complete"] != true {
		t.Fatalf("coverage %v %v %v, search %v %v", cov["states"], cov["transitions"], cov["complete"], m["states"], m["transitions"])
	}
	var sum, levels float64
	for _, a := range cov["actions"].([]any) {
		sum += a.(map[string]any)["total"].(float64)
	}
	for _, l := range cov["levels"].([]any) {
		levels += l.(map[string]any)["states"].(float64)
	}
	if sum != m["transitions"] || levels != m["states"] {
		t.Fatalf("actions add up to %v transitions and levels to %v states; the search has %v and %v", sum, levels, m["transitions"], m["states"])
	}
	if nf := cov["never_fired"].([]any); len(nf) != 4 || nf[0] != "Deliver REQUEST at P1, P2" {
		t.Fatalf("never_fired %v", nf)
	}
}

// Flags that a search would ignore get a note, once; the same flags where
// they apply get none.
func TestIgnoredFlagNotes(t *testing.T) {
	for _, c := range []struct {
		args []string
		note string // "" for no note
	}{
		{[]string{"--dfs", "--workers", "2"}, "note: --workers applies to breadth-first search"},
		{[]string{"--workers", "2"}, ""},
		{[]string{"--fairness", "strong"}, "note: --fairness applies to starvation-freedom only"},
		{[]string{"--fairness", "strong", "--props", "mutex,starvation-freedom"}, ""},
	} {
		args := append([]string{"check", "--algo", "suzuki-kasami", "--n", "2", "--r", "1", "--progress", "0", "--quiet"}, c.args...)
		r := runCLI(t, args...)
		r.wantCode(t, exitOK)
		switch {
		case c.note == "" && strings.Contains(r.stderr, "note:"):
			t.Errorf("%v: unexpected note: %s", c.args, r.stderr)
		case c.note != "" && strings.Count(r.stderr, c.note) != 1:
			t.Errorf("%v: stderr %q, want the note %q once", c.args, r.stderr, c.note)
		}
	}
}
