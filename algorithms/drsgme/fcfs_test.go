package drsgme

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/internal/algotest"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// D22: §VIII's FCFS claim, an informational property, fails: the shortest
// counterexample (N=3, M=2, R=1) is P1's request followed by the idle
// holder P0's own request, which enters at once while P1's REQ is in
// transit. The history variable changes no behaviour: the fcfs system's
// states project onto exactly the 11,389 states of the default reading,
// where gme-safety, single-token and no-deadlock hold.
func TestFCFSInformational(t *testing.T) {
	cfg := Config{Variant: FCFS, N: 3, M: 2, R: 1}
	sys, err := System(cfg)
	if err != nil {
		t.Fatal(err)
	}
	props, err := invariants.Select(AllProperties(cfg), sys.Info(), NameFCFS)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.Violated || res.Violation.Property.Name != NameFCFS || res.Violation.Len() != 2 {
		t.Fatalf("verdict %s, want fcfs violated after 2 steps", res.Verdict)
	}
	algotest.ReplayShipped(t, sys, Properties(cfg), "testdata/fcfs-n3.fcfs.trace.json", NameFCFS, 2)

	def, err := System(Config{Variant: Default, N: 3, M: 2, R: 1})
	if err != nil {
		t.Fatal(err)
	}
	// project drops the history variable: the processes encoded without
	// Ahead, assembled by the default reading's local worker.
	fl, dl := sys.(protosys.LocalSystem).NewLocalWorker(), def.(protosys.LocalSystem).NewLocalWorker()
	project := func(s []byte) []byte {
		locals, network, faults := fl.Split(s)
		for i := range locals {
			var d model.Decoder
			d.Reset(locals[i].Local)
			var p Proc
			decodeProc(&d, &p)
			var e model.Encoder
			encodeProc(&e, &p)
			locals[i].Local = e.Bytes()
		}
		return dl.Assemble(locals, network, faults)
	}
	w := sys.NewWorker()
	seen, inner := map[string]bool{}, map[string]bool{}
	overtaking := 0
	var queue [][]byte
	w.Initial(func(s []byte) bool { queue = append(queue, append([]byte(nil), s...)); return true })
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if seen[string(s)] {
			continue
		}
		seen[string(s)] = true
		inner[string(project(s))] = true
		w.Successors(s, func(tr *model.Transition, next []byte) bool {
			if tr.Flags&flagOvertaken != 0 {
				overtaking++
			}
			if !seen[string(next)] {
				queue = append(queue, append([]byte(nil), next...))
			}
			return true
		})
	}
	dres, err := explore.Check(context.Background(), def, explore.Options{Properties: invariants.Applicable(AllProperties(Config{Variant: Default, N: 3, M: 2, R: 1}), def.Info())})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 13965 || int64(len(inner)) != dres.States || dres.States != 11389 || dres.Verdict != explore.OK {
		t.Fatalf("%d fcfs states projecting onto %d; the default has %d (%s); want 13965 onto 11389", len(seen), len(inner), dres.States, dres.Verdict)
	}
	if overtaking == 0 {
		t.Fatal("no transition flagged as overtaking")
	}
}

// refFCFS is the history wrapper drs-gme/fcfs used before the protocol's
// hooks (kept here as an independent reference): the default reading's
// state followed by the Waiting processes in request order and their
// count, one byte each; an entry that overtakes is flagged.
type refFCFS struct {
	inner model.System
	probe model.Worker
}

func (r refFCFS) initial() [][]byte {
	var out [][]byte
	r.inner.NewWorker().Initial(func(s []byte) bool { out = append(out, append(append([]byte(nil), s...), 0)); return true })
	return out
}

// successors of a wrapped state, with the labels of the flagged ones.
func (r refFCFS) successors(w model.Worker, state []byte, yield func(label string, flagged bool, next []byte)) {
	k := int(state[len(state)-1])
	inner, order := state[:len(state)-1-k], state[len(state)-1-k:len(state)-1]
	w.Successors(inner, func(t *model.Transition, next []byte) bool {
		o := append([]byte(nil), order...)
		i := t.Proc
		if t.Kind == model.Request {
			o = append(o, byte(i))
		}
		flagged := false
		if t.Kind != model.Lose && r.probe.Snapshot(next).Phase(i) == model.InCS && r.probe.Snapshot(inner).Phase(i) != model.InCS {
			if k := slices.Index(o, byte(i)); k >= 0 {
				flagged = k > 0
				o = slices.Delete(o, k, k+1)
			}
		}
		yield(w.Label(inner, t), flagged, append(append(append([]byte(nil), next...), o...), byte(len(o))))
		return true
	})
}

// The hook-based history is the reference wrapper's, state for state: the
// fcfs system's reachable states, mapped to the wrapper's encoding
// (Ahead of the Waiting processes read back as the request order), are
// exactly the wrapper's reachable states, and in every state the same
// transitions (by label) are flagged as overtaking.
func TestFCFSMatchesReferenceWrapper(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (the guarded model against a reference wrapper on every state): set TOKENMC_HEAVY=1")
	}
	for _, cfg := range []Config{{Variant: FCFS, N: 3, M: 2, R: 1}, {Variant: FCFS, N: 2, M: 1, R: 2, F: 1}} {
		sys, err := System(cfg)
		if err != nil {
			t.Fatal(err)
		}
		dcfg := cfg
		dcfg.Variant = Default
		def, err := System(dcfg)
		if err != nil {
			t.Fatal(err)
		}
		fl, dl := sys.(protosys.LocalSystem).NewLocalWorker(), def.(protosys.LocalSystem).NewLocalWorker()
		// asRef maps an fcfs state to the wrapper's encoding of it.
		asRef := func(s []byte) string {
			locals, network, faults := fl.Split(s)
			type w struct{ i, ahead int }
			var waiting []w
			for i := range locals {
				var d model.Decoder
				d.Reset(locals[i].Local)
				var p Proc
				decodeProc(&d, &p)
				p.Ahead = int(d.Uint())
				if locals[i].Phase == model.Waiting {
					waiting = append(waiting, w{i, p.Ahead})
				}
				var e model.Encoder
				encodeProc(&e, &p)
				locals[i].Local = e.Bytes()
			}
			slices.SortFunc(waiting, func(a, b w) int { return a.ahead - b.ahead })
			out := dl.Assemble(locals, network, faults)
			for _, x := range waiting {
				out = append(out, byte(x.i))
			}
			return string(append(out, byte(len(waiting))))
		}
		ref := refFCFS{inner: def, probe: def.NewWorker()}
		rw := def.NewWorker()
		refFlags := map[string][]string{} // wrapper state -> flagged labels
		refSeen := map[string]bool{}
		queue := ref.initial()
		for _, s := range queue {
			refSeen[string(s)] = true
		}
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			ref.successors(rw, s, func(label string, flagged bool, next []byte) {
				if flagged {
					refFlags[string(s)] = append(refFlags[string(s)], label)
				}
				if !refSeen[string(next)] {
					refSeen[string(next)] = true
					queue = append(queue, next)
				}
			})
		}
		w := sys.NewWorker()
		seen := map[string]bool{}
		queue = nil
		w.Initial(func(s []byte) bool {
			seen[string(s)] = true
			queue = append(queue, append([]byte(nil), s...))
			return true
		})
		flaggedStates := 0
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			r := asRef(s)
			if !refSeen[r] {
				t.Fatalf("%+v: a state of the fcfs system is not a state of the reference wrapper", cfg)
			}
			var flagged []string
			w.Successors(s, func(tr *model.Transition, next []byte) bool {
				if tr.Flags&flagOvertaken != 0 {
					flagged = append(flagged, w.Label(s, tr))
				}
				if !seen[string(next)] {
					seen[string(next)] = true
					queue = append(queue, append([]byte(nil), next...))
				}
				return true
			})
			if !slices.Equal(flagged, refFlags[r]) {
				t.Fatalf("%+v: flagged %v, the reference wrapper %v", cfg, flagged, refFlags[r])
			}
			if len(flagged) > 0 {
				flaggedStates++
			}
		}
		if len(seen) != len(refSeen) || flaggedStates == 0 {
			t.Fatalf("%+v: %d states, the reference wrapper %d; %d with overtaking entries", cfg, len(seen), len(refSeen), flaggedStates)
		}
		t.Logf("%+v: %d states as the reference, %d with overtaking entries", cfg, len(seen), flaggedStates)
	}
}
