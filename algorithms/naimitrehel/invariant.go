package naimitrehel

import (
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// NameNextQueue is the name of NextQueue.
const NameNextQueue = "next-queue"

// NextQueue is the algorithm-specific invariant of the distributed queue
// formed by the next pointers (Naimi-Trehel-Arnold 1996 §4): a process
// with next_i != nil is Waiting or InCS, next_i is a Waiting process, and
// no two processes point to the same next.
var NextQueue = protocol.Invariant(NameNextQueue,
	"next pointers form a queue of Waiting processes behind requesting ones, without sharing",
	func(v *protocol.View[Proc, Msg]) bool {
		n := v.Processes()
		seen := make([]bool, n)
		for i := range n {
			j := v.Local(i).Next
			if j == Nil {
				continue
			}
			if j < 0 || j >= n || seen[j] || v.Phase(i) == model.Idle || v.Phase(j) != model.Waiting {
				return false
			}
			seen[j] = true
		}
		return true
	})

// Properties returns the algorithm-specific properties, checked in addition
// to the generic ones of package invariants.
func Properties() []model.Property { return []model.Property{NextQueue} }
