// Package invariants defines the generic safety properties of
// semantics.md §1 over model.Snapshot, so that every algorithm written with
// the protocol layer gets them for free, and a way to look them up by name.
//
// A custom property is a model.Property value: a state predicate
// (model.Invariant), a transition predicate (model.TransitionInvariant) or a
// predicate on states without successors (model.Terminal). For typed access
// to an algorithm's own variables use protocol.Invariant.
package invariants

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// Mutex: at most one process is InCS. For group mutual exclusion it is
// replaced by GMESafety.
var Mutex = model.Property{
	Name:          "mutex",
	Kind:          model.Invariant,
	Doc:           "at most one process is InCS",
	Applies:       func(i model.Info) bool { return !i.GME },
	NotApplicable: "it is a group mutual exclusion algorithm: check gme-safety",
	Holds: func(s model.Snapshot) bool {
		in := 0
		for i := range s.Processes() {
			if s.Phase(i) == model.InCS {
				in++
			}
		}
		return in <= 1
	},
}

// SingleToken: exactly one token exists, held by a process or in transit.
// It applies only to systems that report tokens.
var SingleToken = model.Property{
	Name:          "single-token",
	Kind:          model.Invariant,
	Doc:           "exactly one valid token exists, held or in transit",
	Holds:         func(s model.Snapshot) bool { return s.Tokens() == 1 },
	Applies:       func(i model.Info) bool { return i.Tokens },
	NotApplicable: "the algorithm has no token (it is permission based)",
}

// NoUnrequestedEntry: a process enters its CS only from Waiting. It is a
// property of transitions: the protocol layer flags an entry from any other
// phase.
var NoUnrequestedEntry = model.Property{
	Name: "no-unrequested-entry",
	Kind: model.TransitionInvariant,
	Doc:  "a process enters its CS only from Waiting (checked on transitions)",
	HoldsOn: func(t *model.Transition) bool {
		return t.Flags&model.FlagUnrequestedEntry == 0
	},
	Local: true, // it reads the step's flags only
}

// NoDeadlock: no reachable state without enabled transitions has a process
// Waiting or InCS. Every process Idle with an empty network is normal
// termination (with no transition enabled, every process has made R
// requests).
var NoDeadlock = model.Property{
	Name: "no-deadlock",
	Kind: model.Terminal,
	Doc:  "no reachable state without enabled transitions has a process Waiting or InCS",
	Holds: func(s model.Snapshot) bool {
		for i := range s.Processes() {
			if s.Phase(i) != model.Idle {
				return false
			}
		}
		return true
	},
}

// GMESafety: every process InCS requested (or entered with) the same group.
// It applies to group mutual exclusion algorithms only.
var GMESafety = model.Property{
	Name: "gme-safety",
	Kind: model.Invariant,
	Doc:  "all processes InCS are in the same group",
	Holds: func(s model.Snapshot) bool {
		g := -1
		for i := range s.Processes() {
			if s.Phase(i) != model.InCS {
				continue
			}
			if g >= 0 && s.Group(i) != g {
				return false
			}
			g = s.Group(i)
		}
		return true
	},
	Applies:       func(i model.Info) bool { return i.GME },
	NotApplicable: "it is not a group mutual exclusion algorithm: check mutex",
}

// Standard returns the generic safety properties in their canonical order.
func Standard() []model.Property {
	return []model.Property{Mutex, GMESafety, SingleToken, NoUnrequestedEntry, NoDeadlock}
}

// Applicable returns the properties of all that apply to info, in order;
// of several with one name, the first that applies.
func Applicable(all []model.Property, info model.Info) []model.Property {
	var out []model.Property
	seen := map[string]bool{}
	for _, p := range all {
		if p.AppliesTo(info) && !seen[p.Name] {
			seen[p.Name] = true
			out = append(out, p)
		}
	}
	return out
}

// Select resolves a comma-separated list of property names against all.
// An empty list selects every property that applies. An unknown name, or a
// property that does not apply to info, is an error that lists the valid
// names.
func Select(all []model.Property, info model.Info, names string) ([]model.Property, error) {
	if strings.TrimSpace(names) == "" {
		return Applicable(all, info), nil
	}
	var valid []string
	for _, p := range Applicable(all, info) {
		valid = append(valid, p.Name)
	}
	var out []model.Property
	seen := map[string]bool{}
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		var match []model.Property
		for _, p := range all {
			if p.Name == n {
				match = append(match, p)
			}
		}
		if len(match) == 0 {
			return nil, fmt.Errorf("unknown property %q; valid properties for %s: %s", n, info.Name, strings.Join(valid, ", "))
		}
		// An algorithm may replace a generic property by its own of the
		// same name (single-token per resource, say): take the first that
		// applies.
		picked := false
		for _, p := range match {
			if p.AppliesTo(info) {
				out = append(out, p)
				picked = true
				break
			}
		}
		if !picked {
			return nil, fmt.Errorf("property %q does not apply to %s: %s", n, info.Name, match[0].NotApplicable)
		}
	}
	return out, nil
}

// With returns the standard properties followed by an algorithm's own. An
// algorithm property with a standard name (single-token counted per
// resource, or over "valid" tokens only) replaces the standard one in place.
func With(extra ...model.Property) []model.Property {
	out := Standard()
	for _, e := range extra {
		replaced := false
		for i := range out {
			if out[i].Name == e.Name {
				out[i] = e
				replaced = true
			}
		}
		if !replaced {
			out = append(out, e)
		}
	}
	return out
}
