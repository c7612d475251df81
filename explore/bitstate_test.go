package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
)

// TestBitstateFindsTheMutantsShortest checks that bitstate search finds
// the Suzuki-Kasami mutants' violations with the shortest lengths of the
// exact search, and that on the correct algorithm it ends ok-partial (never
// ok) with the same counts when the array is large.
func TestBitstateFindsTheMutantsShortest(t *testing.T) {
	a, _, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"suzuki-kasami", "suzuki-kasami/send-in-cs", "suzuki-kasami/keep-copy"} {
		var v algorithms.Variant
		for _, x := range a.Variants {
			if x.Name == name {
				v = x
			}
		}
		sys, props := variantSystem(t, a, v)
		want, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int64{1 << 20, 64 << 20} {
			got, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Bitstate: size})
			if err != nil {
				t.Fatal(err)
			}
			label := fmt.Sprintf("%s bitstate %d", name, size)
			if got.Bitstate == nil || got.Bitstate.K != 3 || got.Bitstate.Bits != size*8 {
				t.Fatalf("%s: stats %+v", label, got.Bitstate)
			}
			if want.Verdict == explore.OK {
				if got.Verdict != explore.OKPartial || got.States != want.States || got.Transitions != want.Transitions {
					t.Errorf("%s: %s %d states %d transitions, want ok-partial %d %d", label, got.Verdict, got.States, got.Transitions, want.States, want.Transitions)
				}
				if got.Bitstate.Stored != want.States || got.Bitstate.ExpectedCoverage < 0.999 || got.Bitstate.HashFactor < 100 {
					t.Errorf("%s: %+v", label, *got.Bitstate)
				}
				continue
			}
			if got.Violation == nil || got.Violation.Len() != want.Violation.Len() || got.Violation.Property.Name != want.Violation.Property.Name {
				t.Fatalf("%s: %v, want %s in %d steps", label, got.Violation, want.Violation.Property.Name, want.Violation.Len())
			}
		}
	}
}

// TestBitstateTinyArrayMissesStates: with far too few bits the search
// skips states, says so through its coverage estimate, and still never
// claims ok.
func TestBitstateTinyArrayMissesStates(t *testing.T) {
	a, v, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.Build(v.Name, map[string]int{"n": 3, "r": 2})
	if err != nil {
		t.Fatal(err)
	}
	full, err := explore.Check(context.Background(), sys, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := explore.Check(context.Background(), sys, explore.Options{Bitstate: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if got.Verdict != explore.OKPartial || got.States >= full.States {
		t.Fatalf("tiny array: %s with %d states, want ok-partial with fewer than %d", got.Verdict, got.States, full.States)
	}
	cov := got.Bitstate.ExpectedCoverage
	t.Logf("tiny array: %d of %d states, coverage estimate %.3f, hash factor %.2f", got.States, full.States, cov, got.Bitstate.HashFactor)
	if cov <= 0 || cov >= 0.9 || got.Bitstate.HashFactor >= 2 {
		t.Errorf("tiny array: coverage %.3f, hash factor %.2f; want a clearly partial estimate", cov, got.Bitstate.HashFactor)
	}
}
