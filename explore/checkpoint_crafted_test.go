package explore_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/explore"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// craft rewrites a checkpoint as a hostile user would: edit changes the
// manifest (decoded as JSON) and may rewrite files of the checkpoint
// directory; every file's size and checksum in the manifest and the
// manifest's checksum in CURRENT are then recomputed, so that only the
// reader's own checks stand between the edit and the search.
func craft(t *testing.T, root string, edit func(m map[string]any, dir string)) {
	t.Helper()
	cur, err := os.ReadFile(filepath.Join(root, "CURRENT"))
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Fields(string(cur))[0]
	dir := filepath.Join(root, name)
	mb, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(mb, &m); err != nil {
		t.Fatal(err)
	}
	edit(m, dir)
	for _, f := range m["files"].([]any) {
		f := f.(map[string]any)
		p := filepath.Join(dir, f["name"].(string))
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue // a FIFO or a device planted by edit: keep the listed figures
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f["size"], f["crc32c"] = len(b), crc32.Checksum(b, castagnoli)
	}
	mb, _ = json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), mb, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "CURRENT"), fmt.Appendf(nil, "%s %08x\n", name, crc32.Checksum(mb, castagnoli)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyDir copies a checkpoint directory tree (two levels).
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.Walk(from, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// Checkpoints crafted by hand with their checksums recomputed are refused
// with ErrCheckpoint and a message naming what is wrong, before anything
// they claim is allocated or read: a negative depth (it panicked), negative
// or inconsistent counts (they gave a wrong state count), a seen-shard
// header claiming 2^39 slots (the runtime died of out-of-memory), a file
// replaced by a symbolic link to /dev/zero or by a FIFO (they hung), a
// file not listed. The intact copy resumes to the uninterrupted count.
func TestCraftedCheckpointsRefused(t *testing.T) {
	sys, props := buildSystem(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	opts := explore.Options{Properties: props, Workers: 2, CheckpointID: "sk", MemoryBudget: 1 << 30}
	want, err := explore.Check(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	orig := t.TempDir()
	ck := opts
	ck.Checkpoint, ck.CheckpointEvery = orig, time.Nanosecond
	interruptAt(t, sys, ck, 20000)
	resume := func(dir string) (*explore.Result, error) {
		o := opts
		o.Resume = dir
		return explore.Check(context.Background(), sys, o)
	}
	if r, err := resume(copyDir(t, orig)); err != nil || r.States != want.States {
		t.Fatalf("intact copy: %v, %v states (want %d)", err, r, want.States)
	}
	setShardHeader := func(dir string, word int, v uint64) {
		p := filepath.Join(dir, "seen")
		b, _ := os.ReadFile(p)
		binary.LittleEndian.PutUint64(b[8*word:], v)
		os.WriteFile(p, b, 0o644)
	}
	plant := func(dir, name string, make func(string) error) {
		p := filepath.Join(dir, name)
		os.Remove(p)
		if err := make(p); err != nil {
			t.Skip("cannot plant", name, err)
		}
	}
	for _, c := range []struct {
		name string
		edit func(m map[string]any, dir string)
		word string
	}{
		{"negative depth", func(m map[string]any, _ string) { m["depth"], m["levels"], m["link_counts"] = -2, 0, []any{} }, "depth is -2"},
		{"negative done", func(m map[string]any, _ string) { m["done"] = -5 }, "done is -5"},
		{"negative next count", func(m map[string]any, _ string) { m["next_count"] = -1 }, "next_count is -1"},
		{"negative transitions", func(m map[string]any, _ string) { m["transitions"] = -1 }, "transitions is -1"},
		{"done inflated", func(m map[string]any, _ string) { m["done"] = m["done"].(float64) + 1000 }, "disagree"},
		{"2^39 slots", func(_ map[string]any, dir string) { setShardHeader(dir, 1, 1<<39) }, "file has"},
		{"n beyond the table", func(_ map[string]any, dir string) { setShardHeader(dir, 0, 1<<20) }, "states in"},
		{"/dev/zero", func(_ map[string]any, dir string) {
			plant(dir, "cur", func(p string) error { return os.Symlink("/dev/zero", p) })
		}, "not a regular file"},
		{"FIFO", func(_ map[string]any, dir string) {
			plant(dir, "next", func(p string) error { return syscall.Mkfifo(p, 0o644) })
		}, "named pipe"},
		{"unlisted file", func(m map[string]any, _ string) {
			m["files"] = m["files"].([]any)[1:]
		}, "files listed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyDir(t, orig)
			craft(t, dir, c.edit)
			done := make(chan error, 1)
			go func() { _, err := resume(dir); done <- err }()
			select {
			case err := <-done:
				if !errors.Is(err, explore.ErrCheckpoint) || !strings.Contains(err.Error(), c.word) {
					t.Fatalf("got %v, want a checkpoint error with %q", err, c.word)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the resume hangs")
			}
		})
	}
	// a checkpoint whose seen set is larger than the memory budget
	small := opts
	small.MemoryBudget, small.Resume = 1<<10, copyDir(t, orig)
	if _, err := explore.Check(context.Background(), sys, small); !errors.Is(err, explore.ErrCheckpoint) || !strings.Contains(err.Error(), "memory budget") {
		t.Fatalf("seen set over the budget: %v", err)
	}
}

// A search checkpointing into a directory that holds another search's
// checkpoint is refused, naming both searches, unless CheckpointReplace
// is set; the same search, or resuming from that directory, may.
func TestCheckpointOfAnotherSearchNotReplaced(t *testing.T) {
	sys, props := buildSystem(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	dir := t.TempDir()
	a := explore.Options{Properties: props, Workers: 2, CheckpointID: "search A", Checkpoint: dir, CheckpointEvery: time.Nanosecond}
	if _, err := explore.Check(context.Background(), sys, a); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, "CURRENT"))
	if err != nil {
		t.Fatalf("no checkpoint written: %v", err)
	}
	b := a
	b.CheckpointID = "search B"
	_, err = explore.Check(context.Background(), sys, b)
	if !errors.Is(err, explore.ErrCheckpoint) || !strings.Contains(err.Error(), "search A") || !strings.Contains(err.Error(), "search B") || !strings.Contains(err.Error(), "--checkpoint-replace") {
		t.Fatalf("another search's directory: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "CURRENT")); string(after) != string(before) {
		t.Fatal("the refused search touched the checkpoint")
	}
	if id, err := explore.CheckpointID(dir); err != nil || id != "search A" {
		t.Fatalf("the checkpoint is now %q, %v", id, err)
	}
	if _, err := explore.Check(context.Background(), sys, a); err != nil {
		t.Fatalf("the same search again: %v", err)
	}
	b.CheckpointReplace = true
	if _, err := explore.Check(context.Background(), sys, b); err != nil {
		t.Fatalf("with CheckpointReplace: %v", err)
	}
	if id, _ := explore.CheckpointID(dir); id != "search B" {
		t.Fatalf("after the replacement the checkpoint is %q", id)
	}
	os.WriteFile(filepath.Join(dir, "CURRENT"), []byte("garbage"), 0o644)
	if _, err := explore.Check(context.Background(), sys, a); !errors.Is(err, explore.ErrCheckpoint) || !strings.Contains(err.Error(), "cannot be read") {
		t.Fatalf("an unreadable checkpoint: %v", err)
	}
}
