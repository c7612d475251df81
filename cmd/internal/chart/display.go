package chart

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// DisplayFields are the columns a state table shows for process p: its
// phase, its request count made, its group only when withGroup (an
// algorithm with groups), then its own state: the algorithm's rendering
// under the name "state" when it has one (ProcessDescription.Text, from
// protocol.Protocol.FormatProc), else each of its variables as
// traces.Changes lists them from nothing. Whether p holds the token is left
// to the table's process column.
func DisplayFields(p *model.ProcessDescription, withGroup bool) []Field {
	var out []Field
	for _, c := range traces.Changes(nil, &model.StateDescription{Processes: []model.ProcessDescription{*p}}) {
		switch {
		case c.Name == "holds_token", c.Name == "group" && !withGroup:
		case p.Text != "" && c.Name != "phase" && c.Name != "made" && c.Name != "group":
		default:
			out = append(out, Field{c.Name, c.After})
		}
	}
	if p.Text != "" {
		out = append(out, Field{Name: "state", Value: p.Text})
	}
	return out
}

// Field is one named value of a process, rendered as in a trace's story
// (traces.Render).
type Field struct {
	Name, Value string
}
