package torus

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Restrict lets only the processes in the bit mask requesters (bit i:
// process i may request) make requests in p; the others never request but
// still relay requests and the token. 0 means every process and leaves p
// as it is. The design notes (algorithms.md §9.3) expect the repaired torus
// at d = 3 to be starvation-free with requesters {0,1,2,4} and {0,1,3,4},
// R = 1: a restricted set keeps d = 3 small enough to search.
//
// The restriction is a Request guard (protocol.Protocol.Guard), combined with
// any guard p already has, so random walks and runs keep their fast paths
// and run supports it. Call it before p.System.
func Restrict(p *protocol.Protocol[Proc, Msg], requesters int) error {
	n := p.N
	if requesters == 0 {
		return nil
	}
	if requesters < 0 || (n < 62 && requesters >= 1<<n) {
		return fmt.Errorf("requesters=%d is not a bit mask of the %d processes (1..%d; 0: all)", requesters, n, 1<<n-1)
	}
	mask := uint64(requesters)
	prev := p.Guard
	// It reads only the action: local if the guard before it was.
	p.GuardLocal = prev == nil || p.GuardLocal
	p.Guard = func(v *protocol.View[Proc, Msg], a *protocol.Action[Msg]) bool {
		if a.Kind == model.Request && (a.Proc >= 64 || mask&(1<<uint(a.Proc)) == 0) {
			return false
		}
		return prev == nil || prev(v, a)
	}
	return nil
}

// RequesterMask parses a list of process ids into a bit mask.
func RequesterMask(ids ...int) int {
	m := 0
	for _, i := range ids {
		m |= 1 << i
	}
	return m
}
