package explore

import (
	"math"
	"math/bits"
)

// Bitstate (supertrace) mode, after Holzmann: instead of a fingerprint per
// state, the seen set is an array of bits and a state is marked by setting
// bitstateK bits chosen by hash functions of its fingerprint. A state whose
// bits are all set already is taken as visited, which may be wrong (two
// states can cover each other's bits): the search may then miss states, so
// its verdict without a violation is OKPartial, never OK. A violation it
// finds is real, with a counterexample that replays.
//
// The array is split into the same 256 shards as the fingerprint set, and
// all bits of a state lie in the shard of its fingerprint, so the parallel
// insert phase stays lock-free and deterministic.

// bitstateK is the number of hash functions (bits set per state), SPIN's
// default (-k3).
const bitstateK = 3

// bitPositions derives the bitstateK bit positions of a fingerprint in a shard
// of m bits by double hashing: h1 is the fingerprint's bits below the shard
// bits, h2 an odd multiple of it, and position j is (h1 + j*h2) reduced to
// [0, m) by a multiply-shift.
func bitPositions(fp uint64, m uint64, pos *[bitstateK]uint64) {
	h1 := fp << shardBits
	h2 := (fp*0x9e3779b97f4a7c15)<<1 | 1
	for j := range bitstateK {
		hi, _ := bits.Mul64(h1+uint64(j)*h2, m)
		pos[j] = hi
	}
}

// newBitstate returns a seen set in bitstate mode with about size bytes of
// bits.
func newBitstate(size int64) *seenSet {
	s := &seenSet{bitstate: true}
	words := max(int(size/8/shardCount), 1)
	for i := range s.shards {
		s.shards[i].fps = allocTable(words)
	}
	return s
}

func (sh *shard) bitsContain(fp uint64) bool {
	var pos [bitstateK]uint64
	bitPositions(fp, uint64(len(sh.fps))*64, &pos)
	for _, p := range pos {
		if sh.fps[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
	}
	return true
}

func (sh *shard) bitsInsert(fp uint64) bool {
	var pos [bitstateK]uint64
	bitPositions(fp, uint64(len(sh.fps))*64, &pos)
	isNew := false
	for _, p := range pos {
		w, b := &sh.fps[p>>6], uint64(1)<<(p&63)
		if *w&b == 0 {
			*w |= b
			isNew = true
		}
	}
	if isNew {
		sh.n++
	}
	return isNew
}

// hashFactor is, as SPIN reports it, the number of bits of the bitstate
// array per state stored: above about 100 a bitstate search is expected
// to have missed few states.
func hashFactor(bitsTotal, states int64) float64 {
	if states == 0 {
		return 0
	}
	return float64(bitsTotal) / float64(states)
}

// expectedCoverage estimates the fraction of the reachable states a
// bitstate search of n stored states in m bits with k hash functions
// visited: the i-th new state is wrongly taken as visited with probability
// about (1-exp(-k*i/m))^k, averaged over i < n (numerically). The estimate
// assumes independent, uniform hash bits.
func expectedCoverage(m, n int64, k int) float64 {
	if n == 0 || m == 0 {
		return 1
	}
	const steps = 1000
	var miss float64
	for i := range steps {
		x := (float64(i) + 0.5) / steps * float64(n)
		miss += math.Pow(1-math.Exp(-float64(k)*x/float64(m)), float64(k))
	}
	return 1 - miss/steps
}
