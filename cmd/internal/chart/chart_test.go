package chart_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/traces"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// testdata/suzuki-kasami_send-in-cs.mutex.trace.json is the shortest
// mutex counterexample of the mutant (tokenmc check --algo
// suzuki-kasami/send-in-cs --n 2): P0 enters, P1 requests, P0 sends the
// token from its CS, P1 enters.
const skTrace = "testdata/suzuki-kasami_send-in-cs.mutex.trace.json"

func skChart(t *testing.T) *chart.Chart {
	t.Helper()
	tr, err := traces.ReadFile(skTrace)
	if err != nil {
		t.Fatal(err)
	}
	return chart.FromTrace(tr)
}

func TestFromTrace(t *testing.T) {
	c := skChart(t)
	if c.N != 2 || len(c.Rows) != 4 || c.Violation != 3 || c.LoopStart != -1 {
		t.Fatalf("chart: n=%d rows=%d violation=%d loop=%d", c.N, len(c.Rows), c.Violation, c.LoopStart)
	}
	want := []chart.Arrow{
		{From: 1, To: 0, SendRow: 1, RecvRow: 2, Label: "REQ(P1->P0, sn=1)"},
		{From: 0, To: 1, SendRow: 2, RecvRow: 3, Label: "TOKEN(->P1, LN=[0,0], Q=[])", Token: true},
	}
	if len(c.Arrows) != len(want) {
		t.Fatalf("arrows: %+v", c.Arrows)
	}
	for k := range want {
		if c.Arrows[k] != want[k] {
			t.Fatalf("arrow %d = %+v, want %+v", k, c.Arrows[k], want[k])
		}
	}
	// Both are in the CS at the end: the overlap that violates mutex.
	wantCS := []chart.Interval{{Proc: 0, Start: 0, End: -1}, {Proc: 1, Start: 3, End: -1}}
	if len(c.CS) != 2 || c.CS[0] != wantCS[0] || c.CS[1] != wantCS[1] {
		t.Fatalf("CS intervals %+v, want %+v", c.CS, wantCS)
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := chart.Text(&b, skChart(t)); err != nil {
		t.Fatal(err)
	}
	want := `suzuki-kasami/send-in-cs (n=2, r=1)
violates mutex (invariant) after 4 steps

 step  P0  P1   action
    1  T   |    Request(P0); Idle -> InCS
    2  #   *    Request(P1); sends REQ(P1->P0, sn=1); Idle -> Waiting
    3  *   |    Deliver REQ(P1->P0, sn=1) (sent at step 2); sends TOKEN(->P1, LN=[0,0], Q=[])
    4  #   X    Deliver TOKEN(->P1, LN=[0,0], Q=[]) (sent at step 3); Waiting -> InCS

step 4 violates mutex
legend: * acting process, T acting and holding the token after the step, # in its CS, X the violating step, > start of a cycle
`
	if b.String() != want {
		t.Fatalf("text chart:\n%s\nwant:\n%s", b.String(), want)
	}
}

// wellFormed parses s as XML and counts the elements by name.
func wellFormed(t *testing.T, s string) map[string]int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	count := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return count
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			count[se.Name.Local]++
		}
	}
}

func TestSVG(t *testing.T) {
	var b bytes.Buffer
	if err := chart.SVG(&b, skChart(t)); err != nil {
		t.Fatal(err)
	}
	n := wellFormed(t, b.String())
	// 2 lifelines + 2 arrows; 2 CS rects + background + violation band + cursor; a dot per step;
	// the legend: 3 lines (message, token, in transit), 2 rects (CS, violation), 2 dots
	if n["svg"] != 1 || n["line"] != 4+3 || n["rect"] != 5+2 || n["circle"] != 4+2 {
		t.Fatalf("element counts %v", n)
	}
	if !strings.Contains(b.String(), `stroke="#d9480f" stroke-width="3.0"`) {
		t.Fatal("the token's arrow is not highlighted")
	}
}

// A liveness lasso (tokenmc check --algo torus/endless-tour --n 4 --props
// starvation-freedom): the cycle is marked, no step is "the" violation.
func TestLasso(t *testing.T) {
	tr, err := traces.ReadFile("testdata/torus_endless-tour.starvation-freedom.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	c := chart.FromTrace(tr)
	if c.LoopStart != *tr.Loop-1 || c.Violation != -1 || len(c.Rows) != len(tr.Steps) {
		t.Fatalf("loop %d violation %d rows %d", c.LoopStart, c.Violation, len(c.Rows))
	}
	var b bytes.Buffer
	if err := chart.Text(&b, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), fmt.Sprintf("steps %d..%d repeat forever", *tr.Loop, len(tr.Steps))) {
		t.Fatalf("text does not name the cycle:\n%s", b.String())
	}
	b.Reset()
	if err := chart.SVG(&b, c); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.String())
	if !strings.Contains(b.String(), ">loop</text>") {
		t.Fatal("SVG does not mark the loop")
	}
}

func TestHTML(t *testing.T) {
	var b bytes.Buffer
	if err := chart.HTML(&b, skChart(t)); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{"<!DOCTYPE html>", "<svg", "const states=", "after step 4: P1 Deliver TOKEN", "violates mutex"} {
		if !strings.Contains(s, want) {
			t.Fatalf("HTML lacks %q", want)
		}
	}
	// one state table per step plus the initial state
	if got := strings.Count(s, `\u003ctable\u003e`); got != 5 {
		t.Fatalf("%d state tables, want 5", got)
	}
}

// A log of the mutant checked against the correct model: the chart marks
// the token sent from the CS, the event validate cannot explain.
func TestFromLogMarksUnexplainedEvent(t *testing.T) {
	l, err := eventlog.ReadFile("../../../traces/eventlog/testdata/send-in-cs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	a, v, _ := algorithms.Lookup("suzuki-kasami")
	sys, _, err := a.Build(v.Name, l.Header.Params)
	if err != nil {
		t.Fatal(err)
	}
	res := eventlog.Validate(sys, l)
	c := chart.FromLog(l, &res)
	if c.Violation < 0 || c.Rows[c.Violation].Proc != res.Failed.P || !strings.Contains(c.ViolationText, "TOKEN") {
		t.Fatalf("violation row %d: %q", c.Violation, c.ViolationText)
	}
	// The unexplained send (line 12) follows P0's receive of P1's request
	// (line 11), a step explained at its trigger (steps may be logged
	// non-atomically): the send is drawn, and marked, in that step's row.
	if res.Failed.Line != 12 || !strings.Contains(c.Rows[c.Violation].Label, "REQ(P1->P0, sn=1)") {
		t.Fatalf("the unexplained %v is in row %d (%q), want the row of P0's receive of REQ(P1->P0, sn=1)", res.Failed, c.Violation, c.Rows[c.Violation].Label)
	}
	sends := 0
	for _, e := range l.Events {
		if e.Kind == eventlog.KindSend {
			sends++
		}
	}
	if len(c.Arrows) != sends {
		t.Fatalf("%d arrows for %d sends", len(c.Arrows), sends)
	}
	var b bytes.Buffer
	if err := chart.SVG(&b, c); err != nil {
		t.Fatal(err)
	}
	wellFormed(t, b.String())
}

// TestSVGRendersInChromium renders the SVG of the Suzuki-Kasami mutant's
// counterexample in headless Chromium (Debian's package) and checks the
// screenshot shows the token's orange arrow, the red violation and the
// blue CS shading.
func TestSVGRendersInChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install -y chromium); skipping the browser rendering check")
	}
	dir := t.TempDir()
	svgFile := filepath.Join(dir, "sk.svg")
	f, err := os.Create(svgFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := chart.SVG(f, skChart(t)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	shot := filepath.Join(dir, "sk.png")
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--screenshot="+shot, "--window-size=1000,300", svgFile)
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium: %v", err)
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("chromium did not finish within 60 s")
	}
	pf, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	img, err := png.Decode(pf)
	if err != nil {
		t.Fatal(err)
	}
	var orange, red, blue int
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y++ {
		for x := bnd.Min.X; x < bnd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			switch {
			case near(r, 0xd9) && near(g, 0x48) && near(b, 0x0f):
				orange++
			case near(r, 0xe0) && near(g, 0x31) && near(b, 0x31):
				red++
			case b > 200 && r < 190 && g > 150:
				blue++
			}
		}
	}
	if orange < 50 || red < 20 || blue < 50 {
		t.Fatalf("screenshot lacks the chart's colours: %d orange, %d red, %d blue pixels", orange, red, blue)
	}
}

func near(a, b uint32) bool { return a+24 >= b && b+24 >= a }
