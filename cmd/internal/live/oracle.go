package live

import (
	"bytes"
	"sync"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// oracle is the global state of a run of a system with a whole-state guard
// (protocol.Protocol.Guard, protosys.LocalWorker.Guarded): every process's local
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
	lw     protosys.LocalWorker // used under mu only
	w      model.Worker         // the global system's, for dead; under mu only
	locals []protosys.LocalState
	net    map[string]int // encoded message -> copies in transit
	buf    [][]byte
}

func newOracle(sys protosys.LocalSystem, n int) *oracle {
	lw := sys.NewLocalWorker()
	o := &oracle{lw: lw, w: sys.NewWorker(), locals: make([]protosys.LocalState, n), net: map[string]int{}}
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
func (o *oracle) allowed(i int, ev protosys.LocalEvent) bool {
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
func (o *oracle) record(i int, next protosys.LocalState, consumed []byte, sent [][]byte) {
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

// maxRestStates bounds the states dead explores before it gives up (the
// run then goes on to its deadline).
const maxRestStates = 1 << 14

// dead reports whether no request can ever be made again, so that the run
// is over: every process is Idle, the guard refuses a request (in every
// group) of each process with requests left (fewer than r made), and no
// state reachable from the current global state by the system's own
// transitions (deliveries, timers, as the model's Successors gives them,
// guard included) enables a Request. refused counts the processes with
// requests left. A circulating token (torus) does not keep such a run
// alive; a guard that refuses a request only for a while (a backlog bound)
// does, since a reachable state allows it. The caller holds mu.
func (o *oracle) dead(r, groups int) (refused int, dead bool) {
	for _, s := range o.locals {
		if s.Phase != model.Idle {
			return 0, false
		}
	}
	for i, s := range o.locals {
		if s.Made >= r {
			continue
		}
		for g := range max(groups, 1) {
			if o.allowed(i, protosys.LocalEvent{Kind: model.Request, Arg: g}) {
				return 0, false
			}
		}
		refused++
	}
	if refused == 0 {
		return 0, false // every process is done: the run ends the usual way
	}
	o.buf = o.buf[:0]
	for m, c := range o.net {
		for range c {
			o.buf = append(o.buf, []byte(m))
		}
	}
	start := o.lw.Assemble(o.locals, o.buf, 0)
	seen := map[string]bool{string(start): true}
	queue := [][]byte{start}
	for len(queue) > 0 {
		if len(seen) > maxRestStates {
			return 0, false
		}
		st := queue[0]
		queue = queue[1:]
		request := false
		o.w.Successors(st, func(t *model.Transition, next []byte) bool {
			if t.Kind == model.Request {
				request = true
				return false
			}
			if !seen[string(next)] {
				seen[string(next)] = true
				queue = append(queue, bytes.Clone(next))
			}
			return true
		})
		if request {
			return 0, false
		}
	}
	return refused, true
}
