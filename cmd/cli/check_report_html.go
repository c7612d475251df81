package cli

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
	"github.com/tokenmc/tokenmc/traces"
)

// writeRunReport writes check --report: one self-contained HTML file (no
// script or style from elsewhere) with the run's parameters and verdicts,
// a plot of states and transitions per BFS level, the action coverage,
// time and memory, and the counterexample's chart with its stepper.
func writeRunReport(path string, rep *checkReport, cov *coverage, tr *traces.Trace) error {
	var b strings.Builder
	esc := html.EscapeString
	title := fmt.Sprintf("%s check %s (%s)", progOr(rep.prog), rep.Algorithm, paramString(rep.Params))
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>%s</title>
<style>
body{font-family:"DejaVu Sans","Liberation Sans",Arial,sans-serif;margin:16px 24px;color:#222;font-size:14px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #dee2e6}
table.kv td:first-child{color:#555;padding-right:16px}
table.grid{border-collapse:collapse}table.grid td,table.grid th{border:1px solid #ced4da;padding:2px 8px;font-size:13px;text-align:right}
table.grid td:first-child,table.grid th:first-child{text-align:left}
td.zero{background:#ffe3e3;color:#c92a2a;font-weight:bold}
.ok{color:#2b8a3e;font-weight:bold}.bad{color:#c92a2a;font-weight:bold}.inc{color:#e67700;font-weight:bold}
.note{color:#555;font-size:13px}
</style></head><body>
<h1>%s</h1>
`, esc(title), esc(title))

	// verdict and parameters
	cls := map[string]string{verdictOK: "ok", verdictViolation: "bad", verdictIncomplete: "inc"}[rep.Verdict]
	b.WriteString(`<h2>Verdict</h2><table class="kv">`)
	row := func(k, v string) { fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td></tr>\n", esc(k), v) }
	verdict := esc(rep.Verdict)
	switch {
	case rep.Verdict == verdictOK:
		verdict = fmt.Sprintf("ok: every property holds on all %d reachable states", rep.States)
	case rep.Violation != nil && rep.Violation.Loop > 0:
		verdict = fmt.Sprintf("VIOLATION of %s: a lasso of %d steps, the cycle from step %d", esc(rep.Violation.Property), rep.Violation.Length, rep.Violation.Loop)
	case rep.Violation != nil:
		verdict = fmt.Sprintf("VIOLATION of %s after %d steps", esc(rep.Violation.Property), rep.Violation.Length)
	case rep.Verdict == verdictIncomplete:
		verdict = "incomplete (stopped: " + esc(rep.StopReason) + "); no violation among the states explored"
	}
	row("verdict", fmt.Sprintf(`<span class="%s">%s</span>`, cls, verdict))
	row("algorithm", esc(rep.Algorithm))
	row("parameters", esc(paramString(rep.Params)))
	row("properties", esc(strings.Join(rep.Properties, ", ")))
	row("search", esc(fmt.Sprintf("%s, %s, %d worker(s)", rep.Search, rep.Mode, rep.Workers)))
	if rep.Fairness != "" {
		row("fairness", esc(rep.Fairness))
	}
	if rep.Violation != nil && rep.Violation.TraceFile != "" {
		row("trace file", fmt.Sprintf("<code>%s</code> (replay it with <code>%s replay %s</code>)", esc(rep.Violation.TraceFile), esc(progOr(rep.prog)), esc(rep.Violation.TraceFile)))
	}
	for _, s := range rep.Starving {
		row(fmt.Sprintf("P%d starves", s.Process), esc(fmt.Sprintf("a lasso of %d steps (prefix %d, cycle %d): %s", s.Length, s.Prefix, s.Cycle, s.TraceFile)))
	}
	if rep.Liveness != nil && rep.Liveness.Skipped != "" {
		row("liveness", esc("not checked: "+rep.Liveness.Skipped))
	}
	b.WriteString("</table>\n")

	// size, time and memory
	heap, sys := memNow()
	b.WriteString(`<h2>Size, time and memory</h2><table class="kv">`)
	row("states", fmt.Sprintf("%d", rep.States))
	row("transitions", fmt.Sprintf("%d", rep.Transitions))
	row("depth", fmt.Sprintf("%d", rep.Depth))
	row("time", fmt.Sprintf("%.3f s (%.0f states/s)", rep.ElapsedS, rep.StatesPerS))
	if rep.livenessOnly {
		row("state graph", fmt.Sprintf("%.1f bytes/state", rep.BytesPerState))
	} else {
		row("seen set", fmt.Sprintf("%.1f bytes/state, +%.1f for predecessor links", rep.BytesPerState, rep.LinkBytesPerState))
	}
	if rep.Liveness != nil && rep.Liveness.Skipped == "" {
		row("liveness graph", fmt.Sprintf("%d states, %d transitions, %.1f MiB, %.3f s", rep.Liveness.States, rep.Liveness.Transitions, float64(rep.Liveness.GraphBytes)/(1<<20), rep.Liveness.ElapsedS))
	}
	if rep.Mode == "fingerprint" {
		row("fingerprint collision probability", fmt.Sprintf("%.2g (optimistic estimate, as TLC)", rep.CollisionProbability))
	}
	row("memory of the process", fmt.Sprintf("%.1f MiB held from the system (Go runtime), %.1f MiB heap in use when the report was written", float64(sys)/(1<<20), float64(heap)/(1<<20)))
	row("report written", time.Now().UTC().Format("2006-01-02 15:04:05 UTC"))
	b.WriteString("</table>\n")

	// states per level
	b.WriteString("<h2>States and transitions per breadth-first level</h2>\n")
	scope := fmt.Sprintf("all %d reachable states", cov.States)
	if !cov.Complete {
		scope = fmt.Sprintf("the first %d states (the walk stopped: %s)", cov.States, cov.Stopped)
	}
	fmt.Fprintf(&b, `<p class="note">A breadth-first walk of its own over %s (%.3f s), independent of the search above: it does not stop at a violation.`, scope, cov.Elapsed.Seconds())
	if cov.Complete && rep.Verdict == verdictOK && !rep.livenessOnly && rep.Symmetry == nil {
		if cov.States == rep.States && cov.Trans == rep.Transitions {
			b.WriteString(" Its counts equal the search's.")
		} else {
			fmt.Fprintf(&b, ` <b class="bad">Its counts (%d states, %d transitions) differ from the search's.</b>`, cov.States, cov.Trans)
		}
	}
	if rep.Symmetry != nil {
		b.WriteString(" The search above counted one state per symmetry orbit; this walk counts every state.")
	}
	b.WriteString("</p>\n<div>")
	stopped := ""
	if !cov.Complete {
		stopped = cov.Stopped
	}
	b.WriteString(levelPlot(cov.Levels, stopped))
	b.WriteString("</div>\n")

	// coverage
	b.WriteString("<h2>Action coverage</h2>\n")
	pairs, fams := cov.neverFired()
	switch {
	case len(pairs) == 0 && len(fams) == 0:
		b.WriteString(`<p class="ok">Every action fired at every process.</p>`)
	default:
		b.WriteString("<ul>")
		for _, f := range fams {
			fmt.Fprintf(&b, `<li class="bad">never fired anywhere: %s</li>`, esc(f))
		}
		for _, p := range pairs {
			fmt.Fprintf(&b, `<li class="bad">never fired: %s</li>`, esc(p))
		}
		b.WriteString("</ul>")
	}
	b.WriteString(`<p class="note">How often each action fired (transitions out of the states walked), by process; a red cell never fired.</p><div><table class="grid"><tr><th>action</th><th>total</th>`)
	for p := range cov.N {
		fmt.Fprintf(&b, "<th>P%d</th>", p)
	}
	b.WriteString("</tr>\n")
	for _, f := range cov.Families {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%d</td>", esc(f.Name), f.Total())
		for _, n := range f.Fired {
			if n == 0 {
				b.WriteString(`<td class="zero">0</td>`)
			} else {
				fmt.Fprintf(&b, "<td>%d</td>", n)
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table></div>\n<div>")
	b.WriteString(kindBars(cov))
	b.WriteString("</div>\n")

	// the counterexample
	if tr != nil {
		b.WriteString("<h2>Counterexample</h2>\n")
		var cb strings.Builder
		if err := chart.Embed(&cb, chart.FromTrace(tr), "cx"); err != nil {
			return err
		}
		b.WriteString(cb.String())
	}
	b.WriteString("</body></html>\n")
	_, err := outfile.WriteFile(path, outfile.Through, []byte(b.String()))
	return err
}

// niceStep returns a round tick step (1, 2 or 5 times a power of ten)
// giving about n ticks up to max.
func niceStep(max float64, n int) float64 {
	if max <= 0 {
		return 1
	}
	raw := max / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// levelPlot draws states and transitions per level as two lines. When
// the walk stopped (stopped names why: max-states, max-depth,
// interrupted), its last level was not expanded and may hold only some of
// its states: the states line reaches it dashed, the transitions line ends
// before it, and a note says the walk, not the space, ended there (issue
// 25: the plot used to drop to 0 as if the space had ended).
func levelPlot(levels []levelCount, stopped string) string {
	const w, h, ml, mr, mt, mb = 760, 300, 80, 20, 20, 56
	var top float64
	for _, l := range levels {
		top = math.Max(top, float64(max(l.States, l.Transitions)))
	}
	step := niceStep(top, 5)
	top = math.Max(step, math.Ceil(top/step)*step)
	n := max(len(levels)-1, 1)
	x := func(k int) float64 { return ml + float64(k)*(w-ml-mr)/float64(n) }
	y := func(v int64) float64 { return mt + (h-mt-mb)*(1-float64(v)/top) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="'DejaVu Sans','Liberation Sans',Arial,sans-serif" font-size="12">`, w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`, w, h)
	for v := 0.0; v <= top+step/2; v += step {
		yy := y(int64(v))
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e9ecef"/><text x="%d" y="%.1f" text-anchor="end" fill="#555">%s</text>`, ml, yy, w-mr, yy, ml-6, yy+4, compact(v))
	}
	tick := int(niceStep(float64(n), 10))
	for k := 0; k < len(levels); k += max(tick, 1) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%d</text>`, x(k), h-mb+16, k)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill="#333">breadth-first level (steps from an initial state)</text>`, (ml+w-mr)/2, h-mb+34)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/><line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`, ml, mt, ml, h-mb, ml, h-mb, w-mr, h-mb)
	series := []struct {
		name, color string
		get         func(levelCount) int64
	}{
		{"new states", "#1c7ed6", func(l levelCount) int64 { return l.States }},
		{"transitions out of them", "#e8590c", func(l levelCount) int64 { return l.Transitions }},
	}
	full := len(levels) // the levels drawn solid: all, unless the walk stopped
	if stopped != "" && len(levels) > 1 {
		full = len(levels) - 1
		last, prev := levels[full], levels[full-1]
		fmt.Fprintf(&b, `<polyline fill="none" stroke="#1c7ed6" stroke-width="2" stroke-dasharray="6 4" points="%.1f,%.1f %.1f,%.1f"/>`,
			x(full-1), y(prev.States), x(full), y(last.States))
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="white" stroke="#1c7ed6" stroke-width="2"><title>level %d: %d states reached before the walk stopped (%s); not expanded</title></circle>`,
			x(full), y(last.States), full, last.States, stopped)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="end" fill="#c92a2a">walk stopped here (%s): the space goes on</text>`, x(full), mt+12, stopped)
	}
	for _, s := range series {
		var pts []string
		for k, l := range levels[:full] {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(k), y(s.get(l))))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`, s.color, strings.Join(pts, " "))
		if len(levels) <= 80 {
			for k, l := range levels[:full] {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>level %d: %d new states, %d transitions out of them</title></circle>`,
					x(k), y(s.get(l)), s.color, k, l.States, l.Transitions)
			}
		}
	}
	lx := ml + 10
	for _, s := range series {
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/><text x="%d" y="%d">%s</text>`, lx, h-12, lx+24, h-12, s.color, lx+30, h-8, s.name)
		lx += 30 + int(float64(len(s.name))*7) + 24
	}
	b.WriteString("</svg>")
	return b.String()
}

// compact renders an axis value: 1200 as 1.2k, 3000000 as 3M.
func compact(v float64) string {
	switch {
	case v >= 1e6:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", v/1e6), ".0") + "M"
	case v >= 1e3:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", v/1e3), ".0") + "k"
	}
	return fmt.Sprintf("%.0f", v)
}

// kindBars draws each action family's total as a horizontal bar.
func kindBars(cov *coverage) string {
	const barMax, rowH, labelW = 420, 22, 260
	var top int64
	for _, f := range cov.Families {
		top = max(top, f.Total())
	}
	h := len(cov.Families)*rowH + 10
	w := labelW + barMax + 120
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="'DejaVu Sans','Liberation Sans',Arial,sans-serif" font-size="12">`, w, h, w, h)
	for k, f := range cov.Families {
		y := 5 + k*rowH
		name := f.Name
		if len(name) > 34 {
			name = name[:31] + "..."
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end"><title>%s</title>%s</text>`, labelW-8, y+15, html.EscapeString(f.Name), html.EscapeString(name))
		bw := 0
		if top > 0 {
			bw = int(float64(f.Total()) / float64(top) * barMax)
		}
		color := "#4dabf7"
		if f.Total() == 0 {
			color = "#e03131"
		}
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/><text x="%d" y="%d" fill="#333">%d</text>`, labelW, y+3, max(bw, 2), rowH-6, color, labelW+max(bw, 2)+6, y+15, f.Total())
	}
	b.WriteString("</svg>")
	return b.String()
}
