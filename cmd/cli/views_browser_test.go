package cli

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/webui"
	"github.com/tokenmc/tokenmc/cmd/internal/webui/browsertest"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

// viewCase is one model whose every view the layout test opens: a trace
// of it, a check whose --report is opened, and a lock history of its
// processes.
type viewCase struct {
	name  string
	shot  string   // the screenshots' name part
	trace string   // a counterexample of the model (a lasso for torus)
	check []string // check's arguments for the report
	code  int      // check's exit code
}

var viewCases = []viewCase{
	{"suzuki-kasami n=8", "n8", "../internal/webui/testdata/send-in-cs-n8.mutex.trace.json",
		[]string{"--algo", "suzuki-kasami/send-in-cs", "--n", "8", "--props", "mutex", "--max-states", "100000"}, exitViolation},
	{"torus d=3", "torus-d3", "../../algorithms/torus/testdata/skip-column-end-d3-req23.starvation-freedom.P1.trace.json",
		[]string{"--algo", "torus/skip-column-end", "--n", "9", "--props", "mutex", "--max-states", "20000"}, exitIncomplete},
}

// Every view of tokenmc (explore, the check report, show's HTML and SVG,
// history's HTML), at eight and nine processes, in a real headless
// Chromium (skipped without Chromium, failed under CI=true): no text runs
// out of its box, no box hides data behind a scroll bar, no SVG text
// leaves its picture or lies over another, and every list shows all its
// items or a "+N more" that shows them (browsertest.Fit).
func TestBrowserViewsFit(t *testing.T) {
	b := browsertest.New(t, 1366, 768, 4*time.Minute) // one browser, one page after the other
	here := cliDir(t)
	for _, c := range viewCases {
		dir := t.TempDir()
		t.Chdir(dir)
		tr, err := traces.ReadFile(filepath.Join(here, c.trace))
		if err != nil {
			t.Fatal(err)
		}
		trFile := filepath.Join(dir, "cx.trace.json")
		if err := traces.WriteFile(trFile, tr); err != nil {
			t.Fatal(err)
		}
		open := func(page, url, ready string) {
			t.Helper()
			if err := chromedp.Do(b.Ctx, chromedp.EmulateViewport(1366, 768)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(b.Ctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS(ready))); err != nil {
				t.Fatalf("%s: %v", page, err)
			}
		}

		// check --report
		runCLI(t, append([]string{"check", "--report", "run.html", "--quiet"}, c.check...)...).wantCode(t, c.code)
		open(c.name+": report", "file://"+filepath.Join(dir, "run.html"), "table.grid")
		b.Fit(t, c.name+": report")

		// show --format html and svg
		for _, f := range []string{"html", "svg"} {
			out := filepath.Join(dir, "show."+f)
			runCLI(t, "show", trFile, "--format", f, "--out", out).wantCode(t, exitOK)
			open(c.name+": show --format "+f, "file://"+out, "svg")
			b.Fit(t, c.name+": show --format "+f)
			if f == "html" {
				b.Screenshot(t, "show-"+c.shot+".png")
			}
		}

		// history --html
		hist := filepath.Join(dir, "h.jsonl")
		writeOverlappingHistory(t, hist, len(tr.Initial.Processes))
		runCLI(t, "history", hist, "--html", "h.html").wantCode(t, exitViolation)
		open(c.name+": history", "file://"+filepath.Join(dir, "h.html"), "body")
		b.Fit(t, c.name+": history")

		// explore: the initial state, then the trace's last state
		ts := exploreServer(t, tr)
		open(c.name+": explore", ts.URL+"/", "button.action")
		b.Fit(t, c.name+": explore, initial state")
		for k := 1; k <= len(tr.Steps); k++ {
			if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[any](`document.getElementById('tnext').click()`)); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](`document.getElementById('tpos').textContent.startsWith('step `+strconv.Itoa(k)+` of')`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				pos, _ := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`document.getElementById('tpos').textContent + ' | ' + document.getElementById('error').textContent`))
				t.Fatalf("%s: explore: step %d: %v (the page says %q)", c.name, k, err, pos)
			}
		}
		b.Fit(t, c.name+": explore, after the trace")
		if c.shot != "n8" { // explore-n8.png is TestBrowserExploreTraces's
			b.Screenshot(t, "explore-"+c.shot+".png")
		}
		b.NoProblems(t)
	}
}

// cliDir is this package's directory (the tests chdir away from it).
func cliDir(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// exploreServer serves the explorer of tr's model with tr in its jump box.
func exploreServer(t *testing.T, tr *traces.Trace) *httptest.Server {
	t.Helper()
	a, v, err := algorithms.Lookup(tr.Algorithm)
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.BuildSim(v.Name, tr.Params)
	if err != nil {
		t.Fatal(err)
	}
	props, err := invariants.Select(invariants.With(extra...), sys.Info(), "")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := webui.New(webui.Config{System: sys, Algorithm: v.Name, Params: tr.Params, Properties: props, Traces: []*traces.Trace{tr}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

// writeOverlappingHistory writes a lock history of n processes, each
// acquiring and releasing twice, in which the last two hold the lock at
// once: not linearizable, so history writes its page.
func writeOverlappingHistory(t *testing.T, file string, n int) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `{"format":"tokenmc-history","version":1,"model":"lock","processes":%d}`+"\n", n)
	ns := 0
	ev := func(p int, op, e string) {
		ns += 10
		fmt.Fprintf(&b, `{"p":%d,"op":"%s","ev":"%s","t_ns":%d}`+"\n", p, op, e, ns)
	}
	for round := range 2 {
		for p := range n {
			if round == 1 && p == n-1 {
				break
			}
			ev(p, "acquire", "call")
			ev(p, "acquire", "return")
			if round == 1 && p == n-2 {
				ev(n-1, "acquire", "call")
				ev(n-1, "acquire", "return") // while p holds it
				ev(n-1, "release", "call")
				ev(n-1, "release", "return")
			}
			ev(p, "release", "call")
			ev(p, "release", "return")
		}
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
