package figures

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

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
		l.Color = plotutil.Color(idx)
		l.Width = vg.Points(1.5)
		sc.Color = plotutil.Color(idx)
		sc.Shape = plotutil.Shape(idx)
		sc.Radius = vg.Points(2.5)
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
			eb.Color = plotutil.Color(idx)
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
	for _, ext := range []string{".svg", ".png"} {
		if err := p.Save(7*vg.Inch, 4.5*vg.Inch, filepath.Join(dir, c.file+ext)); err != nil {
			return fmt.Errorf("writing %s%s: %v", c.file, ext, err)
		}
	}
	return nil
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
