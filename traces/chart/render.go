package chart

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
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
	rowH    = 30
	left    = 60
	top     = 70
	labelW  = 520
	dotR    = 5
	csW     = 12
	arrowTO = "#d9480f" // token colour
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
func (c *Chart) y(k int) int { return top + rowH/2 + k*rowH }

// SVG writes the chart as a standalone SVG document: a lifeline per
// process, shaded CS stays, an arrow per message (the token's in thick
// orange, messages still in transit dashed to the bottom), a label per
// step, and the violating step marked in red.
func SVG(w io.Writer, c *Chart) error {
	_, err := io.WriteString(w, svg(c, ""))
	return err
}

func svg(c *Chart, id string) string {
	width := left + c.N*c.colW() + labelW
	height := top + (len(c.Rows)+1)*rowH + 20
	var b strings.Builder
	esc := html.EscapeString
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" %swidth="%d" height="%d" viewBox="0 0 %d %d" font-family="monospace" font-size="12">`+"\n", idAttr(id), width, height, width, height)
	b.WriteString(`<defs><marker id="ah" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker>` +
		`<marker id="aht" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="` + arrowTO + `"/></marker></defs>` + "\n")
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", esc(c.Title))
	fmt.Fprintf(&b, `<text x="10" y="38">%s</text>`+"\n", esc(c.Subtitle))
	bottom := c.y(len(c.Rows))
	if c.LoopStart >= 0 {
		fmt.Fprintf(&b, `<rect x="4" y="%d" width="%d" height="%d" fill="#e7f5ff" stroke="#1c7ed6"/><text x="8" y="%d" fill="#1c7ed6">loop</text>`+"\n",
			c.y(c.LoopStart)-rowH/2, width-8, (len(c.Rows)-c.LoopStart)*rowH, c.y(c.LoopStart)+4)
	}
	if c.Violation >= 0 {
		fmt.Fprintf(&b, `<rect x="4" y="%d" width="%d" height="%d" fill="#ffe3e3" stroke="#e03131"/>`+"\n", c.y(c.Violation)-rowH/2, width-8, rowH)
	}
	for p := range c.N {
		x := c.x(p)
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
	for _, a := range c.Arrows {
		if a.To < 0 {
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
		stroke, sw, marker, dash := "#333", 1.2, "ah", ""
		if a.Token {
			stroke, sw, marker = arrowTO, 3, "aht"
		}
		if a.RecvRow < 0 || a.Lost {
			dash = ` stroke-dasharray="5,4"`
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%.1f"%s marker-end="url(#%s)"><title>%s</title></line>`+"\n",
			x0, y0, x1, y1, stroke, sw, dash, marker, esc(a.Label))
	}
	lx := left + c.N*c.colW() + 10
	for k, r := range c.Rows {
		y := c.y(k)
		fill := "#333"
		if r.Token {
			fill = arrowTO
		}
		if k == c.Violation {
			fill = "#e03131"
		}
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="%d" fill="%s"/>`+"\n", c.x(r.Proc), y, dotR, fill)
		label := fmt.Sprintf("%d. %s", k+1, r.Label)
		if r.Detail != "" {
			label += "; " + r.Detail
		}
		if len(label) > 80 {
			label = label[:77] + "..."
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d"%s>%s</text>`+"\n", lx, y+4, rowClass(k, c), esc(label))
	}
	if c.Violation >= 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#e03131" font-weight="bold">&#x2717; step %d %s</text>`+"\n", 10, bottom+rowH/2+4, c.Violation+1, esc(shorten(c.ViolationText, 140)))
	}
	fmt.Fprintf(&b, `<rect id="%scursor" x="4" y="-100" width="%d" height="%d" fill="none" stroke="#2f9e44" stroke-width="2"/>`+"\n", id, width-8, rowH)
	b.WriteString("</svg>\n")
	return b.String()
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
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

// StateTable renders a state as text, one process per line, then the
// messages in transit.
func StateTable(sd *model.StateDescription) string {
	var b strings.Builder
	for _, p := range sd.Processes {
		tok := ""
		if p.HoldsToken {
			tok = " token"
		}
		fmt.Fprintf(&b, "  P%-2d %-7s made %d group %d%s %s\n", p.ID, p.Phase, p.Made, p.Group, tok, string(p.Vars))
	}
	if len(sd.Network) == 0 {
		b.WriteString("  in transit: none\n")
	}
	for _, m := range sd.Network {
		fmt.Fprintf(&b, "  in transit: %s x%d\n", m.Message, m.Count)
	}
	return b.String()
}

func stateHTML(sd *model.StateDescription) string {
	if sd == nil {
		return "<p><i>state unknown: the model could not explain this step</i></p>"
	}
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString("<table><tr><th>process</th><th>phase</th><th>made</th><th>group</th><th>token</th><th>variables</th></tr>")
	for _, p := range sd.Processes {
		tok := ""
		if p.HoldsToken {
			tok = "&#x25cf;"
		}
		fmt.Fprintf(&b, `<tr class="%s"><td>P%d</td><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td><code>%s</code></td></tr>`,
			esc(p.Phase), p.ID, esc(p.Phase), p.Made, p.Group, tok, esc(string(p.Vars)))
	}
	b.WriteString("</table><p>in transit:")
	if len(sd.Network) == 0 {
		b.WriteString(" none")
	}
	b.WriteString("</p><ul>")
	for _, m := range sd.Network {
		tok := ""
		if m.Token {
			tok = " (token)"
		}
		fmt.Fprintf(&b, "<li><code>%s</code> &times;%d%s</li>", esc(m.Message), m.Count, tok)
	}
	b.WriteString("</ul>")
	return b.String()
}

// HTML writes a self-contained page: the SVG chart and a stepper (buttons
// and the arrow keys) that highlights one step at a time and shows the
// state table after it.
func HTML(w io.Writer, c *Chart) error {
	states := []string{stateHTML(c.Initial)}
	labels := []string{"initial state"}
	for k, r := range c.Rows {
		states = append(states, stateHTML(r.State))
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
	esc := html.EscapeString
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title>
<style>
body{font-family:sans-serif;margin:16px}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ccc;padding:2px 8px;font-size:13px}
tr.InCS{background:#d0ebff}tr.Waiting{background:#fff3bf}
#panel{position:sticky;top:0;background:white;border-bottom:1px solid #ccc;padding:6px 0}
button{font-size:14px;margin-right:4px}
</style></head><body>
<div id="panel">
<button id="first">&#x23EE; first</button><button id="prev">&#x25C0; prev</button><button id="next">next &#x25B6;</button><button id="last">last &#x23ED;</button>
<b id="label"></b>
<div id="state"></div>
</div>
`, esc(c.Title))
	b.WriteString(svg(c, "mc"))
	fmt.Fprintf(&b, `<script>
const states=%s, labels=%s, rowH=%d, top0=%d;
let k=0;
function show(i){k=Math.max(0,Math.min(states.length-1,i));
document.getElementById('state').innerHTML=states[k];
document.getElementById('label').textContent=labels[k];
const cur=document.getElementById('mccursor');
cur.setAttribute('y', k==0 ? -100 : top0+(k-1)*rowH);}
document.getElementById('first').onclick=()=>show(0);
document.getElementById('prev').onclick=()=>show(k-1);
document.getElementById('next').onclick=()=>show(k+1);
document.getElementById('last').onclick=()=>show(states.length-1);
document.addEventListener('keydown',e=>{if(e.key=='ArrowRight'||e.key=='ArrowDown')show(k+1);if(e.key=='ArrowLeft'||e.key=='ArrowUp')show(k-1);});
show(%d);
</script></body></html>
`, sj, lj, rowH, top, initialStep(c))
	_, err := io.WriteString(w, b.String())
	return err
}

func initialStep(c *Chart) int {
	if c.Violation >= 0 {
		return c.Violation + 1
	}
	return 0
}
