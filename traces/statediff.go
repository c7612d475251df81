package traces

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// This file compares state descriptions: for equality (Replay), for what a
// step changed (FromSteps, Render) and for what differs between a recorded
// and a replayed state (Replay's divergence reasons).

// canonical returns the JSON encoding of sd, with an absent network and an
// empty one encoded alike. Two descriptions of the same state of the same
// model have equal canonical encodings.
func canonical(sd *model.StateDescription) []byte {
	c := *sd
	if c.Processes == nil {
		c.Processes = []model.ProcessDescription{}
	}
	if c.Network == nil {
		c.Network = []model.MessageDescription{}
	}
	// Vars compare as JSON values, not as text: a trace whose keys were
	// reordered or re-indented by a tool still describes the same state.
	// Members with a zero value (null, false, 0, "", [], {}) compare as
	// absent, so that a trace survives a field added to the process type
	// (it has no such member; the replay renders the field's zero value)
	// and a field removed whose recorded value was zero.
	c.Processes = append([]model.ProcessDescription(nil), c.Processes...)
	for i := range c.Processes {
		c.Processes[i].Vars = canonicalVars(c.Processes[i].Vars)
		c.Processes[i].Text = "" // a rendering of Vars (FormatProc), not state
	}
	b, err := json.Marshal(&c)
	if err != nil {
		// Only invalid Vars can fail, and both Describe and Read produce
		// valid JSON there.
		panic("traces: a state description does not encode: " + err.Error())
	}
	return b
}

// canonicalVars re-encodes a process's variables with sorted object keys
// (maps marshal sorted), numbers kept as written, and the object members
// whose value is zero left out, at every depth.
func canonicalVars(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	v = dropZero(v)
	if v == nil {
		return nil // all zero: as absent vars
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

func sameState(a, b *model.StateDescription) bool {
	return bytes.Equal(canonical(a), canonical(b))
}

// copies returns the number of copies of each message in transit.
func copies(sd *model.StateDescription) map[string]int {
	m := make(map[string]int, len(sd.Network))
	for _, md := range sd.Network {
		m[md.Message] += md.Count
	}
	return m
}

// sentMessages returns the messages a step added to the network, one entry
// per copy, in the network's canonical order. A step removes at most one
// copy of one message (removed, "" if none) and adds what it sends, so
// sent = after - before + removed for every message.
func sentMessages(before, after *model.StateDescription, removed string) []string {
	had := copies(before)
	var sent []string
	for _, md := range after.Network {
		n := md.Count - had[md.Message]
		if md.Message == removed {
			n++
		}
		for range n {
			sent = append(sent, md.Message)
		}
	}
	return sent
}

// stepSender is the optional worker capability of model/protocol's
// workers of a protocol with a Normalize hook: the messages transition t
// of state sends, rendered in the successor's normal form (ok false: the
// worker cannot say, compare the networks).
type stepSender interface {
	Sends(state []byte, t *model.Transition) (sent []string, ok bool)
}

// stepSent returns the messages transition t of state sends: from the
// step itself when the worker can say (a normal form may rename messages
// in transit that the step did not send, so that the networks of the two
// states differ by more than the sends), else from the difference of the
// networks before and after (sentMessages).
func stepSent(w model.Worker, state []byte, t *model.Transition, before, after *model.StateDescription, removed string) []string {
	if ss, ok := w.(stepSender); ok {
		if sent, ok := ss.Sends(state, t); ok {
			return sent
		}
	}
	return sentMessages(before, after, removed)
}

// change is one variable that differs between two versions of a process.
type change struct {
	name, before, after string
}

// dropZero removes, from every object in v, the members whose value is
// zero (after their own zero members are removed), and returns nil if v
// itself is then zero.
func dropZero(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		if !x {
			return nil
		}
	case string:
		if x == "" {
			return nil
		}
	case json.Number:
		if f, err := x.Float64(); err == nil && f == 0 {
			return nil
		}
	case []any:
		if len(x) == 0 {
			return nil
		}
		for i := range x {
			// elements keep their place: a zero element stays, as null
			x[i] = dropZero(x[i])
		}
	case map[string]any:
		for k, m := range x {
			if x[k] = dropZero(m); x[k] == nil {
				delete(x, k)
			}
		}
		if len(x) == 0 {
			return nil
		}
	}
	return v
}

func (c change) String() string { return c.name + " " + c.before + " -> " + c.after }

// varChanges compares two renderings of a process's own variables. When
// both are JSON objects it reports each member that differs, in the order
// of after; otherwise the whole value, under the name "vars".
func varChanges(before, after json.RawMessage) []change {
	if bytes.Equal(before, after) {
		return nil
	}
	b, errB := parseJSON(orEmpty(before))
	a, errA := parseJSON(orEmpty(after))
	if errB != nil || errA != nil {
		return []change{{"vars", string(before), string(after)}}
	}
	if a.kind != '{' || b.kind != '{' {
		if x, y := b.inline(","), a.inline(","); x != y {
			return []change{{"vars", x, y}}
		}
		return nil
	}
	var out []change
	for i, k := range a.keys {
		now := a.kids[i].inline(",")
		if old := b.member(k.name); old == nil {
			out = append(out, change{k.name, "(none)", now})
		} else if was := old.inline(","); was != now {
			out = append(out, change{k.name, was, now})
		}
	}
	for i, k := range b.keys {
		if a.member(k.name) == nil {
			out = append(out, change{k.name, b.kids[i].inline(","), "(none)"})
		}
	}
	return out
}

func orEmpty(v json.RawMessage) []byte {
	if len(v) == 0 {
		return []byte("{}")
	}
	return v
}

// processChanges lists what differs between two versions of one process:
// phase, made, group, token and each variable.
func processChanges(before, after *model.ProcessDescription) []change {
	var out []change
	if before.Phase != after.Phase {
		out = append(out, change{"phase", before.Phase, after.Phase})
	}
	if before.Made != after.Made {
		out = append(out, change{"made", fmt.Sprint(before.Made), fmt.Sprint(after.Made)})
	}
	if before.Group != after.Group {
		out = append(out, change{"group", fmt.Sprint(before.Group), fmt.Sprint(after.Group)})
	}
	if before.HoldsToken != after.HoldsToken {
		out = append(out, change{"holds_token", fmt.Sprint(before.HoldsToken), fmt.Sprint(after.HoldsToken)})
	}
	return append(out, varChanges(before.Vars, after.Vars)...)
}

// stateDiff says briefly how a recorded state (want) differs from the
// replayed one (got): which processes differ and in what, and which
// messages are only on one side.
func stateDiff(want, got *model.StateDescription) string {
	if len(want.Processes) != len(got.Processes) {
		return fmt.Sprintf("the trace has %d processes, the system %d", len(want.Processes), len(got.Processes))
	}
	var parts []string
	for i := range want.Processes {
		cs := processChanges(&got.Processes[i], &want.Processes[i])
		if len(cs) == 0 {
			continue
		}
		var d []string
		for _, c := range cs {
			// c.before is the replayed value, c.after the recorded one
			switch {
			case c.after == "(none)":
				d = append(d, fmt.Sprintf("%s is absent from the trace and %s in the replay (a field added to the process type since the trace was written? only its zero value would match)", c.name, c.before))
			case c.before == "(none)":
				d = append(d, fmt.Sprintf("%s is %s in the trace and absent from the replay (a field removed from the process type, or renamed? only a recorded zero value would match)", c.name, c.after))
			default:
				d = append(d, fmt.Sprintf("%s %s in the trace, %s in the replay", c.name, c.after, c.before))
			}
		}
		parts = append(parts, fmt.Sprintf("P%d: %s", i, strings.Join(d, "; ")))
	}
	if only := networkMinus(want, got); len(only) > 0 {
		parts = append(parts, "only the trace has in transit "+strings.Join(only, ", "))
	}
	if only := networkMinus(got, want); len(only) > 0 {
		parts = append(parts, "only the replay has in transit "+strings.Join(only, ", "))
	}
	if want.FaultsUsed != got.FaultsUsed {
		parts = append(parts, fmt.Sprintf("the trace has faults_used %d, the replay %d", want.FaultsUsed, got.FaultsUsed))
	}
	if len(parts) == 0 {
		// Same content, different encoding (e.g. token flags on messages).
		return "the trace records " + string(canonical(want)) + ", the replay gives " + string(canonical(got))
	}
	return strings.Join(parts, "; ")
}

// networkMinus lists the messages of a in excess of b, as "m" or "m x2".
func networkMinus(a, b *model.StateDescription) []string {
	bc := copies(b)
	var out []string
	for _, md := range a.Network {
		if n := md.Count - bc[md.Message]; n > 0 {
			out = append(out, withCount(md.Message, n))
		}
	}
	return out
}

func withCount(msg string, n int) string {
	if n == 1 {
		return msg
	}
	return fmt.Sprintf("%s x%d", msg, n)
}

// Change is one difference between two states of a system, as Changes
// reports it: a field of a process, or the fault count.
type Change struct {
	Process       int    // the process, or -1 for the fault count
	Name          string // "phase", "made", "group", "holds_token", a variable's name, "vars" or "faults_used"
	Before, After string // the values as people read them, "(none)" for an absent variable
}

// String renders a change as "P1: rn [0,0] -> [0,1]".
func (c Change) String() string {
	if c.Process < 0 {
		return c.Name + " " + c.Before + " -> " + c.After
	}
	return fmt.Sprintf("P%d: %s %s -> %s", c.Process, c.Name, c.Before, c.After)
}

// Changes lists what differs between two states of one system: for each
// process in order its phase, made, group, token and each of its variables
// (the members of its vars object, in after's order), then the fault
// count. Messages in transit are compared by NetworkDelta. Processes that
// only one state has are not compared.
//
// With before nil, Changes lists every field of every process of after,
// with Before empty, in the order a state table shows them: phase, made,
// group, holds_token, then each member of the vars object in the order
// written (vars that are not an object make one field, "vars"); the fault
// count is not listed.
func Changes(before, after *model.StateDescription) []Change {
	var out []Change
	if before == nil {
		for i := range after.Processes {
			for _, c := range processFields(&after.Processes[i]) {
				out = append(out, Change{Process: i, Name: c.name, After: c.after})
			}
		}
		return out
	}
	for i := range min(len(before.Processes), len(after.Processes)) {
		for _, c := range processChanges(&before.Processes[i], &after.Processes[i]) {
			out = append(out, Change{Process: i, Name: c.name, Before: c.before, After: c.after})
		}
	}
	if before.FaultsUsed != after.FaultsUsed {
		out = append(out, Change{Process: -1, Name: "faults_used", Before: fmt.Sprint(before.FaultsUsed), After: fmt.Sprint(after.FaultsUsed)})
	}
	return out
}

// NetworkDelta returns the messages in transit in after beyond those in
// before (added) and those in before beyond after (removed), as "m" or
// "m x2" for copies, each in its state's network order.
func NetworkDelta(before, after *model.StateDescription) (added, removed []string) {
	return networkMinus(after, before), networkMinus(before, after)
}

// processFields lists a process's fields in a fixed order, as changes
// from nothing (before empty): phase, made, group, holds_token, then each
// member of its vars object in the order written (vars that are not an
// object make one field, "vars").
func processFields(p *model.ProcessDescription) []change {
	out := []change{
		{name: "phase", after: p.Phase},
		{name: "made", after: fmt.Sprint(p.Made)},
		{name: "group", after: fmt.Sprint(p.Group)},
		{name: "holds_token", after: fmt.Sprint(p.HoldsToken)},
	}
	return append(out, varChanges([]byte("{}"), p.Vars)...)
}
