package explore

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"math/bits"
	"os"
	"runtime"
	"runtime/debug"
	"sort"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/modelstep"
	"github.com/tokenmc/tokenmc/model/sysmem"
)

// graph is the explicit reachable state graph that the liveness checks
// need: states are numbered in breadth-first order, and the transitions of
// state s are edges off(s)..off(s+1)-1, in Successors order, so the edge
// e of s is the transition with index e-off(s). Each edge records its
// target and its fairness family. States themselves are not kept (only
// their fingerprints while the graph is built, or in exact mode their
// bytes); a path is rebuilt by replaying transition indices, as the safety
// BFS does. See liveness_store.go for the storage.
type graph struct {
	n        int // processes
	nstates  int
	off      offsets
	out      packedEdges
	waiting  []uint64 // bit s*n+i: process i is Waiting at s
	incs     []uint64 // bit i: process i is InCS (occupancy only)
	groups   []uint8  // n per state: group of each process (occupancy only)
	complete []uint64 // bit set: the state was expanded with all its successors
	levels   []uint32 // levels[d]: the first state at BFS distance d
	parents  *os.File // the spill's parent links (6 bytes a state)
	wd       *workDir
	sp       *spill
	fams     familyTable
	maxDepth int
}

func (g *graph) states() int { return g.nstates }

func (g *graph) numEdges() int64 { return g.out.n }

func (g *graph) expanded(s uint32) bool { return g.complete[s>>6]&(1<<(s&63)) != 0 }

// edges returns the range of the edges of s.
func (g *graph) edges(s uint32) (int64, int64) {
	lo := g.off.at(s)
	return lo, lo + int64(g.off.lo[s+1]-g.off.lo[s])
}

// edge returns the target and the family of edge e.
func (g *graph) edge(e int64) (to, fam uint32) { return g.out.get(e) }

// target returns the target of edge e.
func (g *graph) target(e int64) uint32 {
	to, _ := g.out.get(e)
	return to
}

// family returns the fairness family of edge e.
func (g *graph) family(e int64) uint32 {
	_, f := g.out.get(e)
	return f
}

// source returns the state whose edges include e: the last state whose
// edge range starts at or before e (empty ranges share offsets).
func (g *graph) source(e int64) uint32 {
	i := sort.Search(g.nstates+1, func(i int) bool { return g.off.at(uint32(i)) > e })
	return uint32(i - 1)
}

func (g *graph) isWaiting(s uint32, p int) bool {
	b := uint64(s)*uint64(g.n) + uint64(p)
	return g.waiting[b>>6]&(1<<(b&63)) != 0
}

// waitMask returns the Waiting processes of s (bit i: process i).
func (g *graph) waitMask(s uint32) uint64 {
	return bitsAt(g.waiting, uint64(s)*uint64(g.n), uint(g.n))
}

// depth returns the BFS distance of s.
func (g *graph) depth(s uint32) int32 {
	return int32(sort.Search(len(g.levels), func(d int) bool { return g.levels[d] > s }) - 1)
}

// free releases the arrays held outside the Go heap.
func (g *graph) free() {
	freeU32(g.off.lo)
	g.off.lo = nil
	g.out.free()
}

// familyTable interns fairness families: an open-addressing table of
// key hashes (a map keyed by strings costs a third of the look-up time
// here: one look-up per transition). The hash is the runtime's (maphash),
// the fastest on short keys; the ids do not depend on it.
type familyTable struct {
	seed  maphash.Seed
	slots []famSlot // a power of two, at most half full
	keys  []byte    // the families' keys, end to end
	ends  []int     // ends[f]: end of family f's key in keys
	class []model.FairnessClass
	kind  []model.ActionKind
	proc  []int
	arg   []int // Request: the group; Timer: the timer
}

// famSlot is a slot of familyTable: a key's hash and its family + 1 (0:
// empty).
type famSlot struct {
	h  uint64
	id uint32
}

func (ft *familyTable) key(f uint32) []byte {
	start := 0
	if f > 0 {
		start = ft.ends[f-1]
	}
	return ft.keys[start:ft.ends[f]]
}

func (ft *familyTable) intern(key []byte, c model.FairnessClass, t *model.Transition) uint32 {
	if len(ft.slots) == 0 {
		ft.slots = make([]famSlot, 64)
		ft.seed = maphash.MakeSeed()
	}
	h := maphash.Bytes(ft.seed, key)
	mask := uint64(len(ft.slots) - 1)
	i := h & mask
	for ; ft.slots[i].id != 0; i = (i + 1) & mask {
		if sl := ft.slots[i]; sl.h == h && bytes.Equal(ft.key(sl.id-1), key) {
			return sl.id - 1
		}
	}
	id := uint32(len(ft.class))
	ft.slots[i] = famSlot{h, id + 1}
	ft.keys = append(ft.keys, key...)
	ft.ends = append(ft.ends, len(ft.keys))
	ft.class = append(ft.class, c)
	ft.kind = append(ft.kind, t.Kind)
	ft.proc = append(ft.proc, t.Proc)
	ft.arg = append(ft.arg, t.Arg)
	if 2*len(ft.class) > len(ft.slots) {
		old := ft.slots
		ft.slots = make([]famSlot, 2*len(old))
		mask = uint64(len(ft.slots) - 1)
		for _, sl := range old {
			if sl.id != 0 {
				j := sl.h & mask
				for ft.slots[j].id != 0 {
					j = (j + 1) & mask
				}
				ft.slots[j] = sl
			}
		}
	}
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
// ignore it, so whatever they find is a real counterexample. The edges and
// parent links go to files in wd while the graph is built; the edges are
// loaded into memory once the fingerprint set is freed (liveness_store.go).
// The caller closes the graph.
func buildGraph(ctx context.Context, sys model.System, opts LivenessOptions, occupancy bool, live *liveCounters, wd *workDir) (*graph, buildResult, error) {
	info := sys.Info()
	if info.Processes > 64 {
		return nil, buildResult{}, fmt.Errorf("liveness checks support at most 64 processes, the system has %d", info.Processes)
	}
	br := buildResult{deadlock: -1}
	w := sys.NewWorker()
	if _, ok := w.(CapacityBlocker); ok {
		return nil, br, errCapacityLiveness
	}
	sp, err := newSpill(wd)
	if err != nil {
		return nil, br, err
	}
	g := &graph{n: info.Processes, wd: wd, sp: sp}
	ids := newNumberedSet(opts.Exact)
	defer func() {
		if ids != nil {
			ids.free()
		}
	}()
	nids := 0 // states numbered so far
	var nedges int64
	// The levels spill to the work directory as the safety search's do.
	cur := newFrontier(wd, "liveness-level-a", int(opts.spillAbove()))
	next := newFrontier(wd, "liveness-level-b", int(opts.spillAbove()))
	defer func() { cur.close(); next.close() }()
	admit := func(s []byte, fp uint64, slot int, parent uint32, act int, depth int32) {
		ids.insertAt(fp, slot, s, uint32(nids))
		for len(g.levels) <= int(depth) {
			g.levels = append(g.levels, uint32(nids))
		}
		nids++
		next.mem.add(s)
		next.maybeSpill()
		sp.parent(parent, uint16(act))
	}
	ai := 0
	w.Initial(func(s []byte) bool {
		fp := Fingerprint(s)
		if _, ok, slot := ids.find(fp, s); !ok && (opts.MaxStates == 0 || int64(nids) < opts.MaxStates) {
			admit(s, fp, slot, noParent, ai, 0)
		}
		ai++
		return true
	})
	depth := int32(0)
	var id uint32
	st := modelstep.New(w) // catches the model's panics
	// A block of states is expanded in two passes: the successors of up
	// to expandBatch states are generated (families interned, fingerprints
	// computed, bytes copied) and their slots in the fingerprint set
	// touched, so that the cache misses overlap; then they are numbered
	// and recorded in order, as if each state were expanded at once.
	// With more than one processor, a second goroutine generates the next
	// batch while this one numbers the current one (pipeline): the batches
	// are the same and numbered in the same order, so the graph is too.
	pipelined := opts.Workers != 1 && runtime.GOMAXPROCS(0) > 1
	// The numbering goroutine reads each state's phases with a worker of
	// its own when the batches are generated by another.
	snapW := w
	if pipelined {
		snapW = sys.NewWorker()
	}
	var bt *liveBatch // the batch gen fills
	gen := func(t *model.Transition, s []byte) bool {
		p := &bt.pends[len(bt.pends)-1]
		if p.n > maxAction {
			p.over = true // its parent links cannot number this transition
			return false
		}
		var c model.FairnessClass
		bt.keys, c = model.AppendFamily(bt.keys, t, opts.Fairness)
		bt.arena = append(bt.arena, s...)
		// number fingerprints it and interns its family. The record is
		// appended zeroed and set field by field: a literal appended is
		// built on the stack and copied with loads that straddle its
		// stores, a store-forwarding stall once per successor.
		bt.succs = append(bt.succs, liveSucc{})
		sc := &bt.succs[len(bt.succs)-1]
		sc.end, sc.keyEnd, sc.arg, sc.proc, sc.class, sc.kind = len(bt.arena), len(bt.keys), t.Arg, int32(t.Proc), c, t.Kind
		p.n++
		return true
	}
	// fill generates the successors of blk's states j0..j1-1 into b; it
	// reports false if a state failed or had too many transitions (the
	// batch ends there, and nothing after it is generated).
	fill := func(b *liveBatch, blk *level, j0, j1 int, atMax bool) bool {
		b.arena, b.succs, b.pends, b.keys = b.arena[:0], b.succs[:0], b.pends[:0], b.keys[:0]
		bt = b
		for j := j0; j < j1; j++ {
			b.pends = append(b.pends, livePending{s: blk.state(j), first: len(b.succs)})
			if atMax {
				continue
			}
			if f := st.Successors(blk.state(j), gen); f != nil {
				b.pends[len(b.pends)-1].failure = f
				return false
			}
			if b.pends[len(b.pends)-1].over {
				return false
			}
		}
		return true
	}
	// recent remembers the numbers of the last successors looked up: a
	// state reached again soon (the two ways round a diamond of commuting
	// steps) needs no look-up in the set. Not in exact mode, where the
	// set compares the states' bytes.
	var recent recentIDs
	// fps holds the fingerprints of the successors that number has
	// reached, succs[fpBase:] of its batch.
	var fps []uint64
	fpBase := 0
	if !opts.Exact {
		recent.slots = make([]recentID, recentIDSlots)
	}
	expanded := uint32(0) // states whose edge records are written
	var stopped bool
	var failed error
	// process numbers and records the successors of the k-th state of the
	// current level; it returns false to stop the search (stopped or
	// failed say why).
	process := func(k int, b *liveBatch, p *livePending, atMax bool) bool {
		if k&0x3ff == 0 && ctx.Err() != nil {
			br.stopReason, stopped = StopInterrupted, true
			return false
		}
		if k&0xffff == 0 && g.overBudget(opts.MemoryBudget, ids.bytes(), nids, nedges, len(g.fams.class)) { // graph grows past --memory
			br.stopReason, stopped = StopMemory, true
			return false
		}
		id = expanded
		expanded++
		snap := snapW.Snapshot(p.s)
		wm, im := phaseMasks(snap, g.n)
		g.setWaiting(id, wm)
		if occupancy {
			g.incs = append(g.incs, im)
			for i := range g.n {
				g.groups = append(g.groups, uint8(snap.Group(i)))
			}
		}
		if atMax {
			sp.endState()
			if br.stopReason == "" {
				br.stopReason = StopMaxDepth
			}
			return true
		}
		partial := false
		for i := p.first; i < p.first+p.n; i++ {
			c := &b.succs[i]
			start, keyStart := 0, 0
			if i > 0 {
				start, keyStart = b.succs[i-1].end, b.succs[i-1].keyEnd
			}
			tr := model.Transition{Kind: c.kind, Proc: int(c.proc), Arg: c.arg}
			fam := g.fams.intern(b.keys[keyStart:c.keyEnd], c.class, &tr)
			fp := fps[i-fpBase]
			to, ok := recent.get(fp)
			if !ok {
				s := b.arena[start:c.end]
				var slot int
				to, ok, slot = ids.find(fp, s)
				if !ok {
					to = uint32(nids)
					if opts.MaxStates > 0 && int64(nids) >= opts.MaxStates {
						partial = true
						continue
					}
					admit(s, fp, slot, id, sp.count, depth+1)
				}
				recent.put(fp, to)
			}
			sp.edge(id, to, fam)
		}
		if p.over {
			failed = tooManyTransitions(info.Name, "liveness checks need a model with fewer transitions per state")
			return false
		}
		cnt := sp.count
		nedges += int64(cnt)
		sp.endState()
		if p.failure != nil {
			br.failure, br.failedAt, stopped = p.failure, id, true
			return false
		}
		if partial {
			br.stopReason = StopMaxStates
			return true
		}
		g.complete = growWords(g.complete, uint64(id)+1)
		g.complete[id>>6] |= 1 << (id & 63)
		if cnt == 0 && wm != 0 && br.deadlock < 0 {
			br.deadlock = int64(id)
		}
		return true
	}
	// number numbers and records batch b, whose first state is the k-th
	// of the level; it returns the next k and false to stop.
	number := func(k int, b *liveBatch, atMax bool) (int, bool) {
		for i0 := 0; i0 < len(b.pends); i0 += expandBatch {
			i1 := min(i0+expandBatch, len(b.pends))
			last := &b.pends[i1-1]
			ss := b.succs[b.pends[i0].first : last.first+last.n]
			start := 0
			if b.pends[i0].first > 0 {
				start = b.succs[b.pends[i0].first-1].end
			}
			fps, fpBase = fps[:0], b.pends[i0].first
			for j := range ss {
				fps = append(fps, Fingerprint(b.arena[start:ss[j].end]))
				start = ss[j].end
			}
			touchNumbered(ids, fps, &recent)
			for i := i0; i < i1; i++ {
				if !process(k, b, &b.pends[i], atMax) {
					return k, false
				}
				k++
			}
		}
		return k, true
	}
	var one liveBatch
	var pool [3]liveBatch // the batches a pipeline passes around
	// block expands the states of blk, numbering them from k.
	block := func(k int, blk *level, atMax bool) (int, bool) {
		if !pipelined {
			for j0 := 0; j0 < blk.len(); j0 += expandBatch {
				fill(&one, blk, j0, min(j0+expandBatch, blk.len()), atMax) // batches of expandBatch, as before
				var ok bool
				if k, ok = number(k, &one, atMax); !ok {
					return k, false
				}
			}
			return k, true
		}
		ok := pipeline(&pool, blk, atMax, fill, func(b *liveBatch) bool {
			var ok bool
			k, ok = number(k, b, atMax)
			return ok
		})
		return k, ok
	}
	var gc gcTuner
	defer gc.restore()
	// expand runs the search; it returns early on a stop.
	expand := func() error {
		var buf level
		for {
			cur, next = next, cur
			next.clear()
			if cur.count() == 0 {
				return nil
			}
			live.frontier.Store(cur.count())
			live.depth.Store(int64(depth))
			atMax := opts.MaxDepth > 0 && int(depth) >= opts.MaxDepth
			k := 0
			err := cur.blocks(&buf, func(blk *level) bool {
				var ok bool
				k, ok = block(k, blk, atMax)
				return ok
			})
			if err == nil {
				err = failed
			}
			if err == nil {
				err = next.err // a write to the level's file failed
			}
			if err != nil || stopped {
				return err
			}
			live.states.Store(int64(nids))
			live.transitions.Store(nedges)
			gc.tune(int64(nids))
			if next.count() > 0 {
				depth++
				g.maxDepth = int(depth)
			}
		}
	}
	err = expand()
	if err != nil {
		g.close()
		return nil, br, err
	}
	// The fingerprints and the frontier are no longer needed: give their
	// memory back before the edges are loaded.
	br.idBytes = ids.bytes()
	ids.free()
	ids = nil
	cur.close()
	next.close()
	cur.mem, next.mem = level{}, level{}
	g.nstates = nids
	g.padStates(occupancy)
	br.trans = nedges
	live.states.Store(int64(nids))
	live.transitions.Store(nedges)
	if err := sp.flush(); err != nil {
		g.close()
		return nil, br, err
	}
	if br.stopReason == StopInterrupted && br.deadlock < 0 && br.failure == nil {
		// Interrupted with no path to rebuild: nothing reads the edges.
		g.out.n = nedges
		g.parents = sp.parentF
		return g, br, nil
	}
	debug.FreeOSMemory()
	if err := g.loadEdges(sp, nids, nedges, len(g.fams.class)); err != nil {
		g.close()
		return nil, br, err
	}
	g.parents = sp.parentF
	return g, br, nil
}

// expandBatch is how many states buildGraph expands before it numbers
// their successors (see block there).
const expandBatch = 16

// pipeBatch is how many states a pipeline's batch holds: enough that
// handing a batch from one goroutine to the other costs little against
// generating it (number touches and numbers them expandBatch at a time).
const pipeBatch = 1024

// liveBatch holds the successors of up to pipeBatch states, generated
// and not yet numbered: their bytes (arena), families (succs, keys) and
// the states (pends).
type liveBatch struct {
	arena []byte
	succs []liveSucc
	pends []livePending
	keys  []byte // the successors' family keys, end to end
}

// pipeline generates the batches of blk on a second goroutine (fill, in
// order, into the batches of pool) while consume numbers them in order on
// this one; it returns false as soon as consume does, after the other
// goroutine has stopped. fill returning false ends the block's batches
// (the state it stopped at ends the search). The batches and the order
// are those of a one-goroutine loop, so the graph is the same.
func pipeline(pool *[3]liveBatch, blk *level, atMax bool, fill func(b *liveBatch, blk *level, j0, j1 int, atMax bool) bool, consume func(b *liveBatch) bool) bool {
	free := make(chan *liveBatch, len(pool))
	full := make(chan *liveBatch, len(pool))
	for i := range pool {
		free <- &pool[i]
	}
	quit := make(chan struct{})
	n := blk.len()
	var crashed any // a panic of the generating goroutine, raised again here
	go func() {
		defer close(full)
		defer func() {
			if r := recover(); r != nil {
				crashed = r
			}
		}()
		for j0 := 0; j0 < n; j0 += pipeBatch {
			var b *liveBatch
			select {
			case <-quit:
				return
			case b = <-free:
			}
			select {
			case <-quit:
				return
			default:
			}
			more := fill(b, blk, j0, min(j0+pipeBatch, n), atMax)
			full <- b
			if !more {
				return
			}
		}
	}()
	ok := true
	for b := range full {
		if ok && !consume(b) {
			ok = false
			close(quit)
		}
		free <- b
	}
	if crashed != nil {
		panic(crashed)
	}
	return ok
}

// liveSucc is a successor generated but not yet numbered: the end of its
// bytes in the batch's arena, and its transition's family (key, class,
// and what the family table keeps of a new family's transition). The
// numbering goroutine fingerprints the successor and interns the family,
// which balances the pipeline's two halves better than doing it where
// the successor is generated. The goroutines run on two processors, so
// a batch's memory moves between their caches: the fingerprints are kept
// apart, by the numbering goroutine (number's fps), and the record is
// small, because every cache line the numbering goroutine holds must be
// taken back when the generating one writes the batch again (a 48-byte
// record with the fingerprint in it cost the generator a quarter of its
// time in stalled stores).
type liveSucc struct {
	end    int
	keyEnd int // in the batch's keys
	arg    int
	proc   int32 // at most 64 processes (buildGraph)
	class  model.FairnessClass
	kind   model.ActionKind
}

// livePending is a state of the batch: its successors are
// succs[first:first+n]; over: it has more transitions than a parent link
// can number; failure: the model panicked after those n.
type livePending struct {
	s        []byte
	first, n int
	over     bool
	failure  *protocol.ModelPanic
}

// touchNumbered loads the slots (fingerprint and number) of the
// fingerprints' home positions in the numbered set, and the fingerprints
// eight slots on (the next cache line), so that the look-ups that follow
// hit the cache (as prefetch does for the safety search); not those that
// recent holds. The second line pays here: a look-up probes 4.7 slots on
// average in the repaired torus d=2 R=2 (30 M look-ups, 10.6 M of them
// for new states, which probe to the end of their run), and 40 M probes
// fell beyond the home line; find's time there went 1.74 -> 0.89 s.
func touchNumbered(set *seenSet, fps []uint64, recent *recentIDs) {
	var x uint64
	for _, fp := range fps {
		if _, ok := recent.get(fp); ok {
			continue
		}
		sh := &set.shards[shardOf(fp)]
		n := len(sh.fps)
		j := slot(fp, n)
		x += sh.fps[j] + uint64(sh.ids[j]) + sh.fps[min(j+8, n-1)]
	}
	if x == 1 { // never true in practice; keeps the loads
		prefetchSink.Store(x)
	}
}

// growWords extends words to hold at least bits bits, plus a spare word
// (bitsAt may read one word past the last bit).
func growWords(words []uint64, bits uint64) []uint64 {
	for uint64(len(words)) < (bits+63)/64+1 {
		words = append(words, 0)
	}
	return words
}

// setWaiting records the Waiting processes of state s.
func (g *graph) setWaiting(s uint32, wm uint64) {
	pos := uint64(s) * uint64(g.n)
	g.waiting = growWords(g.waiting, pos+uint64(g.n))
	orBitsAt(g.waiting, pos, uint(g.n), wm)
}

// padStates sizes the per-state arrays to all states: those admitted but
// never expanded (a stop) have no Waiting process recorded and are not
// complete.
func (g *graph) padStates(occupancy bool) {
	g.waiting = growWords(g.waiting, uint64(g.nstates)*uint64(g.n))
	g.complete = growWords(g.complete, uint64(g.nstates))
	if occupancy {
		for len(g.incs) < g.nstates {
			g.incs = append(g.incs, 0)
			g.groups = append(g.groups, make([]uint8, g.n)...)
		}
	}
}

// overBudget reports whether the resident memory, or that of the analysis
// once the fingerprint set (idBytes) is freed and the edges are loaded,
// would exceed budget (0: none).
func (g *graph) overBudget(budget, idBytes int64, states int, edges int64, fams int) bool {
	if budget <= 0 {
		return false
	}
	rss := sysmem.CurrentRSS()
	width := int64(bits.Len(uint(states)) + bits.Len(uint(fams)))
	analysis := edges*width/8 + int64(states)*analysisBytesPerState
	return max(rss, rss-idBytes+analysis) > budget
}

// close releases the graph's memory and removes its files.
func (g *graph) close() {
	g.free()
	if g.sp != nil {
		g.sp.close()
	}
	g.parents = nil
}

func (g *graph) bytes() int64 {
	return int64(len(g.off.lo))*4 + g.out.bytes() + int64(cap(g.waiting))*8 + int64(cap(g.incs))*8 +
		int64(cap(g.groups)) + int64(cap(g.complete))*8 + int64(cap(g.levels))*4
}

// pathActions returns the index of the initial state of s's BFS path and
// the transition indices along it.
func (g *graph) pathActions(s uint32) (int, []int, error) {
	var acts []int
	for {
		p, a, err := g.parentOf(s)
		if err != nil {
			return 0, nil, err
		}
		if p == noParent {
			return int(a), reversed(acts), nil
		}
		acts = append(acts, int(a))
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

// recentIDSlots is the size of a recentIDs table: a few successors'
// worth of levels' width in a small model, and small enough for the
// processor's caches.
const recentIDSlots = 1 << 12

// recentIDs is a direct-mapped table of the numbers of fingerprints met
// last (fingerprint mode: a fingerprint is a state). With no slots it
// holds nothing.
type recentIDs struct {
	slots []recentID
}

// recentID is a slot of recentIDs; fp 0 marks it empty (no state has
// fingerprint 0 in the set either).
type recentID struct {
	fp uint64
	id uint32
}

func (r *recentIDs) get(fp uint64) (uint32, bool) {
	if len(r.slots) == 0 {
		return 0, false
	}
	sl := &r.slots[fp&(recentIDSlots-1)]
	return sl.id, sl.fp == fp
}

func (r *recentIDs) put(fp uint64, id uint32) {
	if len(r.slots) != 0 {
		r.slots[fp&(recentIDSlots-1)] = recentID{fp, id}
	}
}
