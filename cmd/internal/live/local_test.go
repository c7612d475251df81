package live_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/live"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// config is one registered variant at some parameters.
type config struct {
	name   string
	params map[string]int
}

func (c config) String() string { return fmt.Sprintf("%s %v", c.name, c.params) }

// everyVariant lists every registered variant at its own parameters
// (Variant.Params), plus the parameters that switch on the models'
// whole-state hooks where no variant does: drs-gme's timer guard, torus's
// requesters guard, coord-ring's and banerjee's cyclic renumbering,
// drs-gme/fcfs's history.
func everyVariant() []config {
	var out []config
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			out = append(out, config{v.Name, maps.Clone(v.Params)})
		}
	}
	return append(out,
		config{"drs-gme", map[string]int{"faults": 1}},
		config{"drs-gme", map[string]int{"timers": 3, "n": 2}},
		config{"torus", map[string]int{"requesters": 5}},
		config{"coord-ring", map[string]int{"cyclic": 1}},
		config{"banerjee", map[string]int{"cyclic": 1}},
		config{"banerjee-seq", map[string]int{"cyclic": 1}},
		config{"banerjee-sf", map[string]int{"cyclic": 1}},
	)
}

// buildConfig compiles c; it fails the test when the system cannot be
// stepped one process at a time (run and validate need that).
func buildConfig(t *testing.T, c config) (model.System, protosys.LocalSystem) {
	t.Helper()
	a, v, err := algorithms.Lookup(c.name)
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	sys, _, err := a.Build(v.Name, c.params)
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	ls, ok := sys.(protosys.LocalSystem)
	if !ok {
		t.Fatalf("%s: its system is not a protosys.LocalSystem, so tokenmc run and validate refuse it", c)
	}
	return sys, ls
}

// Every registered variant steps each process locally exactly as its
// global system does, on the first states of a breadth-first search: for
// every global transition the local step (with the guard allowing it)
// yields the same successor once normalised, and every local step the
// guard allows is a global transition (the same number of them).
func TestLocalStepMatchesGlobalForEveryVariant(t *testing.T) {
	const budget = 400 // states per configuration
	guarded, normalised := 0, 0
	for _, c := range everyVariant() {
		sys, ls := buildConfig(t, c)
		w, lw := sys.NewWorker(), ls.NewLocalWorker()
		info := sys.Info()
		var queue [][]byte
		seen := map[string]bool{}
		w.Initial(func(s []byte) bool {
			queue = append(queue, append([]byte(nil), s...))
			seen[string(s)] = true
			return true
		})
		compared, refused, renumbered := 0, 0, 0
		for len(queue) > 0 && len(seen) < budget {
			s := queue[0]
			queue = queue[1:]
			locals, network, faults := lw.Split(s)
			type succ struct {
				t    model.Transition
				next []byte
			}
			var succs []succ
			w.Successors(s, func(tr *model.Transition, next []byte) bool {
				cp := *tr
				cp.Msg = append([]byte(nil), tr.Msg...)
				succs = append(succs, succ{cp, append([]byte(nil), next...)})
				return true
			})
			global := 0
			for _, sc := range succs {
				if !seen[string(sc.next)] {
					seen[string(sc.next)] = true
					queue = append(queue, sc.next)
				}
				if sc.t.Kind == model.Lose {
					continue
				}
				global++
				i := sc.t.Proc
				ev := protosys.LocalEvent{Kind: sc.t.Kind, Arg: sc.t.Arg, Msg: sc.t.Msg, Choice: sc.t.Choice}
				if !lw.Allowed(s, i, ev) {
					t.Fatalf("%s: the guard refuses %s locally, but the global system takes it", c, w.Label(s, &sc.t))
				}
				res, err := lw.Step(i, locals[i], ev)
				if err != nil {
					t.Fatalf("%s: %s: %v", c, w.Label(s, &sc.t), err)
				}
				nl := append([]protosys.LocalState(nil), locals...)
				nl[i] = res.Next
				var net [][]byte
				removed := false
				for _, m := range network {
					if sc.t.Kind == model.Deliver && !removed && bytes.Equal(m, sc.t.Msg) {
						removed = true
						continue
					}
					net = append(net, m)
				}
				raw := lw.Assemble(nl, append(net, res.Sent...), faults)
				if !bytes.Equal(lw.Normalize(raw), sc.next) {
					t.Fatalf("%s: local step of %s differs from the global successor", c, w.Label(s, &sc.t))
				}
				if !bytes.Equal(raw, sc.next) {
					renumbered++
				}
				compared++
			}
			// the other direction: every local step the layer and the guard allow
			local := 0
			for i, l := range locals {
				var evs []protosys.LocalEvent
				for g := range max(info.Groups, 1) {
					evs = append(evs, protosys.LocalEvent{Kind: model.Request, Arg: g})
				}
				evs = append(evs, protosys.LocalEvent{Kind: model.Exit})
				for k := range lw.Timers() {
					evs = append(evs, protosys.LocalEvent{Kind: model.Timer, Arg: k})
				}
				for k, m := range network {
					if lw.To(m) == i && (k == 0 || !bytes.Equal(network[k-1], m)) {
						evs = append(evs, protosys.LocalEvent{Kind: model.Deliver, Msg: m})
					}
				}
				for _, ev := range evs {
					k, err := lw.Alternatives(i, l, ev) // one global transition per alternative
					if err != nil {
						continue
					}
					if !lw.Allowed(s, i, ev) {
						refused++
						continue
					}
					local += k
				}
			}
			if local != global {
				t.Fatalf("%s: %d local steps allowed, %d global transitions (losses aside)", c, local, global)
			}
		}
		if compared == 0 {
			t.Fatalf("%s: nothing compared", c)
		}
		if lw.Guarded() && refused > 0 {
			guarded++
		}
		if renumbered > 0 {
			normalised++
		}
	}
	// the hooks were exercised: drs-gme's timers, torus's requesters (and
	// banerjee's guards, once they use the hook); coord-ring's renumbering
	// and drs-gme/fcfs's history
	if guarded < 2 || normalised < 2 {
		t.Fatalf("%d configurations refused a step by their guard, %d normalised a successor; want at least 2 of each", guarded, normalised)
	}
}

// Every registered variant runs as processes over channels, briefly, and
// its log is a behaviour of the model (the guard evaluated on the global
// state the runtime keeps, no normalisation).
func TestEveryVariantRunsAndValidates(t *testing.T) {
	guardedTimers := 0 // timer events in runs of guarded systems
	for _, c := range everyVariant() {
		sys, ls := buildConfig(t, c)
		params := maps.Clone(c.params)
		if params == nil {
			params = map[string]int{}
		}
		params["n"] = sys.Info().Processes
		h, events, st, err := live.Run(context.Background(), live.Config{Algorithm: c.name, Params: params, System: sys,
			Duration: 60 * time.Millisecond, Seed: 7, MaxDelay: time.Millisecond, MaxCS: time.Millisecond, MaxThink: time.Millisecond, MaxTimer: 2 * time.Millisecond})
		if err != nil {
			t.Fatalf("%s: run: %v", c, err)
		}
		if st.Requests == 0 || st.Events == 0 {
			t.Fatalf("%s: the run made %d requests, %d events", c, st.Requests, st.Events)
		}
		var buf bytes.Buffer
		if err := eventlog.Write(&buf, h, events); err != nil {
			t.Fatal(err)
		}
		l, err := eventlog.Read(&buf, "run.jsonl")
		if err != nil {
			t.Fatalf("%s: the log of its run does not read back: %v", c, err)
		}
		res := eventlog.Validate(sys, l)
		if !res.OK {
			t.Fatalf("%s: the log of its run does not validate: %s: %s", c, res.Failed, res.Reason)
		}
		if ls.NewLocalWorker().Guarded() {
			for _, e := range events {
				if e.Kind == eventlog.KindTimer {
					guardedTimers++
				}
			}
		}
	}
	if guardedTimers == 0 {
		t.Fatal("no timer fired in the runs of guarded systems: the oracle is not exercised")
	}
	t.Logf("%d timer events in runs of guarded systems", guardedTimers)
}

// A guarded system whose timers fire often: drs-gme with timers "any"
// (T1 only while no gen_token of its owner and no second copy of any
// message is in transit, the guard asked on the runtime's global state).
// Its timers fire, and the log validates with the guard replayed.
func TestGuardedTimersRun(t *testing.T) {
	c := config{"drs-gme", map[string]int{"n": 2, "r": 20, "timers": 3}}
	a, v, err := algorithms.Lookup(c.name)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.BuildSim(v.Name, c.params) // r beyond check's range
	if err != nil {
		t.Fatal(err)
	}
	ls := sys.(protosys.LocalSystem)
	if !ls.NewLocalWorker().Guarded() {
		t.Fatalf("%s: not guarded", c)
	}
	h, events, _, err := live.Run(context.Background(), live.Config{Algorithm: c.name, Params: c.params, System: sys,
		Duration: 300 * time.Millisecond, Seed: 3, MaxDelay: 3 * time.Millisecond, MaxTimer: 500 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	timers := 0
	for _, e := range events {
		if e.Kind == eventlog.KindTimer {
			timers++
		}
	}
	if timers == 0 {
		t.Fatal("no timer fired")
	}
	if res := eventlog.Validate(sys, &eventlog.Log{Header: h, Events: events, VCGiven: true}); !res.OK {
		t.Fatalf("%d events, %d timers: %s: %s", len(events), timers, res.Failed, res.Reason)
	}
	t.Logf("%d events, %d timers", len(events), timers)
}
