package modeltest

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// renderState renders a state as traces render an initial state: one line
// per process, then the messages in transit, one per line.
func renderState(info model.Info, sd *model.StateDescription) []string {
	var out []string
	width := len(fmt.Sprintf("P%d", len(sd.Processes)-1))
	for _, p := range sd.Processes {
		cols := []string{fmt.Sprintf("%-*s", width, fmt.Sprintf("P%d", p.ID)), fmt.Sprintf("%-7s", p.Phase), fmt.Sprintf("made %d", p.Made)}
		if info.GME {
			cols = append(cols, fmt.Sprintf("group %d", p.Group))
		}
		if info.Tokens {
			cols = append(cols, map[bool]string{true: "token", false: "     "}[p.HoldsToken])
		}
		if v := renderVars(&p); v != "" {
			cols = append(cols, v)
		}
		out = append(out, strings.TrimRight(strings.Join(cols, "  "), " "))
	}
	if len(sd.Network) == 0 {
		out = append(out, "in transit: nothing")
	} else {
		out = append(out, "in transit:")
		for _, m := range sd.Network {
			out = append(out, "  "+withCount(m.Message, m.Count))
		}
	}
	if sd.FaultsUsed > 0 {
		out = append(out, fmt.Sprintf("faults used: %d", sd.FaultsUsed))
	}
	return out
}

// renderVars renders a process's own variables as "k=v k=v" in their order.
func renderVars(p *model.ProcessDescription) string {
	var out []string
	fields := traces.Changes(nil, &model.StateDescription{Processes: []model.ProcessDescription{*p}})
	for _, c := range fields[4:] { // after phase, made, group, holds_token
		out = append(out, c.Name+"="+c.After)
	}
	return strings.Join(out, " ")
}

// withCount renders a message with its number of copies, "m" or "m x2".
func withCount(msg string, n int) string {
	if n > 1 {
		return fmt.Sprintf("%s x%d", msg, n)
	}
	return msg
}

// renderStep renders what a step changed: each changed field, the
// messages sent and removed, and the unrequested-entry flag.
func renderStep(label string, before, after *model.StateDescription, flags model.Flags) []string {
	out := []string{label}
	for _, c := range traces.Changes(before, after) {
		out = append(out, "  "+c.String())
	}
	added, removed := traces.NetworkDelta(before, after)
	for _, m := range added {
		out = append(out, "  sent "+m)
	}
	for _, m := range removed {
		out = append(out, "  removed "+m)
	}
	if flags&model.FlagUnrequestedEntry != 0 {
		out = append(out, "  flag: entry into the CS from a phase other than Waiting")
	}
	if len(out) == 1 {
		out = append(out, "  no change")
	}
	return out
}
