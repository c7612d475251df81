package traces

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// RenderOptions adjust Render's output (Render without them: the zero
// value; with several, an option set in any of them is set).
type RenderOptions struct {
	// Full prints after every step the whole list of messages in
	// transit, not only its difference.
	Full bool
}

// Render writes t as a story a person can follow: a header (algorithm,
// parameters, the violated property, the number of steps), the initial
// state as a table, then for each step its action, what it changed (phase
// and variable changes of the processes, token moves, messages sent,
// faults used) and a summary of the new state (where the token is, who is
// InCS, who is Waiting, what is in transit). The last line says in words
// why the property is violated. A lasso's cycle is marked where it starts
// and where it returns to its start. The output depends only on t. Render
// refuses (with a *FormatError) a trace that Read would reject.
//
// Each step's summary gives the messages in transit as a count and a
// difference ("in transit: 12 (+2 sent, -1 delivered)"); the list in full
// is printed for the initial and the last state only. With
// RenderOptions{Full: true} the whole list is printed after every step.
func Render(w io.Writer, t *Trace, opts ...RenderOptions) error {
	var o RenderOptions
	for _, x := range opts {
		o.Full = o.Full || x.Full
	}
	if err := validate(t); err != nil {
		return err
	}
	r := renderer{t: t, tokens: usesTokens(t), groups: usesGroups(t), full: o.Full}
	r.header()
	r.initial()
	for i := range t.Steps {
		if t.Loop != nil && t.Steps[i].Index == *t.Loop {
			r.printf("\n=== the cycle starts here: steps %d..%d repeat forever ===\n", *t.Loop, len(t.Steps))
		}
		r.step(&t.Steps[i])
	}
	if t.Loop != nil {
		r.printf("\n=== back to the state before step %d: the cycle repeats forever ===\n", *t.Loop)
	}
	if !r.full {
		r.printf("\nin transit at the end: %s\n", inTransit(t.final()))
	}
	switch {
	case t.ModelError != nil:
		r.printf("\nthe model fails when this state is stepped: %s\n", t.ModelError.Message)
	case !t.IsWitness():
		r.printf("\n%s is violated: %s\n", t.Property, violation(t))
	}
	_, err := io.WriteString(w, r.b.String())
	return err
}

type renderer struct {
	t      *Trace
	tokens bool // some state shows a token: say where it is
	groups bool // some process has a group other than 0: show groups
	full   bool // the whole in-transit list after every step
	b      strings.Builder
}

func (r *renderer) printf(format string, args ...any) { fmt.Fprintf(&r.b, format, args...) }

func (r *renderer) header() {
	t := r.t
	r.printf("trace of %s", t.Algorithm)
	if len(t.Params) > 0 {
		r.printf(" (%s)", pairs(t.Params))
	}
	r.printf("\n")
	if len(t.Options) > 0 {
		r.printf("options: %s\n", pairs(t.Options))
	}
	steps := "steps"
	if len(t.Steps) == 1 {
		steps = "step"
	}
	if t.Loop != nil {
		r.printf("violates %s (%s): P%d waits forever; a prefix of %d steps, then a cycle of %d steps (%d..%d) that repeats forever\n",
			t.Property, t.PropertyKind, *t.WaitingProcess, *t.Loop-1, len(t.Steps)-*t.Loop+1, *t.Loop, len(t.Steps))
		return
	}
	if t.ModelError != nil {
		r.printf("the model fails (panics) after %d %s\n", len(t.Steps), steps)
		return
	}
	if t.IsWitness() {
		r.printf("a witness of %d %s: a behaviour of the model that %s (not a counterexample)\n", len(t.Steps), steps, t.Property)
		return
	}
	r.printf("violates %s (%s) after %d %s\n", t.Property, t.PropertyKind, len(t.Steps), steps)
}

// pairs renders a map as "k=v, k=v" in key order.
func pairs[V any](m map[string]V) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s=%v", k, m[k]))
	}
	return strings.Join(out, ", ")
}

// initial renders the initial state as a table, one process per line.
func (r *renderer) initial() {
	sd := &r.t.Initial
	r.printf("\ninitial state:\n")
	width := len(fmt.Sprintf("P%d", len(sd.Processes)-1))
	for _, p := range sd.Processes {
		cols := []string{fmt.Sprintf("%-*s", width, fmt.Sprintf("P%d", p.ID)), fmt.Sprintf("%-7s", p.Phase), fmt.Sprintf("made %d", p.Made)}
		if r.groups {
			cols = append(cols, fmt.Sprintf("group %d", p.Group))
		}
		if r.tokens {
			cols = append(cols, map[bool]string{true: "token", false: "     "}[p.HoldsToken])
		}
		if p.Text != "" { // the algorithm's rendering (Protocol.FormatProc)
			cols = append(cols, p.Text)
		} else if v := vars(p.Vars); v != "" {
			cols = append(cols, v)
		}
		r.printf("  %s\n", strings.TrimRight(strings.Join(cols, "  "), " "))
	}
	r.printf("  in transit: %s\n", inTransit(sd))
	if sd.FaultsUsed > 0 {
		r.printf("  faults used: %d\n", sd.FaultsUsed)
	}
}

// vars renders a process's own variables as "k=v k=v" in their order.
func vars(raw []byte) string {
	var out []string
	for _, c := range varChanges([]byte("{}"), raw) {
		if c.name == "vars" {
			return "vars=" + c.after
		}
		out = append(out, c.name+"="+c.after)
	}
	return strings.Join(out, " ")
}

// step renders one step: its action, what changed, and the new state.
func (r *renderer) step(s *Step) {
	before, after := r.t.state(s.Index), &s.State
	r.printf("\nstep %d: %s\n", s.Index, s.Action)
	quiet := true // nothing but the network changed
	for i := range after.Processes {
		var cs []string
		for _, c := range processChanges(&before.Processes[i], &after.Processes[i]) {
			switch c.name {
			case "holds_token": // told by the token line
			case "phase":
				cs = append(cs, c.before+" -> "+c.after)
			default:
				cs = append(cs, c.String())
			}
		}
		if len(cs) > 0 {
			r.printf("  P%d: %s\n", i, strings.Join(cs, ", "))
			quiet = false
		}
	}
	if r.tokens {
		was, now := tokenWhere(before), tokenWhere(after)
		if was != now {
			r.printf("  token: %s -> %s\n", was, now)
			quiet = false
		}
	}
	if len(s.Sent) > 0 {
		r.printf("  sends: %s\n", strings.Join(grouped(s.Sent), ", "))
		quiet = false
	}
	switch {
	case s.Kind == model.Lose.String():
		r.printf("  %s is lost (faults used: %d -> %d)\n", s.Delivered, before.FaultsUsed, after.FaultsUsed)
	case before.FaultsUsed != after.FaultsUsed:
		r.printf("  faults used: %d -> %d\n", before.FaultsUsed, after.FaultsUsed)
	case quiet && s.Kind == model.Deliver.String():
		r.printf("  P%d receives it and changes nothing\n", s.Process)
	case quiet:
		r.printf("  no process changes\n")
	}
	var now []string
	if r.tokens {
		now = append(now, "token "+tokenWhere(after))
	}
	transit := "in transit: " + inTransit(after)
	if !r.full {
		transit = "in transit: " + transitDelta(before, after, s)
	}
	now = append(now,
		"InCS: "+orNone(procsIn(after, model.InCS)),
		"Waiting: "+orNone(procsIn(after, model.Waiting)),
		transit)
	r.printf("  now: %s\n", strings.Join(now, "; "))
}

// tokenWhere says where the tokens of a state are, for the change and
// summary lines: "at P0", "in transit to P1", "nowhere", or a list.
func tokenWhere(sd *model.StateDescription) string {
	places := tokenPlaces(sd)
	if len(places) == 0 {
		return "nowhere"
	}
	return strings.Join(places, " and ")
}

// inTransit lists the messages in transit, "m x2" for copies.
func inTransit(sd *model.StateDescription) string {
	var out []string
	for _, m := range sd.Network {
		out = append(out, withCount(m.Message, m.Count))
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, ", ")
}

// transitDelta gives the messages in transit after step s as a count and
// what changed: "5 (+2 sent, -1 delivered)", or "none" / "5 (unchanged)".
// Messages that appear or vanish otherwise than by the step's sends and
// delivery are named.
func transitDelta(before, after *model.StateDescription, s *Step) string {
	total := 0
	for _, m := range after.Network {
		total += m.Count
	}
	var parts []string
	if len(s.Sent) > 0 {
		parts = append(parts, fmt.Sprintf("+%d sent", len(s.Sent)))
	}
	if s.Delivered != "" {
		verb := "delivered"
		if s.Kind == model.Lose.String() {
			verb = "lost"
		}
		parts = append(parts, "-1 "+verb)
	}
	// anything else that differs (a model that drops or rewrites messages)
	added, removed := NetworkDelta(before, after)
	explained := map[string]int{}
	for _, m := range s.Sent {
		explained[m]++
	}
	for _, m := range sentMessages(before, after, s.Delivered) {
		explained[m]--
	}
	odd := 0
	for _, n := range explained {
		if n != 0 {
			odd++
		}
	}
	if odd > 0 || len(removed) > 1 || (len(removed) == 1 && s.Delivered == "") {
		if len(added) > 0 {
			parts = append(parts, "now also "+strings.Join(added, ", "))
		}
		if len(removed) > 0 {
			parts = append(parts, "gone "+strings.Join(removed, ", "))
		}
	}
	if total == 0 && len(parts) == 0 {
		return "nothing"
	}
	count := fmt.Sprint(total)
	if total == 0 {
		count = "nothing"
	}
	if len(parts) == 0 {
		return count + " (unchanged)"
	}
	return fmt.Sprintf("%s (%s)", count, strings.Join(parts, ", "))
}

// grouped writes runs of equal messages as "m x2".
func grouped(msgs []string) []string {
	var out []string
	for i := 0; i < len(msgs); {
		j := i
		for j < len(msgs) && msgs[j] == msgs[i] {
			j++
		}
		out = append(out, withCount(msgs[i], j-i))
		i = j
	}
	return out
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// usesTokens reports whether any state of t shows a token, held or in
// transit; a system without tokens shows none in any state.
func usesTokens(t *Trace) bool {
	for _, sd := range t.states() {
		if tokenCount(sd) > 0 {
			return true
		}
	}
	return false
}

// usesGroups reports whether any process of any state of t has a group
// other than 0, that is, whether requests name groups.
func usesGroups(t *Trace) bool {
	for _, sd := range t.states() {
		for _, p := range sd.Processes {
			if p.Group != 0 {
				return true
			}
		}
	}
	return false
}
