package multitokenring

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// ResourceMutex replaces the generic "mutex" (semantics.md §1, per
// resource for multi-token algorithms): at most one process is InCS for
// each resource; processes InCS for different resources are allowed.
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

// TokenPerRequest replaces the generic "single-token" with its
// multi-token reading (algorithms.md §10.6, "token-per-request"): every
// Waiting process's own token exists exactly once, in transit or held back
// by some process, for the resource it requested, and no other token
// exists; a process InCS has consumed its token. So no token is lost or
// duplicated, and (with mutex) at most one returned token per resource
// grants a CS.
var TokenPerRequest = protocol.Invariant("single-token",
	"per request: each Waiting process's token exists exactly once (in transit or held back) for its resource, and no other token exists",
	func(v *protocol.View[Proc, Msg]) bool {
		n := v.Processes()
		count := make([]int, n)
		ok := true
		see := func(t Token, copies int) {
			if t.Owner < 0 || t.Owner >= n || v.Phase(t.Owner) != model.Waiting || v.Local(t.Owner).Res != t.Res {
				ok = false
				return
			}
			count[t.Owner] += copies
		}
		for i := range n {
			for _, t := range v.Local(i).Held {
				see(t, 1)
			}
		}
		v.Messages(func(m *Msg, copies int) { see(m.Tok, copies) })
		for i := range n {
			if (v.Phase(i) == model.Waiting) != (count[i] == 1) {
				return false
			}
		}
		return ok
	})

// Properties returns the algorithm-specific properties; both replace a
// generic property of the same name (invariants.With).
func Properties() []model.Property {
	return []model.Property{ResourceMutex, TokenPerRequest}
}
