// Package propsplit sorts a list of properties by kind for the checkers
// that evaluate them state by state and transition by transition: the
// explorer's searches, its random walks and the fuzzing of proptest.
package propsplit

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// Split is a list of properties sorted by kind, for a checker that
// evaluates them state by state and transition by transition (searches,
// random walks, fuzzing). Within a kind the order
// of the list is kept, so the first violated property is the same one a
// search reports.
type Split struct {
	Invariants  []model.Property // kind model.Invariant
	Transitions []model.Property // kind model.TransitionInvariant
	Terminals   []model.Property // kind model.Terminal
}

// ByKind sorts ps by kind. It panics on a property of an unknown
// kind, a programming error.
func ByKind(ps []model.Property) Split {
	var s Split
	for _, p := range ps {
		switch p.Kind {
		case model.Invariant:
			s.Invariants = append(s.Invariants, p)
		case model.TransitionInvariant:
			s.Transitions = append(s.Transitions, p)
		case model.Terminal:
			s.Terminals = append(s.Terminals, p)
		default:
			panic(fmt.Sprintf("propsplit: property %q has unknown kind %d", p.Name, p.Kind))
		}
	}
	return s
}

// Invariant returns the first invariant that the state of snap violates,
// or nil.
func (s *Split) Invariant(snap model.Snapshot) *model.Property {
	for k := range s.Invariants {
		if !s.Invariants[k].Holds(snap) {
			return &s.Invariants[k]
		}
	}
	return nil
}

// Terminal returns the first terminal property that snap, the snapshot of
// a state without enabled transitions, violates, or nil. It does not
// check the invariants.
func (s *Split) Terminal(snap model.Snapshot) *model.Property {
	for k := range s.Terminals {
		if !s.Terminals[k].Holds(snap) {
			return &s.Terminals[k]
		}
	}
	return nil
}

// Transition returns the first transition invariant that t violates, or
// nil.
func (s *Split) Transition(t *model.Transition) *model.Property {
	for k := range s.Transitions {
		if !s.Transitions[k].HoldsOn(t) {
			return &s.Transitions[k]
		}
	}
	return nil
}
