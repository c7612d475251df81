package explore

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func randomStates(n int, seed uint64) [][]byte {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([][]byte, n)
	for i := range out {
		b := make([]byte, r.IntN(300)) // lengths over 127 need two varint bytes
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		out[i] = b
	}
	return out
}

// readAll reads a frontier back block by block, checking that block bases
// are consecutive.
func readAll(t *testing.T, f *frontier) ([][]byte, int, error) {
	t.Helper()
	var got [][]byte
	var buf level
	blocks := 0
	err := f.blocks(&buf, func(l *level) bool {
		if l.base != int64(len(got)) {
			t.Fatalf("block base %d, want %d", l.base, len(got))
		}
		blocks++
		for k := range l.len() {
			got = append(got, append([]byte(nil), l.state(k)...))
		}
		return true
	})
	return got, blocks, err
}

// eachReader runs f with frontier files mapped into memory (where the
// system can) and with them read through a buffer.
func eachReader(t *testing.T, f func(t *testing.T)) {
	for _, mapped := range []bool{true, false} {
		t.Run(fmt.Sprintf("mapped=%v", mapped), func(t *testing.T) {
			defer func(old bool) { mapFrontierFiles = old }(mapFrontierFiles)
			mapFrontierFiles = mapped
			f(t)
		})
	}
}

func TestFrontierRoundTrip(t *testing.T) { eachReader(t, testFrontierRoundTrip) }

func testFrontierRoundTrip(t *testing.T) {
	states := randomStates(2000, 7)
	for _, limit := range []int{0, 1, 500, 1 << 20} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			wd := &workDir{parent: t.TempDir()}
			defer wd.remove()
			f := newFrontier(wd, "f", limit)
			defer f.close()
			for round := range 2 { // the second round reuses the file after clear
				f.clear()
				for i, s := range states {
					f.mem.add(s)
					if i%37 == 0 {
						f.maybeSpill()
					}
				}
				if f.count() != int64(len(states)) {
					t.Fatalf("count %d, want %d", f.count(), len(states))
				}
				got, blocks, err := readAll(t, f)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(states) {
					t.Fatalf("round %d: read %d states, want %d", round, len(got), len(states))
				}
				for i := range states {
					if !bytes.Equal(got[i], states[i]) {
						t.Fatalf("round %d: state %d differs", round, i)
					}
				}
				spilled := f.fileCount > 0
				if spilled != (limit > 0 && limit < 1<<20) {
					t.Errorf("limit %d: spilled=%v", limit, spilled)
				}
				// A level comes back in blocks of about limit bytes (a few
				// states here), not in the runs it was spilled in.
				if limit == 500 && blocks < 100 {
					t.Errorf("limit 500: %d blocks, want many", blocks)
				}
			}
		})
	}
}

func spilledFrontier(t *testing.T) (*frontier, *workDir) {
	t.Helper()
	wd := &workDir{parent: t.TempDir()}
	t.Cleanup(wd.remove)
	f := newFrontier(wd, "f", 100)
	t.Cleanup(f.close)
	for _, s := range randomStates(150, 3) {
		f.mem.add(s)
		f.maybeSpill()
	}
	f.spill()
	if err := f.finish(); err != nil {
		t.Fatal(err)
	}
	return f, wd
}

func TestFrontierTruncatedFileIsAnError(t *testing.T) {
	eachReader(t, func(t *testing.T) {
		// By a few bytes, and by pages (a mapping must not reach past the
		// file's end, where reading would fault).
		for _, cut := range []func(n int64) int64{func(n int64) int64 { return n - 5 }, func(n int64) int64 { return n / 3 }} {
			f, _ := spilledFrontier(t)
			if f.fileBytes < 2*int64(os.Getpagesize()) {
				t.Fatalf("spilled %d bytes; the test wants several pages", f.fileBytes)
			}
			if err := f.file.Truncate(cut(f.fileBytes)); err != nil {
				t.Fatal(err)
			}
			_, _, err := readAll(t, f)
			if err == nil || !strings.Contains(err.Error(), "frontier file") || !strings.Contains(err.Error(), "unexpected EOF") {
				t.Fatalf("truncated frontier file: got %v, want an error naming the file and the truncation", err)
			}
		}
	})
}

// A level's buffer, lent to blocks, is the caller's own again afterwards
// (not a view of a mapped file that clear unmaps): the search reuses it.
func TestFrontierBufferOutlivesMapping(t *testing.T) {
	eachReader(t, func(t *testing.T) {
		// A level with a buffer of its own, and one without (the search's
		// read buffer before its first spilled level).
		for _, own := range []bool{true, false} {
			f, _ := spilledFrontier(t)
			var buf level
			if own {
				buf.add([]byte("mine"))
			}
			n := 0
			if err := f.blocks(&buf, func(l *level) bool { n += l.len(); return true }); err != nil || n != 150 {
				t.Fatalf("read %d states, %v; want 150", n, err)
			}
			f.clear() // unmaps
			for range 3 {
				buf.reset(0)
				buf.add([]byte{1}) // small enough to fit any capacity it kept
				for _, s := range randomStates(40, 9) {
					buf.add(s)
				}
				if buf.len() != 41 || buf.state(0)[0] != 1 {
					t.Fatalf("buffer holds %d states, want 41", buf.len())
				}
			}
		}
	})
}

func TestFrontierCorruptedLengthIsAnError(t *testing.T) { eachReader(t, testFrontierCorruptedLength) }

func testFrontierCorruptedLength(t *testing.T) {
	f, _ := spilledFrontier(t)
	// A length prefix of 2^35: larger than any state.
	if _, err := f.file.WriteAt([]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 0); err != nil {
		t.Fatal(err)
	}
	_, _, err := readAll(t, f)
	if err == nil || !strings.Contains(err.Error(), "bad length") {
		t.Fatalf("corrupted frontier file: got %v, want a bad-length error", err)
	}
}

func TestWorkDirFailureNamesTheDirectory(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	wd := &workDir{parent: missing}
	f := newFrontier(wd, "f", 1)
	f.mem.add([]byte("state"))
	f.maybeSpill()
	if f.err == nil || !strings.Contains(f.err.Error(), missing) {
		t.Fatalf("got %v, want an error naming %s", f.err, missing)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatal("the work directory's parent was created")
	}
}

func TestLinksRoundTrip(t *testing.T) {
	for _, limit := range []int64{0, 1, 1 << 30} {
		wd := &workDir{parent: t.TempDir()}
		ls := newLinkStore(wd, limit)
		want := map[[2]int64][2]uint32{}
		for lv := range 5 {
			ls.startLevel()
			for blk := range 3 {
				n := 10 + lv + blk
				recs := ls.reserve(n)
				for k := range n {
					idx := int64(len(want))
					p, a := uint32(idx*7+int64(lv)), uint16(k+blk)
					if lv == 0 {
						p = noParent
					}
					putLink(recs[k*linkSize:], p, a)
					want[[2]int64{int64(lv), int64(countLevel(want, lv))}] = [2]uint32{p, uint32(a)}
				}
				ls.maybeSpill()
			}
		}
		for key, w := range want {
			p, a, err := ls.get(int(key[0]), key[1])
			if err != nil || p != w[0] || uint32(a) != w[1] {
				t.Fatalf("limit %d: link %v = %d,%d,%v, want %v", limit, key, p, a, err, w)
			}
		}
		if _, _, err := ls.get(2, 1000); err == nil {
			t.Error("a link past the end of a level was returned")
		}
		if spilled := ls.levels[0].file != nil; spilled != (limit > 0 && limit < 1<<30) {
			t.Errorf("limit %d: spilled=%v", limit, spilled)
		}
		if limit == 1 {
			// A truncated link file is reported with its name.
			f := ls.levels[1].file
			if err := f.Truncate(linkSize * 3); err != nil {
				t.Fatal(err)
			}
			if _, _, err := ls.get(1, 5); err == nil || !strings.Contains(err.Error(), "link file") {
				t.Errorf("truncated link file: got %v", err)
			}
		}
		ls.close()
		wd.remove()
	}
}

func countLevel(m map[[2]int64][2]uint32, lv int) int {
	n := 0
	for k := range m {
		if k[0] == int64(lv) {
			n++
		}
	}
	return n
}
