package explore

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// linkSize is the size of a predecessor link record: the parent's index
// within the previous level (uint32, little endian; noParent for an
// initial state) and the index of the action among the parent's
// transitions (uint16; for an initial state, its index among the initial
// states).
const linkSize = 6

const noParent = ^uint32(0)

// linkStore keeps the predecessor links of every BFS level, one record per
// state in the level's order. Levels stay in memory while all of them
// together take at most limit bytes; beyond that every level goes to its
// own append-only file in the work directory and is read back only to
// rebuild a counterexample.
type linkStore struct {
	wd      *workDir
	limit   int64 // <= 0: never spill
	levels  []linkLevel
	memory  int64 // bytes of links held in memory
	spilled bool
	err     error
}

type linkLevel struct {
	mem  []byte // records not yet in the file
	file *os.File
	n    int64 // records in the file
}

func newLinkStore(wd *workDir, limit int64) *linkStore {
	return &linkStore{wd: wd, limit: limit}
}

// startLevel begins the links of the next level.
func (ls *linkStore) startLevel() {
	var buf []byte
	if n := len(ls.levels); ls.spilled && n > 0 {
		buf, ls.levels[n-1].mem = ls.levels[n-1].mem[:0], nil // flushed: reuse its buffer
	}
	ls.levels = append(ls.levels, linkLevel{mem: buf})
}

// reserve extends the current level by n records and returns the new
// records' bytes, for the caller to fill (in parallel if it likes).
func (ls *linkStore) reserve(n int) []byte {
	l := &ls.levels[len(ls.levels)-1]
	start := len(l.mem)
	l.mem = grow(l.mem, start+n*linkSize)
	ls.memory += int64(n * linkSize)
	return l.mem[start:]
}

func putLink(b []byte, parent uint32, action uint16) {
	binary.LittleEndian.PutUint32(b, parent)
	binary.LittleEndian.PutUint16(b[4:], action)
}

// maybeSpill moves links to files once they exceed the limit; from then
// on every level is flushed after each block.
func (ls *linkStore) maybeSpill() {
	if !ls.spilled && (ls.limit <= 0 || ls.memory <= ls.limit) {
		return
	}
	ls.spilled = true
	for i := range ls.levels {
		ls.flush(i)
	}
}

func (ls *linkStore) flush(i int) {
	l := &ls.levels[i]
	if len(l.mem) == 0 || ls.err != nil {
		return
	}
	if l.file == nil {
		f, err := ls.wd.create(fmt.Sprintf("links-%06d", i))
		if err != nil {
			ls.err = err
			return
		}
		l.file = f
	}
	if _, err := l.file.WriteAt(l.mem, l.n*linkSize); err != nil {
		ls.err = ls.wd.wrap(err)
		return
	}
	ls.wd.spilled.Add(int64(len(l.mem)))
	ls.memory -= int64(len(l.mem))
	l.n += int64(len(l.mem) / linkSize)
	if i < len(ls.levels)-1 {
		l.mem = nil
	} else {
		l.mem = l.mem[:0] // the level being built reuses its buffer
	}
}

// get returns the link of the state with index idx in level lv.
func (ls *linkStore) get(lv int, idx int64) (parent uint32, action uint16, err error) {
	l := &ls.levels[lv]
	var rec [linkSize]byte
	switch {
	case idx < l.n:
		if _, err := l.file.ReadAt(rec[:], idx*linkSize); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, 0, fmt.Errorf("link file %s, record %d: %w", l.file.Name(), idx, err)
		}
	case (idx-l.n)*linkSize+linkSize <= int64(len(l.mem)):
		copy(rec[:], l.mem[(idx-l.n)*linkSize:])
	default:
		return 0, 0, fmt.Errorf("no link for state %d of level %d", idx, lv)
	}
	return binary.LittleEndian.Uint32(rec[:]), binary.LittleEndian.Uint16(rec[4:]), nil
}

// bytes is the memory the links hold.
func (ls *linkStore) bytes() int64 { return ls.memory }

// close removes the link files.
func (ls *linkStore) close() {
	for i := range ls.levels {
		if f := ls.levels[i].file; f != nil {
			f.Close()
			os.Remove(f.Name())
			ls.levels[i].file = nil
		}
	}
}
