package explore

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"os"
	"unsafe"
)

// The liveness graph's storage. While the graph is built, the numbered
// fingerprint set is the large structure; each state's edges go to a
// spill file in the work directory (a uvarint count, then per edge the
// family as a uvarint and the target as a zigzag varint relative to the
// source, mostly a level's width away) and its BFS parent link to a
// second file, read back only to rebuild a counterexample. Once the
// graph is complete the set is freed and the edges are loaded into two
// arrays outside the Go heap: offsets (4 bytes a state) and the edges
// bit-packed at the width the graph needs (target bits plus family bits,
// 29 bits for 10.6 million states and 30 families), so that the peak
// resident memory is that of the larger of the two phases, not their
// sum.

// allocU32 returns n zeroed uint32s outside the Go heap where the
// platform allows (allocTable), so that the collector neither scans nor
// doubles them and freeU32 gives them back at once.
func allocU32(n int) []uint32 {
	if n == 0 {
		return nil
	}
	t := allocTable((n + 1) / 2)
	return unsafe.Slice((*uint32)(unsafe.Pointer(&t[0])), n)
}

// freeU32 releases a slice made by allocU32.
func freeU32(t []uint32) {
	if len(t) == 0 {
		return
	}
	freeTable(unsafe.Slice((*uint64)(unsafe.Pointer(&t[0])), (len(t)+1)/2))
}

// bitsAt returns the width (<= 64) bits of words starting at bit pos
// (bit 0 is the lowest bit of words[0]).
func bitsAt(words []uint64, pos uint64, width uint) uint64 {
	i, sh := pos>>6, uint(pos&63)
	v := words[i] >> sh
	if sh+width > 64 {
		v |= words[i+1] << (64 - sh)
	}
	return v & (1<<width - 1)
}

// orBitsAt sets the bits of v (width bits, no higher ones) at bit pos.
func orBitsAt(words []uint64, pos uint64, width uint, v uint64) {
	i, sh := pos>>6, uint(pos&63)
	words[i] |= v << sh
	if sh+width > 64 {
		words[i+1] |= v >> (64 - sh)
	}
}

// packedEdges holds each edge as target<<famBits | family in width bits.
type packedEdges struct {
	words   []uint64 // allocTable; one spare word so bitsAt may read past the last edge
	width   uint
	famBits uint
	n       int64
}

func newPackedEdges(n int64, states, families int) packedEdges {
	p := packedEdges{n: n}
	p.famBits = uint(bits.Len(uint(max(families, 1) - 1)))
	p.width = uint(bits.Len(uint(max(states, 1)-1))) + p.famBits
	p.width = max(p.width, 1)
	p.words = allocTable(int((n*int64(p.width)+63)/64) + 1)
	return p
}

func (p *packedEdges) get(e int64) (to, fam uint32) {
	v := bitsAt(p.words, uint64(e)*uint64(p.width), p.width)
	return uint32(v >> p.famBits), uint32(v & (1<<p.famBits - 1))
}

func (p *packedEdges) set(e int64, to, fam uint32) {
	orBitsAt(p.words, uint64(e)*uint64(p.width), p.width, uint64(to)<<p.famBits|uint64(fam))
}

func (p *packedEdges) bytes() int64 { return int64(len(p.words)) * 8 }

func (p *packedEdges) free() {
	freeTable(p.words)
	p.words = nil
}

// offsets holds the index of each state's first edge: its low 32 bits,
// and the states at which the index passes a multiple of 2^32 (rare: a
// graph of more than 4 billion edges).
type offsets struct {
	lo    []uint32 // allocU32; states+1 entries
	wraps []uint32
}

// set records that state s's first edge has index e; states are set in
// increasing order.
func (o *offsets) set(s uint32, e int64) {
	o.lo[s] = uint32(e)
	if e>>32 > int64(len(o.wraps)) {
		o.wraps = append(o.wraps, s)
	}
}

func (o *offsets) at(s uint32) int64 {
	hi := int64(0)
	for _, w := range o.wraps {
		if w > s {
			break
		}
		hi++
	}
	return hi<<32 | int64(o.lo[s])
}

// spill writes the graph's edges and parent links to the work directory
// while the graph is built.
type spill struct {
	wd             *workDir
	edgeF, parentF *os.File
	edgeW, parentW *bufio.Writer
	records        int64 // edge records written (one per state, in id order)
	buf            []byte
	count          int // edges in buf
	rec            [binary.MaxVarintLen64]byte
	parentRec      [6]byte
	err            error
}

func newSpill(wd *workDir) (*spill, error) {
	sp := &spill{wd: wd}
	var err error
	if sp.edgeF, err = wd.create("liveness-edges"); err != nil {
		return nil, err
	}
	if sp.parentF, err = wd.create("liveness-parents"); err != nil {
		sp.edgeF.Close()
		return nil, err
	}
	sp.edgeW = bufio.NewWriterSize(sp.edgeF, 1<<20)
	sp.parentW = bufio.NewWriterSize(sp.parentF, 1<<16)
	return sp, nil
}

// parent records the BFS parent link of the next state.
func (sp *spill) parent(p uint32, act uint16) {
	binary.LittleEndian.PutUint32(sp.parentRec[:4], p)
	binary.LittleEndian.PutUint16(sp.parentRec[4:], act)
	if _, err := sp.parentW.Write(sp.parentRec[:]); err != nil && sp.err == nil {
		sp.err = sp.wd.wrap(err)
	}
}

// edge buffers an edge of the state being expanded, id from.
func (sp *spill) edge(from, to, fam uint32) {
	sp.buf = binary.AppendUvarint(sp.buf, uint64(fam))
	sp.buf = binary.AppendVarint(sp.buf, int64(to)-int64(from))
	sp.count++
}

// endState writes the buffered edges as the record of the next state.
func (sp *spill) endState() {
	n := binary.PutUvarint(sp.rec[:], uint64(sp.count))
	if _, err := sp.edgeW.Write(sp.rec[:n]); err != nil && sp.err == nil {
		sp.err = sp.wd.wrap(err)
	}
	if _, err := sp.edgeW.Write(sp.buf); err != nil && sp.err == nil {
		sp.err = sp.wd.wrap(err)
	}
	sp.records++
	sp.buf, sp.count = sp.buf[:0], 0
}

// flush ends the writing.
func (sp *spill) flush() error {
	for _, w := range []*bufio.Writer{sp.edgeW, sp.parentW} {
		if err := w.Flush(); err != nil && sp.err == nil {
			sp.err = sp.wd.wrap(err)
		}
	}
	return sp.err
}

// close closes and removes the files.
func (sp *spill) close() {
	for _, f := range []*os.File{sp.edgeF, sp.parentF} {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
	sp.edgeF, sp.parentF = nil, nil
}

// loadEdges reads the edge file back into g.off and g.out (states in
// all, edges edges in all, families fams) and removes the file.
func (g *graph) loadEdges(sp *spill, states int, edges int64, fams int) error {
	if _, err := sp.edgeF.Seek(0, io.SeekStart); err != nil {
		return sp.wd.wrap(err)
	}
	r := bufio.NewReaderSize(sp.edgeF, 1<<20)
	g.off.lo = allocU32(states + 1)
	g.out = newPackedEdges(edges, states, fams)
	var e int64
	bad := func(what string) error {
		return fmt.Errorf("liveness graph: edge file %s: %s", sp.edgeF.Name(), what)
	}
	for s := range int64(states) {
		g.off.set(uint32(s), e)
		if s >= sp.records {
			continue // admitted, never expanded
		}
		k, err := binary.ReadUvarint(r)
		if err != nil {
			return bad(err.Error())
		}
		for range k {
			f, err := binary.ReadUvarint(r)
			if err != nil {
				return bad(err.Error())
			}
			d, err := binary.ReadVarint(r)
			if err != nil {
				return bad(err.Error())
			}
			to := s + d
			if e >= edges || to < 0 || to >= int64(states) || f >= uint64(fams) {
				return bad("a record out of range")
			}
			g.out.set(e, uint32(to), uint32(f))
			e++
		}
	}
	g.off.set(uint32(states), e)
	if e != edges {
		return bad(fmt.Sprintf("%d edges where %d were written", e, edges))
	}
	// The file's pages are no longer needed.
	_ = sp.edgeF.Truncate(0)
	return nil
}

// parentOf reads the BFS parent link of state s.
func (g *graph) parentOf(s uint32) (uint32, uint16, error) {
	var b [6]byte
	if _, err := g.parents.ReadAt(b[:], int64(s)*6); err != nil {
		return 0, 0, g.wd.wrap(err)
	}
	return binary.LittleEndian.Uint32(b[:4]), binary.LittleEndian.Uint16(b[4:]), nil
}
