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
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"github.com/tokenmc/tokenmc/model/safefile"
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
	if cur, err := safefile.ReadFile(filepath.Join(root, "CURRENT"), maxCurrentBytes); err == nil {
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

// errCheckpoint wraps every error about a checkpoint to resume from:
// missing, truncated, corrupted, or of another search; their messages
// begin with "checkpoint: " and say what is wrong.
var errCheckpoint = errors.New("checkpoint")

func ckptErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errCheckpoint, fmt.Sprintf(format, args...))
}

// Sizes of a checkpoint's small files: CURRENT holds a name and a
// checksum, the manifest a count per level.
const (
	maxCurrentBytes  = 4 << 10
	maxManifestBytes = 64 << 20
)

// checkpointOwner refuses a Checkpoint directory that holds the
// checkpoint of another search (or one that cannot be read), unless it is
// the directory resumed from or CheckpointReplace is set: the search
// would replace that checkpoint at its first save.
func (o *Options) checkpointOwner() error {
	if o.CheckpointReplace || o.Resume != "" && sameDir(o.Resume, o.Checkpoint) {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(o.Checkpoint, "CURRENT")); errors.Is(err, fs.ErrNotExist) {
		return nil // no checkpoint there
	}
	m, _, err := loadManifest(o.Checkpoint)
	if err != nil {
		return ckptErr("%s holds a checkpoint that cannot be read (%v); this search would replace it: choose another directory, or pass --checkpoint-replace (Options.CheckpointReplace) to replace it",
			o.Checkpoint, err)
	}
	if m.ID != o.CheckpointID {
		return ckptErr("%s holds the checkpoint of another search (%s); this search is %s: resume that one with --resume %s, choose another directory, or pass --checkpoint-replace (Options.CheckpointReplace) to replace it",
			o.Checkpoint, m.ID, o.CheckpointID, o.Checkpoint)
	}
	return nil
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// readManifest reads and verifies a checkpoint's manifest and files.
func readManifest(root string) (*ckptManifest, string, error) {
	m, dir, err := loadManifest(root)
	if err != nil {
		return nil, "", err
	}
	for _, f := range m.Files {
		if err := verifyFile(filepath.Join(dir, f.Name), f); err != nil {
			return nil, "", err
		}
	}
	return m, dir, nil
}

// loadManifest reads and checks a checkpoint's manifest, not its files.
func loadManifest(root string) (*ckptManifest, string, error) {
	cur, err := safefile.ReadFile(filepath.Join(root, "CURRENT"), maxCurrentBytes)
	if err != nil {
		return nil, "", ckptErr("no checkpoint in %s (%v)", root, err)
	}
	var name string
	var sum uint32
	if n, _ := fmt.Sscanf(string(cur), "%s %x", &name, &sum); n != 2 || !strings.HasPrefix(name, "ckpt-") || strings.ContainsAny(name, `/\`) {
		return nil, "", ckptErr("%s is corrupted", filepath.Join(root, "CURRENT"))
	}
	dir := filepath.Join(root, name)
	mb, err := safefile.ReadFile(filepath.Join(dir, "manifest.json"), maxManifestBytes)
	if err != nil {
		return nil, "", ckptErr("%v", err)
	}
	if crc32.Checksum(mb, crcTable) != sum {
		return nil, "", ckptErr("%s is corrupted (checksum mismatch)", filepath.Join(dir, "manifest.json"))
	}
	m, err := parseManifest(mb)
	if err != nil {
		return nil, "", ckptErr("%s: %v", filepath.Join(dir, "manifest.json"), err)
	}
	return m, dir, nil
}

// parseManifest decodes a manifest and checks that it is consistent: no
// negative count, the levels' link counts summing to the states done, the
// files a restore reads all listed with the sizes their counts imply. A
// manifest crafted by hand (with its checksum recomputed) is refused here
// rather than trusted.
func parseManifest(mb []byte) (*ckptManifest, error) {
	var m ckptManifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return nil, err
	}
	if m.Format != checkpointFormat {
		return nil, fmt.Errorf("format %q; this tokenmc reads %q", m.Format, checkpointFormat)
	}
	bad := func(format string, args ...any) (*ckptManifest, error) {
		return nil, fmt.Errorf("inconsistent manifest: "+format, args...)
	}
	for _, c := range []struct {
		name string
		v    int64
	}{{"depth", int64(m.Depth)}, {"done", m.Done}, {"transitions", m.Transitions}, {"pos", m.Pos},
		{"cur_count", m.CurCount}, {"next_count", m.NextCount}, {"levels", int64(m.Levels)}} {
		if c.v < 0 {
			return bad("%s is %d", c.name, c.v)
		}
	}
	if m.Shards != shardCount {
		return bad("%d shards, this tokenmc has %d", m.Shards, shardCount)
	}
	if m.Depth > maxDepthLevels || m.Levels != m.Depth+2 || len(m.LinkCounts) != m.Levels {
		return bad("depth %d, %d levels, %d link counts", m.Depth, m.Levels, len(m.LinkCounts))
	}
	if m.Pos > m.CurCount {
		return bad("pos %d beyond the %d states of the level", m.Pos, m.CurCount)
	}
	var sum int64
	for i, c := range m.LinkCounts {
		if c < 0 || c > math.MaxInt64/linkSize {
			return bad("level %d has %d links", i, c)
		}
		if i <= m.Depth {
			if sum += c; sum < 0 {
				return bad("the link counts overflow")
			}
		}
	}
	if sum != m.Done || m.LinkCounts[m.Depth] != m.CurCount || m.LinkCounts[m.Depth+1] != m.NextCount {
		return bad("the link counts (%d in levels 0..%d, %d in the last two) disagree with done %d, cur_count %d, next_count %d",
			sum, m.Depth, m.LinkCounts[m.Depth]+m.LinkCounts[m.Depth+1], m.Done, m.CurCount, m.NextCount)
	}
	want := map[string]int64{"seen": -1, "cur": -1, "next": -1}
	for i, c := range m.LinkCounts {
		want[fmt.Sprintf("links-%06d", i)] = c * linkSize
	}
	seen := map[string]bool{}
	for _, f := range m.Files {
		size, ok := want[f.Name]
		if !ok || seen[f.Name] {
			return bad("unexpected file %q", f.Name)
		}
		seen[f.Name] = true
		if f.Size < 0 || size >= 0 && f.Size != size {
			return bad("%s is listed with %d bytes, want %d", f.Name, f.Size, size)
		}
	}
	if len(seen) != len(want) {
		return bad("%d files listed, want %d", len(seen), len(want))
	}
	return &m, nil
}

// maxDepthLevels bounds a checkpoint's depth: one link file per level.
const maxDepthLevels = 1 << 20

// fileSize is the size of the listed file name in m.
func (m *ckptManifest) fileSize(name string) int64 {
	for _, f := range m.Files {
		if f.Name == name {
			return f.Size
		}
	}
	return 0
}

func verifyFile(path string, want ckptFile) error {
	f, err := safefile.Open(path)
	if err != nil {
		return ckptErr("%v", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return ckptErr("%v", err)
	} else if st.Size() != want.Size {
		return ckptErr("%s is truncated or extended: %d bytes, want %d", path, st.Size(), want.Size)
	}
	h := crc32.New(crcTable)
	n, err := io.Copy(h, io.LimitReader(f, want.Size+1))
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
	if size := m.fileSize("seen"); b.budget > 0 && size > b.budget {
		return 0, ckptErr("%s: its seen set is %d MiB, more than the memory budget of %d MiB; resume with a larger --memory",
			root, size>>20, b.budget>>20)
	}
	open := func(name string) (*bufio.Reader, *os.File, error) {
		f, err := safefile.Open(filepath.Join(dir, name))
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
	left := m.fileSize("seen") // bytes of the file not yet read
	for i := range b.seen.shards {
		sh := &b.seen.shards[i]
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return 0, ckptErr("%s: %v", f.Name(), err)
		}
		left -= int64(len(hdr))
		h, err := parseShardHeader(hdr[:], left, b.seen.exact, b.seen.bitstate, len(sh.fps))
		if err != nil {
			return 0, ckptErr("%s, shard %d: %v", f.Name(), i, err)
		}
		left -= h.bytes()
		n, nf, nr, na := h.n, h.fps, h.refs, h.arena
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
		if err := sh.checkRefs(b.seen.exact && !b.seen.bitstate); err != nil {
			return 0, ckptErr("%s, shard %d: %v", f.Name(), i, err)
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
		fr.f.mem.tb = 0 // checkpoints keep no step tags
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

// shardHeader is the header of one shard in a checkpoint's seen file:
// the number of states, then the lengths of the fingerprint table, of the
// references (exact mode) and of the arena.
type shardHeader struct {
	n, fps, refs, arena uint64
}

// bytes is the size of the data that follows the header.
func (h shardHeader) bytes() int64 { return int64(h.fps*8 + h.refs*8 + h.arena) }

// parseShardHeader decodes a shard header and checks it before anything
// is allocated: the lengths must fit in the left bytes of the file (so a
// header cannot claim more memory than the checkpoint holds), the states
// in the table, the table's length match the mode (bitstate: the array's
// words per shard, bitWords), and the references be there exactly in exact
// mode.
func parseShardHeader(hdr []byte, left int64, exact, bitstate bool, bitWords int) (shardHeader, error) {
	h := shardHeader{binary.LittleEndian.Uint64(hdr), binary.LittleEndian.Uint64(hdr[8:]), binary.LittleEndian.Uint64(hdr[16:]), binary.LittleEndian.Uint64(hdr[24:])}
	if left < 0 || h.fps == 0 || h.fps > uint64(left)/8 || h.refs > uint64(left)/8 || h.arena > uint64(left) ||
		h.fps*8+h.refs*8 > uint64(left)-h.arena {
		return h, fmt.Errorf("the header claims %d table slots, %d references and %d arena bytes; the file has %d bytes left", h.fps, h.refs, h.arena, max(left, 0))
	}
	switch {
	case bitstate && (h.fps != uint64(bitWords) || h.refs != 0 || h.arena != 0):
		return h, fmt.Errorf("the header claims %d words of bit array, this search has %d", h.fps, bitWords)
	case !bitstate && h.n > h.fps:
		return h, fmt.Errorf("the header claims %d states in %d slots", h.n, h.fps)
	case !bitstate && exact != (h.refs > 0):
		return h, fmt.Errorf("the header claims %d references (exact mode: one per slot, otherwise none)", h.refs)
	case exact && h.refs != h.fps:
		return h, fmt.Errorf("the header claims %d references for %d slots", h.refs, h.fps)
	}
	return h, nil
}

// checkRefs checks, in exact mode, that every occupied slot's reference
// points at a whole record of the arena, so that comparing a state with it
// cannot read outside the arena.
func (sh *shard) checkRefs(exact bool) error {
	if !exact {
		return nil
	}
	for i, fp := range sh.fps {
		if fp == 0 {
			continue
		}
		off := sh.refs[i]
		if off >= uint64(len(sh.arena)) {
			return fmt.Errorf("slot %d refers to byte %d of a %d-byte arena", i, off, len(sh.arena))
		}
		l, k := binary.Uvarint(sh.arena[off:])
		if k <= 0 || l > uint64(len(sh.arena))-off-uint64(k) {
			return fmt.Errorf("slot %d refers to a record that does not fit in the arena", i)
		}
	}
	return nil
}
