package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model/sysmem"
)

// craftedNeighbours returns distinct non-zero fingerprints that share as much
// as possible with base: the same low 32 bits, the same high 32 bits (so
// the same shard), the same home slot in a table of the given size, and
// single-bit differences.
func craftedNeighbours(base uint64, slots int) []uint64 {
	fps := []uint64{base}
	for i := uint64(1); i <= 8; i++ {
		fps = append(fps, base^(i<<40))         // same low 32 bits, same shard
		fps = append(fps, base^i)               // same high bits and shard
		fps = append(fps, base^(uint64(1)<<63)) // differs only in the top bit
	}
	for b := range 64 {
		fps = append(fps, base^(uint64(1)<<b))
	}
	// Same shard and same home slot.
	for x := uint64(1); len(fps) < 200 && x < 1<<20; x++ {
		fp := base ^ x
		if shardOf(fp) == shardOf(base) && slot(fp, slots) == slot(base, slots) {
			fps = append(fps, fp)
		}
	}
	seen := map[uint64]bool{}
	var out []uint64
	for _, fp := range fps {
		if fp != 0 && !seen[fp] {
			seen[fp] = true
			out = append(out, fp)
		}
	}
	return out
}

func TestSeenSetTellsNearCollisionsApart(t *testing.T) {
	base := uint64(0x9e37_79b9_7f4a_7c15)
	for _, exact := range []bool{false, true} {
		s := newSeenSet(exact)
		fps := craftedNeighbours(base, minSlots)
		sameSlot := 0
		for _, fp := range fps {
			if shardOf(fp) == shardOf(base) && slot(fp, minSlots) == slot(base, minSlots) && fp != base {
				sameSlot++
			}
		}
		if sameSlot < 20 {
			t.Fatalf("only %d fingerprints share the home slot; the test is too weak", sameSlot)
		}
		// Insert every other one, check all, then insert the rest (the
		// shards grow on the way).
		for i, fp := range fps {
			if i%2 == 0 && !s.insert(fp, []byte{byte(i)}) {
				t.Fatalf("exact=%v: %#x reported as already present", exact, fp)
			}
		}
		for i, fp := range fps {
			if got := s.contains(fp, []byte{byte(i)}); got != (i%2 == 0) {
				t.Fatalf("exact=%v: contains(%#x) = %v, want %v", exact, fp, got, i%2 == 0)
			}
		}
		for i, fp := range fps {
			if got := s.insert(fp, []byte{byte(i)}); got != (i%2 == 1) {
				t.Fatalf("exact=%v: second insert(%#x) = %v, want %v", exact, fp, got, i%2 == 1)
			}
		}
		n := 0
		for i := range s.shards {
			n += s.shards[i].n
		}
		if n != len(fps) {
			t.Fatalf("exact=%v: %d fingerprints stored, want %d", exact, n, len(fps))
		}
		s.free()
	}
}

func TestSeenSetLargeTablesAreMappedAndFreed(t *testing.T) {
	s := newSeenSet(false)
	const n = 3_000_000 // shards grow past mmapMinBytes
	fp := func(i int) uint64 { return Fingerprint([]byte{byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24)}) }
	for i := range n {
		if !s.insert(fp(i), nil) {
			t.Fatalf("insert %d reported a duplicate", i)
		}
	}
	for i := range n {
		if !s.contains(fp(i), nil) {
			t.Fatalf("lost %d", i)
		}
	}
	if len(s.shards[0].fps)*8 < mmapMinBytes {
		t.Fatalf("shard table of %d bytes: the test does not reach mapped tables", len(s.shards[0].fps)*8)
	}
	if per := float64(s.bytes()) / n; per < 8/0.8 || per > 8/0.53+0.5 {
		t.Errorf("%.2f bytes per fingerprint, want between 10 and 15.6 (load 53%% to 80%%)", per)
	}
	s.free()
}

func TestMemoryBudgetStopsCleanly(t *testing.T) {
	sys := ring(7, 2, false)
	full, err := Check(context.Background(), sys, Options{Workers: 2})
	if err != nil || full.Verdict != OK {
		t.Fatal(err, full.Verdict)
	}
	// A budget below what the process already holds: the search must stop
	// at once, cleanly, with a partial result.
	r, err := Check(context.Background(), sys, Options{Workers: 2, MemoryBudget: sysmem.CurrentRSS() / 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Incomplete || r.StopReason != "memory" || !strings.Contains(r.StopDetail, "budget") {
		t.Fatalf("got %s %q %q, want incomplete, memory", r.Verdict, r.StopReason, r.StopDetail)
	}
	if r.States <= 0 || r.States >= full.States {
		t.Errorf("partial states %d, want between 1 and %d", r.States, full.States-1)
	}
	if r.PeakRSS <= 0 {
		t.Error("no peak RSS measured")
	}
}

func TestUnwritableWorkDirStopsCleanly(t *testing.T) {
	dir := t.TempDir()
	sys := ring(6, 2, false)
	wd := &workDir{parent: filepath.Join(dir, "removed")}
	var live liveCounters
	b := newBFS(sys, Options{Workers: 2, SpillAbove: 10}, &live, wd)
	r := b.run(context.Background(), 0)
	if r.Verdict != Incomplete || r.StopReason != "disk" || !strings.Contains(r.StopDetail, "removed") {
		t.Fatalf("got %s %q %q, want incomplete, disk, naming the directory", r.Verdict, r.StopReason, r.StopDetail)
	}
}

func TestMemoryBudgetStopsDFS(t *testing.T) {
	r, err := Check(context.Background(), ring(7, 2, false), Options{DFS: true, MemoryBudget: sysmem.CurrentRSS() / 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Incomplete || r.StopReason != "memory" || !strings.Contains(r.StopDetail, "budget") {
		t.Fatalf("got %s %q %q, want incomplete, memory", r.Verdict, r.StopReason, r.StopDetail)
	}
}

func TestMemoryBudgetStopsLivenessGraph(t *testing.T) {
	r, err := CheckLiveness(context.Background(), ring(7, 2, false), LivenessOptions{Starvation: true, Options: Options{MemoryBudget: sysmem.CurrentRSS() / 2}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Incomplete || r.StopReason != "memory" {
		t.Fatalf("got %s %q, want incomplete, memory", r.Verdict, r.StopReason)
	}
}
