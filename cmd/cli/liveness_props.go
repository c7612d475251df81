package cli

import (
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// livenessProp is a graph property check --props accepts by name (checked
// by explore.CheckLiveness, not a model.Property): whether it applies to a
// system, and why not when it does not.
type livenessProp struct {
	name          string
	applies       func(model.Info) bool // nil: always
	notApplicable string
}

func (l livenessProp) appliesTo(info model.Info) bool { return l.applies == nil || l.applies(info) }

// livenessProps returns the graph properties in canonical order:
// starvation-freedom (every Waiting process eventually enters its CS on
// every fair infinite behaviour) and concurrent-occupancy (group mutual
// exclusion: a request for group X, when nobody is InCS with or Waiting
// for another group, can be granted without any Exit).
func livenessProps() []livenessProp {
	return []livenessProp{
		{name: invariants.NameStarvationFreedom},
		{name: invariants.NameConcurrentOccupancy, applies: func(i model.Info) bool { return i.GME },
			notApplicable: "it is not a group mutual exclusion algorithm"},
	}
}
