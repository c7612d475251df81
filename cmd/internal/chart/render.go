package chart

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// Text writes the chart as text: one line per step with a column per
// process ('*' the acting process, '#' a process in its CS, 'T' an acting
// process that holds the token after the step, 'X' the violating step),
// then the step's action and what it sent.
func Text(w io.Writer, c *Chart) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%s\n\n", c.Title, c.Subtitle)
	fmt.Fprintf(&b, "%5s  ", "step")
	for p := range c.N {
		fmt.Fprintf(&b, "%-4s", fmt.Sprintf("P%d", p))
	}
	b.WriteString(" action\n")
	recvFrom := map[int]int{}
	for _, a := range c.Arrows {
		if a.RecvRow >= 0 {
			recvFrom[a.RecvRow] = a.SendRow
		}
	}
	for k, r := range c.Rows {
		mark := " "
		if k == c.LoopStart {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s%4d  ", mark, k+1)
		for p := range c.N {
			ch := "|"
			if c.inCSAt(p, k) {
				ch = "#"
			}
			if p == r.Proc {
				ch = "*"
				if r.Token {
					ch = "T"
				}
				if k == c.Violation {
					ch = "X"
				}
			}
			fmt.Fprintf(&b, "%-4s", ch)
		}
		b.WriteString(" " + r.Label)
		if s, ok := recvFrom[k]; ok {
			if s >= 0 {
				fmt.Fprintf(&b, " (sent at step %d)", s+1)
			} else {
				b.WriteString(" (in transit initially)")
			}
		}
		if r.Detail != "" {
			b.WriteString("; " + r.Detail)
		}
		b.WriteString("\n")
	}
	if c.Violation >= 0 {
		fmt.Fprintf(&b, "\nstep %d %s\n", c.Violation+1, c.ViolationText)
	}
	if c.LoopStart >= 0 {
		fmt.Fprintf(&b, "\nsteps %d..%d repeat forever (the cycle of the lasso)\n", c.LoopStart+1, len(c.Rows))
	}
	var transit []string
	for _, a := range c.Arrows {
		if a.RecvRow < 0 {
			transit = append(transit, a.Label)
		}
	}
	if len(transit) > 0 {
		fmt.Fprintf(&b, "in transit at the end: %s\n", strings.Join(transit, ", "))
	}
	b.WriteString("legend: * acting process, T acting and holding the token after the step, # in its CS, X the violating step, > start of a cycle\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Geometry of the SVG.
const (
	rowH    = 30 // the height of a row of one line; each further line of a wrapped label adds lineH
	lineH   = 13
	left    = 60
	top     = 84 // room above the lifelines for the title, the subtitle and a starving process's two-line mark
	dotR    = 5
	csW     = 12
	arrowTO = "#d9480f" // token colour
	// charW is the advance of one character of the 12px monospace font
	// (DejaVu Sans Mono and Liberation Mono: 0.6em), for sizing labels.
	charW = 7.3
	// lineChars is the longest line of a step label; a longer label wraps
	// onto more lines (up to maxLines, then the lines get longer): no
	// label is ever cut.
	lineChars = 64
	maxLines  = 4
	// maxPending is the most messages still in transit at the end that
	// are drawn as dashed arrows to the bottom; beyond it each is a short
	// stub at its sender and the receivers' lifelines end in a count.
	maxPending = 8
	legendH    = 46
)

// colW is the distance between lifelines: narrower for many processes.
func (c *Chart) colW() int {
	switch {
	case c.N <= 4:
		return 150
	case c.N <= 9:
		return 100
	}
	return 70
}

func (c *Chart) x(p int) int { return left + c.colW()/2 + p*c.colW() }
func (c *Chart) y(k int) int { return top + c.rowH()/2 + k*c.rowH() }

// labelLayout is how the step labels wrap: every label fits in lines
// lines of at most width characters.
type labelLayout struct{ lines, width int }

// layout wraps the step labels: in as few lines (at most maxLines) of
// lineChars as hold the longest, or in maxLines longer lines.
func (c *Chart) layout() labelLayout {
	longest := 0
	for k := range c.Rows {
		longest = max(longest, len(c.rowLabel(k)))
	}
	lines := min(max(1, (longest+lineChars-1)/lineChars), maxLines)
	for width := lineChars; ; width += 8 {
		fits := true
		for k := range c.Rows {
			if _, ok := wrapAll(c.rowLabel(k), width, lines); !ok {
				fits = false
				break
			}
		}
		if fits {
			return labelLayout{lines, width}
		}
		if lines < maxLines {
			lines++
			width -= 8
		}
	}
}

// rowH is the height of a row: taller when step labels wrap, so that
// wrapped labels keep apart.
func (c *Chart) rowH() int {
	if c.lay == nil {
		l := c.layout()
		c.lay = &l
	}
	return rowH + (c.lay.lines-1)*lineH
}

// rowLabel is the text drawn beside row k, in full.
func (c *Chart) rowLabel(k int) string {
	r := c.Rows[k]
	label := fmt.Sprintf("%d. %s", k+1, r.Label)
	if r.Detail != "" {
		label += "; " + r.Detail
	}
	return label
}

// textW is the width in pixels of n characters of the chart's font.
func textW(n int) int { return int(float64(n)*charW) + 1 }

// SVG writes the chart as a standalone SVG document: a lifeline per
// process, shaded CS stays, an arrow per message (the token's in thick
// orange, messages still in transit dashed to the bottom, or summarised
// per receiver when there are many), a label per step (cut with a hover
// title when long), the violating step marked in red, the starving
// process of a lasso marked, and a legend.
func SVG(w io.Writer, c *Chart) error {
	_, err := io.WriteString(w, svg(c, ""))
	return err
}

func (c *Chart) pending() []int {
	var out []int
	for k, a := range c.Arrows {
		if a.RecvRow < 0 && !a.Lost && a.To >= 0 {
			out = append(out, k)
		}
	}
	return out
}

func (c *Chart) starving(p int) bool {
	for _, q := range c.Starving {
		if q == p {
			return true
		}
	}
	return false
}

func svg(c *Chart, id string) string {
	// a copy whose label layout is computed once: y is then constant
	// time and the rendering linear in the rows (it was quadratic), and
	// rendering never writes to a chart that others may render too
	cc := *c
	cc.lay = nil
	c = &cc
	rh := c.rowH()
	lay := *c.lay
	longest := 0
	for k := range c.Rows {
		lines, _ := wrapAll(c.rowLabel(k), lay.width, lay.lines)
		for i, l := range lines {
			longest = max(longest, len(l)+2*min(i, 1))
		}
	}
	labelW := textW(longest) + 20
	width := left + c.N*c.colW() + labelW
	pend := c.pending()
	summarise := len(pend) > maxPending
	violation := ""
	if c.Violation >= 0 {
		violation = fmt.Sprintf("X step %d %s", c.Violation+1, c.ViolationText)
	}
	// the title (14px bold), the subtitle, the notes and the legend must
	// fit too
	width = max(width, 20+int(float64(len(c.Title))*8.6), 20+textW(len(c.Subtitle)), 20+textW(legendChars), 20+int(float64(len(violation))*charW*1.1))
	if summarise {
		width = max(width, 20+textW(len(summaryNote(len(pend)))))
	}
	bottom := c.y(len(c.Rows))
	extra := 0
	if summarise {
		extra = rh
	}
	height := bottom + rh/2 + 24 + extra + legendH
	if c.Violation >= 0 {
		height += rh
	}
	var b strings.Builder
	esc := html.EscapeString
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" %swidth="%d" height="%d" viewBox="0 0 %d %d" font-family="'DejaVu Sans Mono','Liberation Mono',monospace" font-size="12">`+"\n", idAttr(id), width, height, width, height)
	b.WriteString(`<defs><marker id="ah" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker>` +
		`<marker id="aht" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="` + arrowTO + `"/></marker></defs>` + "\n")
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", esc(c.Title))
	fmt.Fprintf(&b, `<text x="10" y="38">%s</text>`+"\n", esc(c.Subtitle))
	if c.LoopStart >= 0 {
		fmt.Fprintf(&b, `<rect x="4" y="%d" width="%d" height="%d" fill="#e7f5ff" stroke="#1c7ed6"/><text x="8" y="%d" fill="#1c7ed6">loop</text>`+"\n",
			c.y(c.LoopStart)-rh/2, width-8, (len(c.Rows)-c.LoopStart)*rh, c.y(c.LoopStart)+4)
	}
	if c.Violation >= 0 {
		fmt.Fprintf(&b, `<rect x="4" y="%d" width="%d" height="%d" fill="#ffe3e3" stroke="#e03131"/>`+"\n", c.y(c.Violation)-rh/2, width-8, rh)
	}
	for p := range c.N {
		x := c.x(p)
		if c.starving(p) {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-weight="bold" fill="#e03131">P%d</text><text x="%d" y="%d" text-anchor="middle" fill="#e03131" font-size="11">starves</text>`+"\n", x, top-20, p, x, top-6)
			fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#e03131" stroke-width="2" stroke-dasharray="2,3"><title>P%d waits forever along the cycle</title></line>`+"\n", x, top, x, bottom, p)
			continue
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-weight="bold">P%d</text>`+"\n", x, top-8, p)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999" stroke-width="1"/>`+"\n", x, top, x, bottom)
	}
	for _, iv := range c.CS {
		end := iv.End
		if end < 0 {
			end = len(c.Rows)
		}
		y0, y1 := c.y(iv.Start), c.y(end)
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#74c0fc" fill-opacity="0.6" stroke="#1971c2"><title>P%d in its CS</title></rect>`+"\n", c.x(iv.Proc)-csW/2, y0, csW, max(y1-y0, 2), iv.Proc)
	}
	skip := map[int]bool{}
	if summarise {
		for _, k := range pend {
			skip[k] = true
		}
	}
	for k, a := range c.Arrows {
		if a.To < 0 {
			continue
		}
		stroke, sw, marker := "#333", 1.2, "ah"
		if a.Token {
			stroke, sw, marker = arrowTO, 3, "aht"
		}
		if skip[k] {
			// a stub from the sender toward the receiver
			if a.From < 0 {
				continue
			}
			x0, y0 := c.x(a.From), c.y(a.SendRow)
			dx := 14
			if a.To < a.From {
				dx = -14
			}
			fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%.1f" stroke-dasharray="3,2"><title>%s (still in transit at the end)</title></line>`+"\n",
				x0, y0, x0+dx, y0+6, stroke, sw, esc(a.Label))
			continue
		}
		x0, y0 := c.x(a.To), top
		if a.From >= 0 {
			x0, y0 = c.x(a.From), c.y(a.SendRow)
		}
		x1, y1 := c.x(a.To), bottom
		if a.RecvRow >= 0 {
			y1 = c.y(a.RecvRow)
		}
		if a.From == a.To {
			x0 -= 6
		}
		dash := ""
		if a.RecvRow < 0 || a.Lost {
			dash = ` stroke-dasharray="5,4"`
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%.1f"%s marker-end="url(#%s)"><title>%s</title></line>`+"\n",
			x0, y0, x1, y1, stroke, sw, dash, marker, esc(a.Label))
	}
	y := bottom + rh/2 + 8
	if summarise {
		// one count per receiver, with the messages as its hover title
		by := make([][]string, c.N)
		tok := make([]bool, c.N)
		for _, k := range pend {
			a := c.Arrows[k]
			if a.To < c.N {
				by[a.To] = append(by[a.To], a.Label)
				tok[a.To] = tok[a.To] || a.Token
			}
		}
		for p := range c.N {
			if len(by[p]) == 0 {
				continue
			}
			fill := "#333"
			if tok[p] {
				fill = arrowTO
			}
			fmt.Fprintf(&b, `<g><title>in transit to P%d at the end: %s</title><rect x="%d" y="%d" width="%d" height="18" rx="4" fill="#f1f3f5" stroke="%s"/><text x="%d" y="%d" text-anchor="middle" fill="%s">%d to P%d</text></g>`+"\n",
				p, esc(strings.Join(grouped(by[p]), ", ")), c.x(p)-c.colW()/2+6, y-13, c.colW()-12, fill, c.x(p), y, fill, len(by[p]), p)
		}
		fmt.Fprintf(&b, `<text x="10" y="%d" fill="#555">%s</text>`+"\n", y+rh-8, summaryNote(len(pend)))
		y += rh
	}
	lx := left + c.N*c.colW() + 10
	for k, r := range c.Rows {
		ry := c.y(k)
		fill := "#333"
		if r.Token {
			fill = arrowTO
		}
		if k == c.Violation {
			fill = "#e03131"
		}
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="%d" fill="%s"/>`+"\n", c.x(r.Proc), ry, dotR, fill)
		lines, _ := wrapAll(c.rowLabel(k), lay.width, lay.lines)
		if len(lines) == 1 {
			fmt.Fprintf(&b, `<text x="%d" y="%d"%s>%s</text>`+"\n", lx, ry+4, rowClass(k, c), esc(lines[0]))
			continue
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d"%s>`, lx, ry+4-(len(lines)-1)*lineH/2, rowClass(k, c))
		for i, l := range lines {
			switch i {
			case 0:
				fmt.Fprintf(&b, `<tspan x="%d">%s</tspan>`, lx, esc(l))
			default:
				fmt.Fprintf(&b, `<tspan x="%d" dy="%d">%s</tspan>`, lx+16, lineH, esc(l))
			}
		}
		b.WriteString("</text>\n")
	}
	if c.Violation >= 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#e03131" font-weight="bold">%s</text>`+"\n", 10, y+8, esc(violation))
		y += rh
	}
	legend(&b, c, y+6)
	fmt.Fprintf(&b, `<rect id="%scursor" x="4" y="-100" width="%d" height="%d" fill="none" stroke="#2f9e44" stroke-width="2"/>`+"\n", id, width-8, rh)
	b.WriteString("</svg>\n")
	return b.String()
}

// legendChars is the width of the widest legend line, in characters.
const legendChars = 92

// legend explains the marks, in two lines starting at y.
func legend(b *strings.Builder, c *Chart, y int) {
	x := 10
	item := func(draw, text string) {
		b.WriteString(draw)
		fmt.Fprintf(b, `<text x="%d" y="%d" fill="#333">%s</text>`+"\n", x+30, y+4, text)
		x += 30 + textW(len(text)) + 16
	}
	fmt.Fprintf(b, `<g font-size="12">`+"\n")
	item(fmt.Sprintf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-width="1.2" marker-end="url(#ah)"/>`, x, y, x+24, y), "message")
	item(fmt.Sprintf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3" marker-end="url(#aht)"/>`, x, y, x+24, y, arrowTO), "token")
	item(fmt.Sprintf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-width="1.2" stroke-dasharray="5,4"/>`, x, y, x+24, y), "in transit at the end, or lost")
	item(fmt.Sprintf(`<rect x="%d" y="%d" width="12" height="14" fill="#74c0fc" fill-opacity="0.6" stroke="#1971c2"/>`, x+6, y-7), "in its CS")
	y += 20
	x = 10
	item(fmt.Sprintf(`<circle cx="%d" cy="%d" r="5" fill="#333"/>`, x+12, y), "acting process")
	item(fmt.Sprintf(`<circle cx="%d" cy="%d" r="5" fill="%s"/>`, x+12, y, arrowTO), "acts, holds the token after")
	if c.Violation >= 0 {
		item(fmt.Sprintf(`<rect x="%d" y="%d" width="24" height="14" fill="#ffe3e3" stroke="#e03131"/>`, x, y-7), "violating step")
	}
	if c.LoopStart >= 0 {
		item(fmt.Sprintf(`<rect x="%d" y="%d" width="24" height="14" fill="#e7f5ff" stroke="#1c7ed6"/>`, x, y-7), "cycle")
	}
	if len(c.Starving) > 0 {
		item(fmt.Sprintf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#e03131" stroke-width="2" stroke-dasharray="2,3"/>`, x, y, x+24, y), "starves")
	}
	b.WriteString("</g>\n")
}

// grouped writes runs of equal messages as "m x2".
func grouped(msgs []string) []string {
	var out []string
	for i := 0; i < len(msgs); {
		j := i
		for j < len(msgs) && msgs[j] == msgs[i] {
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s x%d", msgs[i], j-i))
		} else {
			out = append(out, msgs[i])
		}
		i = j
	}
	return out
}

// summaryNote explains the stubs and boxes of n messages still in
// transit at the end.
func summaryNote(n int) string {
	return fmt.Sprintf("%d messages are still in transit at the end: a stub marks each send, a box under each receiver counts them (hover for the list)", n)
}

// wrapAll breaks s into at most lines lines of at most width characters
// (the lines after the first 2 shorter: they are indented on drawing),
// after a "; " or ", " or a space where it can. ok is false when s does
// not fit; the lines then hold all of s anyway, the last one longer.
func wrapAll(s string, width, lines int) (out []string, ok bool) {
	for len(out) < lines-1 && len(s) > width {
		cut := -1
		for _, sep := range []string{"; ", ", ", " "} {
			if k := strings.LastIndex(s[:width], sep); k > width/3 {
				cut = k + len(sep)
				break
			}
		}
		if cut < 0 {
			cut = width
		}
		out = append(out, strings.TrimRight(s[:cut], " "))
		s = s[cut:]
		if len(out) == 1 {
			width -= 2
		}
	}
	return append(out, s), len(s) <= width
}

func idAttr(id string) string {
	if id == "" {
		return ""
	}
	return fmt.Sprintf(`id="%ssvg" `, id)
}

func rowClass(k int, c *Chart) string {
	if k == c.Violation {
		return ` fill="#e03131" font-weight="bold"`
	}
	return ""
}

// StateTable renders a state as text, one process per line (its group
// only when some process has one, its own state as the algorithm renders
// it or as its variables k=v), then the messages in transit.
func StateTable(sd *model.StateDescription) string {
	var b strings.Builder
	groups := hasGroups(sd)
	for _, p := range sd.Processes {
		cols := []string{fmt.Sprintf("P%-2d %-7s made %d", p.ID, p.Phase, p.Made)}
		if groups {
			cols = append(cols, fmt.Sprintf("group %d", p.Group))
		}
		if p.HoldsToken {
			cols = append(cols, "token")
		}
		var own []string
		for _, f := range DisplayFields(&p, false)[2:] {
			if f.Name == "state" {
				own = append(own, f.Value)
			} else {
				own = append(own, f.Name+"="+f.Value)
			}
		}
		if len(own) > 0 {
			cols = append(cols, strings.Join(own, " "))
		}
		fmt.Fprintf(&b, "  %s\n", strings.Join(cols, "  "))
	}
	if len(sd.Network) == 0 {
		b.WriteString("  in transit: none\n")
	}
	for _, m := range sd.Network {
		fmt.Fprintf(&b, "  in transit: %s x%d\n", m.Message, m.Count)
	}
	return b.String()
}

// stateHTML renders a state as a table (a column per field of
// DisplayFields, the group only when groups, the cells that differ
// from prev highlighted with the old value as hover title) and the
// messages in transit grouped by receiver, those the step sent
// highlighted. prev is the state before the step, nil for none.
func stateHTML(sd, prev *model.StateDescription, groups bool) string {
	if sd == nil {
		return "<p><i>state unknown: the model could not explain this step</i></p>"
	}
	esc := html.EscapeString
	var cols []string
	index := map[string]int{}
	rows := make([][]Field, len(sd.Processes))
	for i := range sd.Processes {
		rows[i] = DisplayFields(&sd.Processes[i], groups)
		for _, f := range rows[i] {
			if _, ok := index[f.Name]; !ok {
				index[f.Name] = len(cols)
				cols = append(cols, f.Name)
			}
		}
	}
	var b strings.Builder
	b.WriteString("<table><tr><th>process</th>")
	for _, c := range cols {
		fmt.Fprintf(&b, "<th>%s</th>", esc(c))
	}
	b.WriteString("</tr>")
	for i, p := range sd.Processes {
		was := map[string]string{}
		if prev != nil && i < len(prev.Processes) {
			for _, f := range DisplayFields(&prev.Processes[i], groups) {
				was[f.Name] = f.Value
			}
		}
		cells := make([]string, len(cols))
		for _, f := range rows[i] {
			cells[index[f.Name]] = f.Value
		}
		if p.HoldsToken {
			fmt.Fprintf(&b, `<tr class="%s"><td class="tok">P%d (token)</td>`, esc(p.Phase), p.ID)
		} else {
			fmt.Fprintf(&b, `<tr class="%s"><td>P%d</td>`, esc(p.Phase), p.ID)
		}
		for k, v := range cells {
			old, had := was[cols[k]]
			if prev != nil && (had && old != v || !had && v != "") {
				fmt.Fprintf(&b, `<td class="chg" title="was %s"><code>%s</code></td>`, esc(old), esc(v))
				continue
			}
			fmt.Fprintf(&b, "<td><code>%s</code></td>", esc(v))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	sent := map[string]bool{}
	if prev != nil {
		for _, m := range sd.Network {
			sent[m.Message] = true
		}
		for _, m := range prev.Network {
			if sent[m.Message] {
				// sent by the step only if it has more copies now
				sent[m.Message] = copiesOf(sd, m.Message) > m.Count
			}
		}
	}
	total := 0
	for _, m := range sd.Network {
		total += m.Count
	}
	fmt.Fprintf(&b, "<p>in transit: %d message(s)</p>", total)
	var tos []int
	by := map[int][]model.MessageDescription{}
	for _, m := range sd.Network {
		if _, ok := by[m.To]; !ok {
			tos = append(tos, m.To)
		}
		by[m.To] = append(by[m.To], m)
	}
	sort.Ints(tos)
	for _, to := range tos {
		fmt.Fprintf(&b, `<div class="inbox"><b>to P%d:</b> `, to)
		for _, m := range by[to] {
			cls := "msg"
			if m.Token {
				cls += " tokmsg"
			}
			if sent[m.Message] {
				cls += " new"
			}
			text := m.Message
			if m.Count > 1 {
				text += fmt.Sprintf(" x%d", m.Count)
			}
			fmt.Fprintf(&b, `<span class="%s">%s</span> `, cls, esc(text))
		}
		b.WriteString("</div>")
	}
	return b.String()
}

func copiesOf(sd *model.StateDescription, msg string) int {
	n := 0
	for _, m := range sd.Network {
		if m.Message == msg {
			n += m.Count
		}
	}
	return n
}

// HTML writes a self-contained page: the SVG chart and a stepper (buttons
// and the arrow keys) that highlights one step at a time and shows the
// state after it in a collapsible panel, the fields the step changed
// highlighted.
func HTML(w io.Writer, c *Chart) error {
	page := fmt.Sprintf("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head><body style=\"margin:16px\">\n%s</body></html>\n",
		html.EscapeString(c.Title), fragment(c, "mc"))
	_, err := io.WriteString(w, page)
	return err
}

// Embed writes the chart and its stepper as an HTML fragment for a page
// of the caller's (its own style and script included): id prefixes the
// fragment's element ids, so that a page can hold several charts.
func Embed(w io.Writer, c *Chart, id string) error {
	_, err := io.WriteString(w, fragment(c, id))
	return err
}

func fragment(c *Chart, id string) string {
	all := []*model.StateDescription{c.Initial}
	for _, r := range c.Rows {
		all = append(all, r.State)
	}
	groups := hasGroups(all...)
	states := []string{stateHTML(c.Initial, nil, groups)}
	labels := []string{"initial state"}
	prev := c.Initial
	for k, r := range c.Rows {
		states = append(states, stateHTML(r.State, prev, groups))
		prev = r.State
		l := fmt.Sprintf("after step %d: P%d %s", k+1, r.Proc, r.Label)
		if r.Detail != "" {
			l += "; " + r.Detail
		}
		if k == c.Violation {
			l += " \u2014 " + c.ViolationText
		}
		labels = append(labels, l)
	}
	sj, _ := json.Marshal(states)
	lj, _ := json.Marshal(labels)
	var b strings.Builder
	fmt.Fprintf(&b, "<style>%s</style>\n%s\n<div class=\"chartbox\">%s</div>\n", style, stepperPanel(id), svg(c, id))
	fmt.Fprintf(&b, "<script>\n%s\n</script>\n", stepperScript(id, string(sj), string(lj), initialStep(c), c.rowH()))
	return b.String()
}

// style is the CSS of the stepper.
const style = `.panel,.chartbox{font-family:"DejaVu Sans","Liberation Sans",Arial,sans-serif;color:#222}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:left;vertical-align:top}
td code{white-space:pre-wrap;word-break:break-word}
tr.InCS td:first-child{background:#d0ebff}tr.Waiting td:first-child{background:#fff3bf}td.tok{color:#d9480f;font-weight:bold}
td.chg{background:#ffec99;font-weight:bold}
.panel{position:sticky;top:0;background:white;border-bottom:1px solid #ccc;padding:6px 0;z-index:1}
.statebox summary{cursor:pointer;font-weight:bold}
.msg{display:inline-block;border:1px solid #ccc;border-radius:3px;padding:0 4px;margin:1px;font-family:"DejaVu Sans Mono",monospace;font-size:12px}
.msg.new{background:#ffec99;border-color:#f59f00}.msg.tokmsg{border-color:#d9480f;color:#d9480f}
.inbox{margin:2px 0}
.statebox{font-family:"DejaVu Sans","Liberation Sans",Arial,sans-serif;color:#222;margin:4px 0 8px 0}
button{font-size:14px;margin-right:4px}`

func stepperPanel(id string) string {
	return fmt.Sprintf(`<div class="panel" id="%[1]spanel">
<button id="%[1]sfirst" title="first state (Home)">&laquo; first</button><button id="%[1]sprev" title="previous step (Left)">&lsaquo; prev</button><button id="%[1]snext" title="next step (Right)">next &rsaquo;</button><button id="%[1]slast" title="last state (End)">last &raquo;</button>
<b id="%[1]slabel"></b>
</div>
<details class="statebox" open><summary>the state after the step (click to fold)</summary><div class="state" id="%[1]sstate"></div></details>`, id)
}

// stepperScript is the script of the stepper for the chart with SVG id
// prefix id, the state panels states and labels (JSON arrays), starting
// at position start.
func stepperScript(id, states, labels string, start, rowH int) string {
	return fmt.Sprintf(`(function(){
const states=%[2]s, labels=%[3]s, rowH=%[4]d, top0=%[5]d, id=%[1]q;
let k=0;
const $=(s)=>document.getElementById(id+s);
function show(i){k=Math.max(0,Math.min(states.length-1,i));
$('state').innerHTML=states[k];
$('label').textContent=labels[k];
$('cursor').setAttribute('y', k==0 ? -100 : top0+(k-1)*rowH);}
$('first').onclick=()=>show(0);
$('prev').onclick=()=>show(k-1);
$('next').onclick=()=>show(k+1);
$('last').onclick=()=>show(states.length-1);
document.addEventListener('keydown',e=>{if(e.key=='ArrowRight'||e.key=='ArrowDown')show(k+1);if(e.key=='ArrowLeft'||e.key=='ArrowUp')show(k-1);if(e.key=='Home')show(0);if(e.key=='End')show(states.length-1);});
show(%[6]d);
})();`, id, states, labels, rowH, top, start)
}

func initialStep(c *Chart) int {
	if c.Violation >= 0 {
		return c.Violation + 1
	}
	return 0
}

// hasGroups reports whether some process of a state requested a group
// other than 0: a state table of it needs a group column. (Algorithms
// without groups have every Group 0.)
func hasGroups(sds ...*model.StateDescription) bool {
	for _, sd := range sds {
		if sd == nil {
			continue
		}
		for _, p := range sd.Processes {
			if p.Group != 0 {
				return true
			}
		}
	}
	return false
}
