package webui

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tokenmc/tokenmc/explore/webui/browsertest"
	"github.com/tokenmc/tokenmc/traces"
)

// These tests drive the explore page in a real headless Chromium (see
// internal/browsertest: skipped without Chromium, failed under CI=true).
// With TOKENMC_SCREENSHOTS=DIR they also save the screenshots that
// docs/screenshots/ holds.

func evalJS[T any](t *testing.T, b *browsertest.Browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

func waitJS(t *testing.T, b *browsertest.Browser, cond string) {
	t.Helper()
	if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v (page text: %s)", cond, err, evalJS[string](t, b, "document.body.innerText.slice(0, 400)"))
	}
}

func click(t *testing.T, b *browsertest.Browser, sel string) {
	t.Helper()
	if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		t.Fatalf("clicking %s: %v", sel, err)
	}
}

// Load the page, take an action, see the state change, go back, then
// search a counterexample and step through it to the violation; no
// JavaScript error on the way.
func TestBrowserExplore(t *testing.T) {
	ts, _ := newTestServer(t, "suzuki-kasami/keep-copy", map[string]int{"n": 3, "r": 1})
	b := browsertest.New(t, 1400, 1000, 2*time.Minute)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("button.action"))); err != nil {
		t.Fatal(err)
	}
	labels := evalJS[[]string](t, b, `[...document.querySelectorAll('button.action .lbl')].map(e => e.textContent)`)
	if strings.Join(labels, "|") != "Request(P0)|Request(P1)|Request(P2)" {
		t.Fatalf("actions on the page: %q", labels)
	}
	if title := evalJS[string](t, b, `document.getElementById('title').textContent`); title != "tokenmc explore: suzuki-kasami/keep-copy (n=3, r=1)" {
		t.Fatalf("title %q", title)
	}

	// take Request(P1): P1's phase changes and is highlighted, a REQ to P0 and P2 each
	click(t, b, `button.action[data-index="1"]`)
	waitJS(t, b, `document.querySelectorAll('#steps li').length === 1`)
	changed := evalJS[[]string](t, b, `[...document.querySelectorAll('#procs td.changed')].map(e => e.textContent)`)
	if !contains(changed, "Waiting") {
		t.Fatalf("changed cells %q: want P1's phase Waiting", changed)
	}
	inbox := evalJS[string](t, b, `document.getElementById('network').innerText`)
	if !strings.Contains(inbox, "to P0") || !strings.Contains(inbox, "REQ(P1->P0, sn=1)") || !strings.Contains(inbox, "to P2") {
		t.Fatalf("network shown: %q", inbox)
	}
	if n := evalJS[int](t, b, `document.querySelectorAll('#msc svg').length`); n != 1 {
		t.Fatalf("%d charts of the path", n)
	}

	// back to the initial state, and forward again
	click(t, b, "#back")
	waitJS(t, b, `document.querySelectorAll('#steps li').length === 0`)
	click(t, b, "#forward")
	waitJS(t, b, `document.querySelectorAll('#steps li').length === 1`)

	// find the counterexample to single-token and step it to the end
	if err := chromedp.Do(b.Ctx, chromedp.SetValue(chromedp.CSS("#findprop"), "single-token")); err != nil {
		t.Fatal(err)
	}
	click(t, b, "#find")
	waitJS(t, b, `document.getElementById('tpos').textContent === 'step 0 of 2'`)
	click(t, b, "#tnext")
	waitJS(t, b, `document.getElementById('tpos').textContent === 'step 1 of 2'`)
	click(t, b, "#tnext")
	waitJS(t, b, `document.getElementById('tpos').textContent === 'step 2 of 2'`)
	violated := evalJS[[]string](t, b, `[...document.querySelectorAll('#props li.violated b')].map(e => e.textContent)`)
	if strings.Join(violated, ",") != "single-token" {
		t.Fatalf("violated on the page: %q, want single-token", violated)
	}
	b.Screenshot(t, "explore-keep-copy.png")
	b.NoProblems(t)
}

// Step a lasso trace (the literal torus starves P1) from the jump box to
// the end of its cycle; and an eight-process counterexample.
func TestBrowserExploreTraces(t *testing.T) {
	b := browsertest.New(t, 1600, 1200, 3*time.Minute) // one browser, one page after the other
	for _, c := range []struct{ file, shot string }{
		{"../../algorithms/torus/testdata/literal-d2-r1.starvation-freedom.P1.trace.json", "explore-torus-lasso.png"},
		{"testdata/send-in-cs-n8.mutex.trace.json", "explore-n8.png"},
	} {
		t.Run(c.shot, func(t *testing.T) {
			tr, err := traces.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			ts, _ := newTestServer(t, tr.Algorithm, tr.Params, tr)
			if err := chromedp.Do(b.Ctx, chromedp.EmulateViewport(1600, 1200)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(b.Ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("button.action"))); err != nil {
				t.Fatal(err)
			}
			n := len(tr.Steps)
			waitJS(t, b, `document.getElementById('tpos').textContent.startsWith('step 0 of `+itoa(n)+`')`)
			for k := 1; k <= n; k++ {
				click(t, b, "#tnext")
				waitJS(t, b, `document.getElementById('tpos').textContent.startsWith('step `+itoa(k)+` of')`)
			}
			steps := evalJS[[]string](t, b, `[...document.querySelectorAll('#steps li')].map(e => e.textContent)`)
			if len(steps) != n || steps[n-1] != tr.Steps[n-1].Action {
				t.Fatalf("%d steps on the page, last %q; the trace has %d, last %q", len(steps), steps[len(steps)-1], n, tr.Steps[n-1].Action)
			}
			if tr.Loop != nil && !strings.Contains(evalJS[string](t, b, `document.getElementById('tpos').textContent`), "in the cycle") {
				t.Error("the stepper does not say the lasso is in its cycle")
			}
			if tr.PropertyKind == "invariant" {
				violated := evalJS[[]string](t, b, `[...document.querySelectorAll('#props li.violated b')].map(e => e.textContent)`)
				if !contains(violated, tr.Property) {
					t.Errorf("violated on the page: %q, want %s", violated, tr.Property)
				}
			}
			b.Screenshot(t, c.shot)
			b.NoProblems(t)
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
