package simulate_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// safetyBreaks returns the properties in v.Breaks that the simulator
// checks (safety properties that apply to sys); liveness entries such as
// starvation-freedom are left out.
func safetyBreaks(v algorithms.Variant, props []model.Property) []string {
	var out []string
	for _, b := range v.Breaks {
		for _, p := range props {
			if p.Name == b {
				out = append(out, b)
			}
		}
	}
	return out
}

func build(t *testing.T, a algorithms.Algorithm, variant string) (model.System, []model.Property, map[string]int) {
	t.Helper()
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
	}
	sys, extra, err := a.Build(variant, params)
	if err != nil {
		t.Fatalf("build %s: %v", variant, err)
	}
	return sys, invariants.Applicable(invariants.With(extra...), sys.Info()), params
}

// TestEveryMutantFound: for every registered mutant that breaks a safety
// property at its default parameters (BFS decides), simulate (uniform, 100 runs of 10,000 steps, seed 1) finds a
// violation; the shrunk trace replays, and it is at most twice as long as
// the shortest counterexample of the same property found by BFS.
func TestEveryMutantFound(t *testing.T) {
	n := 0
	bound := int64(2_000_000)
	if testing.Short() || os.Getenv("TOKENMC_HEAVY") == "" {
		bound = 100_000 // the mutants whose violation BFS finds within it
	}
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			sys, props, params := build(t, a, v.Name)
			if v.Kind != spec.KindMutant || len(safetyBreaks(v, props)) == 0 {
				continue
			}
			n++
			t.Run(v.Name, func(t *testing.T) {
				bfs, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 1, MaxStates: bound})
				if err != nil {
					t.Fatal(err)
				}
				if bfs.Violation == nil {
					t.Skipf("BFS finds no violation at the default parameters %v (%s, %d states): the mutant needs others", params, bfs.Verdict, bfs.States)
				}
				res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: 100, Steps: 10000, Seed: 1, Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				vi := res.Violation
				if vi == nil {
					t.Fatalf("no violation in %d runs (%d steps); BFS finds %s in %d steps", res.Runs, res.Steps, bfs.Violation.Property.Name, bfs.Violation.Len())
				}
				prop := vi.Property
				if prop.Name != bfs.Violation.Property.Name {
					// the shortest counterexample of the property the walk found
					bfs, err = explore.Check(context.Background(), sys, explore.Options{Properties: []model.Property{prop}, Workers: 1, MaxStates: 2_000_000})
					if err != nil {
						t.Fatal(err)
					}
					if bfs.Violation == nil {
						t.Fatalf("simulate found %s but BFS (%s) finds no violation of it", prop.Name, bfs.Verdict)
					}
				}
				if vi.Len() < bfs.Violation.Len() || vi.Len() > 2*bfs.Violation.Len() {
					t.Errorf("shrunk %s trace has %d steps; BFS shortest %d (want between it and twice it)", prop.Name, vi.Len(), bfs.Violation.Len())
				}
				tr, err := traces.FromSteps(sys.NewWorker(), traces.Meta{Algorithm: v.Name, Params: params, Property: prop.Name, PropertyKind: prop.Kind}, vi.Path, nil)
				if err != nil {
					t.Fatal(err)
				}
				rr, err := traces.Replay(sys, props, tr)
				if err != nil || !rr.OK {
					t.Fatalf("the shrunk trace does not replay: %v %v", rr, err)
				}
				t.Logf("%s: run %d, found after %d steps, shrunk to %d, BFS %d", prop.Name, vi.Run, vi.Found, vi.Len(), bfs.Violation.Len())
			})
		}
	}
	if n == 0 {
		t.Fatal("the registry has no variant that breaks a safety property")
	}
}

// TestDefaultsHold: the default variant of every algorithm that BFS proves
// safe at its default size survives 20 runs of 5,000 steps there with every
// safety property checked, under each strategy.
func TestDefaultsHold(t *testing.T) {
	for _, a := range algorithms.All() {
		sys, props, params := build(t, a, "")
		if len(safetyBreaks(a.Variants[0], props)) > 0 {
			continue
		}
		bfs, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 1, MaxStates: 500_000})
		if err != nil {
			t.Fatal(err)
		}
		if bfs.Verdict != explore.OK {
			// not ours to judge: the exhaustive check reports it
			t.Logf("%s %v: BFS says %s (%v), skipped", a.Name, params, bfs.Verdict, bfs.Violation != nil)
			continue
		}
		for _, s := range simulate.Strategies() {
			res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: 20, Steps: 5000, Seed: 7, Strategy: s})
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil {
				t.Errorf("%s (%s): violation of %s in run %d", a.Name, s, res.Violation.Property.Name, res.Violation.Run)
			}
			if res.Runs != 20 || res.Steps == 0 {
				t.Errorf("%s (%s): %d runs, %d steps", a.Name, s, res.Runs, res.Steps)
			}
		}
	}
}

// TestShrunkIsOneMinimal checks, independently of the shrinker, that
// deleting any single step of a shrunk counterexample yields a schedule
// that no longer reaches the violation when replayed strictly (every
// remaining action must be enabled in turn).
func TestShrunkIsOneMinimal(t *testing.T) {
	a, v, err := algorithms.Lookup("suzuki-kasami/send-in-cs")
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, map[string]int{"n": 4, "r": 2})
	if err != nil {
		t.Fatal(err)
	}
	props := invariants.Applicable(invariants.With(extra...), sys.Info())
	res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: 10, Seed: 3})
	if err != nil || res.Violation == nil {
		t.Fatalf("no violation: %v", err)
	}
	vi := res.Violation
	if vi.Found <= vi.Len() {
		t.Logf("walk already minimal: found %d, shrunk %d", vi.Found, vi.Len())
	}
	w := sys.NewWorker()
	labels := labelsOf(w, vi.Path)
	for drop := range labels {
		cand := slices.Delete(slices.Clone(labels), drop, drop+1)
		if reachesByLabels(sys, vi.Path[0], cand, vi.Property) {
			t.Errorf("dropping step %d (%s) still violates %s: not 1-minimal", drop+1, labels[drop], vi.Property.Name)
		}
	}
}

func labelsOf(w model.Worker, path [][]byte) []string {
	var out []string
	for k := 0; k+1 < len(path); k++ {
		w.Successors(path[k], func(t *model.Transition, next []byte) bool {
			if string(next) == string(path[k+1]) {
				out = append(out, w.Label(path[k], t))
				return false
			}
			return true
		})
	}
	return out
}

// reachesByLabels replays labels strictly from init and reports whether the
// property is violated at the end (or on the last transition).
func reachesByLabels(sys model.System, init []byte, labels []string, p model.Property) bool {
	w := sys.NewWorker()
	cur := append([]byte(nil), init...)
	var flags model.Flags
	for _, l := range labels {
		var next []byte
		w.Successors(cur, func(t *model.Transition, n []byte) bool {
			if w.Label(cur, t) == l {
				next, flags = append([]byte(nil), n...), t.Flags
				return false
			}
			return true
		})
		if next == nil {
			return false
		}
		cur = next
	}
	switch p.Kind {
	case model.TransitionInvariant:
		return len(labels) > 0 && !p.HoldsOn(&model.Transition{Flags: flags})
	default:
		return !p.Holds(w.Snapshot(cur))
	}
}
