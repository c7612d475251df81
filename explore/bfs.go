package explore

import (
	"context"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/explore/internal/propsplit"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/sysmem"
)

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
	props   propsplit.Split
	live    *liveCounters
	seen    *seenSet
	workers []model.Worker
	sk      *sketch // Options.Sketch (nil: none)

	wd         *workDir
	links      *linkStore
	cur, next  *frontier
	blk        level // buffer for blocks read back from a spill file
	sub        level // a view of part of a block
	chunks     []*chunk
	recent     [][]uint64 // per worker: its table of recent successors (see recentSlots)
	depth      int
	done       int64 // states in the levels up to depth
	noCollect  bool  // a violation was found on this level: only count
	budget     int64
	stopDetail string
	// direct: this block's successors are inserted into the seen set as
	// they are filtered (one worker; see canInsertDirectly). maxFan is the
	// most transitions of one state seen so far.
	direct bool
	maxFan int
	// serial: this block runs on one goroutine (one worker, or a block
	// too small to be worth sharing: see serialBelow).
	serial bool
	// deferred: this parallel block's successors are not looked up in the
	// seen set while they are generated (only when a chunk's buffer grows
	// past deferredChunkBytes): the insert phase looks each up once, by
	// the worker that owns its shard, instead of once while generating
	// and again for the insert.
	deferred bool
	// fatal ends the search with an error instead of a result: the model
	// has a state or a level the links cannot number.
	fatal error

	// cov, when not nil, counts the transitions by action family and
	// the states and transitions per level (Coverage).
	cov *coverageWalk
	// commute: the states carry the step tags of their first candidates
	// and are expanded with SuccessorsAfter (see commutes).
	commute bool

	pos            int64     // index in level depth of the next block to expand
	lastCheckpoint int64     // pos of the last checkpoint written
	checkpointAt   time.Time // when it was written (or the search began)
}

func newBFS(sys model.System, opts Options, live *liveCounters, wd *workDir) *bfs {
	b := &bfs{sys: sys, opts: opts, props: propsplit.ByKind(opts.Properties), live: live, seen: newSeenSetFor(&opts), wd: wd, sk: newSketch(&opts)}
	limit := opts.spillAbove()
	b.cur = newFrontier(wd, "frontier-a", int(limit))
	b.next = newFrontier(wd, "frontier-b", int(limit))
	b.links = newLinkStore(wd, limit)
	b.budget = opts.MemoryBudget
	b.workers = make([]model.Worker, opts.Workers)
	b.recent = make([][]uint64, opts.Workers)
	for i := range b.workers {
		b.workers[i] = sys.NewWorker()
		b.recent[i] = make([]uint64, recentSlots)
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
	b.commute = b.commutes()
	b.cur.tags, b.next.tags = b.commute, b.commute
	if b.opts.Resume != "" {
		return b.levels(ctx, true, resumeAt)
	}
	b.next.clear()
	b.links.startLevel()
	ai := 0
	b.workers[0].Initial(func(s []byte) bool {
		if fp := seededFingerprint(s, b.opts.HashSeed); b.seen.insert(fp, s) {
			if b.opts.MaxStates == 0 || b.next.count() < b.opts.MaxStates {
				b.sk.add(fp, s)
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
		if b.cov != nil {
			b.cov.startLevel(b.cur.count(), b.live.transitions.Load())
		}
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
					stop = b.stopped(StopInterrupted, b.done+b.next.count())
				}
				return false
			}
			if !best.found && b.overBudget(0) {
				stop = b.stopped(StopMemory, b.done+b.next.count())
				return false
			}
			if blk.base+int64(blk.len()) > int64(noParent) {
				b.fatal = tooManyStates(b.sys.Info().Name, b.depth)
				return false
			}
			b.serial = len(b.workers) == 1 || blk.len() < serialBelow
			b.direct = b.canInsertDirectly(blk, atMax || truncated || best.found)
			b.deferred = deferInserts && !b.serial && !(atMax || truncated || best.found)
			ok, trans := b.expandBlock(ctx, blk)
			if !ok {
				if !best.found {
					stop = b.stopped(StopInterrupted, b.done+b.next.count())
				}
				return false
			}
			for _, c := range b.chunks {
				b.maxFan = max(b.maxFan, c.maxFan)
				if c.tooMany {
					b.fatal = tooManyTransitions(b.sys.Info().Name, "search it depth first (--dfs)")
					return false
				}
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
			if b.direct {
				b.allWon()
			} else {
				if b.budget > 0 && b.deferred && b.overBudget(b.seen.growth(b.chunks)) {
					// The growth counted every successor as new: drop the
					// seen ones first and count again.
					nw := len(b.workers)
					b.eachChunk(func(c *chunk) {
						c.dropSeen(b.seen, 0, false)
						c.byOwner(nw)
					})
				}
				if b.budget > 0 && b.overBudget(b.seen.growth(b.chunks)) {
					stop = b.stopped(StopMemory, b.done+b.next.count())
					return false
				}
				b.insertBlock()
			}
			b.live.transitions.Add(trans)
			truncated = b.admitBlock(blk)
			b.sketchBlock()
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
		if b.fatal != nil {
			return nil
		}
		if stop != nil {
			if b.opts.Checkpoint != "" && (stop.StopReason == StopInterrupted || stop.StopReason == StopMemory) && !best.found {
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
			if best.failure != nil {
				r.Verdict, r.ModelError = ModelFailed, &ModelError{Panic: best.failure, Path: v.Path, Actions: v.Actions}
				return r
			}
			r.Violation = v
			return r
		}
		if atMax {
			if unseen {
				return b.stopped(StopMaxDepth, b.done)
			}
			return b.result(OK, b.done)
		}
		b.done += b.next.count()
		b.live.states.Store(b.done)
		if b.live.gc != nil {
			b.live.gc.tune(b.done)
		}
		if truncated {
			return b.stopped(StopMaxStates, b.done)
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
			*view = level{base: blk.base + int64(lo), arena: blk.arena, offs: blk.offs[lo : hi+1], tb: blk.tb}
			if !fn(view) {
				return false
			}
		}
		return true
	}
}

// serialBelow is the size of a block below which its phases run on one
// goroutine: starting and waiting for the others would cost more than
// they save.
var serialBelow = 1024 // a variable so that tests can make small blocks parallel

// canInsertDirectly reports whether the next block, blk, can skip the
// insert phase: in a serial block the chunks are expanded in frontier
// order, so inserting each successor into the seen set as soon as it is
// generated lets the same candidates win as the insert phase would, and
// saves a second look-up of every new state. Not when the block's
// successors must not be inserted (last, cut or violating levels), in
// exact or bitstate mode, nor when the seen set's growth for all of the
// block's possible successors could exceed the memory budget: the insert
// phase then checks the exact growth first.
func (b *bfs) canInsertDirectly(blk *level, countOnly bool) bool {
	if !b.serial || countOnly || b.seen.exact || b.seen.bitstate || !directInserts {
		return false
	}
	if b.budget == 0 {
		return true
	}
	return !b.overBudget(b.seen.growthBound(int64(blk.len()) * int64(max(b.maxFan, 16))))
}

// directInserts enables canInsertDirectly; tests turn it off to compare
// the two ways of inserting.
var directInserts = true

// deferInserts enables deferred blocks (bfs.deferred); tests turn it off
// to compare the ways of inserting.
var deferInserts = true

// deferredChunkBytes bounds the successors a chunk of a deferred block
// keeps before it drops those already seen: a model with a large fan-out
// then costs the memory of a filtered block, not of all its successors.
const deferredChunkBytes = 1 << 20

// allWon marks every candidate of the block as new (direct inserts).
func (b *bfs) allWon() {
	for _, c := range b.chunks {
		c.won = grow(c.won, len(c.fps))
		for j := range c.won {
			c.won[j] = true
		}
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
		every = defaultCheckpointEvery
	}
	return time.Since(b.checkpointAt) >= every
}

func (b *bfs) diskErr() error {
	if b.next.err != nil {
		return b.next.err
	}
	return b.links.err
}

func (b *bfs) stopped(reason StopReason, states int64) *Result {
	r := b.result(Incomplete, states)
	r.StopReason = reason
	if reason == StopMemory {
		memoryStop(r, b.budget)
	}
	return r
}

func (b *bfs) stopDisk(err error, states int64) *Result {
	b.stopDetail = err.Error()
	return b.stopped(StopDisk, states)
}

// overBudget reports whether the resident memory plus extra bytes about to
// be allocated exceeds the memory budget.
func (b *bfs) overBudget(extra int64) bool {
	return b.budget > 0 && sysmem.CurrentRSS()+extra > b.budget
}

// commutes reports whether the search expands states with SuccessorsAfter
// (b.commute). Breadth-first search numbers a level's states in candidate
// order: by parent, then by the parent's transitions in the order the
// worker yields them; the first candidate of a state admits it. Suppose
// state s was admitted by step a from p, and p yielded b before a, b and
// a commute in p (model/protocol: steps of different processes, neither a
// Lose, or Delivers to one process whose handlers commute there), and the
// step of b in s is the step b of p, with the same flags. Then s·b =
// p·b·a and the candidate (p·b, a) comes before (s, b): p·b was admitted
// by (p, b) or an earlier candidate, before s, or is in an earlier level
// (and then so is p·b·a). If (p·b, a) is left unstepped too, the same
// holds for it, so a state's first candidate is always stepped: leaving
// (s, b) unstepped changes no state, depth, number or counterexample. Its
// transition is still counted, and the Local transition properties (the
// only ones allowed here) were checked on the same step from p, which is
// (by the same argument) stepped somewhere earlier. Not with Coverage,
// which counts every stepped transition.
func (b *bfs) commutes() bool {
	if !commuteSteps || b.cov != nil {
		return false
	}
	for _, p := range b.props.Transitions {
		if !p.Local {
			return false
		}
	}
	c, ok := b.workers[0].(commuter)
	return ok && c.CommutingSteps()
}

// commuteSteps enables SuccessorsAfter; tests turn it off to compare.
var commuteSteps = true
