package explore

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// level holds encoded states of (a block of) one BFS level in memory.
// With tags (tb = tagBytes) each state's record ends with the step tag of
// the candidate that admitted it (see bfs.commute), little-endian.
type level struct {
	base  int64 // index within its level of the first state
	arena []byte
	offs  []int // offs[k]..offs[k+1] is the record of state k
	tb    int   // bytes of step tag at the end of each record: 0 or tagBytes
}

// tagBytes is the size of a step tag in a record.
const tagBytes = 8

func (l *level) len() int { return len(l.offs) - 1 }

func (l *level) state(k int) []byte { return l.arena[l.offs[k] : l.offs[k+1]-l.tb] }

// record is state k with its tag, if any.
func (l *level) record(k int) []byte { return l.arena[l.offs[k]:l.offs[k+1]] }

// tag is the step tag of state k (0 without tags: nothing known).
func (l *level) tag(k int) uint64 {
	if l.tb == 0 {
		return 0
	}
	return binary.LittleEndian.Uint64(l.arena[l.offs[k+1]-tagBytes:])
}

// reset empties the level, keeping its tag size.
func (l *level) reset(base int64) {
	l.base = base
	l.arena = l.arena[:0]
	l.offs = append(l.offs[:0], 0)
}

// add appends state s (with tag 0 if the level has tags).
func (l *level) add(s []byte) {
	l.arena = append(l.arena, s...)
	if l.tb > 0 {
		l.arena = binary.LittleEndian.AppendUint64(l.arena, 0)
	}
	l.offs = append(l.offs, len(l.arena))
}

// addRecord appends a record of the level's form.
func (l *level) addRecord(r []byte) {
	l.arena = append(l.arena, r...)
	l.offs = append(l.offs, len(l.arena))
}

// frontier holds the states of one BFS level in order: a prefix in a
// sequential spill file (runs of records: see spill) and the rest in
// memory. When the states in memory exceed limit bytes
// they are appended to the file, so a level of any size costs at most
// about limit bytes of memory. States are read back in blocks of about
// limit bytes, in order.
type frontier struct {
	wd    *workDir
	name  string
	limit int // bytes of states kept in memory; <= 0: never spill
	mem   level
	// tags: the levels this frontier holds from clear on carry step tags
	// (mem.tb; a restored level has none)
	tags bool

	file      *os.File
	w         *bufio.Writer
	fileCount int64    // states in the file
	fileBytes int64    // bytes written to the file
	err       error    // first write error
	hdr       []byte   // spill's scratch: a run's header
	maps      [][]byte // mappings of the file made by blocks (see unmap)
}

func newFrontier(wd *workDir, name string, limit int) *frontier {
	f := &frontier{wd: wd, name: name, limit: limit}
	f.mem.reset(0)
	return f
}

// count is the number of states of the level.
func (f *frontier) count() int64 { return f.fileCount + int64(f.mem.len()) }

// clear empties the frontier for a new level. Its file is not truncated
// but written again from the start (fileBytes says how much of it is the
// level): rewriting pages the kernel still caches for the file costs less
// than freeing them and taking new ones (torus/literal d=2 R=2, 2 workers:
// 6 to 9% of the search's processor time).
func (f *frontier) clear() {
	f.unmap()
	if f.file != nil {
		if _, err := f.file.Seek(0, io.SeekStart); err != nil && f.err == nil {
			f.err = f.wd.wrap(err)
		}
		f.w.Reset(f.file)
	}
	f.fileCount, f.fileBytes = 0, 0
	f.mem.reset(0)
	f.mem.tb = 0
	if f.tags {
		f.mem.tb = tagBytes
	}
}

// close removes the frontier's file.
func (f *frontier) close() {
	f.unmap()
	if f.file != nil {
		name := f.file.Name()
		f.file.Close()
		os.Remove(name)
		f.file = nil
	}
}

// maybeSpill appends the states in memory to the file if they exceed the
// limit.
func (f *frontier) maybeSpill() {
	if f.limit > 0 && len(f.mem.arena) > f.limit {
		f.spill()
	}
}

// spill appends the states in memory to the file as one run: the number
// of records and their lengths (uvarints), then the records as they lie in
// memory, written without copying them one by one.
func (f *frontier) spill() {
	if f.err != nil {
		return
	}
	if f.file == nil {
		file, err := f.wd.create(f.name)
		if err != nil {
			f.err = err
			return
		}
		f.file = file
		f.w = bufio.NewWriterSize(file, 1<<20)
	}
	m := &f.mem
	n := m.len()
	hdr := binary.AppendUvarint(f.hdr[:0], uint64(n))
	for k := range n {
		hdr = binary.AppendUvarint(hdr, uint64(m.offs[k+1]-m.offs[k]))
	}
	f.hdr = hdr
	body := m.arena[:m.offs[n]]
	if _, err := f.w.Write(hdr); err != nil {
		f.err = f.wd.wrap(err)
		return
	}
	if _, err := f.w.Write(body); err != nil {
		f.err = f.wd.wrap(err)
		return
	}
	written := int64(len(hdr) + len(body))
	f.fileCount += int64(n)
	f.fileBytes += written
	f.wd.spilled.Add(written)
	m.reset(f.fileCount)
}

// finish flushes the file so the level can be read back.
func (f *frontier) finish() error {
	if f.err == nil && f.w != nil {
		if err := f.w.Flush(); err != nil {
			f.err = f.wd.wrap(err)
		}
	}
	return f.err
}

// blocks calls fn with consecutive blocks of the level's states, in order,
// each of about limit bytes; the in-memory part is passed as is. The block
// passed is valid until fn returns. It stops when fn returns false and
// returns the first read error.
func (f *frontier) blocks(buf *level, fn func(*level) bool) error {
	if f.fileCount > 0 {
		if err := f.finish(); err != nil {
			return err
		}
		var src runSource
		if m := mapFrontier(f.file, f.fileBytes); m != nil {
			// The file's records are read in place: a block is a view
			// of the mapping (no copy, no system call per block). The
			// mapping lives until the frontier is cleared or closed, so
			// that no view of it outlives it.
			f.maps = append(f.maps, m)
			ms := &mappedSource{m: m}
			defer ms.restore(buf)
			src = ms
		} else {
			src = &streamSource{r: bufio.NewReaderSize(io.NewSectionReader(f.file, 0, f.fileBytes), 1<<20)}
		}
		var read int64
		buf.tb = f.mem.tb
		// The lengths of the current run's records not read yet, in a
		// slice of this call's own: a checkpoint reads the level again
		// while a search goes through it.
		var lens, run []int32
		for read < f.fileCount {
			var err error
			if len(lens) == 0 {
				run, err = src.header(run[:0], f.fileCount-read)
				lens = run
			}
			if err == nil {
				buf.reset(read)
				lens, err = src.records(buf, lens, f.limit)
			}
			if err != nil {
				return fmt.Errorf("frontier file %s, state %d of %d: %w", f.file.Name(), read, f.fileCount, err)
			}
			read += int64(buf.len())
			if !fn(buf) {
				return nil
			}
			src.consumed()
		}
	}
	if f.mem.len() > 0 {
		fn(&f.mem)
	}
	return nil
}

// mapFrontierFiles lets blocks map frontier files into memory (mapFile);
// tests turn it off to read them through the stream reader.
var mapFrontierFiles = true

func mapFrontier(file *os.File, size int64) []byte {
	if !mapFrontierFiles {
		return nil
	}
	return mapFile(file, size)
}

// unmap releases the mappings blocks made of the frontier's file.
func (f *frontier) unmap() {
	for _, m := range f.maps {
		unmapFile(m)
	}
	f.maps = f.maps[:0]
}

// runSource reads the runs of a frontier file (see spill) in order.
type runSource interface {
	// header reads the header of the next run, of at most max records,
	// and returns its records' lengths appended to lens.
	header(lens []int32, max int64) ([]int32, error)
	// records reads into l (empty) the next records of the run, whose
	// lengths lens lists, as many as fit in limit bytes (at least one;
	// all if limit <= 0), and returns the lengths left.
	records(l *level, lens []int32, limit int) ([]int32, error)
	// consumed says that the records read so far are no longer used.
	consumed()
}

// streamSource reads a frontier file through a buffer, copying each
// block's records into the level.
type streamSource struct{ r *bufio.Reader }

func (s *streamSource) header(lens []int32, max int64) ([]int32, error) {
	return readRunHeader(s.r, lens, max)
}

func (s *streamSource) records(l *level, lens []int32, limit int) ([]int32, error) {
	return readRecords(s.r, l, lens, limit)
}

func (s *streamSource) consumed() {}

// mappedSource reads a frontier file mapped into memory (mapFile): a
// block's arena is a view of the mapping, capped at its end so that
// nothing can append into the next records.
type mappedSource struct {
	m       []byte
	pos     int // bytes of m read
	dropped int // bytes of m whose pages were given back (dropPages)
	// saved is the level's own buffer (maybe nil) while lent is true:
	// the level views the mapping until restore
	saved []byte
	lent  bool
}

func (s *mappedSource) header(lens []int32, max int64) ([]int32, error) {
	n, k := binary.Uvarint(s.m[s.pos:])
	if k <= 0 {
		return lens, headerErr(k)
	}
	s.pos += k
	if n == 0 || n > uint64(max) {
		return lens, errCorrupt
	}
	for range n {
		l, k := binary.Uvarint(s.m[s.pos:])
		if k <= 0 {
			return lens, headerErr(k)
		}
		s.pos += k
		if l > maxStateBytes {
			return lens, errCorrupt
		}
		lens = append(lens, int32(l))
	}
	return lens, nil
}

// headerErr is the error of binary.Uvarint's k <= 0: the file ended
// (0) or the number overflows 64 bits.
func headerErr(k int) error {
	if k == 0 {
		return io.ErrUnexpectedEOF
	}
	return errCorrupt
}

func (s *mappedSource) records(l *level, lens []int32, limit int) ([]int32, error) {
	total, k := 0, 0
	for k < len(lens) && (k == 0 || limit <= 0 || total+int(lens[k]) <= limit) {
		total += int(lens[k])
		l.offs = append(l.offs, total)
		k++
	}
	if total > len(s.m)-s.pos {
		return nil, io.ErrUnexpectedEOF
	}
	if !s.lent {
		s.saved, s.lent = l.arena[:0], true // the level's own buffer, given back by restore
	}
	l.arena = s.m[s.pos : s.pos+total : s.pos+total]
	s.pos += total
	return lens[k:], nil
}

// consumed gives back the pages of the records read so far (their data
// stays in the kernel's cache of the file), so that reading a level keeps
// the resident set at about one block.
func (s *mappedSource) consumed() {
	s.dropped = dropPages(s.m, s.dropped, s.pos)
}

// restore gives l back the buffer it had before it viewed the mapping.
func (s *mappedSource) restore(l *level) {
	if s.lent {
		l.arena = s.saved
	}
}

// maxStateBytes bounds the length of a state read back from a file, so a
// corrupted length cannot make the reader allocate without bound.
const maxStateBytes = 1 << 24

var errCorrupt = errors.New("corrupted record (bad length)")

// readRunHeader reads the header of a run that spill wrote, of at most
// max records, and returns the records' lengths appended to lens.
func readRunHeader(r *bufio.Reader, lens []int32, max int64) ([]int32, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return lens, eofUnexpected(err)
	}
	if n == 0 || n > uint64(max) {
		return lens, errCorrupt
	}
	for range n {
		k, err := binary.ReadUvarint(r)
		if err != nil {
			return lens, eofUnexpected(err)
		}
		if k > maxStateBytes {
			return lens, errCorrupt
		}
		lens = append(lens, int32(k))
	}
	return lens, nil
}

// readRecords reads into l (empty) the next records of a run, whose
// lengths lens lists, as many as fit in limit bytes (at least one; all
// if limit <= 0), with one read, and returns the lengths left.
func readRecords(r *bufio.Reader, l *level, lens []int32, limit int) ([]int32, error) {
	total, k := 0, 0
	for k < len(lens) && (k == 0 || limit <= 0 || total+int(lens[k]) <= limit) {
		total += int(lens[k])
		l.offs = append(l.offs, total)
		k++
	}
	l.arena = grow(l.arena, total)
	if _, err := io.ReadFull(r, l.arena); err != nil {
		return nil, eofUnexpected(err)
	}
	return lens[k:], nil
}

// eofUnexpected turns io.EOF into io.ErrUnexpectedEOF: the reader knows
// how much the file holds.
func eofUnexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readRecord appends one length-prefixed record from r to l.
func readRecord(r *bufio.Reader, l *level) error {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return eofUnexpected(err)
	}
	if n > maxStateBytes {
		return errCorrupt
	}
	start := len(l.arena)
	l.arena = grow(l.arena, start+int(n))
	if _, err := io.ReadFull(r, l.arena[start:]); err != nil {
		return eofUnexpected(err)
	}
	l.offs = append(l.offs, len(l.arena))
	return nil
}
