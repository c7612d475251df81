package browsertest

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// fitRecorder counts the errors Fit reports instead of failing.
type fitRecorder struct {
	testing.TB
	errs []string
}

func (r *fitRecorder) Helper()                   {}
func (r *fitRecorder) Errorf(f string, a ...any) { r.errs = append(r.errs, f) }

// Fit passes a page that shows everything, and catches each way of
// hiding data it names: a scroll box, text out of its box, SVG text out
// of its picture or over another, a list cut without "+N more", and a
// "+N more" that does not show the rest.
func TestFit(t *testing.T) {
	b := New(t, 800, 600, time.Minute)
	for _, c := range []struct {
		name, page string
		bad        bool
	}{
		{"all shown", `<ul><li>a</li><li>b</li></ul><div style="width:100px">words that wrap inside the box</div><svg width="200" height="40"><text x="5" y="20">fits</text></svg>`, false},
		{"scroll box", `<div style="height:40px;overflow:auto"><p>1</p><p>2</p><p>3</p><p>4</p></div>`, true},
		{"sideways scroll box", `<div style="width:100px;overflow-x:auto"><svg width="300" height="20"></svg></div>`, true},
		{"wide page", `<svg width="3000" height="20"><text x="2900" y="15">end</text></svg>`, false},
		{"text out of its box", `<div style="width:40px;white-space:nowrap">a line much longer than forty pixels</div>`, true},
		{"button text out of its box", `<button style="width:30px;white-space:nowrap">a long button label</button>`, true},
		{"SVG text out of its picture", `<svg width="100" height="40"><text x="5" y="20">a text far wider than the picture</text></svg>`, true},
		{"SVG texts overlap", `<svg width="300" height="40"><text x="5" y="20">subtitle</text><text x="30" y="24">P1</text></svg>`, true},
		{"list cut", `<ul><li>a</li><li style="display:none">b</li></ul>`, true},
		{"list cut with +N more", `<ul id="l"><li>a</li><li class="x" style="display:none">b</li></ul><button class="more" onclick="document.querySelector('.x').style.display='list-item';this.remove()">+1 more</button>`, false},
		{"+N more that shows nothing", `<ul><li>a</li><li style="display:none">b</li></ul><button class="more">+1 more</button>`, true},
		{"folded section that counts", `<details><summary>3 messages</summary><ul><li>a</li><li>b</li><li>c</li></ul></details>`, false},
	} {
		if err := chromedp.Do(b.Ctx, chromedp.Navigate("data:text/html,"+url.PathEscape("<!DOCTYPE html><body>"+c.page+"</body>"))); err != nil {
			t.Fatal(err)
		}
		r := &fitRecorder{TB: t}
		n := b.Fit(r, c.name)
		if (n > 0) != c.bad {
			t.Errorf("%s: Fit found %d problems (%s), want them found: %v", c.name, n, strings.Join(r.errs, "; "), c.bad)
		}
	}
}
