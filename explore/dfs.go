package explore

import (
	"context"

	"github.com/tokenmc/tokenmc/explore/internal/propsplit"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/modelstep"
)

// dfs is a single-threaded depth-first search over the same seen set. A
// state is inserted when it is first generated; its children are the
// successors that were new at that moment, visited in transition order.
// Counts equal those of BFS; counterexamples are the current stack, which
// need not be shortest.
type dfs struct {
	sys      model.System
	opts     Options
	props    propsplit.Split
	live     *liveCounters
	seen     *seenSet
	w        model.Worker
	capw     CapacityBlocker    // w, if it is one
	st       *modelstep.Stepper // steps w, catching the model's panics
	stack    []*frame
	acts     []int32 // the frames' children's transitions, a stack like it (frame.acts)
	states   int64
	trans    int64
	depth    int
	hitDepth bool
	pushes   int64
	sk       *sketch // Options.Sketch (nil: none)
}

type frame struct {
	state    []byte
	action   int // the transition of the parent frame's state that led here (-1 for a root)
	children level
	acts     int // dfs.acts[acts+k]: the transition of state that led to child k
	next     int
	order    []int32 // the order of the children (Options.Order; nil: natural)
}

func newDFS(sys model.System, opts Options, live *liveCounters) *dfs {
	d := &dfs{sys: sys, opts: opts, props: propsplit.ByKind(opts.Properties), live: live, seen: newSeenSetFor(&opts), w: sys.NewWorker(), sk: newSketch(&opts)}
	d.capw, _ = d.w.(CapacityBlocker)
	d.st = modelstep.New(d.w)
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

// path returns the states of the stack, then extra if it is not nil (the
// target of transition action of the top state), and the transition taken
// at each step (Violation.Actions).
func (d *dfs) path(extra []byte, action int) ([][]byte, []int) {
	var p [][]byte
	var acts []int
	for i, f := range d.stack {
		p = append(p, f.state)
		if i > 0 {
			acts = append(acts, f.action)
		}
	}
	if extra != nil {
		p = append(p, extra)
		acts = append(acts, action)
	}
	return p, acts
}

// violation is the violation of p along the stack (and, for a transition
// invariant, the transition action of the top state to extra).
func (d *dfs) violation(p model.Property, extra []byte, action int) *Violation {
	path, acts := d.path(extra, action)
	return &Violation{Property: p, Path: path, Actions: acts}
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
		if r := d.push(s, -1); r != nil {
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
				d.acts = d.acts[:top.acts]
				continue
			}
			i := top.next
			if top.order != nil {
				i = int(top.order[i])
			}
			child := top.children.state(i)
			top.next++
			if r := d.push(child, int(d.acts[top.acts+i])); r != nil {
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
func (d *dfs) push(s []byte, action int) *Result {
	f := &frame{state: append([]byte(nil), s...), action: action}
	d.stack = append(d.stack, f)
	depth := len(d.stack) - 1
	d.depth = max(d.depth, depth)
	d.hitDepth = false
	if len(d.props.Invariants) > 0 {
		snap := d.w.Snapshot(f.state)
		for _, p := range d.props.Invariants {
			if !p.Holds(snap) {
				r := d.result(Violated)
				r.Violation = d.violation(p, nil, -1)
				return r
			}
		}
	}
	f.children.reset(0)
	f.acts = len(d.acts)
	atMax := d.opts.MaxDepth > 0 && depth >= d.opts.MaxDepth
	n := 0
	var viol *Violation
	full := false
	failed := d.st.Successors(f.state, func(t *model.Transition, next []byte) bool {
		n++
		d.trans++
		for _, p := range d.props.Transitions {
			if !p.HoldsOn(t) {
				viol = d.violation(p, append([]byte(nil), next...), n-1)
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
			d.acts = append(d.acts, int32(n-1))
		}
		return true
	})
	f.order = visitOrder(d.opts.Order, d.opts.HashSeed, f.state, f.children.len())
	d.live.states.Store(d.states)
	d.live.transitions.Store(d.trans)
	d.live.depth.Store(int64(d.depth))
	if failed != nil && viol == nil {
		r := d.result(ModelFailed)
		path, acts := d.path(nil, -1)
		r.ModelError = &ModelError{Panic: failed, Path: path, Actions: acts}
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
				r.Violation = d.violation(p, nil, -1)
				return r
			}
		}
	}
	return nil
}
