package simulate

import "github.com/tokenmc/tokenmc/model"

// Violated returns the property violated and the (shrunk) path of states,
// the plain view of a violation that traces.FromViolation takes.
func (v *Violation) Violated() (model.Property, [][]byte) { return v.Property, v.Path }
