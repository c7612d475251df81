package explore_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
)

// The graph's files go to Options.WorkDir and are removed when the check
// returns, also when it found lassos (whose paths are read from them);
// levels spilled to disk at every few bytes give the same graph and the
// same lassos as levels in memory.
func TestLivenessWorkDir(t *testing.T) {
	sys := buildAlgo(t, "torus/literal", map[string]int{"n": 4, "r": 1}) // starves (torus.md A4)
	base, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true})
	if err != nil {
		t.Fatal(err)
	}
	if base.Verdict != explore.Violated || len(base.Starving) == 0 {
		t.Fatalf("torus/literal: %s with %d lassos, want lassos", base.Verdict, len(base.Starving))
	}
	dir := t.TempDir()
	spilled, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true,
		Options: explore.Options{WorkDir: dir, SpillAbove: 16}})
	if err != nil {
		t.Fatal(err)
	}
	if spilled.States != base.States || spilled.Transitions != base.Transitions || spilled.Depth != base.Depth || len(spilled.Starving) != len(base.Starving) {
		t.Fatalf("spilled levels: %d states %d transitions depth %d, %d lassos; in memory %d %d %d, %d",
			spilled.States, spilled.Transitions, spilled.Depth, len(spilled.Starving), base.States, base.Transitions, base.Depth, len(base.Starving))
	}
	for i, l := range spilled.Starving {
		b := base.Starving[i]
		if l.Process != b.Process || l.Loop != b.Loop || !slices.Equal(l.Actions, b.Actions) {
			t.Errorf("lasso %d differs with spilled levels: %+v, want %+v", i, l.Actions, b.Actions)
		}
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("work directory holds %d entries after the check, want none", len(left))
	}
	if _, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true,
		Options: explore.Options{WorkDir: filepath.Join(dir, "missing")}}); err == nil {
		t.Error("a missing work directory: no error")
	}
}
