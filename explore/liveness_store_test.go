package explore

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// Bit-packed edges read back what was written, at every width (a field
// may straddle two words), and neighbours do not disturb each other.
func TestPackedEdgesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ states, fams int }{
		{1, 1}, {2, 1}, {3, 2}, {1000, 30}, {10600944, 30}, {1 << 31, 1 << 20}, {1<<32 - 1, 1<<32 - 1},
	} {
		const n = 1000
		p := newPackedEdges(n, c.states, c.fams)
		want := make([][2]uint32, n)
		for e := range int64(n) {
			to := uint32(rng.Uint64N(uint64(c.states)))
			f := uint32(rng.Uint64N(uint64(c.fams)))
			want[e] = [2]uint32{to, f}
			p.set(e, to, f)
		}
		for e := range int64(n) {
			if to, f := p.get(e); to != want[e][0] || f != want[e][1] {
				t.Fatalf("states %d families %d (width %d): edge %d reads (%d, %d), want %v", c.states, c.fams, p.width, e, to, f, want[e])
			}
		}
		if c.states == 10600944 && p.width != 24+5 {
			t.Errorf("10.6 M states and 30 families take %d bits an edge, want 29", p.width)
		}
		p.free()
	}
}

// Offsets keep 32 bits a state and note where the edge index passes a
// multiple of 2^32: edges and source stay exact across the wrap.
func TestOffsetsAcrossFourBillionEdges(t *testing.T) {
	counts := []int64{5, 1<<32 - 7, 3, 0, 4, 1<<32 - 2, 9, 1}
	g := &graph{nstates: len(counts)}
	g.off.lo = make([]uint32, len(counts)+1)
	var e int64
	starts := make([]int64, len(counts)+1)
	for s, c := range counts {
		starts[s] = e
		g.off.set(uint32(s), e)
		e += c
	}
	starts[len(counts)] = e
	g.off.set(uint32(len(counts)), e)
	if len(g.off.wraps) != 2 {
		t.Fatalf("wraps %v, want two (the index passes 2^32 and 2^33)", g.off.wraps)
	}
	for s, c := range counts {
		lo, hi := g.edges(uint32(s))
		if lo != starts[s] || hi-lo != c {
			t.Errorf("state %d: edges [%d, %d), want [%d, %d)", s, lo, hi, starts[s], starts[s]+c)
		}
		if c == 0 {
			continue
		}
		for _, x := range []int64{lo, hi - 1, (lo + hi) / 2} {
			if got := g.source(x); got != uint32(s) {
				t.Errorf("source of edge %d is %d, want %d", x, got, s)
			}
		}
	}
}

// The family table numbers distinct keys in the order they first appear
// and finds each again, across its growth and for keys that are
// prefixes of one another.
func TestFamilyTableInterns(t *testing.T) {
	var ft familyTable
	keyOf := func(i int) []byte { return []byte(fmt.Sprintf("family-%d", i)) }
	tr := &model.Transition{Kind: model.Deliver}
	for round := range 2 {
		for i := range 1000 {
			tr.Proc = i
			if got := ft.intern(keyOf(i), model.WeaklyFair, tr); got != uint32(i) {
				t.Fatalf("round %d: key %d interned as %d", round, i, got)
			}
		}
	}
	if len(ft.class) != 1000 || ft.proc[999] != 999 || string(ft.key(10)) != "family-10" {
		t.Fatalf("%d families, proc of the last %d, key 10 %q", len(ft.class), ft.proc[999], ft.key(10))
	}
}
