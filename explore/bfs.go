package explore

import (
	"context"
	"fmt"
	"runtime"
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
	start := time.Now()
	var live liveCounters
	stop := startProgress(&opts, &live, start)
	var res *Result
	if opts.DFS {
		res = newDFS(sys, opts, &live).run(ctx)
	} else {
		res = newBFS(sys, opts, &live).run(ctx)
	}
	stop()
	res.Elapsed = time.Since(start)
	return res, nil
}

// liveCounters are read by the progress goroutine while a search runs.
type liveCounters struct {
	states, transitions, frontier atomic.Int64
	depth                         atomic.Int64
}

func startProgress(opts *Options, live *liveCounters, start time.Time) (stop func()) {
	if opts.Progress == nil {
		return func() {}
	}
	every := opts.ProgressEvery
	if every <= 0 {
		every = 5 * time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				opts.Progress(Progress{
					States:      live.states.Load(),
					Transitions: live.transitions.Load(),
					Frontier:    live.frontier.Load(),
					Depth:       int(live.depth.Load()),
					Elapsed:     time.Since(start),
					HeapBytes:   ms.HeapInuse,
				})
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

// bfs is a level-synchronous parallel breadth-first search. Each level runs
// in three phases:
//
//  1. expand (parallel over chunks of the frontier): check the invariants of
//     each frontier state, generate its successors, check transition
//     invariants, drop successors already in the seen set (read-only), and
//     keep the others as candidates in the chunk's buffer;
//  2. insert (parallel over shards of the seen set): every worker scans all
//     candidates in frontier order and inserts those of its own shards, so
//     the first candidate of each new state wins whatever the number of
//     workers;
//  3. admit (sequential): winners become the next frontier, in order, with
//     their predecessor links.
//
// Hence state numbering, counts and counterexamples are deterministic.
type bfs struct {
	sys     model.System
	opts    Options
	props   propSet
	live    *liveCounters
	seen    *seenSet
	workers []model.Worker

	// predecessor links, indexed by state id: the parent's id and the
	// index of the action among the parent's transitions. An initial state
	// has parent noParent and its index among the initial states as action.
	parents []uint32
	actions []uint16

	cur, next level
	chunks    []*chunk
	depth     int
}

const noParent = ^uint32(0)

// level holds the encoded states of one BFS level.
type level struct {
	base  int64 // id of the first state
	arena []byte
	offs  []int // offs[k]..offs[k+1] is state k
}

func (l *level) len() int { return len(l.offs) - 1 }

func (l *level) state(k int) []byte { return l.arena[l.offs[k]:l.offs[k+1]] }

func (l *level) reset(base int64) {
	l.base = base
	l.arena = l.arena[:0]
	l.offs = append(l.offs[:0], 0)
}

func (l *level) add(s []byte) {
	l.arena = append(l.arena, s...)
	l.offs = append(l.offs, len(l.arena))
}

// chunk is the output of phase 1 for a range of the frontier.
type chunk struct {
	lo, hi      int
	fps         []uint64
	from        []int32 // frontier index of the parent
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
	k      int // frontier index
	action int // -1 for a state violation
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

func newBFS(sys model.System, opts Options, live *liveCounters) *bfs {
	b := &bfs{sys: sys, opts: opts, props: splitProps(opts.Properties), live: live, seen: newSeenSet(opts.Exact)}
	b.workers = make([]model.Worker, opts.Workers)
	for i := range b.workers {
		b.workers[i] = sys.NewWorker()
	}
	return b
}

func (b *bfs) result(v Verdict) *Result {
	r := &Result{
		Verdict:     v,
		States:      int64(len(b.parents)),
		Transitions: b.live.transitions.Load(),
		Depth:       b.depth,
		SeenBytes:   b.seen.bytes(),
		LinkBytes:   int64(cap(b.parents))*4 + int64(cap(b.actions))*2,
	}
	return r
}

func (b *bfs) admit(s []byte, parent uint32, action int) {
	b.next.add(s)
	b.parents = append(b.parents, parent)
	b.actions = append(b.actions, uint16(action))
}

func (b *bfs) run(ctx context.Context) *Result {
	b.next.reset(0)
	ai := 0
	b.workers[0].Initial(func(s []byte) bool {
		if b.seen.insert(Fingerprint(s), s) {
			if b.opts.MaxStates == 0 || int64(len(b.parents)) < b.opts.MaxStates {
				b.admit(s, noParent, ai)
			}
		}
		ai++
		return true
	})
	b.live.states.Store(int64(len(b.parents)))
	for {
		b.cur, b.next = b.next, b.cur
		n := b.cur.len()
		b.live.frontier.Store(int64(n))
		b.live.depth.Store(int64(b.depth))
		atMax := b.opts.MaxDepth > 0 && b.depth >= b.opts.MaxDepth
		if !b.expandLevel(ctx) {
			return b.stopped("interrupted")
		}
		var best candidateViolation
		unseen := false
		for _, c := range b.chunks {
			if c.best.found && best.better(c.best) {
				best = c.best
			}
			if len(c.fps) > 0 {
				unseen = true
			}
		}
		if best.found {
			r := b.result(Violated)
			r.Violation = b.violation(best)
			return r
		}
		if atMax {
			if unseen {
				return b.stopped("max-depth")
			}
			return b.result(OK)
		}
		b.insertLevel()
		truncated := b.admitLevel()
		b.live.states.Store(int64(len(b.parents)))
		if truncated {
			return b.stopped("max-states")
		}
		if b.next.len() == 0 {
			return b.result(OK)
		}
		b.depth++
		if ctx.Err() != nil {
			return b.stopped("interrupted")
		}
	}
}

func (b *bfs) stopped(reason string) *Result {
	r := b.result(Incomplete)
	r.StopReason = reason
	return r
}

// expandLevel runs phase 1 over b.cur. It returns false if ctx was cancelled.
func (b *bfs) expandLevel(ctx context.Context) bool {
	n := b.cur.len()
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
			b.expand(w, c)
			b.live.transitions.Add(c.transitions)
		}
	}
	b.parallel(work)
	return !cancelled.Load()
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

func (b *bfs) expand(w model.Worker, c *chunk) {
	depth := b.depth
	props := &b.props
	var k, ai int
	yield := func(t *model.Transition, next []byte) bool {
		a := ai
		ai++
		c.transitions++
		for _, p := range props.trans {
			if !p.HoldsOn(t) {
				v := candidateViolation{found: true, length: depth + 1, k: k, action: a, prop: p}
				if c.best.better(v) {
					v.target = append([]byte(nil), next...)
					c.best = v
				}
				return true
			}
		}
		if c.best.found {
			return true // this level ends the search; stop collecting
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
		s := b.cur.state(k)
		var snap model.Snapshot
		if !reuse && len(props.inv) > 0 {
			snap = w.Snapshot(s)
		}
		ai = 0
		w.Successors(s, yield)
		if reuse && (len(props.inv) > 0 || (ai == 0 && len(props.term) > 0)) {
			snap = last.LastSnapshot() // the parse Successors made
		}
		for _, p := range props.inv {
			if !p.Holds(snap) {
				c.best = candidateViolation{found: true, length: depth, k: k, action: -1, prop: p}
				return // nothing later in this chunk is shorter
			}
		}
		if ai == 0 && len(props.term) > 0 {
			if !reuse {
				snap = w.Snapshot(s)
			}
			for _, p := range props.term {
				if !p.Holds(snap) {
					c.best = candidateViolation{found: true, length: depth, k: k, action: -1, prop: p}
					return
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

// insertLevel runs phase 2: parallel inserts by shard.
func (b *bfs) insertLevel() {
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

// admitLevel runs phase 3 and reports whether MaxStates cut the level.
func (b *bfs) admitLevel() bool {
	start := len(b.parents)
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
	if b.opts.MaxStates > 0 && int64(start+states) > b.opts.MaxStates {
		return b.admitUpTo(b.opts.MaxStates)
	}
	b.next.reset(int64(start))
	b.next.arena = grow(b.next.arena, bytes)
	b.next.offs = grow(b.next.offs, states+1)
	b.parents = grow(b.parents, start+states)
	b.actions = grow(b.actions, start+states)
	base := b.cur.base
	next.Store(0)
	b.parallel(func(model.Worker) {
		for {
			ci := int(next.Add(1) - 1)
			if ci >= len(b.chunks) {
				return
			}
			c := b.chunks[ci]
			k, at := c.stateAt, c.byteAt
			for j, won := range c.won {
				if !won {
					continue
				}
				at += copy(b.next.arena[at:], c.state(j))
				b.next.offs[k+1] = at
				b.parents[start+k] = uint32(base + int64(c.from[j]))
				b.actions[start+k] = c.action[j]
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
func (b *bfs) admitUpTo(max int64) bool {
	b.next.reset(int64(len(b.parents)))
	base := b.cur.base
	for _, c := range b.chunks {
		for j, won := range c.won {
			if !won {
				continue
			}
			if int64(len(b.parents)) >= max {
				return true
			}
			b.admit(c.state(j), uint32(base+int64(c.from[j])), int(c.action[j]))
		}
	}
	return true
}

func (b *bfs) violation(v candidateViolation) *Violation {
	path := b.pathTo(b.cur.base + int64(v.k))
	if v.action >= 0 {
		path = append(path, v.target)
	}
	return &Violation{Property: v.prop, Path: path}
}

// pathTo reconstructs the states from an initial state to state id by
// following predecessor links back and re-running the successor function
// forward (links store action indices, not states).
func (b *bfs) pathTo(id int64) [][]byte {
	var acts []int
	for {
		acts = append(acts, int(b.actions[id]))
		p := b.parents[id]
		if p == noParent {
			break
		}
		id = int64(p)
	}
	// acts[len-1] is the initial state's index; the rest are action
	// indices from the root down, reversed.
	w := b.sys.NewWorker()
	return replayActions(w, acts[len(acts)-1], reversed(acts[:len(acts)-1]))
}

func reversed(a []int) []int {
	out := make([]int, len(a))
	for i, x := range a {
		out[len(a)-1-i] = x
	}
	return out
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
