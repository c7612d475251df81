// Package browsertest starts a real headless Chromium for the tests that
// drive tokenmc's web pages (the explore page and the check report) with
// chromedp, and collects the page's console errors and uncaught
// exceptions so that a test can require there are none.
//
// Only tests import it. When Chromium is missing a test is skipped with a
// message, except in CI (the environment variable CI is "true"), where
// .ci/run installs Debian's chromium package and a missing browser is a
// failure.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Binary returns the path of the Chromium (or Chrome) executable, or
// skips the test (fails it under CI=true) when there is none.
func Binary(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium on PATH, and CI=true: the browser tests must run in CI (.ci/run installs Debian's chromium package)")
		return ""
	}
	t.Skip("no Chromium on PATH (apt-get install -y chromium); skipping the browser test (it fails instead under CI=true)")
	return ""
}

// Browser is one headless browser tab and the console problems its pages
// reported.
type Browser struct {
	Ctx context.Context
	mu  sync.Mutex
	bad []string
}

// New starts Chromium with a window of width x height pixels and returns
// its tab; the browser is closed when the test ends. Every action run on
// b.Ctx fails after timeout.
func New(t testing.TB, width, height int, timeout time.Duration) *Browser {
	t.Helper()
	bin := Binary(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(width, height),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("font-render-hinting", "none"),
	)
	base, cancelTime := context.WithTimeout(context.Background(), timeout)
	actx, cancelAlloc := chromedp.NewExecAllocator(base, opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc(); cancelTime() })
	b := &Browser{Ctx: ctx}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.mu.Lock()
				b.bad = append(b.bad, string(m.Type)+": "+m.Text+" ("+m.URL+")")
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// Problems returns the console errors and uncaught exceptions so far.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.bad...)
}

// NoProblems fails the test if the page reported a console error or an
// uncaught exception.
func (b *Browser) NoProblems(t testing.TB) {
	t.Helper()
	// let late messages arrive
	time.Sleep(200 * time.Millisecond)
	for _, p := range b.Problems() {
		t.Errorf("JavaScript console: %s", p)
	}
}

// Screenshot saves a full-page PNG of the tab to the directory named by
// the environment variable TOKENMC_SCREENSHOTS, under name; without it,
// nothing is saved. It returns the path written, or "".
func (b *Browser) Screenshot(t testing.TB, name string) string {
	t.Helper()
	dir := os.Getenv("TOKENMC_SCREENSHOTS")
	if dir == "" {
		return ""
	}
	// grow the viewport to the whole page first, so that sticky headers
	// stay at the top of the picture instead of the middle
	size, err := chromedp.Run(b.Ctx, chromedp.Evaluate[[]int64](`[document.documentElement.scrollWidth, document.documentElement.scrollHeight]`))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if _, err := chromedp.Run(b.Ctx, chromedp.Evaluate[any](`window.scrollTo(0, 0)`)); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := chromedp.Do(b.Ctx, chromedp.EmulateViewport(size[0], size[1])); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	png, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
