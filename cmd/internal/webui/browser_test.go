package webui

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tokenmc/tokenmc/cmd/internal/webui/browsertest"
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
		{"../../../algorithms/torus/testdata/literal-d2-r1.starvation-freedom.P1.trace.json", "explore-torus-lasso.png"},
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
				// the chart marks the violating step, as show and report do
				mark := evalJS[string](t, b, `[...document.querySelectorAll('#msc svg text')].map(e => e.textContent).find(s => s.startsWith('X step')) || ''`)
				if mark != "X step "+itoa(n)+" violates "+tr.Property {
					t.Errorf("the chart's violation mark is %q, want step %d violating %s", mark, n, tr.Property)
				}
			}
			b.Screenshot(t, c.shot)
			b.NoProblems(t)
		})
	}
}

// At eight processes the actions are grouped by process, folded when
// many, and filtered by the box; every move is an entry of the browser's
// history, so that its Back and Forward buttons walk the positions
// without leaving the page.
func TestBrowserExploreGroupsFilterHistory(t *testing.T) {
	tr, err := traces.ReadFile("testdata/send-in-cs-n8.mutex.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newTestServer(t, tr.Algorithm, tr.Params, tr)
	b := browsertest.New(t, 1366, 768, 2*time.Minute)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("button.action"))); err != nil {
		t.Fatal(err)
	}
	// the initial state: a Request per process, one open group each
	groups := evalJS[[]string](t, b, `[...document.querySelectorAll('#actions details.group summary')].map(e => e.textContent)`)
	if len(groups) != 8 || groups[3] != "P3: 1 action" {
		t.Fatalf("groups %q: want one per process, P3's with its Request", groups)
	}
	// four steps along the trace: more than 12 actions, folded groups
	// whose counts add up to the total
	for k := 1; k <= 4; k++ {
		evalJS[any](t, b, `document.getElementById('tnext').click()`)
		waitJS(t, b, `document.getElementById('tpos').textContent.startsWith('step `+itoa(k)+` of')`)
	}
	total := evalJS[int](t, b, `document.querySelectorAll('button.action').length`)
	sum := evalJS[int](t, b, `[...document.querySelectorAll('#actions details.group summary')].reduce((s, e) => s + parseInt(e.textContent.split(': ')[1]), 0)`)
	folded := evalJS[int](t, b, `document.querySelectorAll('#actions details.group:not([open])').length`)
	if total <= 12 || sum != total || folded == 0 {
		t.Fatalf("%d actions, the groups count %d, %d folded: want more than 12, all counted, some folded (%q)", total, sum, folded, evalJS[[]string](t, b, `[...document.querySelectorAll('#actions details.group summary')].map(e => e.textContent)`))
	}
	// the filter: only the matching actions, all shown, and counted
	if err := chromedp.Do(b.Ctx, chromedp.SendKeys(chromedp.CSS("#filter"), "Request")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, b, `document.getElementById('action-count').textContent.includes('match')`)
	labels := evalJS[[]string](t, b, `[...document.querySelectorAll('button.action')].filter(e => e.getClientRects().length > 0).map(e => e.querySelector('.lbl').textContent)`)
	if len(labels) == 0 || len(labels) == total {
		t.Fatalf("the filter shows %d of %d actions", len(labels), total)
	}
	for _, l := range labels {
		if !strings.Contains(l, "Request") {
			t.Errorf("the filter Request shows %q", l)
		}
	}
	if c := evalJS[string](t, b, `document.getElementById('action-count').textContent`); c != "("+itoa(len(labels))+" of "+itoa(total)+" match)" {
		t.Errorf("the count says %q for %d of %d shown", c, len(labels), total)
	}
	// the browser's Back: one step back, on the same page; Forward again
	evalJS[any](t, b, `history.back()`)
	waitJS(t, b, `document.querySelectorAll('#steps li').length === 3`)
	if h := evalJS[string](t, b, `location.pathname + ' ' + document.getElementById('title').textContent`); !strings.HasPrefix(h, "/ tokenmc explore") {
		t.Fatalf("Back left the page: %q", h)
	}
	evalJS[any](t, b, `history.forward()`)
	waitJS(t, b, `document.querySelectorAll('#steps li').length === 4`)
	b.NoProblems(t)
}

// The page searches a liveness counterexample: the literal torus starves
// a process, the lasso lands in the jump box and steps to its cycle,
// which the chart marks.
func TestBrowserExploreLasso(t *testing.T) {
	ts, _ := newTestServer(t, "torus/literal", map[string]int{"n": 4, "r": 1})
	b := browsertest.New(t, 1400, 1000, 2*time.Minute)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS("button.action"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b.Ctx, chromedp.SetValue(chromedp.CSS("#findprop"), "starvation-freedom")); err != nil {
		t.Fatal(err)
	}
	click(t, b, "#find")
	waitJS(t, b, `document.getElementById('findmsg').textContent.startsWith('found: a lasso') && document.getElementById('tpos').textContent.startsWith('step 0 of')`)
	n := evalJS[int](t, b, `parseInt(document.getElementById('tpos').textContent.split(' of ')[1])`)
	for k := 1; k <= n; k++ {
		evalJS[any](t, b, `document.getElementById('tnext').click()`)
		waitJS(t, b, `document.getElementById('tpos').textContent.startsWith('step `+itoa(k)+` of')`)
	}
	if !strings.Contains(evalJS[string](t, b, `document.getElementById('tpos').textContent`), "in the cycle") {
		t.Error("the stepper does not say the lasso is in its cycle")
	}
	if !evalJS[bool](t, b, `[...document.querySelectorAll('#msc svg title')].some(e => e.textContent === 'P' + trace.waiting + ' waits forever along the cycle')`) {
		t.Error("the chart does not mark the starving process")
	}
	b.Screenshot(t, "explore-lasso-search.png")
	b.NoProblems(t)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
