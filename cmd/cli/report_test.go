package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
)

// reportOf runs buildReport on the named algorithms only, so that the test
// stays fast whatever else is registered.
func reportOf(t *testing.T, maxStates int64, names ...string) []reportRow {
	t.Helper()
	var algs []algorithms.Algorithm
	for _, n := range names {
		a, _, err := algorithms.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		algs = append(algs, a)
	}
	return buildReport(context.Background(), algs, reportOptions{MaxStates: maxStates, Workers: 2}, nil)
}

func rowOf(t *testing.T, rows []reportRow, variant string) reportRow {
	t.Helper()
	for _, r := range rows {
		if r.Variant == variant {
			return r
		}
	}
	t.Fatalf("no row for %s", variant)
	return reportRow{}
}

func cellOf(r reportRow, prop string) string {
	for _, p := range r.Properties {
		if p.Property == prop {
			return p.cell()
		}
	}
	return "missing"
}

// Every variant gets a row; counts and verdicts are those the algorithm
// packages pin (lelann: 108 states and 207 transitions at n=3, cross-checked
// there by a naive enumerator; pass-on-entry breaks single-token in 2 steps
// and mutex in 4); a permission-based algorithm has n/a for single-token.
func TestBuildReportRows(t *testing.T) {
	rows := reportOf(t, 0, "lelann", "ricart-agrawala")
	if len(rows) != 3+4 {
		t.Fatalf("%d rows, want one per variant (7)", len(rows))
	}
	def := rowOf(t, rows, "lelann")
	if def.States != 108 || def.Transitions != 207 || !def.Complete || len(def.Unexpected) != 0 {
		t.Errorf("lelann row %+v", def)
	}
	for _, p := range []string{"mutex", "single-token", "no-unrequested-entry", "no-deadlock", "starvation-freedom"} {
		if got := cellOf(def, p); got != "ok" {
			t.Errorf("lelann %s = %s, want ok", p, got)
		}
	}
	if got := cellOf(def, "gme-safety"); got != "n/a" {
		t.Errorf("lelann gme-safety = %s, want n/a", got)
	}
	m := rowOf(t, rows, "lelann/pass-on-entry")
	if cellOf(m, "single-token") != "VIOLATED (2)" || cellOf(m, "mutex") != "VIOLATED (4)" || len(m.Unexpected) != 0 {
		t.Errorf("pass-on-entry row %+v", m)
	}
	ra := rowOf(t, rows, "ricart-agrawala")
	if cellOf(ra, "single-token") != "n/a" || cellOf(ra, "mutex") != "ok" || ra.States != 2858 {
		t.Errorf("ricart-agrawala row %+v", ra)
	}
	if reportExitCode(rows, false) != exitOK {
		t.Errorf("exit code %d for an as-expected report", reportExitCode(rows, false))
	}
}

// A bound smaller than the state space makes rows incomplete, never ok, and
// the exit code 3; a violation found before the bound still stands.
func TestBuildReportBound(t *testing.T) {
	rows := reportOf(t, 40, "lelann")
	def := rowOf(t, rows, "lelann")
	if def.Complete || cellOf(def, "mutex") != "incomplete" {
		t.Errorf("bounded lelann row %+v", def)
	}
	if m := rowOf(t, rows, "lelann/pass-on-entry"); cellOf(m, "single-token") != "VIOLATED (2)" {
		t.Errorf("bounded pass-on-entry single-token = %s", cellOf(m, "single-token"))
	}
	if got := reportExitCode(rows, false); got != exitIncomplete {
		t.Errorf("exit code %d, want %d", got, exitIncomplete)
	}
}

// Differences from the registry's expectations are flagged and make the
// exit code 1: an expected violation that is not found, and a violation by
// a default variant. A mutant's extra violations are only listed.
func TestReportFlagsUnexpected(t *testing.T) {
	a, _, err := algorithms.Lookup("lelann")
	if err != nil {
		t.Fatal(err)
	}
	a.Variants = []algorithms.Variant{
		{Name: "lelann", Kind: spec.KindMutant, Breaks: []string{"mutex"}, Doc: "claims a violation it does not have"},
		{Name: "lelann/pass-on-entry", Kind: spec.KindDefault, Doc: "claims to be correct"},
		{Name: "lelann/drop-on-exit", Kind: spec.KindMutant, Breaks: []string{"no-deadlock"}, Doc: "omits single-token"},
	}
	rows := buildReport(context.Background(), []algorithms.Algorithm{a}, reportOptions{Workers: 1}, nil)
	if got := strings.Join(rows[0].Unexpected, ";"); got != "mutex holds" {
		t.Errorf("lelann as a mutant: unexpected %q", got)
	}
	if got := strings.Join(rows[1].Unexpected, ";"); got != "violates mutex;violates single-token;violates token-only-in-cs" {
		t.Errorf("pass-on-entry as a default: unexpected %q", got)
	}
	if got := strings.Join(rows[2].Also, ";"); got != "single-token" || len(rows[2].Unexpected) != 0 {
		t.Errorf("drop-on-exit: also %v, unexpected %v", rows[2].Also, rows[2].Unexpected)
	}
	if got := reportExitCode(rows, false); got != exitViolation {
		t.Errorf("exit code %d, want %d", got, exitViolation)
	}
	var md strings.Builder
	if err := writeReportMarkdown(&md, rows, reportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "**UNEXPECTED: mutex holds**") || !strings.Contains(md.String(), "also violates single-token") {
		t.Errorf("notes missing from the table:\n%s", md.String())
	}
}

// The command end to end: Markdown to a file with the header of a
// partial table (--only: not docs/results.md), JSON to stdout, bad input
// with exit 2.
func TestReportCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results.md")
	runCLI(t, "report", "--only", "naimi-trehel", "--out", out).wantCode(t, exitOK)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, want := range []string{
		"Generated by `tokenmc report --algo naimi-trehel`: the rows of those algorithms only.",
		"| algorithm | variant | kind | parameters | states | transitions | mutex |",
		"| naimi-trehel | (default) | default | n=3 r=1 | 164 | 296 | ok |",
		"| naimi-trehel | send-in-cs | mutant | n=3 r=1 |",
		"VIOLATED (4)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "docs/results.md") || strings.Contains(md, "Regenerate") {
		t.Errorf("a partial report names the repository's table:\n%s", md)
	}
	res := runCLI(t, "report", "--only", "naimi-trehel", "--json")
	res.wantCode(t, exitOK)
	if strings.Count(res.stderr, "/3 naimi-trehel") != 3 {
		t.Errorf("want a progress line per row on stderr, got %q", res.stderr)
	}
	if q := runCLI(t, "report", "--only", "naimi-trehel", "--json", "--quiet"); q.code != exitOK || q.stderr != "" || !strings.Contains(q.stdout, `"naimi-trehel/send-in-cs"`) {
		t.Errorf("--quiet: exit %d, stderr %q, stdout %q", q.code, q.stderr, q.stdout)
	}
	var got reportJSON
	dec := json.NewDecoder(strings.NewReader(res.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || len(got.Rows) != 3 || got.MaxStates != defaultReportMaxStates || got.Fairness != "weak" {
		t.Fatalf("--json: %v, %+v", err, got)
	}
	if r := got.Rows[2]; r.Variant != "naimi-trehel/send-in-cs" || cellOf(r, "mutex") != "VIOLATED (4)" || r.Kind != "mutant" {
		t.Errorf("--json row %+v", r)
	}
	for _, args := range [][]string{
		{"report", "--max-states", "-1"},
		{"report", "--only", "nosuch"},
		{"report", "extra"},
		{"report", "--only", "lelann", "--out", filepath.Join(t.TempDir(), "no-such-dir", "results.md")},
	} {
		r := runCLI(t, args...)
		r.wantCode(t, exitBadInput)
		if strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%v: error is not one line: %q", args, r.stderr)
		}
	}
}

// A variant that cannot be built, or whose model panics, gets an error row
// instead of taking the table down, and the exit code is 3.
func TestReportErrorRows(t *testing.T) {
	algs := []algorithms.Algorithm{
		{Name: "broken", Variants: []algorithms.Variant{{Name: "broken", Kind: spec.KindDefault, Doc: "fails to build"}},
			Build: func(string, map[string]int) (model.System, []model.Property, error) {
				return nil, nil, errors.New("broken: n=3 is not allowed")
			}},
		{Name: "panics", Variants: []algorithms.Variant{{Name: "panics", Kind: spec.KindDefault, Doc: "panics while building"}},
			Build: func(string, map[string]int) (model.System, []model.Property, error) {
				panic("half-written model")
			}},
	}
	rows := buildReport(context.Background(), algs, reportOptions{Workers: 1}, nil)
	if len(rows) != 2 || rows[0].Error != "broken: n=3 is not allowed" || rows[1].Error != "panic: half-written model" {
		t.Fatalf("rows %+v", rows)
	}
	if got := reportExitCode(rows, false); got != exitIncomplete {
		t.Errorf("exit code %d, want %d", got, exitIncomplete)
	}
	var md strings.Builder
	if err := writeReportMarkdown(&md, rows, reportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| broken | (default) | default |  | 0 (incomplete) | 0 | error |") {
		t.Errorf("error row missing:\n%s", md.String())
	}
}

// The readings added for issue 13 show their expected verdicts in the
// report: D22 (fcfs, 2 steps), D11 (regen-lt starves, lasso of 5 steps at
// its parameters n=2, groups=1, faults=1) and A11 (timers-any breaks mutex
// in 7 steps with faults=0).
func TestReportNewReadings(t *testing.T) {
	rows := reportOf(t, 20000, "drs-gme", "banerjee-rec")
	for _, c := range []struct{ variant, prop, cell string }{
		{"drs-gme/fcfs", "fcfs", "VIOLATED (2)"},
		{"drs-gme/fcfs", "gme-safety", "ok"},
		{"drs-gme/regen-lt", "starvation-freedom", "VIOLATED (5)"},
		{"drs-gme/regen-lt", "gme-safety", "ok"},
		{"banerjee-rec/timers-any", "mutex", "VIOLATED (7)"},
	} {
		r := rowOf(t, rows, c.variant)
		if got := cellOf(r, c.prop); got != c.cell {
			t.Errorf("%s %s: %s, want %s", c.variant, c.prop, got, c.cell)
		}
		if len(r.Unexpected) > 0 {
			t.Errorf("%s: unexpected %v", c.variant, r.Unexpected)
		}
	}
}

// report --out keeps the hand-written part of the existing file, from its
// first "## " heading to the end, after the new table: once, also on a
// second run, and with the old generated table gone. A file without such
// a heading is replaced whole; --json keeps nothing.
func TestReportKeepsHandWrittenSections(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "results.md")
	const hand = "## Published claims\n\n(Hand-written.) A row | with a pipe.\n\n### 9.1 Errors\n\ntext\n"
	os.WriteFile(out, []byte("# Results: an old table\n\n| naimi-trehel | stale |\n\n"+hand), 0o644)
	fresh := filepath.Join(dir, "fresh.md")
	runCLI(t, "report", "--only", "naimi-trehel", "--quiet", "--out", fresh).wantCode(t, exitOK)
	table, _ := os.ReadFile(fresh)
	for run := 1; run <= 2; run++ {
		runCLI(t, "report", "--only", "naimi-trehel", "--quiet", "--out", out).wantCode(t, exitOK)
		b, _ := os.ReadFile(out)
		got := string(b)
		gen, rest, ok := strings.Cut(got, "\n## ")
		if !ok || "## "+rest != hand || strings.Contains(got, "stale") {
			t.Fatalf("run %d: the hand-written part is not kept once after the table:\n%s", run, got)
		}
		// The generated part is the table a fresh file gets (times aside).
		if n, m := strings.Count(gen, "\n| naimi-trehel |"), strings.Count(string(table), "\n| naimi-trehel |"); n != 3 || m != 3 || !strings.HasPrefix(gen, "# Results: every algorithm variant") {
			t.Errorf("run %d: %d rows (fresh file: %d), want 3:\n%s", run, n, m, gen)
		}
	}
	if strings.Contains(string(table), "## ") {
		t.Errorf("a fresh report has a second-level heading, which a rerun would keep as hand-written:\n%s", table)
	}
	os.WriteFile(out, []byte("# no heading\n\ntext\n"), 0o644)
	r := runCLI(t, "report", "--only", "naimi-trehel", "--quiet", "--out", out)
	r.wantCode(t, exitOK)
	if b, _ := os.ReadFile(out); strings.Contains(string(b), "text\n") && strings.Contains(string(b), "no heading") {
		t.Errorf("a file without a \"## \" heading was not replaced whole:\n%s", b)
	}
	if !strings.Contains(r.stderr, "report: 2 line(s) of "+out+" above its first \"## \" heading are not the generated table and are replaced") {
		t.Errorf("no warning about the 2 replaced lines:\n%s", r.stderr)
	}
	os.WriteFile(out, []byte(hand), 0o644)
	r = runCLI(t, "report", "--only", "naimi-trehel", "--quiet", "--json", "--out", out)
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "--out "+out+" holds hand-written text that the JSON report would replace")
	if b, _ := os.ReadFile(out); string(b) != hand {
		t.Errorf("a refused --json --out changed the file:\n%s", b)
	}
	out = filepath.Join(dir, "results.json")
	for run := 1; run <= 2; run++ { // a new file, then the JSON report itself
		runCLI(t, "report", "--only", "naimi-trehel", "--quiet", "--json", "--out", out).wantCode(t, exitOK)
		var js reportJSON
		if b, _ := os.ReadFile(out); json.Unmarshal(b, &js) != nil || len(js.Rows) != 3 {
			t.Errorf("run %d: --json --out is not the JSON report alone:\n%s", run, b)
		}
	}
}

// report --out over a file with text of its own above the first "## "
// heading (not the generated title, paragraph or table) says on stderr
// how many such lines it replaces; a file that holds only the generated
// part above the heading gets no such line.
func TestReportWarnsReplacedIntro(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.md")
	fresh := filepath.Join(dir, "fresh.md")
	runCLI(t, "report", "--only", "lelann", "--quiet", "--out", fresh).wantCode(t, exitOK)
	table, _ := os.ReadFile(fresh)
	const notes = "## Notes\n\nhand-written\n"
	for _, c := range []struct {
		before string
		lines  int
	}{
		{string(table), 0},
		{string(table) + "\nmy intro\nsecond line\n\n", 2},
		{"my intro\n\n" + string(table), 1},
	} {
		os.WriteFile(out, []byte(c.before+notes), 0o644)
		r := runCLI(t, "report", "--only", "lelann", "--quiet", "--out", out)
		r.wantCode(t, exitOK)
		warned := strings.Contains(r.stderr, fmt.Sprintf("report: %d line(s) of %s above", c.lines, out))
		if c.lines == 0 && strings.Contains(r.stderr, "line(s) of") || c.lines > 0 && !warned {
			t.Errorf("%d hand-written line(s) above the heading: stderr\n%s", c.lines, r.stderr)
		}
		if b, _ := os.ReadFile(out); !strings.HasSuffix(string(b), "\n"+notes) || strings.Contains(string(b), "my intro") {
			t.Errorf("%d line(s): the result is not the table and the notes:\n%s", c.lines, b)
		}
	}
}

// report --out through a symbolic link writes the file the link points to
// (keeping its hand-written part) and leaves the link a link; so does
// show --out.
func TestOutputsWriteThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "results.md")
	link := filepath.Join(dir, "link.md")
	os.WriteFile(results, []byte("# Results: old\n\n## Notes\n\nmine\n"), 0o644)
	if err := os.Symlink("results.md", link); err != nil {
		t.Skip("no symlinks:", err)
	}
	runCLI(t, "report", "--only", "lelann", "--quiet", "--out", link).wantCode(t, exitOK)
	b, _ := os.ReadFile(results)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("report --out replaced the link: %v", err)
	}
	if !strings.HasPrefix(string(b), "# Results: every algorithm variant") || !strings.HasSuffix(string(b), "\n## Notes\n\nmine\n") {
		t.Fatalf("results.md is not the new table and the notes:\n%s", b)
	}
	trace := writeTrace(t)
	svg, svgLink := filepath.Join(dir, "chart.svg"), filepath.Join(dir, "chart-link.svg")
	os.Symlink("chart.svg", svgLink)
	runCLI(t, "show", trace, "--format", "svg", "--out", svgLink).wantCode(t, exitOK)
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<svg") {
		t.Fatalf("show --out through a link: chart.svg %v\n%.80s", err, b)
	}
	if fi, err := os.Lstat(svgLink); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("show --out replaced the link: %v", err)
	}
}
