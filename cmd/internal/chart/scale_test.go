package chart_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/traces"
)

// testdata/suzuki-kasami_send-in-cs-n8.mutex.trace.json is an unshrunk
// random walk of the mutant with eight processes (tokenmc simulate --algo
// suzuki-kasami/send-in-cs --n 8 --runs 20 --seed 1 --no-shrink): 25
// steps, 25 requests still in transit at the end.
const n8Trace = "testdata/suzuki-kasami_send-in-cs-n8.mutex.trace.json"

// svgElements decodes an SVG and returns its elements with their
// attributes and their direct text.
type svgElem struct {
	name  string
	attrs map[string]string
	text  string
}

func svgElements(t *testing.T, s string) []svgElem {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	var out []svgElem
	var stack []int
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch x := tok.(type) {
		case xml.StartElement:
			e := svgElem{name: x.Name.Local, attrs: map[string]string{}}
			for _, a := range x.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			out = append(out, e)
			stack = append(stack, len(out)-1)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				out[stack[len(stack)-1]].text += string(x)
			}
		}
	}
	return out
}

// Many messages still in transit at the end are not drawn as arrows to the
// bottom: each send gets a stub, and a box under each receiver counts
// them. The counts add up to the final state's network, counted
// independently from the trace.
func TestSVGSummarisesPending(t *testing.T) {
	tr, err := traces.ReadFile(n8Trace)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	perTo := map[int]int{}
	for _, m := range tr.Steps[len(tr.Steps)-1].State.Network {
		want += m.Count
		perTo[m.To] += m.Count
	}
	if want <= 8 {
		t.Fatalf("the fixture has only %d messages in transit at the end", want)
	}
	var b bytes.Buffer
	if err := chart.SVG(&b, chart.FromTrace(tr)); err != nil {
		t.Fatal(err)
	}
	stubs, dashedArrows := 0, 0
	boxes := map[int]int{}
	box := regexp.MustCompile(`^(\d+) to P(\d+)$`)
	for _, e := range svgElements(t, b.String()) {
		if e.name == "line" && e.attrs["stroke-dasharray"] == "3,2" {
			stubs++
		}
		if e.name == "line" && e.attrs["stroke-dasharray"] == "5,4" && e.attrs["marker-end"] != "" {
			dashedArrows++
		}
		if m := box.FindStringSubmatch(e.text); e.name == "text" && m != nil {
			n, _ := strconv.Atoi(m[1])
			p, _ := strconv.Atoi(m[2])
			boxes[p] += n
		}
	}
	if dashedArrows != 0 {
		t.Errorf("%d dashed arrows to the bottom; want none when %d messages are pending", dashedArrows, want)
	}
	if stubs != want {
		t.Errorf("%d stubs, want one per message in transit: %d", stubs, want)
	}
	for p, n := range perTo {
		if boxes[p] != n {
			t.Errorf("the box under P%d counts %d, the final state has %d messages to P%d", p, boxes[p], n, p)
		}
	}
}

// A step label too long for one line wraps onto more lines, none cut:
// the lines hold the whole text, and the SVG is wide enough for them.
func TestSVGLongLabel(t *testing.T) {
	c := skChart(t)
	long := "Deliver " + strings.Repeat("VERYLONGMESSAGE ", 40)
	c.Rows[1].Label = long
	var b bytes.Buffer
	if err := chart.SVG(&b, c); err != nil {
		t.Fatal(err)
	}
	els := svgElements(t, b.String())
	width, _ := strconv.Atoi(els[0].attrs["width"])
	found := false
	for k, e := range els {
		if e.name != "text" || k+1 >= len(els) || els[k+1].name != "tspan" || !strings.HasPrefix(els[k+1].text, "2. Deliver VERYLONG") {
			continue
		}
		found = true
		var lines []string
		for _, l := range els[k+1:] {
			if l.name != "tspan" {
				break
			}
			lines = append(lines, l.text)
			x, _ := strconv.Atoi(l.attrs["x"])
			if right := x + int(float64(len(l.text))*7.3); right > width {
				t.Errorf("the line %q ends at x=%d, beyond the SVG's width %d", l.text, right, width)
			}
		}
		if len(lines) < 2 || !strings.HasPrefix(strings.Join(lines, " "), "2. "+long+"; sends") {
			t.Fatalf("the label is drawn as %q: want it whole, on several lines", lines)
		}
	}
	if !found {
		t.Fatal("no wrapped label for step 2")
	}
}

// A lasso's starving process is marked on its lifeline, and the legend
// explains the marks.
func TestSVGStarvingAndLegend(t *testing.T) {
	tr, err := traces.ReadFile("testdata/torus_endless-tour.starvation-freedom.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	c := chart.FromTrace(tr)
	if len(c.Starving) != 1 || c.Starving[0] != *tr.WaitingProcess {
		t.Fatalf("Starving = %v, the trace's waiting process is %d", c.Starving, *tr.WaitingProcess)
	}
	var b bytes.Buffer
	if err := chart.SVG(&b, c); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !strings.Contains(s, fmt.Sprintf("<title>P%d waits forever along the cycle</title>", *tr.WaitingProcess)) || !strings.Contains(s, ">starves</text>") {
		t.Fatal("the starving process is not marked")
	}
	for _, item := range []string{">message</text>", ">token</text>", ">in its CS</text>", ">cycle</text>", ">starves</text>"} {
		if !strings.Contains(s, item) {
			t.Errorf("the legend lacks %s", item)
		}
	}
	if strings.Contains(s, ">violating step</text>") {
		t.Error("the legend of a lasso explains a violating step it does not have")
	}
}

// The stepper page uses only glyphs that every font has (the first and
// last buttons used to be U+23EE and U+23ED, which render as empty boxes
// in headless Chromium), and highlights the cells a step changed.
func TestHTMLGlyphsAndChanges(t *testing.T) {
	var b bytes.Buffer
	if err := chart.HTML(&b, skChart(t)); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, r := range s {
		if r >= 0x2300 && r < 0x2400 {
			t.Fatalf("the page uses %U, which headless fonts lack", r)
		}
	}
	for _, want := range []string{"&laquo; first", "last &raquo;", `class=\"chg\"`, `<details class="statebox" open>`} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
