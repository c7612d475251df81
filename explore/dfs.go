package explore

import (
	"context"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// dfs is a single-threaded depth-first search over the same seen set. A
// state is inserted when it is first generated; its children are the
// successors that were new at that moment, visited in transition order.
// Counts equal those of BFS; counterexamples are the current stack, which
// need not be shortest.
type dfs struct {
	sys      model.System
	opts     Options
	props    invariants.Split
	live     *liveCounters
	seen     *seenSet
	w        model.Worker
	capw     CapacityBlocker   // w, if it is one
	st       *protocol.Stepper // steps w, catching the model's panics
	stack    []*frame
	states   int64
	trans    int64
	depth    int
	hitDepth bool
	pushes   int64
	sk       *sketch // Options.Sketch (nil: none)
}

type frame struct {
	state    []byte
	children level
	next     int
	order    []int32 // the order of the children (Options.Order; nil: natural)
}

func newDFS(sys model.System, opts Options, live *liveCounters) *dfs {
	d := &dfs{sys: sys, opts: opts, props: invariants.SplitByKind(opts.Properties), live: live, seen: newSeenSetFor(&opts), w: sys.NewWorker(), sk: newSketch(&opts)}
	d.capw, _ = d.w.(CapacityBlocker)
	d.st = protocol.NewStepper(d.w)
	return d
}

func (d *dfs) result(v Verdict) *Result {
	return &Result{Verdict: v, States: d.states, Transitions: d.trans, Depth: d.depth, SeenBytes: d.seen.bytes()}
}

func (d *dfs) stopped(reason StopReason) *Result {
	r := d.result(Incomplete)
	r.StopReason = reason
	return r
}

func (d *dfs) path(extra []byte) [][]byte {
	var p [][]byte
	for _, f := range d.stack {
		p = append(p, f.state)
	}
	if extra != nil {
		p = append(p, extra)
	}
	return p
}

func (d *dfs) run(ctx context.Context) *Result {
	var inits [][]byte
	truncated := false
	d.w.Initial(func(s []byte) bool {
		if fp := seededFingerprint(s, d.opts.HashSeed); d.seen.insert(fp, s) {
			if d.opts.MaxStates > 0 && d.states >= d.opts.MaxStates {
				truncated = true
				return false
			}
			d.states++
			d.sk.add(fp, s)
			inits = append(inits, append([]byte(nil), s...))
		}
		return true
	})
	// The loop below looks at ctx every 1024 steps; look once before it,
	// so that a search cancelled before it starts stops whatever the
	// model's size, as the breadth-first one does.
	if ctx.Err() != nil {
		d.live.states.Store(d.states)
		return d.stopped(StopInterrupted)
	}
	hitDepth := false
	for _, s := range inits {
		if r := d.push(s); r != nil {
			return r
		}
		for len(d.stack) > 0 {
			if d.pushes++; d.pushes&0x3ff == 0 && ctx.Err() != nil {
				return d.stopped(StopInterrupted)
			}
			if d.pushes&0xffff == 0 && overBudget(d.opts.MemoryBudget) {
				return memoryStop(d.stopped(StopMemory), d.opts.MemoryBudget)
			}
			top := d.stack[len(d.stack)-1]
			if top.next >= top.children.len() {
				d.stack = d.stack[:len(d.stack)-1]
				continue
			}
			i := top.next
			if top.order != nil {
				i = int(top.order[i])
			}
			child := top.children.state(i)
			top.next++
			if r := d.push(child); r != nil {
				if r.StopReason == StopMaxStates {
					truncated = true
					break
				}
				return r
			}
			if d.hitDepth {
				hitDepth = true
			}
		}
		if truncated {
			break
		}
	}
	d.live.states.Store(d.states)
	switch {
	case truncated:
		return d.stopped(StopMaxStates)
	case hitDepth:
		return d.stopped(StopMaxDepth)
	}
	return d.result(OK)
}

// push visits a state: checks it, generates its successors and pushes its
// frame. It returns a non-nil result when the search must end.
func (d *dfs) push(s []byte) *Result {
	f := &frame{state: append([]byte(nil), s...)}
	d.stack = append(d.stack, f)
	depth := len(d.stack) - 1
	d.depth = max(d.depth, depth)
	d.hitDepth = false
	if len(d.props.Invariants) > 0 {
		snap := d.w.Snapshot(f.state)
		for _, p := range d.props.Invariants {
			if !p.Holds(snap) {
				r := d.result(Violated)
				r.Violation = &Violation{Property: p, Path: d.path(nil)}
				return r
			}
		}
	}
	f.children.reset(0)
	atMax := d.opts.MaxDepth > 0 && depth >= d.opts.MaxDepth
	n := 0
	var viol *Violation
	full := false
	failed := d.st.Successors(f.state, func(t *model.Transition, next []byte) bool {
		n++
		d.trans++
		for _, p := range d.props.Transitions {
			if !p.HoldsOn(t) {
				viol = &Violation{Property: p, Path: d.path(append([]byte(nil), next...))}
				return false
			}
		}
		fp := seededFingerprint(next, d.opts.HashSeed)
		if atMax {
			if !d.seen.contains(fp, next) {
				d.hitDepth = true
			}
			return true
		}
		if d.seen.insert(fp, next) {
			if d.opts.MaxStates > 0 && d.states >= d.opts.MaxStates {
				full = true
				return false
			}
			d.states++
			d.sk.add(fp, next)
			f.children.add(next)
		}
		return true
	})
	f.order = visitOrder(d.opts.Order, d.opts.HashSeed, f.state, f.children.len())
	d.live.states.Store(d.states)
	d.live.transitions.Store(d.trans)
	d.live.depth.Store(int64(d.depth))
	if failed != nil && viol == nil {
		r := d.result(ModelFailed)
		r.ModelError = &ModelError{Panic: failed, Path: d.path(nil)}
		return r
	}
	if viol != nil {
		r := d.result(Violated)
		r.Violation = viol
		return r
	}
	if full {
		return d.stopped(StopMaxStates)
	}
	if n == 0 && d.capw != nil && d.capw.CapacityBlocked() {
		d.live.capBlocked.Add(1)
	} else if n == 0 && len(d.props.Terminals) > 0 {
		snap := d.w.Snapshot(f.state)
		for _, p := range d.props.Terminals {
			if !p.Holds(snap) {
				r := d.result(Violated)
				r.Violation = &Violation{Property: p, Path: d.path(nil)}
				return r
			}
		}
	}
	return nil
}
