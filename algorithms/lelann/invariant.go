package lelann

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// NameTokenOnlyInCS is the name of TokenOnlyInCS.
const NameTokenOnlyInCS = "token-only-in-cs"

// TokenOnlyInCS is the algorithm-specific invariant: a process holds the
// token exactly while it is InCS (it never parks the token: an idle or
// waiting process that does not use it passes it on in the same step).
var TokenOnlyInCS = protocol.Invariant(NameTokenOnlyInCS,
	"a process holds the token exactly while it is InCS",
	func(v *protocol.View[Proc, Msg]) bool {
		for i := range v.Processes() {
			if v.Local(i).Has != (v.Phase(i) == model.InCS) {
				return false
			}
		}
		return true
	})

// Properties returns the algorithm-specific properties, checked in addition
// to the generic ones of package invariants.
func Properties() []model.Property { return []model.Property{TokenOnlyInCS} }
