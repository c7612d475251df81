package figures

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/explore/measure"
)

// Rates are the arrival rates per process of the load sweeps.
var Rates = []float64{0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20}

// TableRow is one measured configuration of the results table.
type TableRow struct {
	Config measure.Config
	Note   string
}

// TableConfigs are the configurations of the results table: the papers'
// light- and heavy-load claims (T_msg = T_exec = 0.1; Banerjee-Chrysanthis
// with collection 0.1 and 0.2, forwarding 0.1, N = 10).
func TableConfigs() []TableRow {
	var rows []TableRow
	add := func(algo string, n int, l measure.Load, timers []float64, entries, reps int, note string) {
		rows = append(rows, TableRow{Config: measure.Config{Algo: algo, N: n, Load: l, Timers: timers, Entries: entries, Replications: reps}, Note: note})
	}
	for _, coll := range []float64{0.1, 0.2} {
		for _, l := range []measure.Load{{Kind: "light"}, {Kind: "heavy"}} {
			add("banerjee", 10, l, []float64{coll, 0.1, 0}, 0, 0, fmt.Sprintf("collection %.1f", coll))
		}
	}
	for _, n := range []int{16, 64, 256} {
		add("torus", n, measure.Load{Kind: "heavy"}, nil, 0, 0, "")
	}
	add("torus", 16, measure.Load{Kind: "light"}, nil, 0, 0, "")
	add("torus", 64, measure.Load{Kind: "light"}, nil, 1000, 3, "")
	add("torus", 256, measure.Load{Kind: "light"}, nil, 400, 3, "")
	for _, a := range []string{"suzuki-kasami", "ricart-agrawala", "raymond", "lelann", "naimi-trehel"} {
		n := 10
		if a == "raymond" {
			n = 15
		}
		for _, l := range []measure.Load{{Kind: "light"}, {Kind: "heavy"}} {
			add(a, n, l, nil, 0, 0, "")
		}
	}
	return rows
}

// Resolve fills in a configuration's Build and Facts from its algorithm's
// name (Config.Algo); the CLI's resolves names in the registry
// (algorithms.Algorithm.MeasureBuild and .Measure).
type Resolve func(cfg *measure.Config) error

// Write runs every measurement of the docs and writes the figures (SVG and
// PNG) and table.md to dir, logging progress to log. resolve gives each
// configuration its algorithm.
func Write(ctx context.Context, dir string, log io.Writer, resolve Resolve) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	start := time.Now()
	run := func(cfg measure.Config) (*measure.Result, error) {
		if err := resolve(&cfg); err != nil {
			return nil, err
		}
		r, err := measure.Run(ctx, cfg, 2)
		if err != nil {
			return nil, err
		}
		if r.Interrupted {
			return nil, ctx.Err()
		}
		if r.Violation != "" {
			return nil, fmt.Errorf("%s n=%d %s: %s", cfg.Algo, cfg.N, cfg.Load, r.Violation)
		}
		return r, nil
	}
	// Banerjee-Chrysanthis Figures 3-5: N = 10, two collection phases.
	var msgs, delay, fwd, stranded []series
	for _, coll := range []float64{0.1, 0.2} {
		name := fmt.Sprintf("collection %.1f", coll)
		m := series{name: name, half: []float64{}}
		d := series{name: name, half: []float64{}}
		f := series{name: name, half: []float64{}}
		s := series{name: name}
		for _, lam := range Rates {
			r, err := run(measure.Config{Algo: "banerjee", N: 10, Load: measure.Load{Kind: "rate", Lambda: lam}, Timers: []float64{coll, 0.1, 0}})
			if err != nil {
				return err
			}
			m.xs, m.ys, m.half = append(m.xs, lam), append(m.ys, r.MessagesPerCS.Mean), append(m.half, r.MessagesPerCS.Half)
			d.xs, d.ys, d.half = append(d.xs, lam), append(d.ys, r.Response.Mean), append(d.half, r.Response.Half)
			f.xs, f.ys, f.half = append(f.xs, lam), append(f.ys, 100*r.Forwarded.Mean), append(f.half, 100*r.Forwarded.Half)
			s.xs, s.ys = append(s.xs, lam), append(s.ys, float64(r.Stranded)/float64(r.Config.Replications))
		}
		msgs, delay, fwd, stranded = append(msgs, m), append(delay, d), append(fwd, f), append(stranded, s)
	}
	flat := func(name string, v float64) series {
		return series{name: name, xs: []float64{Rates[0], Rates[len(Rates)-1]}, ys: []float64{v, v}, dashed: true}
	}
	fmt.Fprintf(log, "figures: Banerjee-Chrysanthis sweeps done (%s)\n", time.Since(start).Round(time.Second))
	if err := save(dir, chartSpec{file: "banerjee-fig3-messages", title: "Banerjee-Chrysanthis, N=10: messages per CS (cf. Fig. 3)",
		xlabel: "arrival rate per process (requests per time unit)", ylabel: "messages per CS", logX: true,
		series: append(msgs, flat("published light load (N^2-1)/N = 9.9", 9.9), flat("published heavy load 3-2/N = 2.8", 2.8))}); err != nil {
		return err
	}
	if err := save(dir, chartSpec{file: "banerjee-fig4-delay", title: "Banerjee-Chrysanthis, N=10: response time (cf. Fig. 4)",
		xlabel: "arrival rate per process (requests per time unit)", ylabel: "request to exit (time units)", logX: true, series: delay}); err != nil {
		return err
	}
	if err := save(dir, chartSpec{file: "banerjee-fig5-forwarded", title: "Banerjee-Chrysanthis, N=10: forwarded requests (cf. Fig. 5)",
		xlabel: "arrival rate per process (requests per time unit)", ylabel: "forwarded requests per CS (%)", logX: true,
		series: append(fwd, flat("the paper's maximum, 4%", 4))}); err != nil {
		return err
	}
	if err := save(dir, chartSpec{file: "banerjee-stranded", title: "Banerjee-Chrysanthis, N=10: processes left waiting forever",
		xlabel: "arrival rate per process (requests per time unit)", ylabel: "processes stranded at the end (of 10)", logX: true, series: stranded}); err != nil {
		return err
	}
	// Figure 6: comparison at N = 10.
	var cmp []series
	for _, a := range []string{"banerjee", "ricart-agrawala", "suzuki-kasami", "raymond", "naimi-trehel"} {
		s := series{name: a, half: []float64{}}
		for _, lam := range Rates {
			r, err := run(measure.Config{Algo: a, N: 10, Load: measure.Load{Kind: "rate", Lambda: lam}})
			if err != nil {
				return err
			}
			s.xs, s.ys, s.half = append(s.xs, lam), append(s.ys, r.MessagesPerCS.Mean), append(s.half, r.MessagesPerCS.Half)
		}
		cmp = append(cmp, s)
	}
	fmt.Fprintf(log, "figures: comparison sweep done (%s)\n", time.Since(start).Round(time.Second))
	if err := save(dir, chartSpec{file: "banerjee-fig6-comparison", title: "Messages per CS at N=10 (cf. Banerjee-Chrysanthis Fig. 6)",
		xlabel: "arrival rate per process (requests per time unit)", ylabel: "messages per CS", logX: true, series: cmp}); err != nil {
		return err
	}
	// Torus paper: messages per CS against N, light and heavy.
	for _, l := range []measure.Load{{Kind: "heavy"}, {Kind: "light"}} {
		var ss []series
		ns := map[string][]int{
			"torus": {4, 16, 64, 256}, "lelann": {4, 9, 16}, "suzuki-kasami": {4, 16, 64}, "raymond": {4, 9, 16},
			"ricart-agrawala": {4, 9, 16}, "naimi-trehel": {4, 9, 16},
		}
		for _, a := range []string{"torus", "lelann", "suzuki-kasami", "raymond", "ricart-agrawala", "naimi-trehel"} {
			s := series{name: a, half: []float64{}}
			for _, n := range ns[a] {
				cfg := measure.Config{Algo: a, N: n, Load: l}
				if l.Kind == "light" && n >= 64 {
					cfg.Entries, cfg.Replications = 400, 3
				}
				r, err := run(cfg)
				if err != nil {
					return err
				}
				s.xs, s.ys, s.half = append(s.xs, float64(n)), append(s.ys, r.MessagesPerCS.Mean), append(s.half, r.MessagesPerCS.Half)
			}
			ss = append(ss, s)
		}
		var fx []float64
		for n := 4.0; n <= 256; n *= 2 {
			fx = append(fx, n)
		}
		if l.Kind == "heavy" {
			var fy []float64
			for _, n := range fx {
				fy = append(fy, (2*n+math.Sqrt(n)+1)/n)
			}
			ss = append(ss, series{name: "torus published (2N+sqrt(N)+1)/N", xs: fx, ys: fy, dashed: true})
		} else {
			var lo, hi []float64
			for _, n := range fx {
				lo, hi = append(lo, 2*math.Sqrt(n)+1), append(hi, 3*math.Sqrt(n)+1)
			}
			ss = append(ss, series{name: "torus published 2sqrt(N)+1", xs: fx, ys: lo, dashed: true},
				series{name: "torus published 3sqrt(N)+1", xs: fx, ys: hi, dashed: true})
		}
		if err := save(dir, chartSpec{file: "torus-comparison-" + l.Kind, title: fmt.Sprintf("Messages per CS at %s load (cf. Neamatollahi et al. Table 1)", l.Kind),
			xlabel: "processes N", ylabel: "messages per CS", logX: true, logY: true, series: ss}); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "figures: torus comparison done (%s)\n", time.Since(start).Round(time.Second))
	var b strings.Builder
	b.WriteString("| algorithm | N | load | messages per CS (95% CI) | published | rel. diff | sync delay | response time | notes |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, tr := range TableConfigs() {
		r, err := run(tr.Config)
		if err != nil {
			return err
		}
		b.WriteString(tableLine(r, tr.Note))
	}
	fmt.Fprintf(log, "figures: table done (%s)\n", time.Since(start).Round(time.Second))
	return os.WriteFile(filepath.Join(dir, "table.md"), []byte(b.String()), 0o644)
}

func fmtStat(s measure.Stat) string {
	if math.IsNaN(s.Mean) {
		return "-"
	}
	return fmt.Sprintf("%.3g ± %.2g", s.Mean, s.Half)
}

// tableLine renders one result as a markdown table row.
func tableLine(r *measure.Result, note string) string {
	c := r.Config
	pub, diff := "-", "-"
	var notes []string
	if note != "" {
		notes = append(notes, note)
	}
	if cl, ok := c.Published(); ok {
		if cl.IsRange() {
			pub = fmt.Sprintf("%.3g..%.3g = %s (%s)", cl.Lo, cl.Hi, cl.Formula, cl.Source)
		} else {
			pub = fmt.Sprintf("%.3g = %s (%s)", cl.Lo, cl.Formula, cl.Source)
		}
		m := cl.Measured(r)
		diff = fmt.Sprintf("%+.1f%%", 100*cl.RelDiff(m.Mean))
		if cl.Remote {
			notes = append(notes, fmt.Sprintf("compared: %s per request made without the token, 0 with it (%.0f%% of requests)", fmtStat(m), 100*r.LocalShare.Mean))
		}
	}
	if r.IdlePerCS.Mean > 0 {
		notes = append(notes, fmt.Sprintf("plus %.3g idle token moves per CS, not counted", r.IdlePerCS.Mean))
	}
	if r.Forwarded.Mean > 0 {
		notes = append(notes, fmt.Sprintf("forwarded requests %.2g%% per CS", 100*r.Forwarded.Mean))
	}
	if v, src, ok := c.PublishedResponse(); ok {
		notes = append(notes, fmt.Sprintf("published service time %.3g (%s)", v, src))
	}
	if r.Stranded > 0 {
		notes = append(notes, fmt.Sprintf("%.1f processes per replication stranded (request lost)", float64(r.Stranded)/float64(c.Replications)))
	}
	return fmt.Sprintf("| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", c.Algo, c.N, c.Load, fmtStat(r.MessagesPerCS), pub, diff,
		fmtStat(r.Sync), fmtStat(r.Response), strings.Join(notes, "; "))
}
