package simulate_test

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/internal/capability"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

func skSystem(t testing.TB, variant string, n, r int) (model.System, []model.Property) {
	p, err := suzukikasami.New(variant, n, r)
	if err != nil {
		t.Fatal(err)
	}
	sys := p.System()
	return sys, invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
}

// hidden hides every optional capability of a worker (Sampler,
// IncrementalSnapshotter), so the simulator must use Successors.
type hidden struct{ sys model.System }

func (h hidden) Info() model.Info { return h.sys.Info() }
func (h hidden) NewWorker() model.Worker {
	return struct{ model.Worker }{h.sys.NewWorker()}
}

// encodedOnly hides InPlaceWorker but keeps the Sampler and
// IncrementalSnapshotter capabilities: the simulator then steps encoded
// states.
type encodedOnly struct{ sys model.System }

func (e encodedOnly) Info() model.Info { return e.sys.Info() }
func (e encodedOnly) NewWorker() model.Worker {
	w := e.sys.NewWorker()
	return struct {
		model.Worker
		capability.Sampler
		capability.IncrementalSnapshotter
	}{w, w.(capability.Sampler), w.(capability.IncrementalSnapshotter)}
}

// sameResult compares two results of the same seed. The distinct-state
// estimates of an in-place walk and of a walk over encoded states hash
// different things (InPlace.Hash, the encoding), so with
// approxDistinct they need only agree within 5%.
func sameResult(t *testing.T, what string, a, b *simulate.Result, approxDistinct ...bool) {
	t.Helper()
	a2, b2 := *a, *b
	a2.Elapsed, b2.Elapsed = 0, 0
	if len(approxDistinct) > 0 && approxDistinct[0] {
		if d := a2.Distinct - b2.Distinct; d*20 > a2.Distinct || -d*20 > a2.Distinct {
			t.Errorf("%s: distinct estimates %d and %d differ by more than 5%%", what, a2.Distinct, b2.Distinct)
		}
		a2.Distinct, b2.Distinct = 0, 0
	}
	a2.Violation, b2.Violation = nil, nil
	va, vb := a.Violation, b.Violation
	if (va == nil) != (vb == nil) || va != nil && (va.Property.Name != vb.Property.Name || va.Run != vb.Run ||
		va.RunSeed != vb.RunSeed || va.Found != vb.Found || !reflect.DeepEqual(va.Path, vb.Path)) {
		t.Errorf("%s: violations differ:\n%+v\n%+v", what, va, vb)
	}
	if !reflect.DeepEqual(a2, b2) {
		t.Errorf("%s: results differ:\n%+v\n%+v", what, a2, b2)
	}
}

// TestSeedDeterminesResult: the same seed gives the same result, violation
// and shrunk path included, for 1 and 2 workers and for the in-place
// path (InPlace), the Sampler path over encoded states and the
// generic Successors path (an independent implementation of the enabled
// transitions and their successors).
func TestSeedDeterminesResult(t *testing.T) {
	for _, variant := range []string{suzukikasami.Default, suzukikasami.SendInCS} {
		sys, props := skSystem(t, variant, 5, 2)
		for _, s := range simulate.Strategies() {
			opts := simulate.Options{Properties: props, Runs: 40, Steps: 2000, Seed: 42, Strategy: s}
			one, err := simulate.Run(context.Background(), sys, opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.Workers = 2
			two, _ := simulate.Run(context.Background(), sys, opts)
			sameResult(t, variant+" "+string(s)+" workers 1 vs 2", one, two)
			enc, _ := simulate.Run(context.Background(), encodedOnly{sys}, opts)
			sameResult(t, variant+" "+string(s)+" InPlace vs Sampler", one, enc, true)
			slow, _ := simulate.Run(context.Background(), hidden{sys}, opts)
			sameResult(t, variant+" "+string(s)+" Sampler vs Successors", enc, slow)
			opts.Seed = 43
			other, _ := simulate.Run(context.Background(), sys, opts)
			if other.Steps == one.Steps && other.Distinct == one.Distinct {
				t.Errorf("%s %s: seeds 42 and 43 gave the same walks", variant, s)
			}
		}
	}
}

// TestDistinctEstimate compares the approximate count of distinct states
// with the exact number of reachable states on systems small enough for
// many walks to visit all of them (the estimate is exact up to a few
// percent there; sketch_test.go checks large counts).
func TestDistinctEstimate(t *testing.T) {
	for k, nr := range [][2]int{{2, 1}, {3, 1}, {2, 3}} {
		if k > 0 && os.Getenv("TOKENMC_HEAVY") == "" {
			break // the first configuration stays in the default suite
		}
		sys, props := skSystem(t, suzukikasami.Default, nr[0], nr[1])
		bfs, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 1})
		if err != nil || bfs.Verdict != explore.OK {
			t.Fatalf("bfs: %v %v", err, bfs.Verdict)
		}
		res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: 30000, Seed: 1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := float64(bfs.States)*0.95, float64(bfs.States)*1.05
		if d := float64(res.Distinct); d < lo || d > hi {
			t.Errorf("n=%d r=%d: distinct estimate %d, reachable states %d", nr[0], nr[1], res.Distinct, bfs.States)
		}
	}
}

// TestCounts cross-checks the per-kind counters: with R=2 every run that
// ends with nothing enabled made all N*R requests and exits, and the
// deliveries are the rest of the steps.
func TestCounts(t *testing.T) {
	sys, props := skSystem(t, suzukikasami.Default, 4, 2)
	res, err := simulate.Run(context.Background(), sys, simulate.Options{Properties: props, Runs: 50, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Terminal != 50 {
		t.Fatalf("%d of 50 runs terminated", res.Terminal)
	}
	if res.Fired["Request"] != 50*8 || res.Fired["Exit"] != 50*8 {
		t.Errorf("fired %v, want 400 requests and exits", res.Fired)
	}
	if res.Fired["Request"]+res.Fired["Exit"]+res.Fired["Deliver"] != res.Steps {
		t.Errorf("fired %v does not add up to %d steps", res.Fired, res.Steps)
	}
	if res.LongestWait < 2 || res.LongestWaitProc < 0 {
		t.Errorf("longest wait %d (P%d)", res.LongestWait, res.LongestWaitProc)
	}
}

// TestBadOptions: invalid options are errors, not panics.
func TestBadOptions(t *testing.T) {
	sys, _ := skSystem(t, suzukikasami.Default, 2, 1)
	for _, o := range []simulate.Options{{Strategy: "random"}, {Steps: -1}, {Properties: []model.Property{{Name: "x"}}}} {
		if _, err := simulate.Run(context.Background(), sys, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestCancel: a cancelled context stops the simulation early without a
// verdict.
func TestCancel(t *testing.T) {
	sys, props := skSystem(t, suzukikasami.Default, 4, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := simulate.Run(ctx, sys, simulate.Options{Properties: props, Runs: 1000})
	if err != nil || res.Violation != nil || res.Runs != 0 {
		t.Fatalf("after cancel: %+v %v", res, err)
	}
}
