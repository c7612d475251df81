package cli

// Tests of issue 25's command-line half: short help, list NAME, the short
// summary of a passing check, the line that shows a counterexample, one
// spelling of --algo and --out with the old names as aliases, progress
// and exit reasons of report and measure, the history page, and check
// --graph.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
)

// Every command's short help fits a screen: at most 45 lines of at most
// 100 characters, flags spelled --flag (never Go's -flag), no algorithm's
// own parameter, and two or three examples whose flags all exist (each
// example, with --help added, parses).
func TestShortHelp(t *testing.T) {
	params := map[string]bool{}
	for _, a := range algorithms.All() {
		for _, p := range a.Params {
			if p.Name != "n" && p.Name != "r" {
				params[p.Name] = true
			}
		}
	}
	goStyle := regexp.MustCompile(`(?m)^\s+-[a-z]`)
	flagName := regexp.MustCompile(`--([a-z][a-z0-9-]*)`)
	for _, cmd := range commandNames() {
		r := runCLI(t, "help", cmd)
		r.wantCode(t, exitOK)
		lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
		if len(lines) > 45 {
			t.Errorf("help %s: %d lines, want at most 45", cmd, len(lines))
		}
		for _, l := range lines {
			if len(l) > 100 {
				t.Errorf("help %s: a line of %d characters: %q", cmd, len(l), l)
			}
		}
		if m := goStyle.FindString(r.stdout); m != "" {
			t.Errorf("help %s spells a flag Go's way: %q", cmd, m)
		}
		_, flagsPart, _ := strings.Cut(r.stdout, "\nflags:\n")
		flagsPart, examples, _ := strings.Cut(flagsPart, "\nexamples:\n")
		for _, m := range flagName.FindAllStringSubmatch(flagsPart, -1) {
			if params[m[1]] && !(cmd == "measure" && m[1] == "timers") { // measure's own --timers
				t.Errorf("help %s lists the algorithm parameter --%s", cmd, m[1])
			}
		}
		var ex []string
		for _, l := range strings.Split(examples, "\n") {
			if strings.HasPrefix(l, "  tokenmc ") {
				ex = append(ex, strings.TrimPrefix(l, "  tokenmc "))
			}
		}
		if len(ex) < 2 || len(ex) > 3 {
			t.Errorf("help %s: %d examples, want 2 or 3:\n%s", cmd, len(ex), r.stdout)
		}
		for _, e := range ex {
			args := append(strings.Fields(e), "--help")
			if args[0] != cmd {
				t.Errorf("help %s: an example of another command: %s", cmd, e)
				continue
			}
			for k, a := range args[:len(args)-1] {
				if a != "--algo" {
					continue
				}
				for _, name := range strings.Split(args[k+1], ",") {
					if _, _, err := algorithms.Lookup(name); err != nil {
						t.Errorf("help %s: the example %q names %v", cmd, e, err)
					}
				}
			}
			if x := runCLI(t, args...); x.code != exitOK {
				t.Errorf("help %s: the example %q does not parse: exit %d, %s", cmd, e, x.code, x.stderr)
			}
		}
		// the same page from CMD --help
		if h := runCLI(t, cmd, "--help"); h.stdout != r.stdout {
			t.Errorf("%s --help differs from help %s", cmd, cmd)
		}
	}
}

// list NAME shows that algorithm only, with its parameters and variants;
// --brief gives one line per algorithm; both start with Suzuki-Kasami.
func TestListName(t *testing.T) {
	sk, _, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"suzuki-kasami", "suzuki-kasami/send-in-cs"} {
		r := runCLI(t, "list", name)
		r.wantCode(t, exitOK)
		if !strings.HasPrefix(r.stdout, "suzuki-kasami\n") || strings.Contains(r.stdout, "raymond") {
			t.Errorf("list %s:\n%s", name, r.stdout)
		}
		for _, v := range sk.Variants {
			if !strings.Contains(r.stdout, "\n    "+v.Name+" ") {
				t.Errorf("list %s lacks the variant %s", name, v.Name)
			}
		}
		for _, p := range sk.Params {
			if !strings.Contains(r.stdout, "--"+p.Name+" "+paramRange(p.Min, p.Max)) {
				t.Errorf("list %s lacks --%s and its range", name, p.Name)
			}
		}
	}
	r := runCLI(t, "list", "suzuki-kasam")
	r.wantCode(t, exitBadInput)
	if !strings.Contains(r.stderr, "suzuki-kasami") {
		t.Errorf("list suzuki-kasam: no hint: %s", r.stderr)
	}
	var listed struct {
		Algorithms []listedAlgorithm `json:"algorithms"`
	}
	runCLI(t, "list", "--json", "raymond").decodeJSON(t, &listed)
	if len(listed.Algorithms) != 1 || listed.Algorithms[0].Name != "raymond" {
		t.Errorf("list --json raymond: %+v", listed.Algorithms)
	}
	// --brief: every algorithm on one line of its own, Suzuki-Kasami first
	brief := runCLI(t, "list", "--brief")
	brief.wantCode(t, exitOK)
	var order []string
	for _, l := range strings.Split(brief.stdout, "\n") {
		if f := strings.Fields(l); strings.HasPrefix(l, "  ") && len(f) > 0 {
			order = append(order, f[0])
		}
	}
	all := algorithms.All()
	if len(order) != len(all) || order[0] != "suzuki-kasami" {
		t.Errorf("list --brief lists %v; want the %d algorithms, suzuki-kasami first", order, len(all))
	}
	for _, a := range all {
		if !slices.Contains(order, a.Name) {
			t.Errorf("list --brief lacks %s", a.Name)
		}
	}
	// the full list names suzuki-kasami before any other algorithm
	full := runCLI(t, "list")
	if i := strings.Index(full.stdout, "\nsuzuki-kasami\n"); i < 0 || strings.Contains(full.stdout[:i], "\n  source:") {
		t.Errorf("list does not start with suzuki-kasami")
	}
}

// A passing check prints at most 5 lines and no memory figures, which
// --verbose adds and --json keeps.
func TestPassingCheckSummary(t *testing.T) {
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "2", "--r", "1", "--progress", "0")
	r.wantCode(t, exitOK)
	if n := strings.Count(r.stdout, "\n"); n > 5 {
		t.Errorf("a passing check printed %d lines:\n%s", n, r.stdout)
	}
	for _, bad := range []string{"RSS", "bytes/state", "budget"} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("the summary has %q without --verbose:\n%s", bad, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "verdict: ok") {
		t.Errorf("no verdict:\n%s", r.stdout)
	}
	v := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "2", "--r", "1", "--progress", "0", "--verbose")
	if !strings.Contains(v.stdout, "peak RSS") || !strings.Contains(v.stdout, "bytes/state") {
		t.Errorf("--verbose lacks the memory figures:\n%s", v.stdout)
	}
	j := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "2", "--r", "1", "--progress", "0", "--json")
	obj := j.jsonObject(t)
	for _, k := range []string{"peak_rss_bytes", "rss_bytes_per_state", "memory_budget_bytes", "bytes_per_state", "link_bytes_per_state",
		"states_per_s", "elapsed_s", "collision_probability"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("--json lacks %s", k)
		}
	}
}

// After a violation (check, a liveness lasso, simulate) one line gives the
// commands that show the trace; the show command it gives works.
func TestViolationHint(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"check", "--algo", "suzuki-kasami/send-in-cs", "--n", "2", "--progress", "0", "--out", filepath.Join(dir, "c.trace.json")},
		{"check", "--algo", "torus/literal", "--n", "4", "--r", "1", "--props", "starvation-freedom", "--progress", "0", "--out", filepath.Join(dir, "l.trace.json")},
		{"simulate", "--algo", "suzuki-kasami/send-in-cs", "--n", "3", "--runs", "50", "--progress", "0", "--out", filepath.Join(dir, "s.trace.json")},
	} {
		r := runCLI(t, args...)
		r.wantCode(t, exitViolation)
		file := args[len(args)-1]
		var hint string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, "explore --trace "+file) {
				hint = l
			}
		}
		if hint == "" {
			t.Errorf("%v: no line with tokenmc explore --trace %s:\n%s", args, file, r.stdout)
			continue
		}
		_, show, ok := strings.Cut(hint, "tokenmc show ")
		if !ok {
			t.Errorf("no show command in %q", hint)
			continue
		}
		showArgs := append([]string{"show"}, strings.Fields(strings.TrimSuffix(show, ")"))...)
		for k, a := range showArgs {
			if a == "chart.html" {
				showArgs[k] = filepath.Join(dir, "chart.html")
			}
		}
		if s := runCLI(t, showArgs...); s.code != exitOK {
			t.Errorf("%v: exit %d, %s", showArgs, s.code, s.stderr)
		} else if b, err := os.ReadFile(filepath.Join(dir, "chart.html")); err != nil || !bytes.Contains(b, []byte("<html")) {
			t.Errorf("%v wrote no page: %v", showArgs, err)
		}
		_, explore, _ := strings.Cut(hint, "tokenmc explore ")
		exploreArgs := append([]string{"explore"}, strings.Fields(strings.Split(explore, " (")[0])...)
		if e := runCLI(t, append(exploreArgs, "--help")...); e.code != exitOK {
			t.Errorf("%v does not parse: %s", exploreArgs, e.stderr)
		}
	}
}

// The old names of the flags are aliases: the same run as the new name,
// and giving both is "given twice".
func TestAliasesEquivalent(t *testing.T) {
	dir := t.TempDir()
	strip := func(t *testing.T, r cliResult, drop ...string) map[string]any {
		t.Helper()
		m := r.jsonObject(t)
		for _, k := range append(drop, "elapsed_s", "states_per_s", "peak_rss_bytes", "rss_bytes_per_state", "memory_budget_bytes",
			"bytes_per_state", "link_bytes_per_state", "time_s", "steps_per_s", "rss_bytes") {
			delete(m, k)
		}
		return m
	}
	for _, cmd := range []string{"check", "simulate"} {
		args := []string{cmd, "--algo", "suzuki-kasami/send-in-cs", "--n", "2", "--progress", "0", "--json"}
		if cmd == "simulate" {
			args = append(args, "--runs", "20", "--workers", "1")
		}
		oldFile, newFile := filepath.Join(dir, cmd+".old.json"), filepath.Join(dir, cmd+".new.json")
		o := runCLI(t, append(slices.Clone(args), "--trace-out", oldFile)...)
		n := runCLI(t, append(slices.Clone(args), "--out", newFile)...)
		o.wantCode(t, exitViolation)
		n.wantCode(t, exitViolation)
		ob, err1 := os.ReadFile(oldFile)
		nb, err2 := os.ReadFile(newFile)
		if err1 != nil || err2 != nil || !bytes.Equal(ob, nb) {
			t.Errorf("%s --trace-out and --out wrote different traces (%v, %v)", cmd, err1, err2)
		}
		if om, nm := strip(t, o, "violation"), strip(t, n, "violation"); !jsonEqual(om, nm) {
			t.Errorf("%s: --trace-out %v, --out %v", cmd, om, nm)
		}
		both := runCLI(t, append(slices.Clone(args), "--out", newFile, "--trace-out", oldFile)...)
		both.wantCode(t, exitBadInput)
		if !strings.Contains(both.stderr, "--out given twice") {
			t.Errorf("%s --out --trace-out: %s", cmd, both.stderr)
		}
	}
	// measure: --algos and --algo
	margs := []string{"measure", "--n", "3", "--load", "light", "--entries", "30", "--warmup", "5", "--reps", "2", "--json"}
	mo := runCLI(t, append(slices.Clone(margs), "--algos", "suzuki-kasami")...)
	mn := runCLI(t, append(slices.Clone(margs), "--algo", "suzuki-kasami")...)
	mo.wantCode(t, exitOK)
	elapsed := regexp.MustCompile(`"elapsed_s": [0-9.e+-]+`)
	if elapsed.ReplaceAllString(mo.stdout, "") != elapsed.ReplaceAllString(mn.stdout, "") || mo.code != mn.code {
		t.Errorf("measure --algos and --algo differ:\n%s\n%s", mo.stdout, mn.stdout)
	}
	// the same refusal under both names
	for _, pair := range [][2][]string{
		{{"measure", "--figures", dir, "--algos", "raymond"}, {"measure", "--out", dir, "--algo", "raymond"}},
		{{"report", "--only", "no-such"}, {"report", "--algo", "no-such"}},
		{{"validate", logDir + "suzuki-kasami.jsonl", "--witness", filepath.Join(dir, "w.json")}, {"validate", logDir + "suzuki-kasami.jsonl", "--out", filepath.Join(dir, "w.json")}},
	} {
		o, n := runCLI(t, pair[0]...), runCLI(t, pair[1]...)
		if o.code != exitBadInput || o.code != n.code || o.stderr != n.stderr {
			t.Errorf("%v: exit %d %q; %v: exit %d %q", pair[0], o.code, o.stderr, pair[1], n.code, n.stderr)
		}
	}
	// report --only and --algo: the same rows
	ro := runCLI(t, "report", "--only", "lelann", "--quiet", "--json")
	rn := runCLI(t, "report", "--algo", "lelann", "--quiet", "--json")
	var rj [2]reportJSON
	ro.decodeJSON(t, &rj[0])
	rn.decodeJSON(t, &rj[1])
	if ro.code != rn.code || len(rj[0].Rows) == 0 || len(rj[0].Rows) != len(rj[1].Rows) {
		t.Errorf("report --only/--algo: exit %d/%d, %d/%d rows", ro.code, rn.code, len(rj[0].Rows), len(rj[1].Rows))
	}
	// history --html and --out: the same page
	hist := histDir + "linearizable.jsonl"
	ho, hn := filepath.Join(dir, "h.old.html"), filepath.Join(dir, "h.new.html")
	runCLI(t, "history", hist, "--html", ho).wantCode(t, exitOK)
	runCLI(t, "history", hist, "--out", hn).wantCode(t, exitOK)
	hob, err1 := os.ReadFile(ho)
	hnb, err2 := os.ReadFile(hn)
	if err1 != nil || err2 != nil || !bytes.Equal(hob, hnb) {
		t.Errorf("history --html and --out: %v %v, equal %v", err1, err2, bytes.Equal(hob, hnb))
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// rewriteAliases renames alias flags only where they are flags: not a
// flag's value, not after "--".
func TestRewriteAliases(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("out", "", "")
	fs.String("name", "", "")
	fs.Bool("json", false, "")
	addAlias(fs, "trace-out", "out")
	got := rewriteAliases(fs, []string{"--name", "--trace-out", "-trace-out=a", "--json", "--trace-out", "b", "pos", "--", "--trace-out"})
	want := []string{"--name", "--trace-out", "-out=a", "--json", "--out", "b", "pos", "--", "--trace-out"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// report says at once what it does, names every row, and gives the reason
// of its exit 3 on stderr; with --algo its table does not claim to be
// docs/results.md.
func TestReportProgressAndReason(t *testing.T) {
	r := runCLI(t, "report", "--algo", "lelann", "--max-states", "10")
	r.wantCode(t, exitIncomplete)
	if !strings.HasPrefix(r.stderr, "report: checking ") {
		t.Errorf("report's first line: %q", r.stderr)
	}
	lelann, _, _ := algorithms.Lookup("lelann")
	for _, v := range lelann.Variants {
		if !strings.Contains(r.stderr, v.Name+" ") {
			t.Errorf("no progress line for %s:\n%s", v.Name, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "incomplete") || !strings.Contains(r.stderr, "bound of 10 states") || !strings.Contains(r.stderr, "--max-states") {
		t.Errorf("exit 3 without its reason:\n%s", r.stderr)
	}
	// --quiet: no progress, but still the reason
	q := runCLI(t, "report", "--algo", "lelann", "--max-states", "10", "--quiet")
	if q.code != exitIncomplete || strings.Contains(q.stderr, "checking") || !strings.Contains(q.stderr, "incomplete") {
		t.Errorf("report --quiet, exit %d:\n%s", q.code, q.stderr)
	}
	if strings.Contains(r.stdout, "Regenerate") || strings.Contains(r.stdout, "docs/results.md") || !strings.Contains(r.stdout, "report --algo lelann") {
		t.Errorf("the header of a partial report:\n%s", r.stdout[:min(len(r.stdout), 400)])
	}
}

// measure --out DIR says at once what it does, and an interrupted run
// says so (exit 3) with what was written.
func TestMeasureFiguresLines(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var progress, stderr bytes.Buffer
	dir := t.TempDir()
	code, err := writeFigures(ctx, "tokenmc", dir, &progress, &stderr)
	if err != nil || code != exitIncomplete {
		t.Fatalf("exit %d, %v", code, err)
	}
	if !strings.HasPrefix(progress.String(), "measure: simulating ") || !strings.Contains(progress.String(), dir) {
		t.Errorf("first line: %q", progress.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "0 figure(s)") {
		t.Errorf("closing line: %q", stderr.String())
	}
	// the count of the closing line counts the SVG files written since
	for _, f := range []string{"a.svg", "b.svg", "a.png", "table.md"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := figuresWritten(dir, time.Now().Add(-time.Minute)); got != "2 figure(s) (SVG and PNG) and table.md" {
		t.Errorf("figuresWritten: %q", got)
	}
}

// The level plot of a walk stopped by a bound does not fall to 0 at its
// last level: no transitions point there, a note instead.
func TestLevelPlotStopped(t *testing.T) {
	levels := []levelCount{{States: 1, Transitions: 2}, {States: 2, Transitions: 5}, {States: 4, Transitions: 0}}
	points := regexp.MustCompile(`stroke="#e8590c" stroke-width="2" points="([^"]*)"`)
	count := func(svg string) int {
		m := points.FindStringSubmatch(svg)
		if m == nil {
			t.Fatalf("no transitions line:\n%s", svg)
		}
		return len(strings.Fields(m[1]))
	}
	if n := count(levelPlot(levels, "")); n != 3 {
		t.Errorf("a complete walk: %d transitions points, want 3", n)
	}
	stopped := levelPlot(levels, "max-states")
	if n := count(stopped); n != 2 {
		t.Errorf("a stopped walk: %d transitions points, want 2 (the last level was not expanded)", n)
	}
	if !strings.Contains(stopped, "walk stopped here (max-states)") || !strings.Contains(stopped, "stroke-dasharray") {
		t.Errorf("a stopped walk's plot does not say so")
	}
}

// history: --out is honoured on a linearizable history too; without it a
// violation's page has one name per input, replaced by a rerun; the page
// says which history, which model and what LP means, and holds
// porcupine's page in a frame.
func TestHistoryPage(t *testing.T) {
	lin, _ := filepath.Abs(histDir + "linearizable.jsonl")
	bad, _ := filepath.Abs(histDir + "not-linearizable.jsonl")
	t.Chdir(t.TempDir())
	r := runCLI(t, "history", lin, "--out", "lin.html")
	r.wantCode(t, exitOK)
	page, err := os.ReadFile("lin.html")
	if err != nil {
		t.Fatalf("history --out on a linearizable history wrote nothing: %v", err)
	}
	for _, want := range []string{"tokenmc history", lin, "<code>lock</code>", "linearization point", "<iframe", "srcdoc=", "Porcupine"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for range 2 {
		runCLI(t, "history", bad).wantCode(t, exitViolation)
	}
	ents, _ := os.ReadDir(".")
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{"lin.html", "not-linearizable.jsonl.porcupine.html"}; !slices.Equal(names, want) {
		t.Errorf("files after two runs on a violation: %v, want %v", names, want)
	}
}

// check --graph writes the reachable graph: as many states and
// transitions as the check counts, violating states marked (and exactly
// those where two processes are InCS, for mutex), DOT that dot renders;
// a space past the bound is refused.
func TestCheckGraph(t *testing.T) {
	dir := t.TempDir()
	for _, algo := range []string{"suzuki-kasami", "suzuki-kasami/send-in-cs"} {
		js := filepath.Join(dir, "g.json")
		r := runCLI(t, "check", "--algo", algo, "--n", "2", "--r", "1", "--props", "mutex", "--progress", "0", "--graph", js, "--out", filepath.Join(dir, "t.json"))
		if r.code != exitOK && r.code != exitViolation {
			t.Fatalf("check --graph: exit %d %s", r.code, r.stderr)
		}
		var g graphFile
		b, err := os.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatal(err)
		}
		marked := 0
		for _, s := range g.States {
			inCS := 0
			for _, p := range s.Description.Processes {
				if p.Phase == "InCS" {
					inCS++
				}
			}
			if (inCS > 1) != slices.Contains(s.Violates, "mutex") {
				t.Errorf("%s: state %d has %d processes InCS, marked %v", algo, s.ID, inCS, s.Violates)
			}
			if inCS > 1 {
				marked++
			}
		}
		if algo == "suzuki-kasami" {
			c, _ := check(t, exitOK, "--algo", algo, "--n", "2", "--r", "1", "--exact", "--props", "mutex", "--progress", "0")
			if marked != 0 || int64(len(g.States)) != c.States || int64(len(g.Edges)) != c.Transitions {
				t.Errorf("%s: graph %d states %d edges %d marked; check %d states %d transitions",
					algo, len(g.States), len(g.Edges), marked, c.States, c.Transitions)
			}
		}
		if algo != "suzuki-kasami" && marked == 0 {
			t.Errorf("%s: no violating state in the graph", algo)
		}
	}
	// DOT, rendered by GraphViz
	dot := filepath.Join(dir, "g.dot")
	runCLI(t, "check", "--algo", "suzuki-kasami/send-in-cs", "--n", "2", "--r", "1", "--progress", "0", "--graph", dot, "--out", filepath.Join(dir, "t.json")).wantCode(t, exitViolation)
	src, err := os.ReadFile(dot)
	if err != nil || !bytes.HasPrefix(src, []byte("digraph ")) || !bytes.Contains(src, []byte("color=red")) {
		t.Fatalf("the DOT file: %v\n%s", err, src)
	}
	if _, err := exec.LookPath("dot"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("GraphViz's dot is missing under CI=true (.ci/run installs graphviz)")
		}
		t.Log("no GraphViz dot: the rendering is not checked")
	} else {
		out, err := exec.Command("dot", "-Tsvg", dot).Output()
		if err != nil || !bytes.Contains(out, []byte("<svg")) {
			t.Errorf("dot -Tsvg %s: %v\n%s", dot, err, out[:min(len(out), 300)])
		}
	}
	// past the bound
	r := runCLI(t, "check", "--algo", "suzuki-kasami", "--n", "4", "--r", "2", "--progress", "0", "--graph", filepath.Join(dir, "big.dot"))
	r.wantCode(t, exitBadInput)
	if !strings.Contains(r.stderr, "more than 5000 states") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("a graph past the bound: %s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "big.dot")); err == nil {
		t.Error("a refused graph left a file")
	}
}

// Every exit 3 gives its reason on stderr: check's bounds name the flag
// to raise, with --json too; a command that gives none gets a general
// line.
func TestExit3HasReason(t *testing.T) {
	for _, args := range [][]string{
		{"check", "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--max-states", "100", "--progress", "0", "--json"},
		{"check", "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--max-depth", "3", "--progress", "0", "--quiet"},
		{"check", "--algo", "suzuki-kasami", "--n", "3", "--r", "2", "--max-depth", "3", "--progress", "0", "--props", "starvation-freedom"},
	} {
		r := runCLI(t, args...)
		r.wantCode(t, exitIncomplete)
		bound := "--max-states"
		if slices.Contains(args, "--max-depth") {
			bound = "--max-depth"
		}
		if !strings.Contains(r.stderr, "incomplete (exit 3)") || !strings.Contains(r.stderr, "raise "+bound) {
			t.Errorf("%v: stderr %q", args, r.stderr)
		}
	}
	registerCommand("silent-3-for-test", command{order: 99, synopsis: "silent-3-for-test", summary: "test only",
		run: func(*catalog, []string, io.Writer, io.Writer) (int, error) { return exitIncomplete, nil }})
	defer delete(commands, "silent-3-for-test")
	r := runCLI(t, "silent-3-for-test")
	r.wantCode(t, exitIncomplete)
	if !strings.Contains(r.stderr, "silent-3-for-test ended without a verdict (exit 3)") {
		t.Errorf("a silent exit 3: stderr %q", r.stderr)
	}
}

// The regeneration line heads a full report only.
func TestReportHeader(t *testing.T) {
	for _, only := range []string{"", "lelann,torus"} {
		var b bytes.Buffer
		if err := writeReportMarkdown(&b, nil, reportOptions{Only: only}); err != nil {
			t.Fatal(err)
		}
		regen := strings.Contains(b.String(), "go run ./cmd/tokenmc report --out docs/results.md")
		partial := strings.Contains(b.String(), "`tokenmc report --algo lelann,torus`: the rows of those algorithms only")
		if regen != (only == "") || partial != (only != "") {
			t.Errorf("--algo %q: regeneration line %v, partial %v", only, regen, partial)
		}
	}
}

// An unknown algorithm after help's --algo is bad input (exit 2, one line
// naming the algorithms), not a page that exits 0.
func TestHelpUnknownAlgorithm(t *testing.T) {
	for _, args := range [][]string{{"help", "check", "--algo", "nope"}, {"check", "--algo", "nope", "--help"}} {
		r := runCLI(t, args...)
		r.wantCode(t, exitBadInput)
		if !strings.Contains(r.stderr, `unknown algorithm "nope"`) {
			t.Errorf("%v: stderr %q", args, r.stderr)
		}
	}
}

// After "--" every argument is an operand, even one spelled like a flag
// (an old name included), and an alias used where its target is refused
// is named as typed.
func TestDoubleDashEndsFlags(t *testing.T) {
	log := "../../traces/eventlog/testdata/suzuki-kasami.jsonl"
	r := runCLI(t, "validate", "--quiet", "--", log, "--json")
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "got 2 arguments")
	r = runCLI(t, "validate", "--quiet", "--", log, "--witness", "w.json")
	r.wantCode(t, exitBadInput)
	r.wantOneLineError(t, "got 3 arguments")
	if r := runCLI(t, "validate", "--quiet", "--", log); r.code != exitOK {
		t.Errorf("validate -- FILE: exit %d\n%s", r.code, r.stderr)
	}
}
