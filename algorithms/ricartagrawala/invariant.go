package ricartagrawala

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// NameRepliesAccounted is the name of RepliesAccounted.
const NameRepliesAccounted = "replies-accounted"

// RepliesAccounted is the algorithm-specific invariant that makes the reply
// counter meaningful (Ricart-Agrawala 1981 §3): for a Waiting process i,
// Outstanding_Reply_Count equals the number of processes whose permission
// is still on its way: REQUESTs from i in transit, plus processes that
// deferred i, plus REPLYs to i in transit. Any other process awaits no
// reply.
var RepliesAccounted = protocol.Invariant(NameRepliesAccounted,
	"a Waiting process's reply count equals its REQUESTs in transit + the processes deferring it + the REPLYs on their way to it",
	func(v *protocol.View[Proc, Msg]) bool {
		n := v.Processes()
		pending := make([]int, n)
		v.Messages(func(m *Msg, copies int) {
			if m.Kind == REQUEST {
				pending[m.From] += copies
			} else {
				pending[m.To] += copies
			}
		})
		for j := range n {
			for _, i := range v.Local(j).Deferred {
				pending[i]++
			}
		}
		for i := range n {
			want := 0
			if v.Phase(i) == model.Waiting {
				want = pending[i]
			}
			if v.Local(i).Outstanding != want {
				return false
			}
		}
		return true
	})

// Properties returns the algorithm-specific properties, checked in addition
// to the generic ones of package invariants.
func Properties() []model.Property { return []model.Property{RepliesAccounted} }
