package explore

import (
	"encoding/binary"
	"encoding/json"
	"testing"
)

// FuzzCheckpointManifest feeds parseManifest arbitrary manifests: it never
// panics, and a manifest it accepts has no negative count, link counts
// summing to the states done, and exactly the files a restore reads.
func FuzzCheckpointManifest(f *testing.F) {
	good := ckptManifest{Format: checkpointFormat, ID: "x", Mode: "fingerprint", Depth: 1, Done: 3, Transitions: 5, Pos: 1,
		CurCount: 2, NextCount: 1, Levels: 3, LinkCounts: []int64{1, 2, 1}, Shards: shardCount,
		Files: []ckptFile{{Name: "seen", Size: 9000}, {Name: "cur", Size: 20}, {Name: "next", Size: 10},
			{Name: "links-000000", Size: 6}, {Name: "links-000001", Size: 12}, {Name: "links-000002", Size: 6}}}
	b, _ := json.Marshal(good)
	f.Add(b)
	if _, err := parseManifest(b); err != nil {
		f.Fatalf("a consistent manifest is refused: %v", err)
	}
	bad := good
	bad.Depth, bad.Levels, bad.LinkCounts = -2, 0, nil
	b, _ = json.Marshal(bad)
	f.Add(b)
	f.Add([]byte(`{"format":"tokenmc-checkpoint/1","depth":9223372036854775807}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest(data)
		if err != nil {
			return
		}
		if m.Depth < 0 || m.Done < 0 || m.Pos < 0 || m.Pos > m.CurCount || m.NextCount < 0 || m.Transitions < 0 {
			t.Fatalf("accepted %+v", m)
		}
		var sum int64
		for _, c := range m.LinkCounts[:m.Depth+1] {
			sum += c
		}
		if sum != m.Done || len(m.Files) != m.Levels+3 {
			t.Fatalf("accepted %+v", m)
		}
	})
}

// FuzzShardHeader feeds parseShardHeader arbitrary headers and file sizes:
// it never panics, and a header it accepts claims no more bytes than the
// file has left.
func FuzzShardHeader(f *testing.F) {
	hdr := func(n, fps, refs, arena uint64) []byte {
		b := make([]byte, 32)
		for i, v := range []uint64{n, fps, refs, arena} {
			binary.LittleEndian.PutUint64(b[8*i:], v)
		}
		return b
	}
	f.Add(hdr(3, 16, 0, 0), int64(128), false, false)
	f.Add(hdr(3, 16, 16, 40), int64(300), true, false)
	f.Add(hdr(0, 1<<39, 0, 0), int64(1<<20), false, false)
	f.Add(hdr(0, 1<<61, 1<<61, 1<<63), int64(1<<62), true, false)
	f.Fuzz(func(t *testing.T, b []byte, left int64, exact, bitstate bool) {
		if len(b) < 32 {
			return
		}
		h, err := parseShardHeader(b[:32], left, exact && !bitstate, bitstate, 64)
		if err != nil {
			return
		}
		if h.bytes() < 0 || h.bytes() > left || h.fps == 0 || !bitstate && h.n > h.fps {
			t.Fatalf("accepted %+v with %d bytes left", h, left)
		}
	})
}
