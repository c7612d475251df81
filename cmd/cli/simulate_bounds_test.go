package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore/simulate"
)

// TestSimBoundsAreRunBounds checks that --workers and --depth accept what
// simulate.Run accepts: Run takes maxSimWorkers workers and a PCT depth of
// maxSimDepth, and refuses one more of either as out of range.
func TestSimBoundsAreRunBounds(t *testing.T) {
	a, _, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build("", map[string]int{"n": 2, "r": 1})
	if err != nil {
		t.Fatal(err)
	}
	run := func(workers, depth int) error {
		_, err := simulate.Run(context.Background(), sys, simulate.Options{Steps: 2, Runs: 1, Workers: workers, Depth: depth, Strategy: simulate.PCT})
		return err
	}
	if err := run(maxSimWorkers, maxSimDepth); err != nil {
		t.Errorf("Run with %d workers and depth %d: %v; want it accepted", maxSimWorkers, maxSimDepth, err)
	}
	for _, c := range [][2]int{{maxSimWorkers + 1, 1}, {1, maxSimDepth + 1}} {
		if err := run(c[0], c[1]); err == nil || !strings.Contains(err.Error(), "at most") {
			t.Errorf("Run with %d workers and depth %d: %v; want it refused as over the bound", c[0], c[1], err)
		}
	}
}
