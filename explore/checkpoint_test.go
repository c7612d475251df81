package explore_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

func buildSystem(t testing.TB, name string, params map[string]int) (model.System, []model.Property) {
	t.Helper()
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, params)
	if err != nil {
		t.Fatal(err)
	}
	return sys, append(invariants.Applicable(invariants.Standard(), sys.Info()), extra...)
}

// interruptAt runs a checkpointed search and cancels it once it holds at
// least states states; it returns the partial result.
func interruptAt(t *testing.T, sys model.System, opts explore.Options, states int64) *explore.Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	opts.ProgressEvery = time.Millisecond
	opts.Progress = func(p explore.Progress) {
		if p.States >= states {
			once.Do(cancel)
		}
	}
	r, err := explore.Check(ctx, sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCheckpointResumeGivesTheUninterruptedResult interrupts checkpointed
// searches part way (a correct model and one with a violation deep in the
// search), resumes each from its checkpoint, and compares the final
// counts, verdict and counterexample with an uninterrupted search.
func TestCheckpointResumeGivesTheUninterruptedResult(t *testing.T) {
	for _, c := range []struct {
		algo   string
		params map[string]int
		spill  int64
	}{
		{"torus/literal", map[string]int{"n": 4, "r": 1}, 4096},
		{"banerjee", map[string]int{"n": 4}, 0},
	} {
		if c.algo == "banerjee" && short() {
			continue // the torus covers the round trip; banerjee n=4 is the heavy one
		}
		sys, props := buildSystem(t, c.algo, c.params)
		base := explore.Options{Properties: props, Workers: 2, SpillAbove: c.spill, CheckpointID: c.algo}
		want, err := explore.Check(context.Background(), sys, base)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		opts := base
		opts.Checkpoint, opts.CheckpointEvery = dir, 5*time.Millisecond
		// The interrupt comes from the progress goroutine, so it may land
		// after the search has ended; try earlier points until it does not.
		var part *explore.Result
		for _, div := range []int64{3, 10, 30, 100} {
			os.RemoveAll(dir)
			os.Mkdir(dir, 0o755)
			if part = interruptAt(t, sys, opts, want.States/div); part.Verdict == explore.Incomplete {
				break
			}
		}
		if part.Verdict != explore.Incomplete || part.StopReason != "interrupted" || part.Checkpoint != dir {
			t.Fatalf("%s: interrupted run: %s %q checkpoint %q", c.algo, part.Verdict, part.StopReason, part.Checkpoint)
		}
		// Resume twice in a row: a resumed run can itself be interrupted
		// and resumed.
		opts.Resume = dir
		part2 := interruptAt(t, sys, opts, part.States+(want.States-part.States)/2)
		if part2.Verdict == explore.Incomplete && part2.Checkpoint != dir {
			t.Fatalf("%s: second interrupted run wrote no checkpoint", c.algo)
		}
		opts.Checkpoint = ""
		got, err := explore.Check(context.Background(), sys, opts)
		if err != nil {
			t.Fatal(err)
		}
		sameResult(t, c.algo+" resumed", want, got)
	}
}

// TestCheckpointSurvivesKill9 kills (SIGKILL) a child process in the middle
// of a search that checkpoints at every block, then resumes from what it
// left and compares with an uninterrupted search.
func TestCheckpointSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a child search")
	}
	sys, props := buildSystem(t, "torus/literal", map[string]int{"n": 4, "r": 1})
	base := explore.Options{Properties: props, Workers: 2, SpillAbove: 4096, CheckpointID: "kill9"}
	want, err := explore.Check(context.Background(), sys, base)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckpointChild$")
	cmd.Env = append(os.Environ(), "TOKENMC_CKPT_CHILD="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for a few checkpoints, then kill -9 at an arbitrary moment.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "CURRENT")); err == nil && !strings.HasPrefix(string(b), "ckpt-000001 ") &&
			!strings.HasPrefix(string(b), "ckpt-000002 ") {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("child wrote no checkpoint in 60s")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(7 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	err = cmd.Wait()
	if err == nil {
		t.Skip("the child finished before it was killed; nothing to resume")
	}
	opts := base
	opts.Resume = dir
	got, err := explore.Check(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	sameResult(t, "resumed after kill -9", want, got)
}

// TestCheckpointChild is the child of TestCheckpointSurvivesKill9.
func TestCheckpointChild(t *testing.T) {
	dir := os.Getenv("TOKENMC_CKPT_CHILD")
	if dir == "" {
		t.Skip("child of TestCheckpointSurvivesKill9 only")
	}
	sys, props := buildSystem(t, "torus/literal", map[string]int{"n": 4, "r": 1})
	explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 2, SpillAbove: 4096,
		CheckpointID: "kill9", Checkpoint: dir, CheckpointEvery: time.Nanosecond})
}

func TestCheckpointDamageIsRefused(t *testing.T) {
	sys, props := buildSystem(t, "suzuki-kasami", map[string]int{"n": 3, "r": 2})
	opts := explore.Options{Properties: props, Workers: 2, CheckpointID: "sk"}
	dir := t.TempDir()
	ck := opts
	ck.Checkpoint, ck.CheckpointEvery = dir, time.Nanosecond
	interruptAt(t, sys, ck, 20000) // checkpoints at every block, interrupted or not
	if _, err := os.Stat(filepath.Join(dir, "CURRENT")); err != nil {
		t.Fatalf("no checkpoint written: %v", err)
	}
	cur, err := os.ReadFile(filepath.Join(dir, "CURRENT"))
	if err != nil {
		t.Fatal(err)
	}
	ckdir := filepath.Join(dir, strings.Fields(string(cur))[0])
	resume := func(o explore.Options) error {
		o.Resume = dir
		_, err := explore.Check(context.Background(), sys, o)
		return err
	}
	if err := resume(opts); err != nil {
		t.Fatalf("intact checkpoint refused: %v", err)
	}
	other := opts
	other.CheckpointID = "sk n=4"
	if err := resume(other); err == nil || !strings.Contains(err.Error(), "another search") {
		t.Errorf("another search's checkpoint: %v", err)
	}
	exact := opts
	exact.Exact = true
	if err := resume(exact); err == nil || !strings.Contains(err.Error(), "mode") {
		t.Errorf("mode mismatch: %v", err)
	}
	seen := filepath.Join(ckdir, "seen")
	data, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		bytes []byte
		word  string
	}{
		{"truncated", data[:len(data)-9], "truncated"},
		{"flipped", append(append([]byte(nil), data[:100]...), append([]byte{data[100] ^ 1}, data[101:]...)...), "checksum"},
	} {
		if err := os.WriteFile(seen, c.bytes, 0o644); err != nil {
			t.Fatal(err)
		}
		err := resume(opts)
		if err == nil || !errors.Is(err, explore.ErrCheckpoint) || !strings.Contains(err.Error(), c.word) || !strings.Contains(err.Error(), "seen") {
			t.Errorf("%s seen file: got %v, want an error naming the file and %q", c.name, err, c.word)
		}
	}
	os.WriteFile(seen, data, 0o644)
	os.WriteFile(filepath.Join(dir, "CURRENT"), []byte("garbage"), 0o644)
	if err := resume(opts); err == nil || !strings.Contains(err.Error(), "CURRENT") {
		t.Errorf("corrupted CURRENT: %v", err)
	}
	if _, err := explore.Check(context.Background(), sys, explore.Options{Resume: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no checkpoint") {
		t.Errorf("empty directory: %v", err)
	}
}
