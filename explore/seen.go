package explore

import (
	"bytes"
	"encoding/binary"
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
// mode fingerprints plus the full encoded states for equality.
type seenSet struct {
	exact  bool
	shards [shardCount]shard
}

type shard struct {
	fps   []uint64 // 0 marks an empty slot
	refs  []uint64 // exact mode: offset of the state in arena
	arena []byte   // exact mode: length-prefixed states
	n     int
}

func newSeenSet(exact bool) *seenSet {
	s := &seenSet{exact: exact}
	for i := range s.shards {
		s.shards[i].fps = make([]uint64, minSlots)
		if exact {
			s.shards[i].refs = make([]uint64, minSlots)
		}
	}
	return s
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
	return sh.fps[slot(fp, len(sh.fps))]
}

// contains reports whether the state is in the set. Safe for concurrent use
// with other readers (not with writers).
func (s *seenSet) contains(fp uint64, state []byte) bool {
	sh := &s.shards[shardOf(fp)]
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
	sh.fps[i] = fp
	if s.exact {
		sh.refs[i] = uint64(len(sh.arena))
		sh.arena = binary.AppendUvarint(sh.arena, uint64(len(state)))
		sh.arena = append(sh.arena, state...)
	}
	sh.n++
	if sh.n*maxLoadDen > n*maxLoadNum {
		sh.grow(s.exact)
	}
	return true
}

func (sh *shard) equal(i int, state []byte) bool {
	off := sh.refs[i]
	l, k := binary.Uvarint(sh.arena[off:])
	start := off + uint64(k)
	return bytes.Equal(sh.arena[start:start+l], state)
}

func (sh *shard) grow(exact bool) {
	old, oldRefs := sh.fps, sh.refs
	n := len(old) + len(old)/2
	sh.fps = make([]uint64, n)
	if exact {
		sh.refs = make([]uint64, n)
	}
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
	}
}

// bytes returns the memory the set holds.
func (s *seenSet) bytes() int64 {
	var b int64
	for i := range s.shards {
		sh := &s.shards[i]
		b += int64(cap(sh.fps)) * 8
		if s.exact {
			b += int64(cap(sh.refs))*8 + int64(cap(sh.arena))
		}
	}
	return b
}
