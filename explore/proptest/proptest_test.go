package proptest_test

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/proptest"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// TestMain fixes rapid's seed (unless given on the command line), so that
// "found within the default number of checks" is a reproducible claim.
func TestMain(m *testing.M) {
	flag.Parse()
	seedSet := false
	flag.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "rapid.seed" })
	if !seedSet && os.Getenv("RAPID_SEED") == "" {
		_ = flag.Set("rapid.seed", "1")
	}
	os.Exit(m.Run())
}

func build(t *testing.T, a algorithms.Algorithm, variant string) (model.System, []model.Property, map[string]int) {
	t.Helper()
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
	}
	sys, extra, err := a.Build(variant, params)
	if err != nil {
		t.Fatal(err)
	}
	return sys, invariants.Applicable(invariants.With(extra...), sys.Info()), params
}

// TestDefaults runs proptest.Check, as a user would, on the default
// variant of every registered algorithm that BFS proves safe at its
// default size.
func TestDefaults(t *testing.T) {
	for _, a := range algorithms.All() {
		sys, props, params := build(t, a, "")
		bfs, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 1, MaxStates: 500_000})
		if err != nil {
			t.Fatal(err)
		}
		if bfs.Verdict != explore.OK {
			t.Logf("%s %v: BFS says %s; skipped", a.Name, params, bfs.Verdict)
			continue
		}
		t.Run(a.Name, func(t *testing.T) {
			proptest.Check(t, sys, props, proptest.Options{Algorithm: a.Name, Params: params})
		})
	}
}

// TestMutantsFound: for every registered mutant of Suzuki-Kasami and the
// torus (of every algorithm with TOKENMC_HEAVY=1; package simulate's
// TestEveryMutantFound covers them all by default) that BFS shows to break
// a safety property at its default size, rapid finds a violation within its
// default number of checks, the trace replays, and rapid's shrinking
// leaves it at most twice as long as the BFS shortest counterexample of the
// same property.
func TestMutantsFound(t *testing.T) {
	heavy := os.Getenv("TOKENMC_HEAVY") != ""
	for _, a := range algorithms.All() {
		if !heavy && a.Name != "suzuki-kasami" && a.Name != "torus" {
			continue
		}
		for _, v := range a.Variants {
			if v.Kind != spec.KindMutant {
				continue
			}
			sys, props, params := build(t, a, v.Name)
			bfs, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 1, MaxStates: 2_000_000})
			if err != nil {
				t.Fatal(err)
			}
			if bfs.Violation == nil {
				continue // a liveness mutant, or one that needs other parameters
			}
			t.Run(v.Name, func(t *testing.T) {
				f, err := proptest.Find(sys, props, proptest.Options{Algorithm: v.Name, Params: params, TraceFile: t.TempDir() + "/f.trace.json"})
				if err != nil {
					t.Fatal(err)
				}
				if f == nil {
					t.Fatalf("rapid found no violation; BFS finds %s in %d steps", bfs.Violation.Property.Name, bfs.Violation.Len())
				}
				var prop model.Property
				for _, p := range props {
					if p.Name == f.Property {
						prop = p
					}
				}
				short, err := explore.Check(context.Background(), sys, explore.Options{Properties: []model.Property{prop}, Workers: 1, MaxStates: 2_000_000})
				if err != nil || short.Violation == nil {
					t.Fatalf("BFS finds no violation of %s: %v", f.Property, err)
				}
				if n := len(f.Trace.Steps); n < short.Violation.Len() || n > 2*short.Violation.Len() {
					t.Errorf("rapid's %s trace has %d steps, BFS shortest %d", f.Property, n, short.Violation.Len())
				}
				tr, err := traces.ReadFile(f.File)
				if err != nil {
					t.Fatal(err)
				}
				if len(tr.Steps) != len(f.Trace.Steps) {
					t.Errorf("the file holds %d steps, the minimal failure %d", len(tr.Steps), len(f.Trace.Steps))
				}
				if r, err := traces.Replay(sys, props, tr); err != nil || !r.OK {
					t.Errorf("trace does not replay: %v %v", r, err)
				}
				t.Logf("%s: rapid %d steps, BFS %d", f.Property, len(f.Trace.Steps), short.Violation.Len())
			})
		}
	}
}
