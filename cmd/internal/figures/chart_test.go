package figures

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// A chart is written as SVG and PNG, with its title, axis labels and
// legend entries in the SVG text, at 7 x 4.5 inches.
func TestSave(t *testing.T) {
	dir := t.TempDir()
	err := save(dir, chartSpec{file: "c", title: "T", xlabel: "arrival rate", ylabel: "messages per CS", logX: true,
		series: []series{
			{name: "measured", xs: []float64{0.1, 1, 10}, ys: []float64{9, 5, 3}, half: []float64{0.1, 0.1, 0.1}},
			{name: "published", xs: []float64{0.1, 10}, ys: []float64{2.8, 2.8}, dashed: true},
		}})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "c.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"arrival rate", "messages per CS", "measured", "published"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the SVG has no %q", want)
		}
	}
	img := readPNG(t, filepath.Join(dir, "c.png"))
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 400 {
		t.Errorf("PNG is %dx%d", b.Dx(), b.Dy())
	}
}

func readPNG(t *testing.T, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestLogTicks(t *testing.T) {
	var got []string
	for _, tk := range (logTicks{}).Ticks(0.05, 20) {
		got = append(got, tk.Label)
	}
	if strings.Join(got, " ") != "0.05 0.1 0.2 0.5 1 2 5 10 20" {
		t.Fatalf("ticks %v", got)
	}
}

// The figure of two equal series (raymond and naimi-trehel at heavy
// load) up to N = 256: nothing touches the edges of the picture (the
// title is below the top edge, the marker at N = 256 is whole), and the
// two series differ in colour, marker and dash pattern.
func TestSaveMarginsAndStyles(t *testing.T) {
	dir := t.TempDir()
	ns := []float64{4, 16, 64, 256}
	err := save(dir, chartSpec{file: "c", title: "Messages per CS at heavy load", xlabel: "processes N", ylabel: "messages per CS", logX: true, logY: true,
		series: []series{
			{name: "torus", xs: ns, ys: []float64{2.2, 2.05, 2.01, 2.0}, half: []float64{0, 0, 0, 0}},
			{name: "raymond", xs: ns[:2], ys: []float64{3, 3.6}, half: []float64{0, 0}},
			{name: "naimi-trehel", xs: ns[:2], ys: []float64{3, 3.6}, half: []float64{0, 0}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	img := readPNG(t, filepath.Join(dir, "c.png"))
	b := img.Bounds()
	white := func(x, y int) bool {
		r, g, bl, _ := img.At(x, y).RGBA()
		return r>>8 > 250 && g>>8 > 250 && bl>>8 > 250
	}
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Min.Y; y < b.Min.Y+3; y++ {
			if !white(x, y) {
				t.Fatalf("pixel (%d,%d) near the top edge is drawn on: the title touches the edge", x, y)
			}
		}
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Max.X - 3; x < b.Max.X; x++ {
			if !white(x, y) {
				t.Fatalf("pixel (%d,%d) near the right edge is drawn on: the last marker is cut", x, y)
			}
		}
	}
	for i := range 8 {
		for j := range i {
			a, c := styleOf(i), styleOf(j)
			if a.color == c.color || fmt.Sprintf("%T", a.glyph) == fmt.Sprintf("%T", c.glyph) || fmt.Sprint(a.dashes) == fmt.Sprint(c.dashes) {
				t.Errorf("series %d and %d share a colour, a marker or a dash pattern", j, i)
			}
		}
	}
	for i := range 8 {
		for j := range 8 {
			if a, c := styleOf(i), styleOf(j); filled(a.glyph) && !filled(c.glyph) && a.radius >= c.radius-vg.Points(1) {
				t.Errorf("series %d's filled marker is not smaller than series %d's hollow one: equal points would hide it", i, j)
			}
		}
	}
	if p := os.Getenv("TOKENMC_FIGURE_PREVIEW"); p != "" {
		data, _ := os.ReadFile(filepath.Join(dir, "c.png"))
		_ = os.WriteFile(p, data, 0o644)
	}
}
