package explore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"runtime"
	"sync"
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
	// edgeOut, parentOut: records not yet written to edgeF, parentF. The
	// spill appends them itself (a few bytes a state: a buffered writer's
	// call per record cost more than the copy)
	edgeOut, parentOut []byte
	records            int64 // edge records written (one per state, in id order)
	edges, written     int64 // edges and bytes in those records
	marks              []edgeMark
	buf                []byte
	count              int // edges in buf
	err                error
}

// Sizes of the spill's output buffers: a write to the file once they
// hold this much.
const (
	edgeOutBytes   = 1 << 20
	parentOutBytes = 1 << 16
)

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
	sp.edgeOut = make([]byte, 0, edgeOutBytes+4096)
	sp.parentOut = make([]byte, 0, parentOutBytes+6)
	return sp, nil
}

// parent records the BFS parent link of the next state.
func (sp *spill) parent(p uint32, act uint16) {
	sp.parentOut = binary.LittleEndian.AppendUint32(sp.parentOut, p)
	sp.parentOut = binary.LittleEndian.AppendUint16(sp.parentOut, act)
	if len(sp.parentOut) >= parentOutBytes {
		sp.parentOut = sp.write(sp.parentF, sp.parentOut)
	}
}

// write writes out to f and returns it emptied, keeping the first error
// in sp.err.
func (sp *spill) write(f *os.File, out []byte) []byte {
	if _, err := f.Write(out); err != nil && sp.err == nil {
		sp.err = sp.wd.wrap(err)
	}
	return out[:0]
}

// edge buffers an edge of the state being expanded, id from.
func (sp *spill) edge(from, to, fam uint32) {
	sp.buf = binary.AppendUvarint(sp.buf, uint64(fam))
	sp.buf = binary.AppendVarint(sp.buf, int64(to)-int64(from))
	sp.count++
}

// edgeMark is a place in the edge file where decoding may start: the
// record of state state begins at byte off, and its first edge has index
// edge.
type edgeMark struct {
	state, edge, off int64
}

// edgeMarkEvery is how many records apart the spill marks the edge file.
const edgeMarkEvery = 1 << 16

// endState writes the buffered edges as the record of the next state.
func (sp *spill) endState() {
	if sp.records%edgeMarkEvery == 0 && sp.records > 0 {
		sp.marks = append(sp.marks, edgeMark{sp.records, sp.edges, sp.written})
	}
	sp.edges += int64(sp.count)
	before := len(sp.edgeOut)
	sp.edgeOut = binary.AppendUvarint(sp.edgeOut, uint64(sp.count))
	sp.edgeOut = append(sp.edgeOut, sp.buf...)
	sp.written += int64(len(sp.edgeOut) - before)
	if len(sp.edgeOut) >= edgeOutBytes {
		sp.edgeOut = sp.write(sp.edgeF, sp.edgeOut)
	}
	sp.records++
	sp.buf, sp.count = sp.buf[:0], 0
}

// flush ends the writing.
func (sp *spill) flush() error {
	if len(sp.edgeOut) > 0 {
		sp.edgeOut = sp.write(sp.edgeF, sp.edgeOut)
	}
	if len(sp.parentOut) > 0 {
		sp.parentOut = sp.write(sp.parentF, sp.parentOut)
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
// all, edges edges in all, families fams) and removes the file. With more
// than one processor it decodes the two halves of the file at once, split
// at the mark nearest the middle.
func (g *graph) loadEdges(sp *spill, states int, edges int64, fams int) error {
	g.off.lo = allocU32(states + 1)
	g.out = newPackedEdges(edges, states, fams)
	parts := []edgeMark{{}}
	// Without wraps, the offsets of the two halves are disjoint entries.
	if m := sp.marks; len(m) > 0 && edges < 1<<32 && runtime.GOMAXPROCS(0) > 1 {
		parts = append(parts, m[len(m)/2])
	}
	parts = append(parts, edgeMark{int64(states), edges, sp.written})
	late := make([][]lateEdge, len(parts)-1)
	errs := make([]error, len(parts)-1)
	var wg sync.WaitGroup
	for i := range len(parts) - 1 {
		wg.Go(func() { late[i], errs[i] = g.decodeEdges(sp, parts[i], parts[i+1], int64(states), fams) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("liveness graph: edge file %s: %w", sp.edgeF.Name(), err)
		}
		for _, l := range late[i] {
			g.out.set(l.e, l.to, l.fam)
		}
	}
	g.off.set(uint32(states), edges)
	// The file's pages are no longer needed.
	_ = sp.edgeF.Truncate(0)
	return nil
}

// lateEdge is an edge that decodeEdges left to its caller to store: its
// bits share a word of g.out with the edges of the part before.
type lateEdge struct {
	e       int64
	to, fam uint32
}

// decodeEdges decodes the records of the states from.state to
// to.state-1 (those past sp.records have none) into g.off and g.out. An
// edge whose bits begin in the word that holds the bits of the edge
// before the part (another goroutine's) is returned instead of stored.
func (g *graph) decodeEdges(sp *spill, from, to edgeMark, states int64, fams int) ([]lateEdge, error) {
	r := varintReader{r: io.NewSectionReader(sp.edgeF, from.off, to.off-from.off), buf: make([]byte, 1<<20)}
	width := int64(g.out.width)
	shared := int64(-1) // edges below this index begin in a shared word
	if from.edge*width%64 != 0 {
		shared = (from.edge*width/64 + 1) * 64 / width
		if (from.edge*width/64+1)*64%width != 0 {
			shared++
		}
	}
	var late []lateEdge
	e := from.edge
	for s := from.state; s < to.state; s++ {
		g.off.set(uint32(s), e)
		if s >= sp.records {
			continue // admitted, never expanded
		}
		k := r.uvarint()
		for range k {
			f := r.uvarint()
			t := s + r.varint()
			if r.err != nil {
				break
			}
			if e >= to.edge || t < 0 || t >= states || f >= uint64(fams) {
				return nil, errors.New("a record out of range")
			}
			if e < shared {
				late = append(late, lateEdge{e, uint32(t), uint32(f)})
			} else {
				g.out.set(e, uint32(t), uint32(f))
			}
			e++
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	if e != to.edge {
		return nil, fmt.Errorf("%d edges where %d were written", e, to.edge)
	}
	return late, nil
}

// parentOf reads the BFS parent link of state s.
func (g *graph) parentOf(s uint32) (uint32, uint16, error) {
	var b [6]byte
	if _, err := g.parents.ReadAt(b[:], int64(s)*6); err != nil {
		return 0, 0, g.wd.wrap(err)
	}
	return binary.LittleEndian.Uint32(b[:4]), binary.LittleEndian.Uint16(b[4:]), nil
}

// varintReader decodes varints from r through a buffer of its own: an
// edge record is a few bytes, and decoding them from a slice costs a
// fraction of a bufio.Reader's byte-at-a-time ReadByte. After the first
// error (io.ErrUnexpectedEOF for a file that ends inside a varint or
// before one, or a varint that overflows 64 bits) it returns 0.
type varintReader struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool // r has nothing more
	err      error
}

// need makes at least n bytes available in buf[pos:end] unless r ends.
func (v *varintReader) need(n int) {
	if v.end-v.pos >= n || v.eof {
		return
	}
	v.end = copy(v.buf, v.buf[v.pos:v.end])
	v.pos = 0
	for v.end < len(v.buf) && !v.eof {
		m, err := v.r.Read(v.buf[v.end:])
		v.end += m
		if err == io.EOF {
			v.eof = true
		} else if err != nil {
			v.eof, v.err = true, err
		}
		if v.end-v.pos >= n {
			return
		}
	}
}

func (v *varintReader) uvarint() uint64 {
	if v.err != nil {
		return 0
	}
	v.need(binary.MaxVarintLen64 + 1) // one more: binary.Uvarint tells an overlong varint only then
	x, n := binary.Uvarint(v.buf[v.pos:v.end])
	if n <= 0 {
		v.fail(n)
		return 0
	}
	v.pos += n
	return x
}

// varint decodes a zigzag varint, as binary.Varint does.
func (v *varintReader) varint() int64 {
	ux := v.uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

// fail records why a varint could not be decoded (n from binary.Uvarint).
func (v *varintReader) fail(n int) {
	if v.err != nil {
		return
	}
	if n < 0 {
		v.err = errors.New("a varint overflows 64 bits")
	} else {
		v.err = io.ErrUnexpectedEOF
	}
}
