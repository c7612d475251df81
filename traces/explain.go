package traces

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// violation says in words why the end of t violates t's property, from the
// recorded states alone. It knows the properties of semantics.md by name;
// for any other property it says where the violation is.
func violation(t *Trace) string {
	final := t.final()
	last := &t.Steps[len(t.Steps)-1]
	switch t.PropertyKind {
	case kindLiveness:
		return fmt.Sprintf("P%d is Waiting forever: the cycle of steps %d..%d returns to its start, is fair, and never lets P%d enter its CS",
			*t.WaitingProcess, *t.Loop, len(t.Steps), *t.WaitingProcess)
	case kindPossibility:
		p := final.Processes[*t.WaitingProcess]
		return fmt.Sprintf("P%d requests group %d and nobody is InCS with or Waiting for another group, but P%d cannot enter its CS without an Exit or a request for another group",
			p.ID, p.Group, p.ID)
	}
	switch t.Property {
	case invariants.Mutex.Name:
		if in := procsIn(final, model.InCS); len(in) > 1 {
			return together(in) + " InCS"
		}
	case "gme-safety":
		var in []string
		groups := map[int]bool{}
		for _, p := range final.Processes {
			if p.Phase == model.InCS.String() {
				in = append(in, fmt.Sprintf("P%d (group %d)", p.ID, p.Group))
				groups[p.Group] = true
			}
		}
		if len(groups) > 1 {
			return listed(in) + " are InCS together, in different groups"
		}
	case invariants.SingleToken.Name:
		places := tokenPlaces(final)
		if len(places) == 0 {
			return "no token exists: no process holds one and none is in transit"
		}
		if n := tokenCount(final); n > 1 {
			return fmt.Sprintf("%d tokens exist: %s", n, strings.Join(places, ", "))
		}
	case invariants.NoUnrequestedEntry.Name:
		p := last.Process
		was := t.state(last.Index).Processes[p].Phase
		if now := final.Processes[p].Phase; now == model.InCS.String() && was != model.Waiting.String() {
			return fmt.Sprintf("P%d entered its CS from %s at step %d (%s), without a pending request", p, was, last.Index, last.Action)
		}
	case invariants.NoDeadlock.Name:
		var busy []string
		for _, p := range final.Processes {
			if p.Phase != model.Idle.String() {
				busy = append(busy, fmt.Sprintf("P%d is %s", p.ID, p.Phase))
			}
		}
		if len(busy) > 0 {
			return "no action is enabled, yet " + listed(busy)
		}
	}
	switch t.PropertyKind {
	case model.TransitionInvariant.String():
		return fmt.Sprintf("step %d (%s) violates it", last.Index, last.Action)
	case model.Terminal.String():
		return "no action is enabled in the final state, and it violates the property"
	}
	return "the final state violates it"
}

// procsIn returns the names of the processes in phase ph, by id.
func procsIn(sd *model.StateDescription, ph model.Phase) []string {
	var out []string
	for _, p := range sd.Processes {
		if p.Phase == ph.String() {
			out = append(out, fmt.Sprintf("P%d", p.ID))
		}
	}
	return out
}

// listed joins names as "a", "a and b" or "a, b and c".
func listed(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// together says "P0 and P1 are both" or "P0, P1 and P2 are all".
func together(names []string) string {
	if len(names) == 2 {
		return listed(names) + " are both"
	}
	return listed(names) + " are all"
}

// tokenPlaces says where the tokens of a state are: "P0" for a holder,
// "in transit to P1" (or "2 in transit to P1") for a message carrying one.
func tokenPlaces(sd *model.StateDescription) []string {
	var out []string
	for _, p := range sd.Processes {
		if p.HoldsToken {
			out = append(out, fmt.Sprintf("at P%d", p.ID))
		}
	}
	for _, m := range sd.Network {
		if !m.Token {
			continue
		}
		if m.Count == 1 {
			out = append(out, fmt.Sprintf("in transit to P%d", m.To))
		} else {
			out = append(out, fmt.Sprintf("%d in transit to P%d", m.Count, m.To))
		}
	}
	return out
}

func tokenCount(sd *model.StateDescription) int {
	n := 0
	for _, p := range sd.Processes {
		if p.HoldsToken {
			n++
		}
	}
	for _, m := range sd.Network {
		if m.Token {
			n += m.Count
		}
	}
	return n
}
