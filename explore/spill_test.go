package explore_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// variantSystem builds a registered variant at its default parameters
// (with the variant's own overrides) with every safety property that
// applies.
func variantSystem(t *testing.T, a algorithms.Algorithm, v algorithms.Variant) (model.System, []model.Property) {
	t.Helper()
	sys, extra, err := a.Build(v.Name, v.Params)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	props := append(invariants.Applicable(invariants.Standard(), sys.Info()), extra...)
	return sys, props
}

func sameResult(t *testing.T, name string, want, got *explore.Result) {
	t.Helper()
	if want.Verdict != got.Verdict || want.States != got.States || want.Transitions != got.Transitions ||
		want.Depth != got.Depth || want.StopReason != got.StopReason {
		t.Errorf("%s: got %s %q states %d transitions %d depth %d, want %s %q states %d transitions %d depth %d",
			name, got.Verdict, got.StopReason, got.States, got.Transitions, got.Depth,
			want.Verdict, want.StopReason, want.States, want.Transitions, want.Depth)
		return
	}
	if (want.Violation == nil) != (got.Violation == nil) {
		t.Errorf("%s: violation %v, want %v", name, got.Violation != nil, want.Violation != nil)
		return
	}
	if want.Violation == nil {
		return
	}
	if want.Violation.Property.Name != got.Violation.Property.Name || len(want.Violation.Path) != len(got.Violation.Path) {
		t.Errorf("%s: violation of %s in %d steps, want %s in %d", name, got.Violation.Property.Name, got.Violation.Len(),
			want.Violation.Property.Name, want.Violation.Len())
		return
	}
	for i := range want.Violation.Path {
		if !bytes.Equal(want.Violation.Path[i], got.Violation.Path[i]) {
			t.Errorf("%s: counterexample differs at step %d", name, i)
			return
		}
	}
}

// TestSpillingChangesNothing runs every registered variant at its default
// parameters (bounded to 30,000 states) with the frontier and the links
// kept in memory and with both spilled to files at a tiny threshold (so
// levels are read back in blocks of a few dozen states), and with 1 and 3
// workers: verdict, counts, depth and the counterexample must be the
// same. The work directory must be empty afterwards.
func TestSpillingChangesNothing(t *testing.T) {
	dir := t.TempDir()
	spilled := int64(0)
	bound := int64(30_000)
	if short() {
		bound = 5_000 // every variant still, on the first levels
	}
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			sys, props := variantSystem(t, a, v)
			base := explore.Options{Properties: props, Workers: 2, MaxStates: bound, SpillAbove: -1}
			want, err := explore.Check(context.Background(), sys, base)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []struct {
				spill   int64
				workers int
			}{{2048, 1}, {2048, 3}, {-1, 1}, {-1, 4}} {
				opts := base
				opts.SpillAbove, opts.Workers, opts.WorkDir = o.spill, o.workers, dir
				got, err := explore.Check(context.Background(), sys, opts)
				if err != nil {
					t.Fatal(err)
				}
				spilled += got.SpilledBytes
				sameResult(t, fmt.Sprintf("%s spill=%d workers=%d", v.Name, o.spill, o.workers), want, got)
			}
		}
	}
	if spilled == 0 {
		t.Error("nothing was spilled: the test does not exercise the spill files")
	}
	left, err := os.ReadDir(dir)
	if err != nil || len(left) != 0 {
		t.Errorf("work directory not cleaned up: %v %v", left, err)
	}
}

// TestTransitionsDoNotDependOnWorkers pins the definition of
// Result.Transitions when a violation ends the search: every transition of
// every state up to and including the violation's level, whatever the
// number of workers (issue 12: banerjee n=4 gave three different counts
// with 1, 2 and 4 workers).
func TestTransitionsDoNotDependOnWorkers(t *testing.T) {
	if short() {
		t.Skip("banerjee n=4: a few seconds")
	}
	a, v, err := algorithms.Lookup("banerjee")
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, map[string]int{"n": 4})
	if err != nil {
		t.Fatal(err)
	}
	props := append(invariants.Applicable(invariants.Standard(), sys.Info()), extra...)
	var want *explore.Result
	for _, w := range []int{1, 2, 4} {
		got, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if got.Verdict != explore.Violated {
			t.Fatalf("banerjee n=4: %s, want a violation", got.Verdict)
		}
		if want == nil {
			want = got
			continue
		}
		sameResult(t, fmt.Sprintf("banerjee n=4 workers=%d", w), want, got)
	}
}

// short reports whether the light versions of the tests run: with -short,
// or without TOKENMC_HEAVY=1 (the default `go test ./...`; CI sets it).
func short() bool { return testing.Short() || os.Getenv("TOKENMC_HEAVY") == "" }
