package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tokenmc/tokenmc/cmd/internal/webui/browsertest"
)

// The HTML report of check --report, opened in a real headless Chromium
// (skipped without Chromium, failed under CI=true): it loads without
// JavaScript errors, shows the verdict, the plot and the coverage, and
// its counterexample stepper steps. With TOKENMC_SCREENSHOTS=DIR the
// pages are saved as docs/screenshots/ holds them.
func TestBrowserReport(t *testing.T) {
	b := browsertest.New(t, 1500, 1000, 3*time.Minute) // one browser, one page after the other
	for _, c := range []struct {
		name    string
		args    []string
		code    int
		verdict string
		steps   int
	}{
		{"report-keep-copy.png", []string{"--algo", "suzuki-kasami/keep-copy"}, exitViolation, "VIOLATION of single-token after 2 steps", 2},
		{"report-torus-lasso.png", []string{"--algo", "torus/literal", "--n", "4", "--props", "starvation-freedom"}, exitViolation, "VIOLATION of starvation-freedom: a lasso of 13 steps, the cycle from step 10", 13},
		{"report-n8.png", []string{"--algo", "suzuki-kasami/send-in-cs", "--n", "8", "--props", "mutex", "--max-states", "100000"}, exitViolation, "VIOLATION of mutex after 4 steps", 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir) // the report names the trace file as given: keep it short
			page := filepath.Join(dir, "run.html")
			args := append([]string{"check", "--report", "run.html", "--quiet"}, c.args...)
			runCLI(t, args...).wantCode(t, c.code)
			if err := chromedp.Do(b.Ctx, chromedp.EmulateViewport(1500, 1000)); err != nil { // undo the last screenshot's
				t.Fatal(err)
			}
			if err := chromedp.Do(b.Ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(chromedp.CSS("#cxsvg"))); err != nil {
				t.Fatal(err)
			}
			text := func(sel string) string {
				s, err := chromedp.Run(b.Ctx, chromedp.Text(chromedp.CSS(sel)))
				if err != nil {
					t.Fatalf("%s: %v", sel, err)
				}
				return s
			}
			if v := text("span.bad"); v != c.verdict {
				t.Fatalf("verdict on the page %q, want %q", v, c.verdict)
			}
			for _, sel := range []string{"table.grid", "svg polyline"} {
				if err := chromedp.Do(b.Ctx, chromedp.WaitReady(chromedp.CSS(sel))); err != nil {
					t.Fatalf("%s: %v", sel, err)
				}
			}
			// the stepper: first, next, last
			click := func(id string) {
				if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS("#"+id), chromedp.NodeVisible)); err != nil {
					t.Fatalf("clicking %s: %v", id, err)
				}
			}
			click("cxfirst")
			if l := text("#cxlabel"); l != "initial state" {
				t.Fatalf("after first: %q", l)
			}
			click("cxnext")
			if l := text("#cxlabel"); !strings.HasPrefix(l, "after step 1: ") {
				t.Fatalf("after next: %q", l)
			}
			click("cxlast")
			if l := text("#cxlabel"); !strings.HasPrefix(l, "after step "+strconv.Itoa(c.steps)+": ") {
				t.Fatalf("after last: %q", l)
			}
			b.Screenshot(t, c.name)
			b.NoProblems(t)
		})
	}
}
