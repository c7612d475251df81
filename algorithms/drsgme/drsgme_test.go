package drsgme

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// counts explores a system exhaustively with every applicable property and
// fails on a violation.
func countsOf(t *testing.T, sys model.System, cfg Config) *explore.Result {
	t.Helper()
	props := invariants.Applicable(AllProperties(cfg), sys.Info())
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.OK {
		t.Fatalf("%+v: %s: %s", cfg, res.Verdict, joinLabels(labels(t, cfg, res.Violation.Path)))
	}
	return res
}

// The exact counts of the repaired reading without timers or faults
// (semantics.md §1 "Counts"), each equal to the count of naiveDRS, an
// independent map-based enumerator written from algorithms.md §7.2
// (naive_test.go). The second half is the same reading with Event 5's HI
// branch as printed (D15 literal: token.type and old_token are not reset),
// which is the reading of drs-gme.md's throw-away Python enumerator: its
// published counts, 2,957 states at N=2 M=2 R=2 and 12,157 at N=3 M=2 R=1
// (drs-gme.md "Expected checker results"; algorithms.md header), are
// reproduced exactly by both the model and naiveDRS.
func TestNaiveCrossCheck(t *testing.T) {
	for _, c := range []struct {
		n, m, r    int
		e5literal  bool
		states, tr int64
		depth      int
	}{
		{2, 2, 1, false, 109, 140, 9},
		{2, 1, 2, false, 381, 615, 18},
		{2, 2, 2, false, 2573, 4068, 18},
		{3, 2, 1, false, 11389, 29548, 17},
		{2, 2, 1, true, 113, 140, 9},
		{2, 1, 2, true, 481, 719, 18},
		{2, 2, 2, true, 2957, 4490, 18},
		{3, 2, 1, true, 12157, 30728, 17},
	} {
		cfg := Config{Variant: Default, N: c.n, M: c.m, R: c.r, Timers: TimersOff}
		var items []item
		if c.e5literal {
			items = []item{litE5HI}
		}
		p, err := newWith(cfg, items...)
		if err != nil {
			t.Fatal(err)
		}
		got := countsOf(t, p.System(), cfg)
		ns, ntr, nd := naiveDRS{n: c.n, m: c.m, r: c.r, e5literal: c.e5literal}.count()
		if got.States != c.states || got.Transitions != c.tr || got.Depth != c.depth {
			t.Errorf("n=%d m=%d r=%d e5=%v: model %d states, %d transitions, depth %d; want %d, %d, %d",
				c.n, c.m, c.r, c.e5literal, got.States, got.Transitions, got.Depth, c.states, c.tr, c.depth)
		}
		if int64(ns) != c.states || int64(ntr) != c.tr || nd != c.depth {
			t.Errorf("n=%d m=%d r=%d e5=%v: naive %d states, %d transitions, depth %d; want %d, %d, %d",
				c.n, c.m, c.r, c.e5literal, ns, ntr, nd, c.states, c.tr, c.depth)
		}
	}
}

// algorithms.md §7.6: the repaired reading keeps gme-safety, the
// valid-token single-token (exactly one without faults, at most one with),
// no-unrequested-entry, no-deadlock and the §VI queue bound, with timers
// off, quiescent and any, with and without a message loss. The sizes are
// those that run in well under a second; N=3 M=2 R=1 F=1 is in
// TestAcceptanceHeavy.
func TestRepairedHolds(t *testing.T) {
	for _, cfg := range []Config{
		{Variant: Default, N: 3, M: 2, R: 1},                            // auto = off
		{Variant: Default, N: 2, M: 2, R: 2, Timers: TimersQuiescent},   // premature-free timers
		{Variant: Default, N: 2, M: 2, R: 1, F: 1},                      // auto = quiescent
		{Variant: Default, N: 2, M: 2, R: 1, F: 1, Timers: TimersAny},   // premature expiries too
		{Variant: Ext, N: 3, M: 2, R: 1},                                // extended GME
		{Variant: Ext, N: 2, M: 2, R: 1, F: 1, Timers: TimersQuiescent}, // extended GME, faults
	} {
		sys, err := System(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res := countsOf(t, sys, cfg)
		t.Logf("%+v: %d states, %d transitions, depth %d", cfg, res.States, res.Transitions, res.Depth)
	}
}

// The acceptance sizes of the brief: N=3, M=2, R=1 with F=1 (quiescent
// timers): about 3 s for drs-gme and 10 s (0.5 GB) for drs-gme/ext on 2
// cores; run with TOKENMC_HEAVY=1.
func TestAcceptanceHeavy(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy: set TOKENMC_HEAVY=1")
	}
	for _, cfg := range []Config{
		{Variant: Default, N: 3, M: 2, R: 1, F: 1},
		{Variant: Ext, N: 3, M: 2, R: 1, F: 1},
	} {
		sys, err := System(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res := countsOf(t, sys, cfg)
		t.Logf("%+v: %d states, %d transitions, depth %d, %v", cfg, res.States, res.Transitions, res.Depth, res.Elapsed)
	}
}

// violation runs a BFS for the named properties and returns the shortest
// counterexample's property, length and labels.
func violation(t *testing.T, cfg Config, props ...string) (string, []string) {
	t.Helper()
	res := check(t, cfg, props...)
	if res.Verdict != explore.Violated {
		t.Fatalf("%+v: %s, want a violation of %v", cfg, res.Verdict, props)
	}
	return res.Violation.Property.Name, labels(t, cfg, res.Violation.Path)
}

// Mutants of algorithms.md §7.8 / §9.2 and literal items of §7.7, each with
// the property it breaks and the length of the shortest (BFS)
// counterexample. Where the notes predict a trace, the comment says whether
// the checker's shortest one agrees.
func TestShortestCounterexamples(t *testing.T) {
	for _, c := range []struct {
		cfg   Config
		prop  string
		steps int
		last  string // the last action
	}{
		// §7.8: P0 captain g0 admits P1, exits and passes to P2 for g1
		// while P1 is still to enter: exactly the notes' scenario.
		{Config{Variant: PassBeforeComplete, N: 3, M: 2, R: 1}, "gme-safety", 8, "Deliver START(P0->P1, g0, sn=1)"},
		// §7.8 admit-any-group: a g1 request is admitted into a g0 session.
		{Config{Variant: AdmitAnyGroup, N: 2, M: 2, R: 1}, "gme-safety", 4, "Deliver START(P0->P1, g1, sn=1)"},
		// §7.8 keep-token: two valid tokens after the first hand-over (the
		// notes' "2 steps"), and gme-safety two steps later.
		{Config{Variant: KeepToken, N: 2, M: 2, R: 1}, "single-token", 2, "Deliver REQ(P1->P0, sn=1, g0)"},
		{Config{Variant: KeepToken, N: 2, M: 2, R: 1}, "gme-safety", 4, "Deliver TOKEN(->P1, s=1, type=-, fol=0, LN=[0,0], Q=[g0:P1#1])"},
		// §7.8 no-rs-add (D3 alone): P0 gives the token away but keeps
		// RS_0 empty, so its own request goes nowhere (timers off).
		{Config{Variant: NoRSAdd, N: 2, M: 2, R: 1}, "no-deadlock", 5, "Exit(P1)"},
		// D1 (E1): the first hand-over carries session 0 and is invalid at
		// its receiver: no valid token after 2 steps, as drs-gme.md E1
		// predicts; no-deadlock needs P0 to request too (4 steps; the
		// notes' 3 leave P0 able to request).
		{Config{Variant: Literal, N: 2, M: 2, R: 1}, "single-token", 2, "Deliver REQ(P1->P0, sn=1, g0)"},
		{Config{Variant: Literal, N: 2, M: 2, R: 1}, "no-deadlock", 4, "Deliver TOKEN(->P1, s=0, type=-, fol=0, LN=[0,0], Q=[g0:P1#1])"},
		// D3 with sessions repaired: "Add i to RS_i" in Event 2 case HI.
		{Config{Variant: LiteralR1, N: 2, M: 2, R: 1}, "no-deadlock", 5, "Exit(P1)"},
		// D8: a stale request served again by a later holder (9 steps; the
		// notes' D8 trace has 8 steps plus the START delivery).
		{Config{Variant: LiteralR1, N: 3, M: 2, R: 1}, "no-unrequested-entry", 9, "Deliver START(P2->P1, g0, sn=1)"},
		// D12: Event 8 case HI as printed sends the token and stays HI: two
		// valid tokens once the GEN is delivered (the sent one carries
		// session + 1 under R1), and the notes' gme-safety trace with R=1:
		// P0 enters g1 as captain with the kept token, P1 accepts the sent
		// one and enters g0.
		{Config{Variant: LiteralR1, N: 2, M: 2, R: 1, F: 1}, "single-token", 4, "Deliver GEN(P1->P0, sn=1, g0, s=0)"},
		{Config{Variant: LiteralR1, N: 2, M: 2, R: 1, F: 1}, "gme-safety", 6, "Deliver TOKEN(->P1, s=1, type=-, fol=0, LN=[0,0], Q=[])"},
		// D10: the repaired reading without timers deadlocks at N=3, M=1,
		// R=2 in exactly the 22 steps algorithms.md §7.7 D10 gives.
		{Config{Variant: Default, N: 3, M: 1, R: 2, Timers: TimersOff}, "no-deadlock", 22, "Deliver REQ(P2->P0, sn=1, g0)"},
	} {
		prop, path := violation(t, c.cfg, c.prop)
		if prop != c.prop || len(path) != c.steps || path[len(path)-1] != c.last {
			t.Errorf("%+v: %s after %d steps ending %q; want %s after %d ending %q\n  %s",
				c.cfg, prop, len(path), path[len(path)-1], c.prop, c.steps, c.last, joinLabels(path))
		}
	}
}

// The D10 deadlock needs T1 (algorithms.md §7.7 D10): replaying the
// 22-step trace in the same configuration with quiescent timers reaches the
// same state, and from it every process can still finish (a state with all
// processes Idle, R requests made and an empty network is reachable): P2's
// T1 makes P0, the idle holder, treat its gen_token as a request.
func TestD10TimersRecover(t *testing.T) {
	tr, err := traces.ReadFile("testdata/repaired-d10-no-deadlock.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Variant: Default, N: 3, M: 1, R: 2, Timers: TimersQuiescent}
	sys, _ := System(cfg)
	w := sys.NewWorker()
	var s []byte
	w.Initial(func(b []byte) bool { s = bytes.Clone(b); return false })
	for _, st := range tr.Steps {
		tk, _, _ := traces.StepLabel(w, s, st.Action)
		if tk == nil {
			t.Fatalf("step %q not enabled with quiescent timers", st.Action)
		}
		s = tk.Next
	}
	seen := map[string]bool{string(s): true}
	queue := [][]byte{s}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		snap := w.Snapshot(s)
		done := snap.InTransit() == 0
		for i := range cfg.N {
			done = done && snap.Phase(i) == model.Idle && snap.Made(i) == cfg.R
		}
		if done {
			t.Logf("finished after exploring %d states", len(seen))
			return
		}
		var next [][]byte
		w.Successors(s, func(_ *model.Transition, n []byte) bool {
			if !seen[string(n)] {
				seen[string(n)] = true
				next = append(next, bytes.Clone(n))
			}
			return true
		})
		queue = append(queue, next...)
	}
	t.Fatalf("no finished state reachable from the D10 state (%d states)", len(seen))
}

// The valid-token single-token replaces the generic one: with premature
// T1 expiries a regenerated duplicate of the token is in transit next to
// the original (the generic count sees 2), yet only one of them is valid
// (drs-gme.md "Validity and single-token under regeneration").
func TestValidTokenReplacesGeneric(t *testing.T) {
	cfg := Config{Variant: Default, N: 2, M: 2, R: 1, Timers: TimersAny}
	sys, _ := System(cfg)
	generic := invariants.SingleToken
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: []model.Property{generic}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.Violated {
		t.Fatalf("generic single-token: %s, want a violation (a duplicate regenerated token)", res.Verdict)
	}
	t.Logf("generic single-token fails: %s", joinLabels(labels(t, cfg, res.Violation.Path)))
	props := AllProperties(cfg)
	k := slices.IndexFunc(props, func(p model.Property) bool { return p.Name == "single-token" })
	res, err = explore.Check(context.Background(), sys, explore.Options{Properties: []model.Property{props[k]}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.OK {
		t.Fatalf("valid-token single-token: %s", res.Verdict)
	}
}

// Every trace under testdata/ (written by tokenmc check --trace-out)
// replays with the current model and still ends in its violation.
func TestTestdataTracesReplay(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.trace.json")
	if len(files) < 7 {
		t.Fatalf("found %d traces under testdata, want 7", len(files))
	}
	for _, f := range files {
		tr, err := traces.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Variant: tr.Algorithm, N: tr.Params["n"], M: tr.Params["groups"], R: tr.Params["r"], F: tr.Params["faults"], Timers: tr.Params["timers"]}
		sys, err := System(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := traces.Replay(sys, AllProperties(cfg), tr)
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK {
			t.Errorf("%s: %s", f, res.Reason)
		}
	}
}

// "Sometimes" checks (brief; §VI maximum concurrency n): every process can
// enter its CS, and a state with all N processes in their CS exists, in
// the repaired and the extended reading.
func TestSometimes(t *testing.T) {
	for _, cfg := range []Config{
		{Variant: Default, N: 3, M: 2, R: 1},
		{Variant: Ext, N: 3, M: 2, R: 1},
	} {
		sys, _ := System(cfg)
		w := sys.NewWorker()
		entered := make([]bool, cfg.N)
		all := false
		var frontier [][]byte
		seen := map[string]bool{}
		w.Initial(func(s []byte) bool {
			frontier = append(frontier, bytes.Clone(s))
			seen[string(s)] = true
			return true
		})
		for len(frontier) > 0 {
			s := frontier[len(frontier)-1]
			frontier = frontier[:len(frontier)-1]
			snap := w.Snapshot(s)
			in := 0
			for i := range cfg.N {
				if snap.Phase(i) == model.InCS {
					entered[i] = true
					in++
				}
			}
			all = all || in == cfg.N
			var next [][]byte
			w.Successors(s, func(_ *model.Transition, n []byte) bool {
				if !seen[string(n)] {
					seen[string(n)] = true
					next = append(next, bytes.Clone(n))
				}
				return true
			})
			frontier = append(frontier, next...)
		}
		if slices.Contains(entered, false) || !all {
			t.Errorf("%s: entered %v, all %d in CS together: %v", cfg.Variant, entered, cfg.N, all)
		}
	}
}

// Extended GME (§VII): a request for the set {g0, g1} joins a running g1
// session (admitted with the group of the session, so gme-safety sees g1),
// and a queued multi-group request has one membership per group that the
// accept removes (algorithms.md §7.4 steps 2 and 3).
func TestExtendedAdmission(t *testing.T) {
	cfg := Config{Variant: Ext, N: 3, M: 2, R: 1}
	sys, _ := System(cfg)
	w := sys.NewWorker()
	var s []byte
	w.Initial(func(b []byte) bool { s = bytes.Clone(b); return false })
	step := func(label string) {
		t.Helper()
		tk, en, failed := traces.StepLabel(w, s, label)
		if tk == nil {
			t.Fatalf("no %q; enabled: %s (model failure: %v)", label, strings.Join(en, "; "), failed)
		}
		s = tk.Next
	}
	// argument 1 = {g1}, argument 2 = {g0,g1}, argument 0 = {g0}
	step("Request(P0, g=1)")
	step("Request(P1, g=2)")
	step("Deliver REQ(P1->P0, sn=1, SX={0,1})")
	step("Deliver START(P0->P1, g1, sn=1)")
	d := w.Describe(s)
	if d.Processes[1].Phase != "InCS" || d.Processes[1].Group != 1 {
		t.Fatalf("P1 = %+v, want InCS in g1", d.Processes[1])
	}
	step("Request(P2, g=2)")
	step("Exit(P0)") // HS: P1 still inside
	step("Deliver REQ(P2->P0, sn=1, SX={0,1})")
	// HS with an empty queue admits P2 too: same session
	step("Deliver START(P0->P2, g1, sn=1)")
	if snap := w.Snapshot(s); snap.Group(2) != 1 {
		t.Errorf("P2 entered with group %d, want 1", snap.Group(2))
	}
}

// Bad parameters are one-line errors naming the valid range.
func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Variant: "drs-gme/nope", N: 3, M: 2, R: 1},
		{Variant: Default, N: 1, M: 2, R: 1},
		{Variant: Default, N: 3, M: 0, R: 1},
		{Variant: Default, N: 3, M: 2, R: 1, Timers: 7},
	} {
		if _, err := System(cfg); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: err = %v, want a one-line error", cfg, err)
		}
	}
}

// Each literal item of algorithms.md §7.7 alone, on top of all other
// repairs, with the property it breaks and the BFS length; drs-gme.md's
// predictions (E-numbers) are quoted. D4 alone is harmless fault-free, as
// E3 predicts. D8's count includes the delivery of the token the stale
// request triggers (E6 counts up to its sending).
func TestLiteralItemsOneAtATime(t *testing.T) {
	for _, c := range []struct {
		item  string
		items []item
		cfg   Config
		prop  string
		steps int
	}{
		{"D1 (E1: 2 steps)", []item{litSession}, Config{N: 2, M: 2, R: 1}, "single-token", 2},
		{"D2 (E7: 12 steps)", []item{litRelay}, Config{N: 3, M: 1, R: 1}, "no-deadlock", 12},
		{"D3", []item{litHIAddSelf}, Config{N: 2, M: 1, R: 1}, "no-deadlock", 5},
		{"D4 (E3: ok)", []item{litHIStateR}, Config{N: 3, M: 2, R: 1}, "", 0},
		{"D6 (E10: 6 steps, timers any)", []item{litStart}, Config{N: 2, M: 2, R: 1, Timers: TimersAny}, "no-unrequested-entry", 6},
		{"D7 (E9: 13 steps)", []item{litFollowers}, Config{N: 2, M: 2, R: 2}, "no-deadlock", 13},
		{"D8 (E6: 9 steps to the send)", []item{litNoLN}, Config{N: 3, M: 1, R: 1}, "no-unrequested-entry", 10},
		{"D9 (E5: 6 steps)", []item{litNoAbsorb}, Config{N: 2, M: 1, R: 1}, "no-deadlock", 6},
		{"D12 (F=1)", []item{litGen}, Config{N: 2, M: 2, R: 1, F: 1}, "single-token", 4},
	} {
		c.cfg.Variant = Default
		p, err := newWith(c.cfg, c.items...)
		if err != nil {
			t.Fatal(err)
		}
		sys := p.System()
		props := invariants.Applicable(AllProperties(c.cfg), sys.Info())
		res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case c.prop == "" && res.Verdict != explore.OK:
			t.Errorf("%s: %s, want ok", c.item, res.Verdict)
		case c.prop != "" && (res.Violation == nil || res.Violation.Property.Name != c.prop || len(res.Violation.Path)-1 != c.steps):
			got := "none"
			if res.Violation != nil {
				got = res.Violation.Property.Name + " after " + strconv.Itoa(len(res.Violation.Path)-1)
			}
			t.Errorf("%s: violation %s, want %s after %d", c.item, got, c.prop, c.steps)
		}
	}
}
