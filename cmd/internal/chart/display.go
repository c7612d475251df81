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
// traces.ProcessFields lists them. Whether p holds the token is left to the
// table's process column.
func DisplayFields(p *model.ProcessDescription, withGroup bool) []traces.Field {
	var out []traces.Field
	for _, f := range traces.ProcessFields(p) {
		switch {
		case f.Name == "holds_token", f.Name == "group" && !withGroup:
		case p.Text != "" && f.Name != "phase" && f.Name != "made" && f.Name != "group":
		default:
			out = append(out, f)
		}
	}
	if p.Text != "" {
		out = append(out, traces.Field{Name: "state", Value: p.Text})
	}
	return out
}
