package raymond

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// NameHolderPaths is the name of HolderPaths.
const NameHolderPaths = "holder-paths"

// HolderPaths is the algorithm-specific invariant behind Raymond's proof
// (1989 §4): from every node, following holder pointers reaches the token
// within N-1 steps, without a cycle: the token is at a node whose holder is
// Self, or in a PRIVILEGE message whose receiver then counts as the end of
// the path (its holder still points back at the sender). Besides, no
// request queue holds an id twice, and a node has asked only if its queue
// is not empty.
var HolderPaths = protocol.Invariant(NameHolderPaths,
	"holder pointers lead every node to the token without a cycle; queues hold no duplicates; asked implies a non-empty queue",
	func(v *protocol.View[Proc, Msg]) bool {
		n := v.Processes()
		end := make([]bool, n)
		v.Messages(func(m *Msg, _ int) {
			if m.Kind == PRIVILEGE {
				end[m.To] = true
			}
		})
		for i := range n {
			p := v.Local(i)
			if p.Holder == Self {
				end[i] = true
			}
			if p.Asked && len(p.Queue) == 0 {
				return false
			}
			for k, x := range p.Queue {
				for _, y := range p.Queue[:k] {
					if x == y {
						return false
					}
				}
			}
		}
		for i := range n {
			x := i
			for steps := 0; !end[x]; steps++ {
				h := v.Local(x).Holder
				if steps >= n || h < 0 || h >= n {
					return false
				}
				x = h
			}
		}
		return true
	})

// Properties returns the algorithm-specific properties, checked in addition
// to the generic ones of package invariants.
func Properties() []model.Property { return []model.Property{HolderPaths} }
