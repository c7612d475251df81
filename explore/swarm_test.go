package explore_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// skSystem builds a Suzuki-Kasami variant at n processes and r requests.
func skSystem(t *testing.T, variant string, n, r int) (model.System, []model.Property) {
	t.Helper()
	a, _, err := algorithms.Lookup("suzuki-kasami")
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(variant, map[string]int{"n": n, "r": r})
	if err != nil {
		t.Fatal(err)
	}
	return sys, append(invariants.Applicable(invariants.Standard(), sys.Info()), extra...)
}

func mustCheck(t *testing.T, sys model.System, o explore.Options) *explore.Result {
	t.Helper()
	res, err := explore.Check(context.Background(), sys, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSwarmOptionsKeepExhaustiveCounts: a hash seed or another successor
// order changes which states a search meets first, never which states are
// reachable, so an exhaustive search's counts stay those of the plain one,
// in fingerprint, exact and (with a large array) bitstate mode.
func TestSwarmOptionsKeepExhaustiveCounts(t *testing.T) {
	sys, props := skSystem(t, "suzuki-kasami/any-order", 3, 1)
	want := mustCheck(t, sys, explore.Options{Properties: props})
	if want.Verdict != explore.OK || want.States < 500 {
		t.Fatalf("plain search: %s %d states", want.Verdict, want.States)
	}
	for _, seed := range []uint64{0, 1, 0xdeadbeefcafe} {
		for _, order := range []explore.SuccessorOrder{explore.OrderNatural, explore.OrderReversed, explore.OrderShuffled} {
			for _, mode := range []string{"bfs", "dfs", "dfs-exact", "dfs-bitstate", "bfs-bitstate"} {
				o := explore.Options{Properties: props, HashSeed: seed, Order: order, Workers: 2, Sketch: 1 << 20}
				o.DFS = mode[0] == 'd'
				o.Exact = mode == "dfs-exact"
				if mode == "dfs-bitstate" || mode == "bfs-bitstate" {
					o.Bitstate = 64 << 20
				}
				got := mustCheck(t, sys, o)
				label := fmt.Sprintf("seed %#x order %s %s", seed, order, mode)
				v := explore.OK
				if o.Bitstate > 0 {
					v = explore.OKPartial
				}
				if got.Verdict != v || got.States != want.States || got.Transitions != want.Transitions {
					t.Errorf("%s: %s %d states %d transitions, want %s %d %d", label, got.Verdict, got.States, got.Transitions, v, want.States, want.Transitions)
				}
				// The sketch then holds every state once: as many as counted.
				if int64(len(got.Sketch)) != want.States {
					t.Errorf("%s: sketch of %d fingerprints, want all %d states", label, len(got.Sketch), want.States)
				}
			}
		}
	}
}

// TestSwarmOptionsDiversify: the options do change the search: another
// order gives another depth-first counterexample, another seed makes a
// tiny bitstate array miss other states.
func TestSwarmOptionsDiversify(t *testing.T) {
	sys, props := skSystem(t, "suzuki-kasami/send-in-cs", 3, 1)
	paths := map[string]bool{}
	for _, order := range []explore.SuccessorOrder{explore.OrderNatural, explore.OrderReversed, explore.OrderShuffled} {
		got := mustCheck(t, sys, explore.Options{Properties: props, DFS: true, Order: order, HashSeed: 7})
		if got.Violation == nil {
			t.Fatalf("order %s: no violation", order)
		}
		paths[fmt.Sprint(got.Violation.Path)] = true
	}
	if len(paths) != 3 {
		t.Errorf("three orders gave %d distinct counterexamples, want 3", len(paths))
	}
	sys, props = skSystem(t, "suzuki-kasami", 3, 2)
	full := mustCheck(t, sys, explore.Options{Properties: props, Sketch: 1 << 20}).Sketch
	var sets [][]uint64
	for _, seed := range []uint64{0, 1, 2} {
		got := mustCheck(t, sys, explore.Options{Properties: props, DFS: true, Bitstate: 4 << 10, HashSeed: seed, Sketch: 1 << 20})
		if got.States >= int64(len(full)) {
			t.Fatalf("seed %d: a 4KiB array missed nothing (%d of %d states)", seed, got.States, len(full))
		}
		for _, fp := range got.Sketch {
			if _, ok := slices.BinarySearch(full, fp); !ok {
				t.Fatalf("seed %d: visited a fingerprint %#x that is not reachable", seed, fp)
			}
		}
		for _, s := range sets {
			if slices.Equal(s, got.Sketch) {
				t.Errorf("seed %d visited the same states as another seed", seed)
			}
		}
		sets = append(sets, got.Sketch)
	}
}

// TestSketchIsBottomK: a small sketch is the prefix of the full one, for
// every search strategy and seed (the sample is of Fingerprint, whatever
// the seed).
func TestSketchIsBottomK(t *testing.T) {
	sys, props := skSystem(t, "suzuki-kasami", 3, 1)
	full := mustCheck(t, sys, explore.Options{Properties: props, Sketch: 1 << 20}).Sketch
	for _, o := range []explore.Options{{}, {DFS: true}, {HashSeed: 99}, {DFS: true, HashSeed: 99, Order: explore.OrderShuffled}, {Workers: 2, HashSeed: 3}} {
		o.Properties, o.Sketch = props, 100
		got := mustCheck(t, sys, o).Sketch
		if !slices.Equal(got, full[:100]) {
			t.Errorf("%+v: sketch of 100 is not the 100 smallest fingerprints", o)
		}
	}
	if _, err := explore.Check(context.Background(), sys, explore.Options{Order: 9}); err == nil {
		t.Error("an unknown order was accepted")
	}
}

// TestSwarmShardTable checks the documented table: shard 0 is the plain
// search, seeds are distinct, the period is 8, indexes out of range are
// refused.
func TestSwarmShardTable(t *testing.T) {
	seeds := map[uint64]bool{}
	for i := range 16 {
		s, err := explore.NewSwarmShard(i, 16, 10)
		if err != nil {
			t.Fatal(err)
		}
		if seeds[s.HashSeed] {
			t.Errorf("shard %d repeats seed %#x", i, s.HashSeed)
		}
		seeds[s.HashSeed] = true
		wantDFS := i%4 != 0
		if s.DFS != wantDFS {
			t.Errorf("shard %d: dfs %v, want %v", i, s.DFS, wantDFS)
		}
		wantDepth := map[int]int{6: 10, 7: 20}[i%8]
		if s.MaxDepth != wantDepth {
			t.Errorf("shard %d: depth bound %d, want %d", i, s.MaxDepth, wantDepth)
		}
	}
	if s, _ := explore.NewSwarmShard(0, 8, 0); s.HashSeed != 0 || s.DFS || s.Order != explore.OrderNatural {
		t.Errorf("shard 0 is not the plain search: %v", s)
	}
	var o explore.Options
	o.MaxDepth = 15
	s, _ := explore.NewSwarmShard(7, 8, 10)
	s.Apply(&o)
	if o.MaxDepth != 15 || !o.DFS || o.Order != explore.OrderShuffled || o.Sketch != explore.DefaultSwarmSketch {
		t.Errorf("apply: %+v", o)
	}
	for _, c := range [][2]int{{8, 8}, {-1, 8}, {0, 0}} {
		if _, err := explore.NewSwarmShard(c[0], c[1], 0); err == nil {
			t.Errorf("shard %d of %d accepted", c[0], c[1])
		}
	}
}

// TestEstimateSwarmCoverageSynthetic: shards that each visit every one of
// R states independently with their own probability; the estimate must
// find the union's true coverage, computed from the sets themselves.
func TestEstimateSwarmCoverageSynthetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const R = 200000
	states := make([]uint64, R)
	for i := range states {
		states[i] = rng.Uint64()
	}
	for _, probs := range [][]float64{{0.5, 0.5}, {0.9, 0.3, 0.6}, {0.2, 0.2, 0.2, 0.2}, {0.97, 0.95, 0.9, 0.99}} {
		var sketches [][]uint64
		union := map[uint64]bool{}
		for _, p := range probs {
			var s []uint64
			for _, fp := range states {
				if rng.Float64() < p {
					s = append(s, fp)
					union[fp] = true
				}
			}
			slices.Sort(s)
			sketches = append(sketches, s[:explore.DefaultSwarmSketch])
		}
		c, err := explore.EstimateSwarmCoverage(sketches, explore.DefaultSwarmSketch)
		if err != nil {
			t.Fatal(err)
		}
		truth := float64(len(union)) / R
		if math.Abs(c.Coverage-truth) > 0.03 || math.Abs(c.Union/float64(len(union))-1) > 0.06 || math.Abs(c.Reachable/R-1) > 0.06 {
			t.Errorf("probabilities %v: estimate coverage %.4f union %.0f reachable %.0f, truth %.4f %d %d", probs, c.Coverage, c.Union, c.Reachable, truth, len(union), R)
		}
	}
	// Samples that do not overlap give no estimate of the reachable states.
	c, _ := explore.EstimateSwarmCoverage([][]uint64{{1, 2}, {3, 4}}, 10)
	if c.Reachable != 0 || c.Coverage != 0 || c.Union != 4 {
		t.Errorf("disjoint samples: %+v", c)
	}
	if _, err := explore.EstimateSwarmCoverage([][]uint64{{2, 1}}, 10); err == nil {
		t.Error("an unsorted sketch was accepted")
	}
}

// TestSwarmCoverageSuzukiKasami is the acceptance: on
// Suzuki-Kasami N=4 R=1 (the any-order reading, 159,025 states) eight
// shards with small bitstate arrays together visit at least 99% of the
// reachable states, and the estimate from their samples is within a few
// percent of that truth. The truth: each shard also keeps a sketch larger
// than the state space, so its sketch is the exact set of fingerprints it
// visited; the union of those sets, counted against the exact search's,
// is the true coverage (a 64-bit fingerprint collision among 159,025
// states has probability below 1e-9). The estimate uses only the first
// DefaultSwarmSketch fingerprints of each, as the merge of real shards
// does.
func TestSwarmCoverageSuzukiKasami(t *testing.T) {
	sys, props := skSystem(t, "suzuki-kasami/any-order", 4, 1)
	const all = 1 << 20
	exact := mustCheck(t, sys, explore.Options{Properties: props, Sketch: all})
	if exact.States != 159025 || len(exact.Sketch) != 159025 {
		t.Fatalf("exact search: %d states, %d fingerprints; want 159,025", exact.States, len(exact.Sketch))
	}
	const shards = 8
	union := map[uint64]bool{}
	var sketches [][]uint64
	for i := range shards {
		s, err := explore.NewSwarmShard(i, shards, 0)
		if err != nil {
			t.Fatal(err)
		}
		o := explore.Options{Properties: props, Bitstate: 32 << 10, Sketch: all, Workers: 2}
		s.Apply(&o)
		res := mustCheck(t, sys, o)
		if res.Verdict != explore.OKPartial {
			t.Fatalf("%v: %s", s, res.Verdict)
		}
		t.Logf("%v: %d states (%.1f%%), expected coverage %.3f", s, res.States, 100*float64(res.States)/159025, res.Bitstate.ExpectedCoverage)
		for _, fp := range res.Sketch {
			if _, ok := slices.BinarySearch(exact.Sketch, fp); !ok {
				t.Fatalf("%v visited an unreachable fingerprint", s)
			}
			union[fp] = true
		}
		sketches = append(sketches, res.Sketch[:min(len(res.Sketch), explore.DefaultSwarmSketch)])
	}
	truth := float64(len(union)) / 159025
	c, err := explore.EstimateSwarmCoverage(sketches, explore.DefaultSwarmSketch)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("union %d states (%.4f); estimate: union %.0f, reachable %.0f, coverage %.4f", len(union), truth, c.Union, c.Reachable, c.Coverage)
	if truth < 0.99 {
		t.Errorf("the shards together visited %.4f of the states, want >= 0.99", truth)
	}
	if math.Abs(c.Coverage-truth) > 0.03 {
		t.Errorf("estimated coverage %.4f, truth %.4f", c.Coverage, truth)
	}
}
