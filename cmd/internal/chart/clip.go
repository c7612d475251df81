package chart

import (
	"fmt"
	"unicode/utf8"

	"github.com/tokenmc/tokenmc/model"
)

// Limits of what a chart shows of one string taken from its input: a
// trace or log may hold strings of any length (a hand-edited trace with an
// 80 MiB action made show --format html hold 2 GB), and no reader needs
// more than a screenful of one.
const (
	// MaxText is the most bytes of one label, detail, phase or message
	// text a chart keeps; the rest is cut, the cut said.
	MaxText = 512
	// MaxVars is the most bytes of one process's variables (JSON) a chart
	// keeps; longer ones are replaced by a note of their size.
	MaxVars = 16 << 10
)

// clip cuts the chart's strings to MaxText and its states' variables to
// MaxVars. The states are copied before they are changed: they belong to
// the trace or log the chart was built from.
func (c *Chart) clip() {
	for _, s := range []*string{&c.Title, &c.Subtitle, &c.ViolationText} {
		*s = clipText(*s)
	}
	c.Initial = clipState(c.Initial)
	for k := range c.Rows {
		r := &c.Rows[k]
		r.Label, r.Detail = clipText(r.Label), clipText(r.Detail)
		r.State = clipState(r.State)
	}
	for k := range c.Arrows {
		c.Arrows[k].Label = clipText(c.Arrows[k].Label)
	}
}

// clipText cuts s to MaxText bytes at a rune boundary, saying how much
// was cut.
func clipText(s string) string {
	if len(s) <= MaxText {
		return s
	}
	k := MaxText
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return fmt.Sprintf("%s... (%d bytes more)", s[:k], len(s)-k)
}

// clipState returns d, or a copy of it with its long strings cut.
func clipState(d *model.StateDescription) *model.StateDescription {
	if d == nil || !longState(d) {
		return d
	}
	cp := *d
	cp.Processes = append([]model.ProcessDescription(nil), d.Processes...)
	cp.Network = append([]model.MessageDescription(nil), d.Network...)
	for i := range cp.Processes {
		p := &cp.Processes[i]
		p.Phase = clipText(p.Phase)
		if len(p.Vars) > MaxVars {
			p.Vars = fmt.Appendf(nil, `{"(not shown)": "%d bytes of variables"}`, len(p.Vars))
		}
	}
	for i := range cp.Network {
		cp.Network[i].Message = clipText(cp.Network[i].Message)
	}
	return &cp
}

func longState(d *model.StateDescription) bool {
	for _, p := range d.Processes {
		if len(p.Phase) > MaxText || len(p.Vars) > MaxVars {
			return true
		}
	}
	for _, m := range d.Network {
		if len(m.Message) > MaxText {
			return true
		}
	}
	return false
}
