package explore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

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

// varintReader decodes what binary.AppendUvarint and AppendVarint wrote,
// whatever the reads return at a time (its buffer refills in the middle
// of a varint), and says where the input ends inside a varint or holds
// one too long for 64 bits.
func TestVarintReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var data []byte
	var want []int64
	var signed []bool // written by AppendVarint
	for range 5000 {
		v := int64(rng.Uint64() >> rng.IntN(64))
		sg := rng.IntN(2) == 0
		if sg {
			v = -v
			data = binary.AppendVarint(data, v)
		} else {
			data = binary.AppendUvarint(data, uint64(v))
		}
		want = append(want, v)
		signed = append(signed, sg)
	}
	for _, c := range []struct {
		name string
		mk   func([]byte) io.Reader
		buf  int
	}{
		{"one byte a read", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }, 16},
		{"half reads", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }, 23},
		{"large buffer", func(b []byte) io.Reader { return bytes.NewReader(b) }, 1 << 20},
	} {
		r := varintReader{r: c.mk(data), buf: make([]byte, c.buf)}
		for i, w := range want {
			var got int64
			if signed[i] {
				got = r.varint()
			} else {
				got = int64(r.uvarint())
			}
			if r.err != nil || got != w {
				t.Fatalf("%s: varint %d: got %d (err %v), want %d", c.name, i, got, r.err, w)
			}
		}
		if r.uvarint(); r.err != io.ErrUnexpectedEOF {
			t.Errorf("%s: past the end: err %v, want %v", c.name, r.err, io.ErrUnexpectedEOF)
		}
		// An input cut inside its last varint.
		cut := binary.AppendUvarint(nil, 1<<40)
		r = varintReader{r: c.mk(cut[:len(cut)-1]), buf: make([]byte, c.buf)}
		if v := r.uvarint(); r.err != io.ErrUnexpectedEOF || v != 0 {
			t.Errorf("%s: a cut varint: %d, err %v", c.name, v, r.err)
		}
		// Eleven continuation bytes: more than 64 bits.
		long := bytes.Repeat([]byte{0xff}, 11)
		r = varintReader{r: c.mk(long), buf: make([]byte, c.buf)}
		if v := r.varint(); r.err == nil || r.err == io.ErrUnexpectedEOF || v != 0 {
			t.Errorf("%s: an overlong varint: %d, err %v", c.name, v, r.err)
		}
	}
}

// The edges read back are those the spill wrote, whether the file is
// decoded in one part or in two at once (split at a mark, with a word
// of the packed edges shared between the parts at most widths), and a
// file cut short or with a record out of range is refused.
func TestLoadEdgesInParts(t *testing.T) {
	for _, c := range []struct {
		states, expanded, fams int
	}{
		{3 * edgeMarkEvery, 3*edgeMarkEvery - 5, 7},   // 2 marks, unexpanded states at the end
		{2*edgeMarkEvery + 1, 2*edgeMarkEvery + 1, 1}, // width: target bits only
		{5 * edgeMarkEvery / 2, 5 * edgeMarkEvery / 2, 1 << 12},
		{1000, 900, 3}, // no mark: one part
	} {
		name := fmt.Sprintf("%d states, %d expanded, %d families", c.states, c.expanded, c.fams)
		type edge struct{ to, fam uint32 }
		// write spills the same random edges each time.
		write := func() (*spill, [][]edge, int64) {
			rng := rand.New(rand.NewPCG(5, uint64(c.states)))
			sp, err := newSpill(&workDir{parent: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			var want [][]edge
			var n int64
			for s := range c.expanded {
				var es []edge
				for range rng.IntN(7) {
					e := edge{uint32(rng.IntN(c.states)), uint32(rng.IntN(c.fams))}
					sp.edge(uint32(s), e.to, e.fam)
					es = append(es, e)
				}
				sp.endState()
				want = append(want, es)
				n += int64(len(es))
			}
			if err := sp.flush(); err != nil {
				t.Fatal(err)
			}
			return sp, want, n
		}
		sp, want, n := write()
		if want := (c.expanded - 1) / edgeMarkEvery; len(sp.marks) != want {
			t.Fatalf("%s: %d marks, want %d", name, len(sp.marks), want)
		}
		g := &graph{}
		if err := g.loadEdges(sp, c.states, n, c.fams); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for s := range c.states {
			lo, hi := g.edges(uint32(s))
			var es []edge
			if s < c.expanded {
				es = want[s]
			}
			if hi-lo != int64(len(es)) {
				t.Fatalf("%s: state %d has %d edges, want %d", name, s, hi-lo, len(es))
			}
			for i, e := range es {
				if to, fam := g.edge(lo + int64(i)); to != e.to || fam != e.fam {
					t.Fatalf("%s: state %d edge %d: (%d, %d), want (%d, %d)", name, s, i, to, fam, e.to, e.fam)
				}
			}
		}
		g.free()
		sp.close()
		if len(sp.marks) > 0 {
			// The second part alone leaves the word it shares with the
			// first (the other goroutine's) to the caller.
			sp, _, n := write()
			m := sp.marks[len(sp.marks)/2]
			g := &graph{}
			g.off.lo = allocU32(c.states + 1)
			g.out = newPackedEdges(n, c.states, c.fams)
			late, err := g.decodeEdges(sp, m, edgeMark{int64(c.states), n, sp.written}, int64(c.states), c.fams)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			w := uint64(m.edge) * uint64(g.out.width) / 64
			if g.out.words[w] != 0 {
				t.Errorf("%s: the second part wrote word %d, which the first part writes too", name, w)
			}
			if uint64(m.edge)*uint64(g.out.width)%64 != 0 && len(late) == 0 {
				t.Errorf("%s: the parts share word %d but no edge was left to the caller", name, w)
			}
			for _, l := range late {
				g.out.set(l.e, l.to, l.fam)
			}
			if g.out.words[w+1] == 0 && g.out.words[w+2] == 0 {
				t.Errorf("%s: the second part wrote nothing after the shared word", name)
			}
			g.free()
			sp.close()
		}
		// The same file read as if one more edge had been written, or with
		// a state count too small for a target, or cut in the middle.
		for _, bad := range []struct {
			states int
			edges  int64
			cut    bool
			want   string
		}{
			{c.states, n + 1, false, "edges where"},
			{c.states / 10, n, false, "out of range"},
			{c.states, n, true, "unexpected EOF"},
		} {
			sp, _, _ := write()
			if bad.cut {
				if err := sp.edgeF.Truncate(sp.written / 2); err != nil {
					t.Fatal(err)
				}
			}
			g := &graph{}
			if err := g.loadEdges(sp, bad.states, bad.edges, c.fams); err == nil || !strings.Contains(err.Error(), bad.want) {
				t.Errorf("%s: %+v: error %v", name, bad, err)
			}
			g.free()
			sp.close()
		}
	}
}
