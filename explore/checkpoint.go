package explore

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"
)

// A checkpoint is a directory holding everything a breadth-first search
// needs to continue: the seen set, the states of the level being expanded
// and of the partial next level, the predecessor links of every level and
// the counters, taken between two blocks (see bfs). Its files are written
// into a fresh subdirectory, synced, and only then named by the file
// CURRENT (written to a temporary name, synced and renamed), so a process
// killed at any moment leaves the previous complete checkpoint in force.
// Every file's size and CRC-32C are in the manifest, and CURRENT holds the
// manifest's own CRC: a truncated or corrupted checkpoint is refused with
// an error naming the file.

// checkpointFormat names the format; a change of layout changes it.
const checkpointFormat = "tokenmc-checkpoint/1"

var crcTable = crc32.MakeTable(crc32.Castagnoli)

type ckptFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	CRC  uint32 `json:"crc32c"`
}

// ckptManifest is manifest.json of a checkpoint.
type ckptManifest struct {
	Format string `json:"format"`
	// ID is Options.CheckpointID: the caller's identity of the search
	// (algorithm, parameters, properties, options, version).
	ID string `json:"id"`
	// Mode is the seen set's kind, which must match too.
	Mode        string     `json:"mode"`
	Depth       int        `json:"depth"`
	Done        int64      `json:"done"`        // states in levels 0..depth
	Transitions int64      `json:"transitions"` // counted so far
	Pos         int64      `json:"pos"`         // states of level depth already expanded
	CurCount    int64      `json:"cur_count"`   // states of level depth
	NextCount   int64      `json:"next_count"`  // states of level depth+1 so far
	Levels      int        `json:"levels"`      // link levels (depth+2)
	LinkCounts  []int64    `json:"link_counts"`
	Shards      int        `json:"shards"`
	Files       []ckptFile `json:"files"`
}

func (b *bfs) mode() string {
	switch {
	case b.seen.bitstate:
		return fmt.Sprintf("bitstate %d words/shard", len(b.seen.shards[0].fps))
	case b.seen.exact:
		return "exact"
	}
	return "fingerprint"
}

// crcFile writes a checkpoint file and records its size and checksum.
type crcFile struct {
	f    *os.File
	w    *bufio.Writer
	crc  hash.Hash32
	size int64
	rec  *ckptFile
}

func createCkptFile(dir, name string, m *ckptManifest) (*crcFile, error) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	m.Files = append(m.Files, ckptFile{Name: name})
	return &crcFile{f: f, w: bufio.NewWriterSize(f, 1<<20), crc: crc32.New(crcTable), rec: &m.Files[len(m.Files)-1]}, nil
}

func (c *crcFile) Write(p []byte) (int, error) {
	c.crc.Write(p)
	c.size += int64(len(p))
	return c.w.Write(p)
}

func (c *crcFile) close(m *ckptManifest) error {
	err := c.w.Flush()
	if err == nil {
		err = c.f.Sync()
	}
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	for i := range m.Files {
		if m.Files[i].Name == filepath.Base(c.f.Name()) {
			m.Files[i].Size, m.Files[i].CRC = c.size, c.crc.Sum32()
		}
	}
	return err
}

func u64bytes(t []uint64) []byte {
	if len(t) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&t[0])), len(t)*8)
}

func putU64(w io.Writer, v uint64) error {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	_, err := w.Write(b[:])
	return err
}

// saveCheckpoint writes the search's state before the block of level
// b.depth that starts at state pos, and makes it the current checkpoint.
func (b *bfs) saveCheckpoint(pos int64) (err error) {
	root := b.opts.Checkpoint
	seq := 0
	if cur, err := os.ReadFile(filepath.Join(root, "CURRENT")); err == nil {
		fmt.Sscanf(string(cur), "ckpt-%d", &seq)
	}
	name := fmt.Sprintf("ckpt-%06d", seq+1)
	dir := filepath.Join(root, name)
	os.RemoveAll(dir) // a leftover of a killed attempt
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
			err = fmt.Errorf("writing checkpoint %s: %w", dir, err)
		}
	}()
	m := &ckptManifest{Format: checkpointFormat, ID: b.opts.CheckpointID, Mode: b.mode(), Depth: b.depth, Done: b.done,
		Transitions: b.live.transitions.Load(), Pos: pos, CurCount: b.cur.count(), NextCount: b.next.count(),
		Levels: len(b.links.levels), Shards: shardCount}
	// Seen set: per shard n, table length, arena length, then the tables
	// and the arena.
	f, err := createCkptFile(dir, "seen", m)
	if err != nil {
		return err
	}
	for i := range b.seen.shards {
		sh := &b.seen.shards[i]
		for _, v := range []uint64{uint64(sh.n), uint64(len(sh.fps)), uint64(len(sh.refs)), uint64(len(sh.arena))} {
			putU64(f, v)
		}
		f.Write(u64bytes(sh.fps))
		f.Write(u64bytes(sh.refs))
		f.Write(sh.arena)
	}
	if err := f.close(m); err != nil {
		return err
	}
	for _, fr := range []struct {
		name string
		f    *frontier
	}{{"cur", b.cur}, {"next", b.next}} {
		f, err := createCkptFile(dir, fr.name, m)
		if err != nil {
			return err
		}
		var buf level
		var lenBuf [binary.MaxVarintLen64]byte
		if err := fr.f.blocks(&buf, func(l *level) bool {
			for k := range l.len() {
				s := l.state(k)
				f.Write(lenBuf[:binary.PutUvarint(lenBuf[:], uint64(len(s)))])
				f.Write(s)
			}
			return true
		}); err != nil {
			return err
		}
		if err := f.close(m); err != nil {
			return err
		}
	}
	for i := range b.links.levels {
		l := &b.links.levels[i]
		f, err := createCkptFile(dir, fmt.Sprintf("links-%06d", i), m)
		if err != nil {
			return err
		}
		if l.n > 0 {
			if _, err := io.Copy(f, io.NewSectionReader(l.file, 0, l.n*linkSize)); err != nil {
				return err
			}
		}
		f.Write(l.mem)
		m.LinkCounts = append(m.LinkCounts, l.n+int64(len(l.mem)/linkSize))
		if err := f.close(m); err != nil {
			return err
		}
	}
	mb, _ := json.MarshalIndent(m, "", "  ")
	if err := writeSynced(filepath.Join(dir, "manifest.json"), mb); err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	cur := fmt.Sprintf("%s %08x\n", name, crc32.Checksum(mb, crcTable))
	if err := writeSynced(filepath.Join(root, "CURRENT.tmp"), []byte(cur)); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(root, "CURRENT.tmp"), filepath.Join(root, "CURRENT")); err != nil {
		return err
	}
	if err := syncDir(root); err != nil {
		return err
	}
	if seq > 0 {
		os.RemoveAll(filepath.Join(root, fmt.Sprintf("ckpt-%06d", seq)))
	}
	b.lastCheckpoint, b.checkpointAt = pos, time.Now()
	return nil
}

func writeSynced(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// ErrCheckpoint wraps every error about a checkpoint to resume from: missing,
// truncated, corrupted, or of another search.
var ErrCheckpoint = errors.New("checkpoint")

func ckptErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCheckpoint, fmt.Sprintf(format, args...))
}

// readManifest reads and verifies a checkpoint's manifest and files.
func readManifest(root string) (*ckptManifest, string, error) {
	cur, err := os.ReadFile(filepath.Join(root, "CURRENT"))
	if err != nil {
		return nil, "", ckptErr("no checkpoint in %s (%v)", root, err)
	}
	var name string
	var sum uint32
	if n, _ := fmt.Sscanf(string(cur), "%s %x", &name, &sum); n != 2 || !strings.HasPrefix(name, "ckpt-") || strings.ContainsAny(name, `/\`) {
		return nil, "", ckptErr("%s is corrupted", filepath.Join(root, "CURRENT"))
	}
	dir := filepath.Join(root, name)
	mb, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, "", ckptErr("%v", err)
	}
	if crc32.Checksum(mb, crcTable) != sum {
		return nil, "", ckptErr("%s is corrupted (checksum mismatch)", filepath.Join(dir, "manifest.json"))
	}
	var m ckptManifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return nil, "", ckptErr("%s: %v", filepath.Join(dir, "manifest.json"), err)
	}
	if m.Format != checkpointFormat {
		return nil, "", ckptErr("%s has format %q; this tokenmc reads %q", dir, m.Format, checkpointFormat)
	}
	if m.Shards != shardCount || m.Levels != m.Depth+2 || len(m.LinkCounts) != m.Levels || m.Pos < 0 || m.Pos > m.CurCount {
		return nil, "", ckptErr("%s: inconsistent manifest", dir)
	}
	for _, f := range m.Files {
		if strings.ContainsAny(f.Name, `/\`) {
			return nil, "", ckptErr("%s: bad file name %q", dir, f.Name)
		}
		if err := verifyFile(filepath.Join(dir, f.Name), f); err != nil {
			return nil, "", err
		}
	}
	return &m, dir, nil
}

func verifyFile(path string, want ckptFile) error {
	f, err := os.Open(path)
	if err != nil {
		return ckptErr("%v", err)
	}
	defer f.Close()
	h := crc32.New(crcTable)
	n, err := io.Copy(h, f)
	if err != nil {
		return ckptErr("%s: %v", path, err)
	}
	if n != want.Size {
		return ckptErr("%s is truncated or extended: %d bytes, want %d", path, n, want.Size)
	}
	if h.Sum32() != want.CRC {
		return ckptErr("%s is corrupted (checksum mismatch)", path)
	}
	return nil
}

// restoreCheckpoint loads a checkpoint into a fresh search and returns the
// state index of level b.depth at which expansion resumes.
func (b *bfs) restoreCheckpoint(root string) (int64, error) {
	m, dir, err := readManifest(root)
	if err != nil {
		return 0, err
	}
	if m.ID != b.opts.CheckpointID {
		return 0, ckptErr("%s is of another search: %s; this one is %s", root, m.ID, b.opts.CheckpointID)
	}
	if m.Mode != b.mode() {
		return 0, ckptErr("%s was taken in %s mode; this search uses %s", root, m.Mode, b.mode())
	}
	open := func(name string) (*bufio.Reader, *os.File, error) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, ckptErr("%v", err)
		}
		return bufio.NewReaderSize(f, 1<<20), f, nil
	}
	r, f, err := open("seen")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var hdr [32]byte
	for i := range b.seen.shards {
		sh := &b.seen.shards[i]
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return 0, ckptErr("%s: %v", f.Name(), err)
		}
		n, nf, nr, na := binary.LittleEndian.Uint64(hdr[:]), binary.LittleEndian.Uint64(hdr[8:]), binary.LittleEndian.Uint64(hdr[16:]), binary.LittleEndian.Uint64(hdr[24:])
		if nf > 1<<40 || nr > 1<<40 || na > 1<<44 || nf == 0 {
			return 0, ckptErr("%s: bad shard header", f.Name())
		}
		freeTable(sh.fps)
		freeTable(sh.refs)
		sh.n = int(n)
		sh.fps = allocTable(int(nf))
		sh.refs = nil
		if nr > 0 {
			sh.refs = allocTable(int(nr))
		}
		sh.arena = make([]byte, na)
		for _, p := range [][]byte{u64bytes(sh.fps), u64bytes(sh.refs), sh.arena} {
			if _, err := io.ReadFull(r, p); err != nil {
				return 0, ckptErr("%s: %v", f.Name(), err)
			}
		}
	}
	for _, fr := range []struct {
		name  string
		f     *frontier
		count int64
	}{{"cur", b.cur, m.CurCount}, {"next", b.next, m.NextCount}} {
		r, f, err := open(fr.name)
		if err != nil {
			return 0, err
		}
		fr.f.clear()
		for i := int64(0); i < fr.count; i++ {
			if err := readRecord(r, &fr.f.mem); err != nil {
				f.Close()
				return 0, ckptErr("%s, state %d: %v", f.Name(), i, err)
			}
			if i%1024 == 0 {
				fr.f.maybeSpill()
			}
		}
		f.Close()
		fr.f.maybeSpill()
		if err := fr.f.finish(); err != nil {
			return 0, err
		}
	}
	for i := range m.Levels {
		r, f, err := open(fmt.Sprintf("links-%06d", i))
		if err != nil {
			return 0, err
		}
		b.links.startLevel()
		for left := m.LinkCounts[i]; left > 0; {
			k := min(left, 1<<16)
			if _, err := io.ReadFull(r, b.links.reserve(int(k))); err != nil {
				f.Close()
				return 0, ckptErr("%s: %v", f.Name(), err)
			}
			left -= k
			b.links.maybeSpill()
		}
		f.Close()
		if b.links.err != nil {
			return 0, b.links.err
		}
	}
	b.depth, b.done = m.Depth, m.Done
	b.live.transitions.Store(m.Transitions)
	b.live.states.Store(m.Done + m.NextCount)
	b.live.resumed.Store(m.Done + m.NextCount)
	b.lastCheckpoint = m.Pos
	return m.Pos, nil
}

// CheckpointID returns the Options.CheckpointID recorded in the checkpoint
// in dir, after verifying the checkpoint's files.
func CheckpointID(dir string) (string, error) {
	m, _, err := readManifest(dir)
	if err != nil {
		return "", err
	}
	return m.ID, nil
}
