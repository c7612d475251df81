package coordres

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// ResourceMutex replaces the generic "mutex": at most one process is InCS
// for each resource (one CS per resource; different resources may be used
// at once).
var ResourceMutex = protocol.Invariant("mutex",
	"at most one process is InCS for each resource (processes InCS for different resources are allowed)",
	func(v *protocol.View[Proc, Msg]) bool {
		var in []int
		for i := range v.Processes() {
			if v.Phase(i) != model.InCS {
				continue
			}
			r := v.Local(i).Res
			for _, x := range in {
				if x == r {
					return false
				}
			}
			in = append(in, r)
		}
		return true
	})

// TokenPerResource replaces the generic "single-token": for every resource
// r exactly one token exists, at the coordinator (Has[r]), at a client in
// its CS on r, or in a TOKEN(r) or RETURN(r) message.
var TokenPerResource = protocol.Invariant("single-token",
	"per resource: exactly one token of each resource exists (at the coordinator, at a client in its CS, or in transit)",
	func(v *protocol.View[Proc, Msg]) bool {
		c := v.Local(0)
		count := make([]int, len(c.Has))
		for r, h := range c.Has {
			if h {
				count[r]++
			}
		}
		ok := true
		for i := 1; i < v.Processes(); i++ {
			if p := v.Local(i); p.Held {
				if p.Res < 0 || p.Res >= len(count) {
					ok = false
					continue
				}
				count[p.Res]++
			}
		}
		v.Messages(func(m *Msg, copies int) {
			if m.Kind != REQUEST {
				count[m.Res] += copies
			}
		})
		for _, n := range count {
			if n != 1 {
				return false
			}
		}
		return ok
	})

// Properties returns the algorithm-specific properties; both replace a
// generic property of the same name (invariants.With).
func Properties() []model.Property {
	return []model.Property{ResourceMutex, TokenPerResource}
}
