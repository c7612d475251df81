package measure

import "testing"

// Suzuki-Kasami with Exit appending the waiting ids in any order
// (suzuki-kasami/any-order, protocol.Ctx.Choose) is simulated through its
// local worker with an alternative drawn at random. The order does not
// change what a CS entry costs: at heavy load N-1 REQs and one TOKEN per
// entry, exactly the counts of suzuki-kasami (ascending order); and the
// runs do take other orders than ascending.
func TestMeasureDrawsAlternatives(t *testing.T) {
	const n = 5
	base := Config{N: n, Load: Heavy, ExpMsg: true, Entries: 400, Warmup: 50, Replications: 2, Seed: 3}
	anyOrder, plain := base, base
	anyOrder.Algo, plain.Algo = "suzuki-kasami/any-order", "suzuki-kasami"
	ra, rp := small(t, anyOrder), small(t, plain)
	if ra.MessagesPerCS.Mean != n || rp.MessagesPerCS.Mean != n || ra.MessagesPerCS.Half != 0 {
		t.Fatalf("msgs/CS: any-order %v, suzuki-kasami %v; want exactly N = %d", ra.MessagesPerCS, rp.MessagesPerCS, n)
	}
	if len(ra.ByKind) != 2 || len(rp.ByKind) != 2 {
		t.Fatalf("message kinds: any-order %v, suzuki-kasami %v; want REQ and TOKEN", ra.ByKind, rp.ByKind)
	}
	for k := range ra.ByKind {
		a, p := ra.ByKind[k], rp.ByKind[k]
		want := map[string]float64{"REQ": n - 1, "TOKEN": 1}[a.Kind]
		if a.Kind != p.Kind || a.PerCS.Mean != want || p.PerCS.Mean != want {
			t.Errorf("%s per CS: any-order %v, suzuki-kasami %s %v; want %v", a.Kind, a.PerCS, p.Kind, p.PerCS, want)
		}
	}
	if ra.Entries != rp.Entries || ra.Entries != 2*400 {
		t.Errorf("entries: any-order %d, suzuki-kasami %d, want 800", ra.Entries, rp.Entries)
	}

	// One replication, stepped here: Exits with several waiting ids take
	// every kind of order, and the same seed gives the same run.
	cfg := anyOrder
	cfg.Defaults()
	b, err := build(&cfg)
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

// The plain model is not stepped locally: its runs are unchanged.
func TestMeasureSamplerModelsStaySampled(t *testing.T) {
	cfg := Config{Algo: "suzuki-kasami", N: 3, Load: Heavy}
	cfg.Defaults()
	b, err := build(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSim(&cfg, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	if b.local || s.loc != nil || s.smp == nil {
		t.Fatal("suzuki-kasami is stepped through the local worker, not its Sampler")
	}
}
