package explore

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tokenmc/tokenmc/model"
)

// Check explores the reachable states of sys and checks opts.Properties.
// It returns an error only for invalid options; verdicts are values in the
// Result. Cancelling ctx stops the search with an Incomplete result holding
// the counts so far.
func Check(ctx context.Context, sys model.System, opts Options) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.MemoryBudget >= 64<<20 {
		// Make the collector work harder as the heap nears the budget
		// rather than let garbage push the process over it.
		old := debug.SetMemoryLimit(opts.MemoryBudget / 10 * 9)
		defer debug.SetMemoryLimit(old)
	}
	var gc gcTuner
	defer gc.restore()
	start := time.Now()
	wd := &workDir{parent: opts.WorkDir}
	defer wd.remove()
	live := liveCounters{wd: wd, budget: opts.MemoryBudget, gc: &gc}
	stop := startProgress(&opts, &live, start)
	var res *Result
	var seen *seenSet
	if opts.DFS {
		d := newDFS(sys, opts, &live)
		res, seen = d.run(ctx), d.seen
	} else {
		b := newBFS(sys, opts, &live, wd)
		var pos int64
		if opts.Resume != "" {
			var err error
			if pos, err = b.restoreCheckpoint(opts.Resume); err != nil {
				b.close()
				b.seen.free()
				stop()
				return nil, err
			}
		}
		res, seen = b.run(ctx, pos), b.seen
	}
	seen.describe(res)
	seen.free()
	stop()
	res.Elapsed = time.Since(start)
	res.PeakRSS = PeakRSS()
	res.SpilledBytes = wd.spilled.Load()
	res.MemoryBudget = opts.MemoryBudget
	res.ResumedStates = live.resumed.Load()
	return res, nil
}

// gcPercent is the collector's heap growth target once a search holds
// gcTuneStates states, unless the GOGC environment variable sets one. The
// seen set lives outside the Go heap (see allocTable) and a large search
// reuses its buffers, so a small target then costs few collections and
// keeps garbage from inflating the resident set; on a small search (a
// small heap) it would only multiply collections, so it waits.
const (
	gcPercent    = 20
	gcTuneStates = 1 << 20
)

// gcTuner lowers the collector's target once and restores it at the end.
type gcTuner struct {
	set bool
	old int
}

func (g *gcTuner) tune(states int64) {
	if !g.set && states >= gcTuneStates && os.Getenv("GOGC") == "" {
		g.set, g.old = true, debug.SetGCPercent(gcPercent)
	}
}

func (g *gcTuner) restore() {
	if g.set {
		debug.SetGCPercent(g.old)
		g.set = false
	}
}

// liveCounters are read by the progress goroutine while a search runs.
type liveCounters struct {
	states, transitions, frontier atomic.Int64
	depth                         atomic.Int64
	wd                            *workDir // nil if the search spills nothing
	budget                        int64
	resumed                       atomic.Int64 // states restored from a checkpoint
	gc                            *gcTuner     // nil outside Check
}

func startProgress(opts *Options, live *liveCounters, start time.Time) (stop func()) {
	if opts.Progress == nil {
		return func() {}
	}
	return every(opts.ProgressEvery, func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		p := Progress{
			States:       live.states.Load(),
			Transitions:  live.transitions.Load(),
			Frontier:     live.frontier.Load(),
			Depth:        int(live.depth.Load()),
			Elapsed:      time.Since(start),
			HeapBytes:    ms.HeapInuse,
			RSSBytes:     CurrentRSS(),
			MemoryBudget: live.budget,
		}
		p.ResumedStates = live.resumed.Load()
		if live.wd != nil {
			p.SpilledBytes = live.wd.spilled.Load()
		}
		opts.Progress(p)
	})
}

// every calls tick from its own goroutine every interval (5 s when
// interval <= 0) until stop is called; stop returns once no tick runs.
func every(interval time.Duration, tick func()) (stop func()) {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				tick()
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// properties split by kind.
type propSet struct {
	inv, trans, term []model.Property
}

func splitProps(ps []model.Property) propSet {
	var s propSet
	for _, p := range ps {
		switch p.Kind {
		case model.Invariant:
			s.inv = append(s.inv, p)
		case model.TransitionInvariant:
			s.trans = append(s.trans, p)
		case model.Terminal:
			s.term = append(s.term, p)
		}
	}
	return s
}

// bfs is a level-synchronous parallel breadth-first search. A level is
// read in blocks (the whole level when it fits in memory, see frontier),
// and each block runs in three phases:
//
//  1. expand (parallel over chunks of the block): check the invariants of
//     each state, generate its successors, check transition invariants,
//     drop successors already in the seen set (read-only), and keep the
//     others as candidates in the chunk's buffer;
//  2. insert (parallel over shards of the seen set): every worker scans all
//     candidates in frontier order and inserts those of its own shards, so
//     the first candidate of each new state wins whatever the number of
//     workers;
//  3. admit: winners are appended to the next level, in order, with their
//     predecessor links.
//
// Blocks are taken in order, so state numbering, counts and
// counterexamples are deterministic and do not depend on the block size.
type bfs struct {
	sys     model.System
	opts    Options
	props   propSet
	live    *liveCounters
	seen    *seenSet
	workers []model.Worker

	wd         *workDir
	links      *linkStore
	cur, next  *frontier
	blk        level // buffer for blocks read back from a spill file
	sub        level // a view of part of a block
	chunks     []*chunk
	depth      int
	done       int64 // states in the levels up to depth
	noCollect  bool  // a violation was found on this level: only count
	budget     int64
	stopDetail string

	pos            int64     // index in level depth of the next block to expand
	lastCheckpoint int64     // pos of the last checkpoint written
	checkpointAt   time.Time // when it was written (or the search began)
}

// chunk is the output of phase 1 for a range of the frontier.
type chunk struct {
	lo, hi      int
	fps         []uint64
	from        []int32 // block index of the parent
	action      []uint16
	arena       []byte
	offs        []int
	won         []bool
	transitions int64
	best        candidateViolation

	// phase 3: winners and their bytes, and where they go in the next level
	nwon, wonBytes  int
	stateAt, byteAt int
}

type candidateViolation struct {
	found  bool
	length int
	k      int64 // index of the state within its level
	action int   // -1 for a state violation
	prop   model.Property
	target []byte // successor state, for transition violations
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
	c.best = candidateViolation{}
}

func (c *chunk) state(j int) []byte { return c.arena[c.offs[j]:c.offs[j+1]] }

// dropSeen removes the candidates already in the seen set, compacting the
// chunk in place. The look-ups run in one tight loop after the chunk's
// successors are generated, so the processor overlaps their cache misses.
//
// Only candidates from index from on are examined (the earlier ones were
// already filtered), so expand can call it every few states and keep the
// chunk's buffers near the size of its new states, not of all successors.
func (c *chunk) dropSeen(seen *seenSet, from int) {
	kept := from
	end := c.offs[from]
	for j := from; j < len(c.fps); j++ {
		fp := c.fps[j]
		if (j-from)%prefetchBatch == 0 {
			prefetch(seen, c.fps[j:min(j+prefetchBatch, len(c.fps))])
		}
		st := c.state(j)
		if seen.contains(fp, st) {
			continue
		}
		c.fps[kept] = fp
		c.from[kept] = c.from[j]
		c.action[kept] = c.action[j]
		start := end
		end += copy(c.arena[start:], st)
		kept++
		c.offs[kept] = end
	}
	c.fps = c.fps[:kept]
	c.from = c.from[:kept]
	c.action = c.action[:kept]
	c.offs = c.offs[:kept+1]
	c.arena = c.arena[:end]
}

func newBFS(sys model.System, opts Options, live *liveCounters, wd *workDir) *bfs {
	b := &bfs{sys: sys, opts: opts, props: splitProps(opts.Properties), live: live, seen: newSeenSetFor(&opts), wd: wd}
	limit := opts.spillAbove()
	b.cur = newFrontier(wd, "frontier-a", int(limit))
	b.next = newFrontier(wd, "frontier-b", int(limit))
	b.links = newLinkStore(wd, limit)
	b.budget = opts.MemoryBudget
	b.workers = make([]model.Worker, opts.Workers)
	for i := range b.workers {
		b.workers[i] = sys.NewWorker()
	}
	return b
}

func (b *bfs) close() {
	b.cur.close()
	b.next.close()
	b.links.close()
}

func (b *bfs) result(v Verdict, states int64) *Result {
	r := &Result{
		Verdict:     v,
		States:      states,
		Transitions: b.live.transitions.Load(),
		Depth:       b.depth,
		SeenBytes:   b.seen.bytes(),
		LinkBytes:   b.links.bytes(),
		StopDetail:  b.stopDetail,
	}
	return r
}

// run searches from the initial states, or, after restoreCheckpoint, from
// state resumeAt of the restored level.
func (b *bfs) run(ctx context.Context, resumeAt int64) *Result {
	defer b.close()
	b.checkpointAt = time.Now()
	if b.opts.Resume != "" {
		return b.levels(ctx, true, resumeAt)
	}
	b.next.clear()
	b.links.startLevel()
	ai := 0
	b.workers[0].Initial(func(s []byte) bool {
		if b.seen.insert(Fingerprint(s), s) {
			if b.opts.MaxStates == 0 || b.next.count() < b.opts.MaxStates {
				b.next.mem.add(s)
				putLink(b.links.reserve(1), noParent, uint16(ai))
			}
		}
		ai++
		return true
	})
	b.done = b.next.count()
	b.live.states.Store(b.done)
	return b.levels(ctx, false, 0)
}

// levels runs the search level by level. If resumed, b.cur and b.next
// hold a restored level and its partial successor level, and expansion
// starts at state resumeAt of b.cur.
func (b *bfs) levels(ctx context.Context, resumed bool, resumeAt int64) *Result {
	for {
		if !resumed {
			b.cur, b.next = b.next, b.cur
			if err := b.cur.finish(); err != nil {
				return b.stopDisk(err, b.done)
			}
			b.next.clear()
			b.links.startLevel()
			resumeAt = 0
		}
		resumed = false
		b.pos = resumeAt
		b.live.frontier.Store(b.cur.count())
		b.live.depth.Store(int64(b.depth))
		atMax := b.opts.MaxDepth > 0 && b.depth >= b.opts.MaxDepth
		var best candidateViolation
		unseen, truncated := false, false
		b.noCollect = false
		var stop *Result
		err := b.cur.blocks(&b.blk, subBlocks(&b.sub, resumeAt, func(blk *level) bool {
			if !best.found && !atMax && !truncated && b.checkpointDue() {
				if err := b.saveCheckpoint(blk.base); err != nil {
					stop = b.stopDisk(err, b.done+b.next.count())
					return false
				}
			}
			b.pos = blk.base
			if ctx.Err() != nil {
				if !best.found {
					stop = b.stopped("interrupted", b.done+b.next.count())
				}
				return false
			}
			if !best.found && b.overBudget(0) {
				stop = b.stopped("memory", b.done+b.next.count())
				return false
			}
			ok, trans := b.expandBlock(ctx, blk)
			if !ok {
				if !best.found {
					stop = b.stopped("interrupted", b.done+b.next.count())
				}
				return false
			}
			for _, c := range b.chunks {
				if c.best.found && best.better(c.best) {
					best = c.best
				}
				if len(c.fps) > 0 {
					unseen = true
				}
			}
			if best.found || atMax || truncated {
				// best: finish the level's counts only; atMax, truncated:
				// expand the rest of the level to count and check it.
				b.noCollect = best.found || truncated
				b.live.transitions.Add(trans)
				return true
			}
			if b.budget > 0 && b.overBudget(b.seen.growth(b.chunks)) {
				stop = b.stopped("memory", b.done+b.next.count())
				return false
			}
			b.insertBlock()
			b.live.transitions.Add(trans)
			truncated = b.admitBlock(blk)
			b.next.maybeSpill()
			b.links.maybeSpill()
			b.live.states.Store(b.done + b.next.count())
			if err := b.diskErr(); err != nil {
				stop = b.stopDisk(err, b.done+b.next.count())
				return false
			}
			b.noCollect = truncated
			b.pos = blk.base + int64(blk.len())
			return true
		}))
		if stop != nil {
			if b.opts.Checkpoint != "" && (stop.StopReason == "interrupted" || stop.StopReason == "memory") && !best.found {
				if err := b.saveCheckpoint(b.pos); err != nil {
					stop.StopDetail = strings.TrimPrefix(stop.StopDetail+"; ", "; ") + err.Error()
				} else {
					stop.Checkpoint = b.opts.Checkpoint
				}
			}
			return stop
		}
		if err != nil {
			return b.stopDisk(err, b.done+b.next.count())
		}
		if best.found {
			r := b.result(Violated, b.done)
			v, err := b.violation(best)
			if err != nil {
				return b.stopDisk(err, b.done)
			}
			r.Violation = v
			return r
		}
		if atMax {
			if unseen {
				return b.stopped("max-depth", b.done)
			}
			return b.result(OK, b.done)
		}
		b.done += b.next.count()
		b.live.states.Store(b.done)
		if b.live.gc != nil {
			b.live.gc.tune(b.done)
		}
		if truncated {
			return b.stopped("max-states", b.done)
		}
		if b.next.count() == 0 {
			return b.result(OK, b.done)
		}
		b.depth++
		// An interrupt now is seen before the first block of the next
		// level, where a checkpoint can be taken.
	}
}

// subBlock is the most states a block holds: the candidates of a block
// (its successors not seen before it) are all in memory until the block
// is inserted, so smaller blocks bound that memory, and the duplicates
// among the successors of one level are dropped as soon as one block has
// inserted them.
const subBlock = 1 << 15

// subBlocks returns a function that cuts each block into views of at most
// subBlock states and passes them to fn in order, skipping the states of
// the level before index from.
func subBlocks(view *level, from int64, fn func(*level) bool) func(*level) bool {
	return func(blk *level) bool {
		n := blk.len()
		start := 0
		if from > blk.base {
			start = int(min(from-blk.base, int64(n)))
		}
		if start == 0 && n <= subBlock {
			return fn(blk)
		}
		for lo := start; lo < n; lo += subBlock {
			hi := min(n, lo+subBlock)
			*view = level{base: blk.base + int64(lo), arena: blk.arena, offs: blk.offs[lo : hi+1]}
			if !fn(view) {
				return false
			}
		}
		return true
	}
}

// checkpointDue reports whether a periodic checkpoint should be written
// now.
func (b *bfs) checkpointDue() bool {
	if b.opts.Checkpoint == "" {
		return false
	}
	every := b.opts.CheckpointEvery
	if every <= 0 {
		every = DefaultCheckpointEvery
	}
	return time.Since(b.checkpointAt) >= every
}

func (b *bfs) diskErr() error {
	if b.next.err != nil {
		return b.next.err
	}
	return b.links.err
}

func (b *bfs) stopped(reason string, states int64) *Result {
	r := b.result(Incomplete, states)
	r.StopReason = reason
	if reason == "memory" {
		memoryStop(r, b.budget)
	}
	return r
}

func (b *bfs) stopDisk(err error, states int64) *Result {
	b.stopDetail = err.Error()
	return b.stopped("disk", states)
}

// overBudget reports whether the resident memory plus extra bytes about to
// be allocated exceeds the memory budget.
func (b *bfs) overBudget(extra int64) bool {
	return b.budget > 0 && CurrentRSS()+extra > b.budget
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
	work := func(w model.Worker) {
		for {
			if ctx.Err() != nil {
				cancelled.Store(true)
				return
			}
			ci := int(next.Add(1) - 1)
			if ci >= nchunks {
				return
			}
			c := b.chunks[ci]
			c.reset(ci*size, min(n, (ci+1)*size))
			b.expand(w, blk, c)
		}
	}
	b.parallel(work)
	var trans int64
	for _, c := range b.chunks {
		trans += c.transitions
	}
	return !cancelled.Load(), trans
}

func (b *bfs) parallel(work func(w model.Worker)) {
	if len(b.workers) == 1 {
		work(b.workers[0])
		return
	}
	var wg sync.WaitGroup
	for _, w := range b.workers {
		wg.Go(func() { work(w) })
	}
	wg.Wait()
}

func (b *bfs) expand(w model.Worker, blk *level, c *chunk) {
	depth := b.depth
	props := &b.props
	noCollect := b.noCollect
	var k, ai int
	yield := func(t *model.Transition, next []byte) bool {
		a := ai
		ai++
		c.transitions++
		for _, p := range props.trans {
			if !p.HoldsOn(t) {
				v := candidateViolation{found: true, length: depth + 1, k: blk.base + int64(k), action: a, prop: p}
				if c.best.better(v) {
					v.target = append([]byte(nil), next...)
					c.best = v
				}
				return true
			}
		}
		if c.best.found || noCollect {
			return true // this level ends the search; only count
		}
		fp := Fingerprint(next)
		if a > 0xffff {
			panic(fmt.Sprintf("explore: a state of %s has more than 65536 transitions", b.sys.Info().Name))
		}
		c.fps = append(c.fps, fp)
		c.from = append(c.from, int32(k))
		c.action = append(c.action, uint16(a))
		c.arena = append(c.arena, next...)
		c.offs = append(c.offs, len(c.arena))
		return true
	}
	last, reuse := w.(model.LastSnapshotter)
	filtered := 0 // candidates before this index are known to be unseen
	for k = c.lo; k < c.hi; k++ {
		if (k-c.lo)%filterEvery == filterEvery-1 {
			c.dropSeen(b.seen, filtered)
			filtered = len(c.fps)
		}
		// After a state violation nothing later in this chunk is shorter:
		// the rest of the chunk is expanded only to count its transitions,
		// so that Result.Transitions covers the whole level whatever the
		// chunking (and hence the number of workers).
		check := !c.best.found || c.best.length > depth
		s := blk.state(k)
		var snap model.Snapshot
		if check && !reuse && len(props.inv) > 0 {
			snap = w.Snapshot(s)
		}
		ai = 0
		w.Successors(s, yield)
		if !check {
			continue
		}
		if reuse && (len(props.inv) > 0 || (ai == 0 && len(props.term) > 0)) {
			snap = last.LastSnapshot() // the parse Successors made
		}
		bad := false
		for _, p := range props.inv {
			if !p.Holds(snap) {
				c.best = candidateViolation{found: true, length: depth, k: blk.base + int64(k), action: -1, prop: p}
				bad = true
				break
			}
		}
		if !bad && ai == 0 && len(props.term) > 0 {
			if !reuse {
				snap = w.Snapshot(s)
			}
			for _, p := range props.term {
				if !p.Holds(snap) {
					c.best = candidateViolation{found: true, length: depth, k: blk.base + int64(k), action: -1, prop: p}
					break
				}
			}
		}
	}
	c.dropSeen(b.seen, filtered)
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
	nw := len(b.workers)
	for _, c := range b.chunks {
		if cap(c.won) < len(c.fps) {
			c.won = make([]bool, len(c.fps), 2*len(c.fps))
		}
		c.won = c.won[:len(c.fps)]
	}
	var next atomic.Int64
	owner := func(w model.Worker) {
		wi := int(next.Add(1) - 1)
		var batch [prefetchBatch]int32
		for _, c := range b.chunks {
			for lo := 0; lo < len(c.fps); {
				// Gather a batch of this worker's candidates, touch their
				// slots, then insert them in order.
				n := 0
				var x uint64
				for ; lo < len(c.fps) && n < prefetchBatch; lo++ {
					if fp := c.fps[lo]; shardOf(fp)%nw == wi {
						batch[n] = int32(lo)
						x += b.seen.touch(fp)
						n++
					}
				}
				if x == 1 {
					prefetchSink.Store(x)
				}
				for _, j := range batch[:n] {
					c.won[j] = b.seen.insert(c.fps[j], c.state(int(j)))
				}
			}
		}
	}
	b.parallel(owner)
}

// admitBlock runs phase 3: it appends the winners to the next level and
// their links, and reports whether MaxStates cut the level.
func (b *bfs) admitBlock(blk *level) bool {
	// Count each chunk's winners (in parallel), then lay the chunks out one
	// after another and copy them into place (in parallel).
	var next atomic.Int64
	b.parallel(func(model.Worker) {
		for {
			ci := int(next.Add(1) - 1)
			if ci >= len(b.chunks) {
				return
			}
			c := b.chunks[ci]
			c.nwon, c.wonBytes = 0, 0
			for j, won := range c.won {
				if won {
					c.nwon++
					c.wonBytes += c.offs[j+1] - c.offs[j]
				}
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
	if blk.base+int64(blk.len()) > int64(noParent) {
		panic("explore: a BFS level has more than 2^32-1 states")
	}
	mem.arena = grow(mem.arena, at0+bytes)
	mem.offs = grow(mem.offs, k0+states+1)
	links := b.links.reserve(states)
	base := uint32(blk.base)
	next.Store(0)
	b.parallel(func(model.Worker) {
		for {
			ci := int(next.Add(1) - 1)
			if ci >= len(b.chunks) {
				return
			}
			c := b.chunks[ci]
			k, at := c.stateAt, at0+c.byteAt
			for j, won := range c.won {
				if !won {
					continue
				}
				at += copy(mem.arena[at:], c.state(j))
				mem.offs[k0+k+1] = at
				putLink(links[k*linkSize:], base+uint32(c.from[j]), c.action[j])
				k++
			}
		}
	})
	return false
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
			b.next.mem.add(c.state(j))
			putLink(b.links.reserve(1), base+uint32(c.from[j]), c.action[j])
		}
	}
	return true
}

func (b *bfs) violation(v candidateViolation) (*Violation, error) {
	path, err := b.pathTo(b.depth, v.k)
	if err != nil {
		return nil, err
	}
	if v.action >= 0 {
		path = append(path, v.target)
	}
	return &Violation{Property: v.prop, Path: path}, nil
}

// pathTo reconstructs the states from an initial state to the state with
// index idx in level lv by following predecessor links back and re-running
// the successor function forward (links store action indices, not states).
func (b *bfs) pathTo(lv int, idx int64) ([][]byte, error) {
	acts := make([]int, lv+1)
	for ; lv >= 0; lv-- {
		p, a, err := b.links.get(lv, idx)
		if err != nil {
			return nil, err
		}
		acts[lv] = int(a)
		if (p == noParent) != (lv == 0) {
			return nil, fmt.Errorf("predecessor links are inconsistent at level %d", lv)
		}
		idx = int64(p)
	}
	// acts[0] is the initial state's index; the rest are action indices
	// from the root down.
	w := b.sys.NewWorker()
	return replayActions(w, acts[0], acts[1:]), nil
}

// replayActions returns the path that starts at the init-th initial state
// and takes, at each step, the transition with the given index.
func replayActions(w model.Worker, init int, acts []int) [][]byte {
	var cur []byte
	i := 0
	w.Initial(func(s []byte) bool {
		if i == init {
			cur = append([]byte(nil), s...)
			return false
		}
		i++
		return true
	})
	path := [][]byte{cur}
	for _, a := range acts {
		var nxt []byte
		j := 0
		w.Successors(cur, func(_ *model.Transition, s []byte) bool {
			if j == a {
				nxt = append([]byte(nil), s...)
				return false
			}
			j++
			return true
		})
		if nxt == nil {
			panic("explore: predecessor link names a transition that does not exist (non-deterministic successor function?)")
		}
		path = append(path, nxt)
		cur = nxt
	}
	return path
}

func reversed(a []int) []int {
	out := make([]int, len(a))
	for i, x := range a {
		out[len(a)-1-i] = x
	}
	return out
}
