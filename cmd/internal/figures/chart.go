package figures

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette holds the colours of the measured series, told apart also by
// their markers and dash patterns (styleOf): the Okabe-Ito colours, which
// stay distinct for colour-blind readers and in grey.
var palette = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xe6, 0x9f, 0x00, 0xff}, // orange
	{0x00, 0x9e, 0x73, 0xff}, // bluish green
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff}, // black
	{0x99, 0x7a, 0x00, 0xff}, // dark yellow
}

// seriesStyle is how the idx-th measured series is drawn.
type seriesStyle struct {
	color  color.RGBA
	glyph  draw.GlyphDrawer
	radius vg.Length
	dashes []vg.Length
}

// styleOf gives the idx-th measured series its colour, marker shape and
// dash pattern, each distinct from every other series' among the first
// eight. Filled markers are smaller than hollow ones, so that where two
// series have equal values (raymond and naimi-trehel at heavy load) a
// filled marker sits inside a hollow one and both show.
func styleOf(idx int) seriesStyle {
	type mark struct {
		g draw.GlyphDrawer
		r float64 // points
	}
	marks := []mark{{draw.CircleGlyph{}, 3.5}, {draw.RingGlyph{}, 5.5}, {draw.BoxGlyph{}, 3}, {draw.TriangleGlyph{}, 6}, {draw.PyramidGlyph{}, 3.5}, {draw.SquareGlyph{}, 5}, {draw.CrossGlyph{}, 5}, {draw.PlusGlyph{}, 5}}
	dashes := [][]vg.Length{nil, {vg.Points(6), vg.Points(2)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}, {vg.Points(4), vg.Points(4)}, {vg.Points(1), vg.Points(3)}, {vg.Points(10), vg.Points(3)}, {vg.Points(3), vg.Points(1), vg.Points(1), vg.Points(1)}}
	k := idx % len(palette)
	return seriesStyle{color: palette[k], glyph: marks[k].g, radius: vg.Points(marks[k].r), dashes: dashes[k]}
}

// filled reports whether g draws a filled marker.
func filled(g draw.GlyphDrawer) bool {
	switch g.(type) {
	case draw.CircleGlyph, draw.BoxGlyph, draw.PyramidGlyph:
		return true
	}
	return false
}

// margin is the white space around a figure, so that its title does not
// touch the top edge and the markers at the ends of the axes are whole.
const margin = 6 // points

// series is one curve: points with optional 95% CI half-widths.
type series struct {
	name   string
	xs, ys []float64
	half   []float64 // nil: no error bars
	dashed bool      // a published formula, drawn without points
}

type chartSpec struct {
	file           string // base name, without extension
	title          string
	xlabel, ylabel string
	logX, logY     bool
	series         []series
}

// save draws c as dir/file.svg and dir/file.png.
func save(dir string, c chartSpec) error {
	p := plot.New()
	p.Title.Text = c.title
	p.X.Label.Text = c.xlabel
	p.Y.Label.Text = c.ylabel
	if c.logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if c.logY {
		p.Y.Scale = plot.LogScale{}
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = false
	idx := 0
	for _, s := range c.series {
		var pts plotter.XYs
		var errs plotter.YErrors
		for k := range s.xs {
			y := s.ys[k]
			if math.IsNaN(y) || (c.logY && y <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: s.xs[k], Y: y})
			h := 0.0
			if s.half != nil && !math.IsNaN(s.half[k]) {
				h = s.half[k]
			}
			errs = append(errs, struct{ Low, High float64 }{h, h})
		}
		if len(pts) == 0 {
			continue
		}
		if s.dashed {
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			l.Color = color.Gray{Y: 90}
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			l.Width = vg.Points(1)
			p.Add(l)
			p.Legend.Add(s.name, l)
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		st := styleOf(idx)
		l.Color = st.color
		l.Width = vg.Points(1.5)
		l.Dashes = st.dashes
		sc.Color = st.color
		sc.Shape = st.glyph
		sc.Radius = st.radius
		p.Add(l, sc)
		p.Legend.Add(s.name, l, sc)
		if s.half != nil {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{pts, errs})
			if err != nil {
				return err
			}
			eb.Color = st.color
			p.Add(eb)
		}
		idx++
	}
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	// headroom above the data for the legend, which sits at the top right
	rows := float64(len(c.series))
	if c.logY {
		p.Y.Max *= math.Pow(p.Y.Max/p.Y.Min, 0.06*rows)
		p.Y.Tick.Marker = logTicks{}
	} else {
		p.Y.Min = min(p.Y.Min, 0)
		p.Y.Max += 0.06 * rows * (p.Y.Max - p.Y.Min)
	}
	// room at both ends of the x axis for the first and last markers
	if c.logX {
		f := math.Pow(p.X.Max/p.X.Min, 0.03)
		p.X.Min, p.X.Max = p.X.Min/f, p.X.Max*f
	} else {
		d := 0.03 * (p.X.Max - p.X.Min)
		p.X.Min, p.X.Max = p.X.Min-d, p.X.Max+d
	}
	for _, ext := range []string{"svg", "png"} {
		if err := write(p, filepath.Join(dir, c.file+"."+ext), ext); err != nil {
			return fmt.Errorf("writing %s.%s: %v", c.file, ext, err)
		}
	}
	return nil
}

// write draws p on a white page of 7 x 4.5 inches, margin inside its
// edges, and saves it to file in format (svg or png).
func write(p *plot.Plot, file, format string) error {
	cw, err := draw.NewFormattedCanvas(7*vg.Inch, 4.5*vg.Inch, format)
	if err != nil {
		return err
	}
	dc := draw.New(cw)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	m := vg.Points(margin)
	p.Draw(draw.Crop(dc, m, -m, m, -m))
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := cw.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// logTicks labels 1, 2 and 5 times each power of ten on a log axis.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for _, m := range []float64{1, 2, 5} {
			v := m * base
			if v < lo || v > hi {
				continue
			}
			ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
		}
	}
	return ts
}
