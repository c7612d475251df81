package explore

import (
	"context"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/modelstep"
)

// graph is the explicit reachable state graph that the liveness checks
// need: states are numbered in breadth-first order, and the transitions of
// state s are edges off[s]..off[s+1]-1, in Successors order, so the edge
// e of s is the transition with index e-off[s]. Each edge records its
// target and its fairness family. States themselves are not kept (only
// their fingerprints, or in exact mode their bytes); a path is rebuilt by
// replaying transition indices, as the safety BFS does.
type graph struct {
	n        int      // processes
	off      []int64  // len = expanded states + 1
	to       []uint32 // edge target
	fam      []uint32 // edge family
	parent   []uint32 // BFS parent, noParent for initial states
	pact     []uint16 // transition index from the parent (initial index for roots)
	depth    []int32  // BFS distance
	waiting  []uint64 // bit i: process i is Waiting
	incs     []uint64 // bit i: process i is InCS (occupancy only)
	groups   []uint8  // n per state: group of each process (occupancy only)
	complete []uint64 // bit set: the state was expanded with all its successors
	fams     familyTable
	maxDepth int
}

func (g *graph) states() int { return len(g.parent) }

func (g *graph) expanded(s uint32) bool { return g.complete[s>>6]&(1<<(s&63)) != 0 }

func (g *graph) edges(s uint32) (int64, int64) {
	if int(s)+1 >= len(g.off) {
		return 0, 0
	}
	return g.off[s], g.off[s+1]
}

func (g *graph) isWaiting(s uint32, p int) bool { return g.waiting[s]&(1<<uint(p)) != 0 }

// familyTable interns fairness families.
type familyTable struct {
	ids   map[string]uint32
	class []FairnessClass
	kind  []model.ActionKind
	proc  []int
	arg   []int // Request: the group; Timer: the timer
}

func (ft *familyTable) intern(key []byte, c FairnessClass, t *model.Transition) uint32 {
	if id, ok := ft.ids[string(key)]; ok {
		return id
	}
	id := uint32(len(ft.class))
	ft.ids[string(key)] = id
	ft.class = append(ft.class, c)
	ft.kind = append(ft.kind, t.Kind)
	ft.proc = append(ft.proc, t.Proc)
	ft.arg = append(ft.arg, t.Arg)
	return id
}

// buildResult is what the graph construction found besides the graph.
type buildResult struct {
	stopReason StopReason
	deadlock   int64 // id of the first terminal state with a Waiting process, or -1
	trans      int64
	idBytes    int64
	// failure: the model panicked expanding state failedAt; the graph
	// stops there.
	failure  *protocol.ModelPanic
	failedAt uint32
}

// buildGraph explores sys breadth first, sequentially, and records the
// graph. A state that cannot be expanded completely (MaxStates or MaxDepth)
// keeps its id but no edges, and is marked incomplete: the liveness checks
// ignore it, so whatever they find is a real counterexample.
func buildGraph(ctx context.Context, sys model.System, opts LivenessOptions, occupancy bool, live *liveCounters) (*graph, buildResult, error) {
	info := sys.Info()
	if info.Processes > 64 {
		return nil, buildResult{}, fmt.Errorf("liveness checks support at most 64 processes, the system has %d", info.Processes)
	}
	g := &graph{n: info.Processes, fams: familyTable{ids: map[string]uint32{}}}
	ids := newNumberedSet(opts.Exact)
	defer ids.free()
	nids := 0 // states numbered so far
	br := buildResult{deadlock: -1}
	w := sys.NewWorker()
	if _, ok := w.(CapacityBlocker); ok {
		return nil, br, errCapacityLiveness
	}
	var cur, next level
	next.reset(0)
	admit := func(s []byte, fp uint64, slot int, parent uint32, act int) {
		ids.insertAt(fp, slot, s, uint32(nids))
		nids++
		next.add(s)
		g.parent = append(g.parent, parent)
		g.pact = append(g.pact, uint16(act))
	}
	ai := 0
	w.Initial(func(s []byte) bool {
		fp := Fingerprint(s)
		if _, ok, slot := ids.find(fp, s); !ok && (opts.MaxStates == 0 || int64(nids) < opts.MaxStates) {
			admit(s, fp, slot, noParent, ai)
			g.depth = append(g.depth, 0)
		}
		ai++
		return true
	})
	g.off = append(g.off, 0)
	var key []byte
	depth := int32(0)
	var id uint32
	var partial, tooMany bool
	st := modelstep.New(w) // catches the model's panics
	yield := func(t *model.Transition, s []byte) bool {
		a := len(g.to) - int(g.off[id])
		if a > maxAction {
			tooMany = true // its parent links cannot number this transition
			return false
		}
		var c FairnessClass
		key, c = AppendFamily(key[:0], t, opts.Fairness)
		f := g.fams.intern(key, c, t)
		fp := Fingerprint(s)
		to, ok, slot := ids.find(fp, s)
		if !ok {
			to = uint32(nids)
			if opts.MaxStates > 0 && int64(nids) >= opts.MaxStates {
				partial = true
				return true
			}
			admit(s, fp, slot, id, a)
			g.depth = append(g.depth, depth+1)
		}
		g.to = append(g.to, to)
		g.fam = append(g.fam, f)
		return true
	}
	for {
		cur, next = next, cur
		base := uint32(len(g.off) - 1)
		next.reset(0)
		if cur.len() == 0 {
			break
		}
		live.frontier.Store(int64(cur.len()))
		live.depth.Store(int64(depth))
		atMax := opts.MaxDepth > 0 && int(depth) >= opts.MaxDepth
		for k := 0; k < cur.len(); k++ {
			if k&0x3ff == 0 && ctx.Err() != nil {
				br.stopReason = StopInterrupted
				g.finish(&br, ids.bytes(), nids, live)
				return g, br, nil
			}
			if k&0xffff == 0 && overBudget(opts.MemoryBudget) { // graph grows past --memory
				br.stopReason = StopMemory
				g.finish(&br, ids.bytes(), nids, live)
				return g, br, nil
			}
			id = base + uint32(k)
			s := cur.state(k)
			snap := w.Snapshot(s)
			wm, im := phaseMasks(snap, g.n)
			g.waiting = append(g.waiting, wm)
			if occupancy {
				g.incs = append(g.incs, im)
				for i := range g.n {
					g.groups = append(g.groups, uint8(snap.Group(i)))
				}
			}
			if int(id)&63 == 0 {
				g.complete = append(g.complete, 0)
			}
			if atMax {
				g.off = append(g.off, int64(len(g.to)))
				if br.stopReason == "" {
					br.stopReason = StopMaxDepth
				}
				continue
			}
			partial = false
			start := len(g.to)
			if f := st.Successors(s, yield); f != nil {
				br.failure, br.failedAt = f, id
				g.off = append(g.off, int64(len(g.to)))
				g.finish(&br, ids.bytes(), nids, live)
				return g, br, nil
			}
			if tooMany {
				return nil, br, tooManyTransitions(info.Name, "liveness checks need a model with fewer transitions per state")
			}
			g.off = append(g.off, int64(len(g.to)))
			if partial {
				br.stopReason = StopMaxStates
				continue
			}
			g.complete[id>>6] |= 1 << (id & 63)
			if len(g.to) == start && wm != 0 && br.deadlock < 0 {
				br.deadlock = int64(id)
			}
		}
		live.states.Store(int64(nids))
		live.transitions.Store(int64(len(g.to)))
		if next.len() > 0 {
			depth++
			g.maxDepth = int(depth)
		}
	}
	g.finish(&br, ids.bytes(), nids, live)
	return g, br, nil
}

func (g *graph) finish(br *buildResult, idBytes int64, nids int, live *liveCounters) {
	br.idBytes = idBytes
	// States admitted but never expanded (interrupt) get empty edge lists.
	for len(g.off) < len(g.parent)+1 {
		g.off = append(g.off, int64(len(g.to)))
		g.waiting = append(g.waiting, 0)
		if len(g.incs) > 0 {
			g.incs = append(g.incs, 0)
			g.groups = append(g.groups, make([]uint8, g.n)...)
		}
		if (len(g.off)-2)&63 == 0 {
			g.complete = append(g.complete, 0)
		}
	}
	for len(g.complete)*64 < len(g.parent) {
		g.complete = append(g.complete, 0)
	}
	br.trans = int64(len(g.to))
	live.states.Store(int64(nids))
}

func (g *graph) bytes() int64 {
	return int64(cap(g.off))*8 + int64(cap(g.to))*4 + int64(cap(g.fam))*4 + int64(cap(g.parent))*4 +
		int64(cap(g.pact))*2 + int64(cap(g.depth))*4 + int64(cap(g.waiting))*8 + int64(cap(g.incs))*8 +
		int64(cap(g.groups)) + int64(cap(g.complete))*8
}

// pathActions returns the index of the initial state of s's BFS path and
// the transition indices along it.
func (g *graph) pathActions(s uint32) (int, []int) {
	var acts []int
	for {
		p := g.parent[s]
		if p == noParent {
			return int(g.pact[s]), reversed(acts)
		}
		acts = append(acts, int(g.pact[s]))
		s = p
	}
}

// phaseMasks returns the processes of snap (n of them) that are Waiting
// and those InCS, as bit sets (bit i: process i).
func phaseMasks(snap model.Snapshot, n int) (waiting, incs uint64) {
	for i := range n {
		switch snap.Phase(i) {
		case model.Waiting:
			waiting |= 1 << uint(i)
		case model.InCS:
			incs |= 1 << uint(i)
		}
	}
	return waiting, incs
}
