package explore

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
)

// shardBits selects the shard of a fingerprint by its top bits. Shards are
// independent open-addressing tables, so workers can insert into disjoint
// shards without locks.
const (
	shardBits  = 8
	shardCount = 1 << shardBits
	minSlots   = 16
	// maxLoad and growth keep each shard between 53% and 80% full once
	// it has grown, so a fingerprint costs 10 to 15 bytes.
	maxLoadNum, maxLoadDen = 4, 5
)

// seenSet is the set of visited states: 64-bit fingerprints, or in exact
// mode fingerprints plus the full encoded states for equality. A numbered
// set (newNumberedSet) also maps each state to a number, the liveness
// graph's state id: see find and insertAt.
type seenSet struct {
	exact    bool
	bitstate bool // fps holds a bit array; see bitstate.go
	shards   [shardCount]shard
}

type shard struct {
	fps   []uint64 // 0 marks an empty slot
	refs  []uint64 // exact mode: offset of the state in arena
	arena []byte   // exact mode: length-prefixed states
	ids   []uint32 // numbered: the number of the state in each slot
	n     int
}

func newSeenSet(exact bool) *seenSet {
	s := &seenSet{exact: exact}
	for i := range s.shards {
		s.shards[i].fps = allocTable(minSlots)
		if exact {
			s.shards[i].refs = allocTable(minSlots)
		}
	}
	return s
}

// newNumberedSet returns a set that numbers its states (find, insertAt).
func newNumberedSet(exact bool) *seenSet {
	s := newSeenSet(exact)
	for i := range s.shards {
		s.shards[i].ids = make([]uint32, minSlots)
	}
	return s
}

// free releases the set's tables; the set must not be used afterwards.
func (s *seenSet) free() {
	for i := range s.shards {
		sh := &s.shards[i]
		freeTable(sh.fps)
		freeTable(sh.refs)
		sh.fps, sh.refs, sh.arena, sh.ids = nil, nil, nil, nil
	}
}

func shardOf(fp uint64) int { return int(fp >> (64 - shardBits)) }

// slot maps a fingerprint to a home slot of a table of size n, using the
// bits below the shard bits (multiply-shift range reduction, so n need not
// be a power of two).
func slot(fp uint64, n int) int {
	hi, _ := bits.Mul64(fp<<shardBits, uint64(n))
	return int(hi)
}

// touch loads the home slot of fp and returns it. Calling it for a batch of
// fingerprints before looking them up acts as a software prefetch: the
// loads are independent, so the processor overlaps their cache misses.
func (s *seenSet) touch(fp uint64) uint64 {
	sh := &s.shards[shardOf(fp)]
	if s.bitstate {
		return sh.fps[slot(fp, len(sh.fps))]
	}
	return sh.fps[slot(fp, len(sh.fps))]
}

// contains reports whether the state is in the set. Safe for concurrent use
// with other readers (not with writers).
func (s *seenSet) contains(fp uint64, state []byte) bool {
	sh := &s.shards[shardOf(fp)]
	if s.bitstate {
		return sh.bitsContain(fp)
	}
	n := len(sh.fps)
	for i := slot(fp, n); ; {
		v := sh.fps[i]
		if v == 0 {
			return false
		}
		if v == fp && (!s.exact || sh.equal(i, state)) {
			return true
		}
		if i++; i == n {
			i = 0
		}
	}
}

// insert adds the state and reports whether it was new. Concurrent inserts
// are safe only into different shards.
func (s *seenSet) insert(fp uint64, state []byte) bool {
	sh := &s.shards[shardOf(fp)]
	if s.bitstate {
		return sh.bitsInsert(fp)
	}
	n := len(sh.fps)
	i := slot(fp, n)
	for {
		v := sh.fps[i]
		if v == 0 {
			break
		}
		if v == fp && (!s.exact || sh.equal(i, state)) {
			return false
		}
		if i++; i == n {
			i = 0
		}
	}
	sh.put(i, fp, state, s.exact)
	return true
}

// put stores a state in the empty slot i and grows the shard if it is
// then too full.
func (sh *shard) put(i int, fp uint64, state []byte, exact bool) {
	sh.fps[i] = fp
	if exact {
		sh.refs[i] = uint64(len(sh.arena))
		sh.arena = binary.AppendUvarint(sh.arena, uint64(len(state)))
		sh.arena = append(sh.arena, state...)
	}
	sh.n++
	if sh.n*maxLoadDen > len(sh.fps)*maxLoadNum {
		sh.grow(exact)
	}
}

// find looks a state up in a numbered set: it returns its number and
// true, or false and the slot where insertAt would put it. Not for
// bitstate sets.
func (s *seenSet) find(fp uint64, state []byte) (id uint32, found bool, at int) {
	sh := &s.shards[shardOf(fp)]
	n := len(sh.fps)
	for i := slot(fp, n); ; {
		v := sh.fps[i]
		if v == 0 {
			return 0, false, i
		}
		if v == fp && (!s.exact || sh.equal(i, state)) {
			return sh.ids[i], true, i
		}
		if i++; i == n {
			i = 0
		}
	}
}

// insertAt adds a state that find did not find, with number id, at the
// slot find returned (no other insert in between).
func (s *seenSet) insertAt(fp uint64, at int, state []byte, id uint32) {
	sh := &s.shards[shardOf(fp)]
	sh.ids[at] = id
	sh.put(at, fp, state, s.exact)
}

func (sh *shard) equal(i int, state []byte) bool {
	off := sh.refs[i]
	l, k := binary.Uvarint(sh.arena[off:])
	start := off + uint64(k)
	return bytes.Equal(sh.arena[start:start+l], state)
}

func (sh *shard) grow(exact bool) {
	old, oldRefs, oldIDs := sh.fps, sh.refs, sh.ids
	n := len(old) + len(old)/2
	sh.fps = allocTable(n)
	if exact {
		sh.refs = allocTable(n)
	}
	if oldIDs != nil {
		sh.ids = make([]uint32, n)
	}
	defer freeTable(old)
	defer freeTable(oldRefs)
	for j, fp := range old {
		if fp == 0 {
			continue
		}
		i := slot(fp, n)
		for sh.fps[i] != 0 {
			if i++; i == n {
				i = 0
			}
		}
		sh.fps[i] = fp
		if exact {
			sh.refs[i] = oldRefs[j]
		}
		if oldIDs != nil {
			sh.ids[i] = oldIDs[j]
		}
	}
}

// bytes returns the memory the set holds.
func (s *seenSet) bytes() int64 {
	var b int64
	for i := range s.shards {
		sh := &s.shards[i]
		b += int64(cap(sh.fps))*8 + int64(cap(sh.ids))*4
		if s.exact {
			b += int64(cap(sh.refs))*8 + int64(cap(sh.arena))
		}
	}
	return b
}

// newSeenSetFor returns the seen set the options ask for.
func newSeenSetFor(o *Options) *seenSet {
	if o.Bitstate > 0 {
		return newBitstate(o.Bitstate)
	}
	return newSeenSet(o.Exact)
}

// growth returns an upper bound on how much the set's memory would rise
// while it inserts every candidate of chunks: the growth of the shards
// that would grow, plus the old table of the largest of them (a shard's
// old table is freed right after its new one is filled) and, in exact
// mode, the states themselves.
func (s *seenSet) growth(chunks []*chunk) int64 {
	if s.bitstate {
		return 0 // allocated in full at the start
	}
	var add [shardCount]int
	var stateBytes int64
	for _, c := range chunks {
		for _, fp := range c.fps {
			add[shardOf(fp)]++
		}
		stateBytes += int64(len(c.arena))
	}
	var b, largest int64
	for i := range s.shards {
		sh := &s.shards[i]
		n, slots := sh.n+add[i], len(sh.fps)
		for n*maxLoadDen > slots*maxLoadNum {
			slots += slots / 2
		}
		if slots != len(sh.fps) {
			b += int64(slots-len(sh.fps)) * 8
			largest = max(largest, int64(len(sh.fps))*8)
		}
	}
	b += largest
	if s.exact {
		b *= 2 // refs
	}
	if s.exact {
		b += stateBytes
	}
	return b
}

// growthBound is an upper bound on how much the set's memory could rise
// while k new states are inserted, whatever their shards: a shard of s
// slots that receives j states grows by at most s/2 + 15/8 j slots, and
// the old table of the largest shard is held while its new one is filled.
// It assumes fingerprint mode.
func (s *seenSet) growthBound(k int64) int64 {
	var total, largest int64
	for i := range s.shards {
		n := int64(len(s.shards[i].fps))
		total += n
		largest = max(largest, n)
	}
	return 8 * (total/2 + 2*k + largest)
}

// describe adds the set's own figures to a result: in bitstate mode the
// hash factor and the expected coverage, and an OK verdict becomes
// OKPartial.
func (s *seenSet) describe(r *Result) {
	if !s.bitstate {
		return
	}
	var stored, set int64
	for i := range s.shards {
		stored += int64(s.shards[i].n)
		for _, w := range s.shards[i].fps {
			set += int64(bits.OnesCount64(w))
		}
	}
	m := int64(len(s.shards[0].fps)) * 64 * shardCount
	r.Bitstate = &BitstateStats{Bits: m, K: bitstateK, Stored: stored,
		HashFactor: hashFactor(m, stored), ExpectedCoverage: expectedCoverage(m, stored, bitstateK),
		FalsePositive: math.Pow(float64(set)/float64(m), bitstateK)}
	if r.Verdict == OK {
		r.Verdict = OKPartial
	}
}
