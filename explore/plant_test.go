package explore

import (
	"bytes"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// Two bad steps out of the same state: the breadth-first search reports
// the one with the lower transition index (the one Successors yields
// first), whatever the number of workers. State [1 20] yields [2 20 0],
// [2 20 1], [2 20 2] in that order; steps 1 and 2 are bad, so the
// counterexample ends with step 1. (A reversed tie-break on the
// transition index reports step 2.)
func TestTieBreakBetweenBadStepsOfOneState(t *testing.T) {
	for _, workers := range []int{1, 2} {
		r := mustCheck(t, fan([2]int{20, 2}, [2]int{20, 1}), Options{Workers: workers, Properties: []model.Property{badStep}})
		if r.Verdict != Violated {
			t.Fatalf("workers=%d: %s, want a violation", workers, r.Verdict)
		}
		if got, want := r.Violation.Path, fanPath(20, 1); !slices.EqualFunc(got, want, bytes.Equal) {
			t.Errorf("workers=%d: path %v, want %v (the first bad step of the state)", workers, fmt.Sprint(got), fmt.Sprint(want))
		}
	}
}

// Each state sets exactly bitstateK (3, SPIN's -k3) bits of its shard,
// at the positions of the documented double hashing: h1 the
// fingerprint's bits below the shard bits, h2 an odd multiple of it,
// position j the multiply-shift of h1 + j*h2 into the shard's bits. A
// state is then contained, and new only once.
func TestBitstateSetsKBitsPerState(t *testing.T) {
	if bitstateK != 3 {
		t.Fatalf("bitstateK is %d; SPIN's default, documented, is 3", bitstateK)
	}
	for _, fp := range []uint64{0x0123456789abcdef, 0xdeadbeefcafebabe, 1<<63 | 12345, 0x00ff00ff00ff00ff} {
		s := newBitstate(1 << 16)
		sh := &s.shards[shardOf(fp)]
		m := uint64(len(sh.fps)) * 64
		want := map[uint64]bool{}
		h1 := fp << 8 // shardBits
		h2 := (fp*0x9e3779b97f4a7c15)<<1 | 1
		for j := uint64(0); j < 3; j++ {
			hi, _ := bits.Mul64(h1+j*h2, m)
			want[hi] = true
		}
		if len(want) != 3 {
			continue // two positions coincide: not a case for this test
		}
		if !sh.bitsInsert(fp) {
			t.Fatalf("fp %#x: the first insert is not new", fp)
		}
		got := map[uint64]bool{}
		for w, word := range sh.fps {
			for b := range 64 {
				if word&(1<<b) != 0 {
					got[uint64(w*64+b)] = true
				}
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("fp %#x: bits set %v, want %v", fp, got, want)
		}
		if !sh.bitsContain(fp) {
			t.Errorf("fp %#x: not contained after its insert", fp)
		}
		if sh.bitsInsert(fp) {
			t.Errorf("fp %#x: new again on its second insert", fp)
		}
	}
}
