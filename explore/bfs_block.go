package explore

import (
	"context"
	"encoding/binary"
	"sync"
	"sync/atomic"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/modelstep"
)

// chunk is the output of phase 1 for a range of the frontier.
type chunk struct {
	lo, hi      int
	fps         []uint64
	from        []int32 // block index of the parent
	action      []uint16
	arena       []byte
	offs        []int
	won         []bool
	own         [][]int32 // own[w]: the candidates whose shard worker w inserts
	ownWon      [][]bool  // ownWon[w][i]: candidate own[w][i] was new (insertBlock)
	transitions int64
	best        candidateViolation
	capBlocked  int64          // states without successors only because of a channel capacity
	tooMany     bool           // a state has more than maxAction+1 transitions
	maxFan      int            // the most transitions of one of its states
	cov         *coverageChunk // Coverage's counts of the transitions this chunk expanded

	// phase 3: winners and their bytes, and where they go in the next level
	nwon, wonBytes  int
	stateAt, byteAt int

	tb int // bytes of step tag after each candidate's state: the next level's

	// Chunks are allocated one after another and expanded by different
	// workers at once: the padding keeps one chunk's fields (written for
	// every candidate) off the cache lines of the next one's.
	_ [64]byte
}

type candidateViolation struct {
	found  bool
	length int
	k      int64 // index of the state within its level
	action int   // -1 for a state violation
	prop   model.Property
	target []byte // successor state, for transition violations
	// failure: the model panicked expanding the state (action -1).
	failure *protocol.ModelPanic
}

func (a *candidateViolation) better(b candidateViolation) bool {
	if !a.found {
		return true
	}
	if b.length != a.length {
		return b.length < a.length
	}
	if b.k != a.k {
		return b.k < a.k
	}
	return b.action < a.action
}

func (c *chunk) reset(lo, hi int) {
	c.lo, c.hi = lo, hi
	c.fps = c.fps[:0]
	c.from = c.from[:0]
	c.action = c.action[:0]
	c.arena = c.arena[:0]
	c.offs = append(c.offs[:0], 0)
	c.won = c.won[:0]
	c.transitions = 0
	c.capBlocked = 0
	c.best = candidateViolation{}
	c.tooMany = false
	c.maxFan = 0
}

func (c *chunk) state(j int) []byte { return c.arena[c.offs[j] : c.offs[j+1]-c.tb] }

// record is candidate j's state with its tag, if any.
func (c *chunk) record(j int) []byte { return c.arena[c.offs[j]:c.offs[j+1]] }

// dropSeen removes the candidates already in the seen set, compacting the
// chunk in place; with insert (bfs.direct) it inserts the others. The
// look-ups run in one tight loop after the chunk's successors are
// generated, so the processor overlaps their cache misses.
//
// Only candidates from index from on are examined (the earlier ones were
// already filtered), so expand can call it every few states and keep the
// chunk's buffers near the size of its new states, not of all successors.
func (c *chunk) dropSeen(seen *seenSet, from int, insert bool) {
	kept := from
	end := c.offs[from]
	for j := from; j < len(c.fps); j++ {
		fp := c.fps[j]
		if (j-from)%prefetchBatch == 0 {
			prefetch(seen, c.fps[j:min(j+prefetchBatch, len(c.fps))])
		}
		st := c.state(j)
		if insert {
			if !seen.insert(fp, st) {
				continue
			}
		} else if seen.contains(fp, st) {
			continue
		}
		c.fps[kept] = fp
		c.from[kept] = c.from[j]
		c.action[kept] = c.action[j]
		start := end
		end += copy(c.arena[start:], c.record(j))
		kept++
		c.offs[kept] = end
	}
	c.fps = c.fps[:kept]
	c.from = c.from[:kept]
	c.action = c.action[:kept]
	c.offs = c.offs[:kept+1]
	c.arena = c.arena[:end]
}

// expandBlock runs phase 1 over blk. It returns false if ctx was
// cancelled, and the number of transitions of the block's states.
func (b *bfs) expandBlock(ctx context.Context, blk *level) (bool, int64) {
	n := blk.len()
	size := n / (len(b.workers) * 16)
	size = max(64, min(size, 4096))
	nchunks := (n + size - 1) / size
	if cap(b.chunks) < nchunks {
		b.chunks = append(b.chunks[:cap(b.chunks)], make([]*chunk, nchunks-cap(b.chunks))...)
	}
	b.chunks = b.chunks[:nchunks] // reuses every chunk ever allocated
	for i, c := range b.chunks {
		if c == nil {
			b.chunks[i] = &chunk{}
		}
	}
	var next atomic.Int64
	var cancelled atomic.Bool
	// A direct block has changed the seen set as it went: it must run to
	// its end (and be admitted) so that the seen set and the levels agree
	// at the next block boundary, where an interrupt is taken.
	direct := b.direct
	var tables atomic.Int64
	work := func(w model.Worker) {
		// Each call takes a table of recent successors of its own for
		// the block (see recentSlots).
		var recent []uint64
		if recentFilter && !b.seen.exact {
			recent = b.recent[tables.Add(1)-1]
		}
		for {
			if !direct && ctx.Err() != nil {
				cancelled.Store(true)
				return
			}
			ci := int(next.Add(1) - 1)
			if ci >= nchunks {
				return
			}
			c := b.chunks[ci]
			c.reset(ci*size, min(n, (ci+1)*size))
			c.tb = b.next.mem.tb
			b.expand(w, blk, c, recent)
		}
	}
	b.parallel(work)
	var trans, capBlocked int64
	for _, c := range b.chunks {
		trans += c.transitions
		capBlocked += c.capBlocked
	}
	b.live.capBlocked.Add(capBlocked)
	return !cancelled.Load(), trans
}

// parallel runs work once per worker, each on its own goroutine, or one
// after another on this goroutine when the block is serial (b.serial).
// Every phase hands out its work through a shared counter, so the first
// call of a serial block does all of it and the others find none left
// (insertBlock's calls each insert their own shards).
func (b *bfs) parallel(work func(w model.Worker)) {
	if b.serial {
		for _, w := range b.workers {
			work(w)
		}
		return
	}
	var wg sync.WaitGroup
	for _, w := range b.workers {
		wg.Go(func() { work(w) })
	}
	wg.Wait()
}

// expand runs phase 1 over chunk c of blk with worker w; recent is the
// caller's table of recent successors (nil: no filter).
func (b *bfs) expand(w model.Worker, blk *level, c *chunk, recent []uint64) {
	depth := b.depth
	props := &b.props
	noCollect := b.noCollect
	direct := b.direct
	var k, ai int
	if b.cov != nil && c.cov == nil {
		c.cov = b.cov.newChunk()
	}
	var tagger commuter
	if c.tb > 0 {
		tagger = w.(commuter)
	}
	yield := func(t *model.Transition, next []byte) bool {
		a := ai
		ai++
		c.transitions++
		// A nil next: SuccessorsAfter left t unstepped. It leads where an
		// earlier candidate leads (see commutes) and repeats a step taken
		// earlier, where the Local transition properties were checked; it
		// is only counted (and numbered, so a state with more transitions
		// than links can number is refused all the same).
		if next != nil {
			if c.cov != nil {
				c.cov.add(w, blk.state(k), t)
			}
			// Indexed, not ranged by value: a Property is a dozen words,
			// and this runs for every transition.
			for i := range props.Transitions {
				if p := &props.Transitions[i]; !p.HoldsOn(t) {
					v := candidateViolation{found: true, length: depth + 1, k: blk.base + int64(k), action: a, prop: *p}
					if c.best.better(v) {
						v.target = append([]byte(nil), next...)
						c.best = v
					}
					return true
				}
			}
		}
		if c.best.found || noCollect {
			return true // this level ends the search; only count
		}
		if a > maxAction {
			c.tooMany = true // links cannot number this transition
			return false
		}
		if next == nil {
			return true
		}
		fp := seededFingerprint(next, b.opts.HashSeed)
		if recent != nil {
			slot := &recent[fp&(recentSlots-1)]
			if *slot == fp {
				return true // an earlier candidate is the same state and goes first
			}
			*slot = fp
		}
		c.fps = append(c.fps, fp)
		c.from = append(c.from, int32(k))
		c.action = append(c.action, uint16(a))
		c.arena = append(c.arena, next...)
		if tagger != nil {
			c.arena = binary.LittleEndian.AppendUint64(c.arena, tagger.StepTag())
		}
		c.offs = append(c.offs, len(c.arena))
		return true
	}
	last, reuse := w.(lastSnapshotter)
	capw, _ := w.(CapacityBlocker)
	st := modelstep.New(w) // one per chunk: catches the model's panics
	filtered := 0          // candidates before this index are known to be unseen
	deferred := b.deferred
	for k = c.lo; k < c.hi; k++ {
		if (k-c.lo)%filterEvery == filterEvery-1 && (!deferred || len(c.arena) > deferredChunkBytes) {
			c.dropSeen(b.seen, filtered, direct)
			filtered = len(c.fps)
		}
		// After a state violation nothing later in this chunk is shorter:
		// the rest of the chunk is expanded only to count its transitions,
		// so that Result.Transitions covers the whole level whatever the
		// chunking (and hence the number of workers).
		check := !c.best.found || c.best.length > depth
		s := blk.state(k)
		var snap model.Snapshot
		if check && !reuse && len(props.Invariants) > 0 {
			snap = w.Snapshot(s)
		}
		ai = 0
		var f *protocol.ModelPanic
		if b.commute {
			f = st.SuccessorsAfter(s, blk.tag(k), yield)
		} else {
			f = st.Successors(s, yield)
		}
		if f != nil {
			v := candidateViolation{found: true, length: depth, k: blk.base + int64(k), action: -1, failure: f}
			if c.best.better(v) {
				c.best = v
			}
			continue
		}
		c.maxFan = max(c.maxFan, ai)
		blocked := ai == 0 && capw != nil && capw.CapacityBlocked()
		if blocked {
			c.capBlocked++
		}
		if !check {
			continue
		}
		if reuse && (len(props.Invariants) > 0 || (ai == 0 && len(props.Terminals) > 0)) {
			snap = last.LastSnapshot() // the parse Successors made
		}
		bad := false
		for i := range props.Invariants {
			if p := &props.Invariants[i]; !p.Holds(snap) {
				c.best = candidateViolation{found: true, length: depth, k: blk.base + int64(k), action: -1, prop: *p}
				bad = true
				break
			}
		}
		if !bad && ai == 0 && !blocked && len(props.Terminals) > 0 {
			if !reuse {
				snap = w.Snapshot(s)
			}
			for _, p := range props.Terminals {
				if !p.Holds(snap) {
					c.best = candidateViolation{found: true, length: depth, k: blk.base + int64(k), action: -1, prop: p}
					break
				}
			}
		}
	}
	if !deferred {
		c.dropSeen(b.seen, filtered, direct)
	}
	if !direct {
		c.byOwner(len(b.workers))
	}
}

// recentFilter enables expand's filter of recent successors; tests turn it
// off to compare.
var recentFilter = true

// recentSlots is the size of a worker's table of recent successors: 4,096
// fingerprints, 32 KiB, which stay in the processor's nearest caches. It
// drops about half of the successors of the benchmark models before they
// cost a look-up in the seen set (42% with 1,024 slots, 47-52% with 4,096,
// 55-74% with 65,536, whose table no longer stays in those caches).
//
// The tables of recent successors (bfs.recent, one per worker) hold the
// fingerprints of the candidates generated last, one per slot (a
// fingerprint's slot is its low bits; a newer one replaces an older). A
// state is reached again soon after it was first reached (the two orders
// of two independent steps lead to the same state). In a block, each
// goroutine of expandBlock has a table of its own and expands its chunks
// in increasing order, and the blocks come in order, so a successor whose
// fingerprint is in its table comes after another candidate of the same
// state: that one wins in the seen set, or an even earlier one did, and
// this one loses there. expand drops it without the look-up, which is the
// search's costliest memory access. Not in exact mode, where equal
// fingerprints need not be equal states.
const recentSlots = 1 << 12

// byOwner lists the chunk's candidates by the worker that inserts them
// (see insertBlock), in candidate order.
func (c *chunk) byOwner(nw int) {
	if len(c.own) != nw {
		c.own = make([][]int32, nw)
		c.ownWon = make([][]bool, nw)
	}
	for w := range c.own {
		c.own[w] = c.own[w][:0]
	}
	for j, fp := range c.fps {
		w := shardOf(fp) % nw
		c.own[w] = append(c.own[w], int32(j))
	}
}

// filterEvery is how many frontier states expand handles between two
// passes that drop already-seen candidates.
const filterEvery = 256

// prefetchBatch is how many fingerprints are touched ahead of their look-up.
const prefetchBatch = 16

var prefetchSink atomic.Uint64

// prefetch touches the home slots of fps so that the look-ups that follow
// hit the cache.
func prefetch(seen *seenSet, fps []uint64) {
	var x uint64
	for _, fp := range fps {
		x += seen.touch(fp)
	}
	if x == 1 { // never true in practice; keeps the loads from being optimised away
		prefetchSink.Store(x)
	}
}

// insertBlock runs phase 2: parallel inserts by shard.
func (b *bfs) insertBlock() {
	for _, c := range b.chunks {
		if cap(c.won) < len(c.fps) {
			c.won = make([]bool, len(c.fps), 2*len(c.fps))
		}
		c.won = c.won[:len(c.fps)]
	}
	var next atomic.Int64
	// Each worker notes its verdicts in a slice of its own (ownWon): the
	// candidates of a chunk interleave between the workers, and writing
	// c.won at once from both would share its cache lines.
	owner := func(w model.Worker) {
		wi := int(next.Add(1) - 1)
		for _, c := range b.chunks {
			mine := c.own[wi]
			won := grow(c.ownWon[wi], len(mine))
			for lo := 0; lo < len(mine); lo += prefetchBatch {
				// Touch a batch of this worker's candidates' slots, then
				// insert them in order.
				batch := mine[lo:min(lo+prefetchBatch, len(mine))]
				var x uint64
				for _, j := range batch {
					x += b.seen.touch(c.fps[j])
				}
				if x == 1 {
					prefetchSink.Store(x)
				}
				for i, j := range batch {
					won[lo+i] = b.seen.insert(c.fps[j], c.state(int(j)))
				}
			}
			c.ownWon[wi] = won
		}
	}
	b.parallel(owner)
	b.eachChunk(func(c *chunk) {
		for wi, mine := range c.own {
			for i, j := range mine {
				c.won[j] = c.ownWon[wi][i]
			}
		}
	})
}

// admitBlock runs phase 3: it appends the winners to the next level and
// their links, and reports whether MaxStates cut the level.
func (b *bfs) admitBlock(blk *level) bool {
	// Count each chunk's winners (in parallel), then lay the chunks out one
	// after another and copy them into place (in parallel).
	b.eachChunk(func(c *chunk) {
		c.nwon, c.wonBytes = 0, 0
		for j, won := range c.won {
			if won {
				c.nwon++
				c.wonBytes += c.offs[j+1] - c.offs[j]
			}
		}
	})
	states, bytes := 0, 0
	for _, c := range b.chunks {
		c.stateAt, c.byteAt = states, bytes
		states += c.nwon
		bytes += c.wonBytes
	}
	if b.opts.MaxStates > 0 && b.done+b.next.count()+int64(states) > b.opts.MaxStates {
		return b.admitUpTo(blk, b.opts.MaxStates)
	}
	mem := &b.next.mem
	k0, at0 := mem.len(), len(mem.arena)
	mem.arena = grow(mem.arena, at0+bytes)
	mem.offs = grow(mem.offs, k0+states+1)
	links := b.links.reserve(states)
	base := uint32(blk.base)
	b.eachChunk(func(c *chunk) {
		k, at := c.stateAt, at0+c.byteAt
		for j, won := range c.won {
			if !won {
				continue
			}
			at += copy(mem.arena[at:], c.record(j))
			mem.offs[k0+k+1] = at
			putLink(links[k*linkSize:], base+uint32(c.from[j]), c.action[j])
			k++
		}
	})
	if admitted != nil {
		for _, c := range b.chunks {
			for j, won := range c.won {
				if won {
					admitted(b.depth+1, c.state(j), blk.base+int64(c.from[j]), c.action[j])
				}
			}
		}
	}
	return false
}

// admitted, when not nil, is told every state admitBlock admits, in the
// order of its level, with its parent's index in the level before and the
// action from there (not those of a block MaxStates cuts): the search's
// numbering, for tests that compare ways of searching.
var admitted func(depth int, state []byte, parent int64, action uint16)

// eachChunk runs f on every chunk of the block, in parallel: the chunks
// are handed out to the workers one at a time.
func (b *bfs) eachChunk(f func(c *chunk)) {
	var next atomic.Int64
	b.parallel(func(model.Worker) {
		for {
			ci := int(next.Add(1) - 1)
			if ci >= len(b.chunks) {
				return
			}
			f(b.chunks[ci])
		}
	})
}

// grow returns s resized to n elements, keeping its contents.
func grow[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)[:n]
}

// admitUpTo admits winners in order until the search holds max states; it
// reports that the level was cut.
func (b *bfs) admitUpTo(blk *level, max int64) bool {
	base := uint32(blk.base)
	for _, c := range b.chunks {
		for j, won := range c.won {
			if !won {
				continue
			}
			if b.done+b.next.count() >= max {
				return true
			}
			b.next.mem.addRecord(c.record(j))
			putLink(b.links.reserve(1), base+uint32(c.from[j]), c.action[j])
		}
	}
	return true
}
