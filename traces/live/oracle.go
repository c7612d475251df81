package live

import (
	"sync"

	"github.com/tokenmc/tokenmc/model/protocol"
)

// oracle is the global state of a run of a system with a whole-state guard
// (protocol.Protocol.Guard, protocol.LocalWorker.Guarded): every process's local
// state and every message in transit (sent and not yet delivered, whether
// delayed, on the wire or in an inbox). A process takes each step of such
// a system under the oracle's lock: it asks the guard on this state, logs
// the step and its effects, and updates the state, so the guard always
// sees a consistent global state, as the model's oracle does, and the log
// lists the steps in the order they were taken (the event-log checker
// replays a guarded system's log in that order). This serialises the
// steps of a guarded system; systems without a guard do not use it.
//
// The runtime never applies a protocol's Normalize hook: processes keep
// absolute counters.
type oracle struct {
	mu     sync.Mutex
	lw     protocol.LocalWorker // used under mu only
	locals []protocol.LocalState
	net    map[string]int // encoded message -> copies in transit
	buf    [][]byte
}

func newOracle(lw protocol.LocalWorker, n int) *oracle {
	o := &oracle{lw: lw, locals: make([]protocol.LocalState, n), net: map[string]int{}}
	for i := range n {
		o.locals[i] = lw.InitialLocal(i)
	}
	for _, m := range lw.InitialMessages() {
		o.net[string(m)]++
	}
	return o
}

// allowed reports whether the guard allows ev at process i now. The
// caller holds mu.
func (o *oracle) allowed(i int, ev protocol.LocalEvent) bool {
	o.buf = o.buf[:0]
	for m, c := range o.net {
		for range c {
			o.buf = append(o.buf, []byte(m))
		}
	}
	return o.lw.Allowed(o.lw.Assemble(o.locals, o.buf, 0), i, ev)
}

// record applies a step of process i: its new local state, the message
// it consumed (nil if none) and the messages it sent. The caller holds mu.
func (o *oracle) record(i int, next protocol.LocalState, consumed []byte, sent [][]byte) {
	o.locals[i] = next
	if consumed != nil {
		k := string(consumed)
		if o.net[k]--; o.net[k] <= 0 {
			delete(o.net, k)
		}
	}
	for _, m := range sent {
		o.net[string(m)]++
	}
}
