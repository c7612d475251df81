package chart_test

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/traces"
)

// Every text of the SVG of every trace in the repository (the
// algorithms' testdata and this package's) lies inside the picture, by
// the advance of the monospace font (0.6 em a character): the SVG of
// show --format svg is as wide as its longest text.
func TestSVGTextInsidePicture(t *testing.T) {
	files, _ := filepath.Glob("../../../algorithms/*/testdata/*.trace.json")
	more, _ := filepath.Glob("testdata/*.trace.json")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("only %d trace files found", len(files))
	}
	for _, f := range files {
		tr, err := traces.ReadFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var b bytes.Buffer
		if err := chart.SVG(&b, chart.FromTrace(tr)); err != nil {
			t.Fatal(err)
		}
		els := svgElements(t, b.String())
		width, _ := strconv.ParseFloat(els[0].attrs["width"], 64)
		anchor := ""
		for _, e := range els {
			if e.name == "text" {
				anchor = e.attrs["text-anchor"]
			}
			text := strings.TrimSpace(e.text)
			if e.name != "text" && e.name != "tspan" || text == "" {
				continue
			}
			x, _ := strconv.ParseFloat(e.attrs["x"], 64)
			fs := 12.0
			if s := e.attrs["font-size"]; s != "" {
				fs, _ = strconv.ParseFloat(s, 64)
			}
			w := 0.6 * fs * float64(len([]rune(text)))
			left := x
			if anchor == "middle" {
				left = x - w/2
			}
			if left < 0 || left+w > width {
				t.Errorf("%s: the text %q spans x=%.0f..%.0f, outside the picture's width %.0f", filepath.Base(f), text, left, left+w, width)
			}
		}
	}
}
