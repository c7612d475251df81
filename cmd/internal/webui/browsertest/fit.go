package browsertest

import (
	_ "embed"
	"testing"

	"github.com/chromedp/chromedp"
)

// fitJS is the layout check Fit runs in the page; see fit.js.
//
//go:embed fit.js
var fitJS string

// maxReported bounds the problems one Fit call reports, so that a page
// broken everywhere fails with a readable message.
const maxReported = 12

// Fit fails the test (t.Errorf, naming page) for every place where the
// page in the tab hides or clips data:
//
//   - a box that scrolls or clips (overflow other than visible) with
//     content beyond its size: data behind a scroll bar (the page itself
//     may scroll, in both directions);
//   - text that reaches outside its element's box, or outside a box that
//     clips it;
//   - SVG text outside its picture, or over another text of it;
//   - a list item (li, tr, .msg, .inbox, .action) not displayed without a
//     "+N more" button (class more) in a list around it; and, once every
//     such button is clicked, an item that is still not displayed.
//
// It returns the number of problems found.
func (b *Browser) Fit(t testing.TB, page string) int {
	t.Helper()
	probs, err := chromedp.Run(b.Ctx, chromedp.Evaluate[[]string](fitJS+"\ntokenmcFit(false)"))
	if err != nil {
		t.Fatalf("%s: running the layout check: %v", page, err)
	}
	// expand every "+N more" and look again
	more, err := chromedp.Run(b.Ctx, chromedp.Evaluate[[]string](fitJS+"\ntokenmcFit(true)"))
	if err != nil {
		t.Fatalf("%s: running the layout check after expanding: %v", page, err)
	}
	for _, p := range more {
		probs = append(probs, "after clicking every +N more: "+p)
	}
	for k, p := range probs {
		if k == maxReported {
			t.Errorf("%s: ... and %d more layout problems", page, len(probs)-k)
			break
		}
		t.Errorf("%s: %s", page, p)
	}
	return len(probs)
}
