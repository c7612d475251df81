package explore

import "github.com/tokenmc/tokenmc/model"

// Violated returns the property violated and the path of states, the
// plain view of a violation that traces.FromViolation takes.
func (v *Violation) Violated() (model.Property, [][]byte) { return v.Property, v.Path }

// ViolatedActions returns the transition taken at each step (Actions),
// which traces.FromViolation records when it is not nil.
func (v *Violation) ViolatedActions() []int { return v.Actions }
