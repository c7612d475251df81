package chart

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// Chart is a message sequence chart: one row per step, top to bottom.
type Chart struct {
	Title    string
	Subtitle string
	N        int
	Rows     []Row
	Arrows   []Arrow
	CS       []Interval
	// Violation is the index of the row that violates the property (or
	// that no interleaving explains), -1 for none; ViolationText says why.
	Violation     int
	ViolationText string
	// LoopStart is the first row of a liveness lasso's cycle, -1 for none.
	LoopStart int
	// Initial is the initial state, and Rows[k].State the state after row
	// k; nil when unknown.
	Initial *model.StateDescription
	// Starving lists the processes that wait forever along a lasso's
	// cycle; the SVG marks their lifelines.
	Starving []int

	lay *labelLayout // how the step labels wrap, while rendering
}

// Row is one step.
type Row struct {
	Proc   int
	Label  string                  // the action, e.g. "Deliver TOKEN(P0->P1, ...)"
	Detail string                  // what it did besides, e.g. "sends REQ(...); enters CS"
	Token  bool                    // the acting process holds the token after the step
	State  *model.StateDescription // the state after the step; nil when unknown
}

// Arrow is one message copy: sent at row SendRow by From (-1, -1 for a
// message in transit initially) and delivered at RecvRow to To (-1 while
// still in transit at the end; Lost for a lost message).
type Arrow struct {
	From, To         int
	SendRow, RecvRow int
	Label            string
	Token            bool
	Lost             bool
}

// Interval is a stay in the CS, rows Start..End (End -1: still in the CS at the end).
type Interval struct {
	Proc, Start, End int
}

// FromTrace builds the chart of a counterexample trace (check, simulate,
// or a liveness lasso, whose cycle is marked).
func FromTrace(t *traces.Trace) *Chart {
	c := &Chart{Title: fmt.Sprintf("%s (%s)", t.Algorithm, params(t.Params)), N: len(t.Initial.Processes), Violation: len(t.Steps) - 1, LoopStart: -1}
	c.Subtitle = fmt.Sprintf("violates %s (%s) after %d steps", t.Property, t.PropertyKind, len(t.Steps))
	c.ViolationText = "violates " + t.Property
	if t.ModelError != nil {
		// no step violates anything: the model fails when the last state is stepped
		c.Subtitle = fmt.Sprintf("the model fails (panics) when the state after step %d is stepped: %s", len(t.Steps), t.ModelError.Message)
		c.Violation = -1
	}
	if t.Loop != nil {
		c.LoopStart = *t.Loop - 1
		c.Subtitle += fmt.Sprintf("; the cycle from step %d repeats forever", *t.Loop)
		c.Violation = -1
		if t.WaitingProcess != nil {
			c.Starving = []int{*t.WaitingProcess}
			c.Subtitle += fmt.Sprintf("; P%d waits forever", *t.WaitingProcess)
		}
	}
	init := t.Initial
	c.Initial = &init
	pending := map[string][]int{} // message text -> open arrows
	for _, m := range t.Initial.Network {
		for range m.Count {
			pending[m.Message] = append(pending[m.Message], len(c.Arrows))
			c.Arrows = append(c.Arrows, Arrow{From: -1, To: m.To, SendRow: -1, RecvRow: -1, Label: m.Message, Token: m.Token})
		}
	}
	prev := &t.Initial
	for k := range t.Steps {
		s := &t.Steps[k]
		st := s.State
		row := Row{Proc: s.Process, Label: s.Action, State: &st}
		if s.Process < len(st.Processes) {
			row.Token = st.Processes[s.Process].HoldsToken
		}
		var detail []string
		if s.Delivered != "" {
			if q := pending[s.Delivered]; len(q) > 0 {
				a := &c.Arrows[q[0]]
				a.RecvRow = k
				a.Lost = s.Kind == model.Lose.String()
				pending[s.Delivered] = q[1:]
			}
		}
		for _, m := range s.Sent {
			to, tok := -1, false
			for _, nm := range st.Network {
				if nm.Message == m {
					to, tok = nm.To, nm.Token
				}
			}
			pending[m] = append(pending[m], len(c.Arrows))
			c.Arrows = append(c.Arrows, Arrow{From: s.Process, To: to, SendRow: k, RecvRow: -1, Label: m, Token: tok})
			if len(s.Sent) <= 2 {
				detail = append(detail, "sends "+m)
			}
		}
		if len(s.Sent) > 2 {
			detail = append(detail, sendsSummary(s.Sent))
		}
		if s.Process < len(st.Processes) && s.Process < len(prev.Processes) {
			before, after := prev.Processes[s.Process].Phase, st.Processes[s.Process].Phase
			if before != after {
				detail = append(detail, before+" -> "+after)
			}
		}
		row.Detail = strings.Join(detail, "; ")
		c.Rows = append(c.Rows, row)
		prev = &t.Steps[k].State
		rekey(c.Arrows, pending, st.Network)
	}
	c.CS = intervalsFromStates(c)
	c.clip()
	return c
}

// rekey makes the open arrows (pending, by message text) agree with the
// messages in transit after a step (network). They agree already unless
// the model has a normal form (protocol.Protocol.Normalize) that renamed
// messages in transit which the step neither sent nor delivered: each
// open arrow whose text is no longer in transit is then matched, in
// order, with a message to the same receiver that is in transit but has
// no open arrow, and takes its text, so that its delivery later closes it
// and the messages in transit at the end are those of the final state.
func rekey(arrows []Arrow, pending map[string][]int, network []model.MessageDescription) {
	want := map[string]int{}
	for _, m := range network {
		want[m.Message] += m.Count
	}
	var gone []int
	for _, l := range slices.Sorted(maps.Keys(pending)) {
		if q := pending[l]; len(q) > want[l] {
			gone = append(gone, q[want[l]:]...)
			pending[l] = q[:want[l]]
		}
	}
	if len(gone) == 0 {
		return
	}
	for _, m := range network {
		for range want[m.Message] - len(pending[m.Message]) {
			for gi, a := range gone {
				if a >= 0 && arrows[a].To == m.To {
					arrows[a].Label = m.Message
					pending[m.Message] = append(pending[m.Message], a)
					gone[gi] = -1
					break
				}
			}
		}
	}
}

// sendsSummary says briefly what a step that sends many messages sent:
// "sends 7 messages: REQ x7" (the kinds, the words before "(").
func sendsSummary(sent []string) string {
	var kinds []string
	count := map[string]int{}
	for _, m := range sent {
		k := m
		if i := strings.IndexByte(m, '('); i > 0 {
			k = m[:i]
		}
		if count[k] == 0 {
			kinds = append(kinds, k)
		}
		count[k]++
	}
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s x%d", k, count[k]))
	}
	return fmt.Sprintf("sends %d messages: %s", len(sent), strings.Join(parts, ", "))
}

// intervalsFromStates finds the CS stays from the per-row states.
func intervalsFromStates(c *Chart) []Interval {
	var out []Interval
	for p := range c.N {
		start := -1
		if c.Initial != nil && p < len(c.Initial.Processes) && c.Initial.Processes[p].Phase == "InCS" {
			start = 0
		}
		for k, r := range c.Rows {
			if r.State == nil || p >= len(r.State.Processes) {
				continue
			}
			in := r.State.Processes[p].Phase == "InCS"
			if in && start < 0 {
				start = k
			}
			if !in && start >= 0 {
				out = append(out, Interval{Proc: p, Start: start, End: k})
				start = -1
			}
		}
		if start >= 0 {
			out = append(out, Interval{Proc: p, Start: start, End: -1})
		}
	}
	return out
}

// FromLog builds the chart of an event log. With a validation result the
// rows follow the interleaving validation found, carry its states, and the
// event that no interleaving explains is marked; the steps it could not
// reach follow in file order. Without one (v nil) the rows are the steps
// in file order.
func FromLog(l *eventlog.Log, v *eventlog.Result) *Chart {
	h := l.Header
	c := &Chart{Title: fmt.Sprintf("%s (%s)", h.Algorithm, params(h.Params)), N: l.N(), Violation: -1, LoopStart: -1}
	c.Subtitle = fmt.Sprintf("event log: %d events", len(l.Events))
	if h.Transport != "" {
		c.Subtitle += ", transport " + h.Transport
	}
	var order []eventlog.Step
	var states []*model.StateDescription
	seen := map[*eventlog.Event]bool{}
	if v != nil {
		init := v.Initial
		c.Initial = &init
		for k := range v.Order {
			order = append(order, v.Order[k].Step)
			states = append(states, &v.Order[k].State)
			seen[v.Order[k].Step.Trigger] = true
		}
	}
	// the remaining steps, in file order of their triggers
	all := l.Steps()
	var rest []eventlog.Step
	row := map[*eventlog.Event]int{}
	for k := range order {
		row[order[k].Trigger] = k
	}
	for _, ps := range all {
		for _, st := range ps {
			if !seen[st.Trigger] {
				rest = append(rest, st)
				continue
			}
			// effects no explained step owns (a step's effects may be
			// logged late): drawn with the trigger they follow
			k := row[st.Trigger]
			for _, x := range st.Effects {
				if !explained(order, x) {
					order[k].Effects = append(order[k].Effects[:len(order[k].Effects):len(order[k].Effects)], x)
				}
			}
		}
	}
	sortSteps(rest)
	for _, st := range rest {
		order = append(order, st)
		states = append(states, nil)
	}
	sendAt := map[string]int{}
	inCS := make([]int, c.N)
	for p := range inCS {
		inCS[p] = -1
	}
	for k, st := range order {
		e := st.Trigger
		row := Row{Proc: e.P, State: states[k], Label: describe(e)}
		if v != nil && v.Failed != nil && !v.OK {
			if v.Failed == e || contains(st.Effects, v.Failed) {
				c.Violation = k
				c.ViolationText = "not explained: " + v.Reason
			}
		}
		if e.Kind == eventlog.KindReceive {
			if j, ok := sendAt[e.MID]; ok && e.MID != "" {
				c.Arrows[j].RecvRow = k
			} else {
				c.Arrows = append(c.Arrows, Arrow{From: -1, To: e.P, SendRow: -1, RecvRow: k, Label: e.Msg, Token: e.Token})
			}
			row.Token = row.Token || e.Token
		}
		if e.Kind == eventlog.KindExit && inCS[e.P] >= 0 {
			c.CS = append(c.CS, Interval{Proc: e.P, Start: inCS[e.P], End: k})
			inCS[e.P] = -1
		}
		var detail []string
		for _, f := range st.Effects {
			switch f.Kind {
			case eventlog.KindSend:
				sendAt[f.MID] = len(c.Arrows)
				c.Arrows = append(c.Arrows, Arrow{From: e.P, To: *f.To, SendRow: k, RecvRow: -1, Label: f.Msg, Token: f.Token})
				detail = append(detail, "sends "+f.Msg)
				if f.Token {
					row.Token = false
				}
			case eventlog.KindEnter:
				inCS[e.P] = k
				detail = append(detail, "enters CS")
			}
		}
		if states[k] != nil && e.P < len(states[k].Processes) {
			row.Token = states[k].Processes[e.P].HoldsToken
		}
		row.Detail = strings.Join(detail, "; ")
		c.Rows = append(c.Rows, row)
	}
	for p, s := range inCS {
		if s >= 0 {
			c.CS = append(c.CS, Interval{Proc: p, Start: s, End: -1})
		}
	}
	if v != nil {
		if v.OK {
			c.Subtitle += "; validate: a behaviour of the model"
		} else {
			c.Subtitle += "; validate: NOT a behaviour of the model"
		}
	}
	c.clip()
	return c
}

// explained reports whether e is an effect of one of the steps.
func explained(steps []eventlog.Step, e *eventlog.Event) bool {
	for k := range steps {
		if contains(steps[k].Effects, e) {
			return true
		}
	}
	return false
}

func contains(es []*eventlog.Event, e *eventlog.Event) bool {
	for _, f := range es {
		if f == e {
			return true
		}
	}
	return false
}

func sortSteps(s []eventlog.Step) {
	for a := 1; a < len(s); a++ {
		for b := a; b > 0 && s[b].Trigger.Line < s[b-1].Trigger.Line; b-- {
			s[b], s[b-1] = s[b-1], s[b]
		}
	}
}

func describe(e *eventlog.Event) string {
	switch e.Kind {
	case eventlog.KindRequest:
		if e.Group != 0 {
			return fmt.Sprintf("Request(P%d, g=%d)", e.P, e.Group)
		}
		return fmt.Sprintf("Request(P%d)", e.P)
	case eventlog.KindExit:
		return fmt.Sprintf("Exit(P%d)", e.P)
	case eventlog.KindTimer:
		return fmt.Sprintf("Timer(P%d, t=%d)", e.P, e.Timer)
	case eventlog.KindReceive:
		return "Deliver " + e.Msg
	}
	return e.Kind
}

func params(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for a := 1; a < len(keys); a++ {
		for b := a; b > 0 && keys[b] < keys[b-1]; b-- {
			keys[b], keys[b-1] = keys[b-1], keys[b]
		}
	}
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(out, ", ")
}

// inCSAt reports whether process p is in its CS during row k.
func (c *Chart) inCSAt(p, k int) bool {
	for _, iv := range c.CS {
		if iv.Proc == p && k >= iv.Start && (iv.End < 0 || k < iv.End) {
			return true
		}
	}
	return false
}
