package explore

import "github.com/tokenmc/tokenmc/model"

// Violated returns the property violated and the path of states, the
// plain view of a violation that traces.FromViolation takes.
func (v *Violation) Violated() (model.Property, [][]byte) { return v.Property, v.Path }

// ViolatedActions returns the transition taken at each step (Actions),
// which traces.FromViolation records when it is not nil.
func (v *Violation) ViolatedActions() []int { return v.Actions }

// Starving returns the waiting process, the states, the actions and the
// number of prefix steps, the plain view of a lasso that
// traces.FromStarvation takes.
func (l *Lasso) Starving() (process int, states [][]byte, actions []int, loop int) {
	return l.Process, l.Path, l.Actions, l.Loop
}
