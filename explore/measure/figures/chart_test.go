package figures

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	f, err := os.Open(filepath.Join(dir, "c.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 400 {
		t.Errorf("PNG is %dx%d", b.Dx(), b.Dy())
	}
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
