package measure

import (
	"context"
	"fmt"
	"testing"
)

// Suzuki-Kasami with Exit appending the waiting ids in any order
// (suzuki-kasami/any-order, protocol.Ctx.Choose) is simulated through its
// local worker with an alternative drawn at random. The order does not
// change what a CS entry costs: at heavy load N-1 REQs and one TOKEN per
// entry, exactly the counts of suzuki-kasami (ascending order); and the
// runs do take other orders than ascending.
func TestMeasureDrawsAlternatives(t *testing.T) {
	const n = 5
	base := Config{N: n, Load: heavyLoad, ExpMsg: true, Entries: 400, Warmup: 50, Replications: 2, Seed: 3}
	anyOrder, plain := base, base
	anyOrder.Algo, plain.Algo = "suzuki-kasami/any-order", "suzuki-kasami"
	ra, rp := small(t, anyOrder), small(t, plain)
	if ra.MessagesPerCS.Mean != n || rp.MessagesPerCS.Mean != n || ra.MessagesPerCS.Half != 0 {
		t.Fatalf("msgs/CS: any-order %v, suzuki-kasami %v; want exactly N = %d", ra.MessagesPerCS, rp.MessagesPerCS, n)
	}
	if len(ra.ByKind) != 2 || len(rp.ByKind) != 2 {
		t.Fatalf("message kinds: any-order %v, suzuki-kasami %v; want REQ and TOKEN", ra.ByKind, rp.ByKind)
	}
	for k, want := range map[string]float64{"REQ": n - 1, "TOKEN": 1} {
		a, okA := ra.ByKind[k]
		p, okP := rp.ByKind[k]
		if !okA || !okP || a.Mean != want || p.Mean != want {
			t.Errorf("%s per CS: any-order %v, suzuki-kasami %v; want %v", k, a, p, want)
		}
	}
	if ra.Entries != rp.Entries || ra.Entries != 2*400 {
		t.Errorf("entries: any-order %d, suzuki-kasami %d, want 800", ra.Entries, rp.Entries)
	}

	// One replication, stepped here: Exits with several waiting ids take
	// every kind of order, and the same seed gives the same run.
	cfg := anyOrder
	cfg.Defaults()
	b, err := resolvedBuild(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !b.local {
		t.Fatal("suzuki-kasami/any-order is not stepped through its local worker")
	}
	var first *sim
	for range 2 {
		s, err := newSim(&cfg, b, 0)
		if err != nil {
			t.Fatal(err)
		}
		s.run()
		if s.violation != "" || s.stalled {
			t.Fatalf("violation %q, stalled %v", s.violation, s.stalled)
		}
		if s.loc.chosen == 0 || s.loc.other == 0 || s.loc.other == s.loc.chosen {
			t.Fatalf("%d steps with alternatives, %d of them not the first: want some of each", s.loc.chosen, s.loc.other)
		}
		if first == nil {
			first = s
			continue
		}
		if s.loc.chosen != first.loc.chosen || s.loc.other != first.loc.other || s.events != first.events || s.now != first.now {
			t.Fatalf("the same seed gave another run: %d/%d choices, %d events, end %v; then %d/%d, %d, %v",
				first.loc.other, first.loc.chosen, first.events, first.now, s.loc.other, s.loc.chosen, s.events, s.now)
		}
	}
	t.Logf("%d steps with alternatives, %d took another than the first", first.loc.chosen, first.loc.other)
}

// Models without whole-state hooks or choices are not stepped locally:
// they keep the Sampler path, and their figures for a fixed seed are the
// ones measure gave before hooked models were accepted (recorded then:
// N=4, seed 7, 300 entries after 50, 2 replications, exponential delays
// at light load and at rate 0.5).
func TestMeasureSamplerModelsStaySampled(t *testing.T) {
	for _, algo := range []string{"suzuki-kasami", "torus", "banerjee", "banerjee-seq", "raymond", "lelann", "drs-gme", "ricart-agrawala", "naimi-trehel", "multi-token-ring"} {
		cfg := Config{Algo: algo, N: 4, Load: heavyLoad}
		cfg.Defaults()
		b, err := resolvedBuild(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		s, err := newSim(&cfg, b, 0)
		if err != nil {
			t.Fatal(err)
		}
		if b.local || b.guarded || s.loc != nil || s.smp == nil {
			t.Fatalf("%s is stepped through the local worker, not its Sampler", algo)
		}
	}
	recorded := []struct {
		algo string
		load Load
		want string // msgs/CS, response, entries, events
	}{
		{"suzuki-kasami", lightLoad, "{3 0.8470666666666693} {0.2522010041732664 0.14389087815915302} 600 3489"},
		{"suzuki-kasami", heavyLoad, "{4 0} {0.8000000000000046 0} 600 4208"},
		{"torus", rateLoad(0.5), "{4.35 1.8635466666666702} {0.4752185286318862 0.11635423407398632} 600 6019"},
		{"torus", lightLoad, "{5.529999999999999 0.8470666666666693} {0.38811940405180334 0.32342297834064865} 600 24026"},
		{"banerjee", lightLoad, "{3.933333333333333 2.117666666666665} {0.3580760572972729 0.18243196594161293} 600 5372"},
		{"raymond", rateLoad(0.5), "{2.5566666666666666 0.677653333333332} {0.39892396508388056 0.015333153344390327} 600 3179"},
		{"lelann", lightLoad, "{2.4866666666666664 0.2964733333333317} {0.36446924732485975 0.16997977950784346} 600 23287"},
		{"drs-gme", rateLoad(0.5), "{2.9316666666666666 0.3176499999999989} {0.2739486082370315 0.06905015124545595} 600 3456"},
	}
	for _, c := range recorded {
		cfg := Config{Algo: c.algo, N: 4, Load: c.load, Entries: 300, Warmup: 50, Replications: 2, Seed: 7, ExpMsg: c.load.Kind != "heavy"}
		r, err := run(context.Background(), cfg, 2)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(r.MessagesPerCS, r.Response, r.Entries, r.Events); got != c.want || r.Postponed != 0 {
			t.Errorf("%s %s: %s, %d postponed; recorded %s", c.algo, c.load, got, r.Postponed, c.want)
		}
	}
}
