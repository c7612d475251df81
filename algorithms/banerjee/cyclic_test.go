package banerjee

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces"
)

func liveness(t *testing.T, sys model.System, maxStates int64) *explore.LivenessResult {
	t.Helper()
	res, err := explore.CheckLiveness(context.Background(), sys, explore.LivenessOptions{Starvation: true, Options: explore.Options{MaxStates: maxStates}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

type lassoShape struct{ process, prefix, cycle int }

func shapes(res *explore.LivenessResult) []lassoShape {
	var out []lassoShape
	for _, l := range res.Starving {
		out = append(out, lassoShape{l.Process, l.Loop, l.CycleLen()})
	}
	return out
}

// §4 ("starvation may occur if request messages continuously get
// forwarded"), algorithms.md A6 and §6.6: with cyclic clients the basic
// algorithm starves every process at N = 3 under weak fairness, with no
// deadlock (every maximal run is infinite). P1's lasso is the indefinite
// forwarding of the package doc; the backlog bound does not change the
// lassos (0 and 1 give the same shapes).
func TestCyclicBasicStarves(t *testing.T) {
	want := []lassoShape{{0, 7, 17}, {1, 1, 17}, {2, 1, 17}}
	for _, backlog := range []int{0, 1} {
		sys := mustSystem(t, Default, Options{N: 3, Cyclic: true, Backlog: backlog})
		if got := sys.Info().Requests; got != 0 {
			t.Fatalf("Info.Requests = %d, want 0 for cyclic clients", got)
		}
		res := liveness(t, sys, 0)
		if res.Verdict != explore.Violated || res.StopReason != "" || res.Deadlock != nil {
			t.Fatalf("backlog=%d: %s (stop %q, deadlock %v)", backlog, res.Verdict, res.StopReason, res.Deadlock)
		}
		if got := shapes(res); !equalShapes(got, want) {
			t.Errorf("backlog=%d: lassos %v, want %v", backlog, got, want)
		}
	}
}

func equalShapes(a, b []lassoShape) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// aliveOnly reports a Waiting process as Idle once its request has been
// dropped (no REQUEST of it in transit, and it is in no collected list and
// no token list). Its starvation lassos are the lassos of the system along
// which the waiting request is never dropped: the fairness analysis still
// sees every transition, including the deliveries that would drop it, so a
// cycle that keeps such a delivery enabled without taking it stays unfair.
type aliveOnly struct{ model.System }

func (s aliveOnly) NewWorker() model.Worker { return aliveWorker{s.System.NewWorker()} }

type aliveWorker struct{ model.Worker }

type aliveSnapshot struct {
	model.Snapshot
	alive []bool
}

func (s aliveSnapshot) Phase(i int) model.Phase {
	if p := s.Snapshot.Phase(i); p != model.Waiting || s.alive[i] {
		return p
	}
	return model.Idle
}

func (w aliveWorker) Snapshot(state []byte) model.Snapshot {
	v := w.Worker.Snapshot(state).(*protocol.View[Proc, Msg])
	alive := make([]bool, v.Processes())
	mark := func(q []int) {
		for _, j := range q {
			alive[j] = true
		}
	}
	v.Messages(func(m *Msg, _ int) {
		switch m.Kind {
		case REQUEST:
			alive[m.J] = true
		case PRIVILEGE:
			mark(m.Q)
		}
	})
	for i := range v.Processes() {
		p := v.Local(i)
		mark(p.Q)
		mark(p.TQ)
	}
	return aliveSnapshot{v, alive}
}

// Indefinite forwarding needs three processes: at N = 2 every starvation
// lasso of the cyclic basic algorithm drops the waiting request (none is
// left when only waiting with a live request counts), while at N = 3 some
// lasso keeps the request alive forever (the shipped one drops nothing,
// TestCyclicLassoReplays).
func TestIndefiniteForwardingNeedsThree(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (liveness searches at n=3): set TOKENMC_HEAVY=1")
	}
	sys := mustSystem(t, Default, Options{N: 2, Cyclic: true, Backlog: 1})
	if res := liveness(t, sys, 0); res.Verdict != explore.Violated || len(res.Starving) == 0 {
		t.Fatalf("N=2 cyclic: %s, want a lasso (a dropped request)", res.Verdict)
	}
	if res := liveness(t, aliveOnly{sys}, 0); res.Verdict != explore.OK {
		t.Errorf("N=2 cyclic without drops: %s %v, want no lasso", res.Verdict, shapes(res))
	}
	res := liveness(t, aliveOnly{mustSystem(t, Default, Options{N: 3, Cyclic: true, Backlog: 1})}, 0)
	if res.Verdict != explore.Violated || len(res.Starving) == 0 {
		t.Errorf("N=3 cyclic without drops: %s, want the indefinite-forwarding lasso", res.Verdict)
	}
}

// The lasso traces under testdata/ (written by `tokenmc check --cyclic 1
// --props starvation-freedom --trace-out`) replay: every step, the return
// of the cycle to its start, the waiting process and the weak fairness of
// the cycle are re-checked. In the basic lasso no REQUEST is ever delivered
// to a process in role None (nothing is dropped) and the waiting process's
// REQUEST is forwarded twice per turn.
func TestCyclicLassoReplays(t *testing.T) {
	for _, c := range []struct {
		file            string
		variant         string
		o               Options
		steps, loop, pr int
	}{
		{"banerjee-n3-cyclic.starvation-freedom.trace.json", Default, Options{N: 3, R: 1, Cyclic: true, Backlog: 1}, 18, 2, 1},
		{"sf-n3-cyclic.starvation-freedom.trace.json", SF, Options{N: 3, R: 1, Tau: 1, Period: 2, Cyclic: true, Backlog: 0}, 19, 17, 1},
		{"seq-n3-cyclic.starvation-freedom.trace.json", Seq, Options{N: 3, R: 1, Cyclic: true, Backlog: 0}, 17, 15, 1},
		{"sf-n3-cyclic-monitor.starvation-freedom.trace.json", SF, Options{N: 3, R: 1, Tau: 1, Period: 2, Cyclic: true, Backlog: 0}, 27, 7, 2},
	} {
		tr, err := traces.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if !tr.IsLasso() || *tr.Loop != c.loop || *tr.WaitingProcess != c.pr || tr.Property != invariants.NameStarvationFreedom {
			t.Fatalf("%s: not the recorded lasso", c.file)
		}
		sys := mustSystem(t, c.variant, c.o)
		res, err := traces.Replay(sys, props(t, sys, c.variant, ""), tr)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if !res.OK || res.Steps != c.steps {
			t.Errorf("%s: %s (%d steps, want %d)", c.file, res.Reason, res.Steps, c.steps)
		}
		if c.variant != Default {
			continue
		}
		forwards := 0
		before := tr.Initial
		for _, s := range tr.Steps {
			if strings.HasPrefix(s.Action, "Deliver REQUEST") {
				var p struct {
					Role string `json:"role"`
				}
				if err := json.Unmarshal(before.Processes[s.Process].Vars, &p); err != nil {
					t.Fatal(err)
				}
				if p.Role == "None" {
					t.Errorf("%s step %d: %s drops a request", c.file, s.Index, s.Action)
				}
				if p.Role == "Forwarding" && strings.Contains(s.Action, "j=P1") && s.Index >= c.loop {
					forwards++
				}
			}
			before = s.State
		}
		if forwards != 2 {
			t.Errorf("%s: P1's REQUEST forwarded %d times per turn, want 2", c.file, forwards)
		}
	}
}

// Renumbering is a bisimulation (package doc, "Cyclic clients"): the
// cyclic model with absolute numbers (the protocol without its Normalize
// hook, an infinite-state system) follows a lasso of the renumbered
// model step by step for three turns of its cycle, and renumbering each of
// its states gives the lasso's state, while its own rounds keep growing (so
// it never closes the cycle itself). banerjee: the indefinite-forwarding
// lasso; banerjee-seq (request numbers too): its lasso of P1 with a live
// request, whose cycle runs into the capped gap of the waiting process.
func TestRenumberingCommutes(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (three turns of a lasso in the unrenumbered model): set TOKENMC_HEAVY=1")
	}
	o := Options{N: 3, Cyclic: true, Backlog: 1}
	sys := mustSystem(t, Default, o)
	commutes(t, Default, o, lassoOf(t, liveness(t, sys, 0), 1))
}

func lassoOf(t *testing.T, res *explore.LivenessResult, p int) *explore.Lasso {
	t.Helper()
	for k := range res.Starving {
		if res.Starving[k].Process == p {
			return &res.Starving[k]
		}
	}
	t.Fatalf("no lasso for P%d", p)
	return nil
}

func commutes(t *testing.T, variant string, o Options, l *explore.Lasso) {
	t.Helper()
	p, err := New(variant, o)
	if err != nil {
		t.Fatal(err)
	}
	absolute := *p
	absolute.Normalize = nil // the same protocol and backlog guard, absolute numbers
	abs := absolute.System().NewWorker()
	rw := mustSystem(t, variant, o).(protosys.LocalSystem).NewLocalWorker()
	var cur []byte
	abs.Initial(func(s []byte) bool { cur = bytes.Clone(s); return false })
	maxRound := func(s []byte) int {
		v := abs.Snapshot(s).(*protocol.View[Proc, Msg])
		r := 0
		for i := range v.Processes() {
			r = max(r, v.Local(i).Round)
		}
		return r
	}
	// the lasso's states: prefix, then three turns of the cycle
	path := append([][]byte(nil), l.Path...)
	for range 2 {
		path = append(path, l.Path[l.Loop+1:]...)
	}
	var roundsAtLoop []int
	for k := 0; k+1 < len(path); k++ {
		if k >= l.Loop && (k-l.Loop)%l.CycleLen() == 0 {
			roundsAtLoop = append(roundsAtLoop, maxRound(cur))
		}
		if !bytes.Equal(rw.Normalize(cur), path[k]) {
			t.Fatalf("%s step %d: renumbered absolute state differs from the lasso's", variant, k)
		}
		var next []byte
		abs.Successors(cur, func(_ *model.Transition, s []byte) bool {
			if bytes.Equal(rw.Normalize(s), path[k+1]) {
				next = bytes.Clone(s)
				return false
			}
			return true
		})
		if next == nil {
			t.Fatalf("%s step %d: the absolute model has no transition to the lasso's next state", variant, k+1)
		}
		cur = next
	}
	if len(roundsAtLoop) != 3 || roundsAtLoop[0] >= roundsAtLoop[1] || roundsAtLoop[1] >= roundsAtLoop[2] {
		t.Errorf("%s: absolute rounds at the loop start: %v, want strictly growing", variant, roundsAtLoop)
	}
}

// banerjee-seq with cyclic clients (backlog 0, complete graph): every
// process starves. The shortest-prefix lassos (cycle 3) are the dropped
// request of A6 with one process serving only itself; counting only waiting
// with a live request, lassos remain (indefinite forwarding with sequence
// numbers). The terminal state found (25 steps) is an artifact of the lag
// rule (its idle processes are too far behind to request), but its waiting
// process's request has been dropped, and nothing resubmits it.
func TestCyclicSeqStarves(t *testing.T) {
	if os.Getenv("TOKENMC_HEAVY") == "" {
		t.Skip("heavy (a liveness search of the cyclic model; TestTracesReplay replays its lasso): set TOKENMC_HEAVY=1")
	}
	o := Options{N: 3, Cyclic: true, Backlog: 0}
	sys := mustSystem(t, Seq, o)
	res := liveness(t, sys, 0)
	if got, want := shapes(res), []lassoShape{{0, 22, 3}, {1, 14, 3}, {2, 14, 3}}; res.Verdict != explore.Violated || res.StopReason != "" || !equalShapes(got, want) {
		t.Errorf("%s (stop %q): lassos %v, want %v", res.Verdict, res.StopReason, got, want)
	}
	if res.Deadlock == nil || res.Deadlock.Len() != 25 {
		t.Errorf("deadlock %v, want the 25-step terminal state of the lag rule", res.Deadlock)
	}
	live := liveness(t, aliveOnly{sys}, 0)
	if live.Verdict != explore.Violated || len(live.Starving) != 3 {
		t.Fatalf("live requests only: %s %v, want a lasso for every process", live.Verdict, shapes(live))
	}
	commutes(t, Seq, o, lassoOf(t, live, 1))
}

// Cyclic clients are refused where renumbering does not make the model
// finite or is meaningless, with a one-line message.
func TestCyclicBadInput(t *testing.T) {
	for _, c := range []struct {
		variant string
		o       Options
		want    string
	}{
		{Rec, Options{N: 3, Cyclic: true, Backlog: 1}, "banerjee-rec does not offer cyclic clients (its token epochs grow without bound); use cyclic=0"},
		{Literal, Options{N: 3, Cyclic: true, Backlog: 1}, "banerjee/literal does not offer cyclic clients (it has no round numbers to tell a stale NEW-ARBITER); use cyclic=0"},
		{Default, Options{N: 3, Cyclic: true, Backlog: -1}, "banerjee with cyclic clients needs backlog >= 0, got backlog=-1"},
	} {
		if _, err := New(c.variant, c.o); err == nil || err.Error() != c.want {
			t.Errorf("New(%q, %+v) = %v, want %q", c.variant, c.o, err, c.want)
		}
	}
}

// §4.1's claim "the problem of starvation is eliminated" fails with cyclic
// clients too, under weak fairness (A10): the search is bounded (the
// cyclic banerjee-sf at N = 3 exceeds 3 million states even with backlog 0),
// but a lasso found in part of the graph is a lasso. Within the first
// 100,000 states P1 starves: its REQUEST was dropped by a previous arbiter,
// and the monitor, now the arbiter, serves only its own requests, which
// needs no NEW-ARBITER, so P1 never misses a broadcast and never resubmits.
func TestCyclicStarvationFreeVariantStarves(t *testing.T) {
	sys := mustSystem(t, SF, Options{N: 3, Tau: 1, Period: 2, Cyclic: true, Backlog: 0})
	res := liveness(t, sys, 100000)
	if got, want := shapes(res), []lassoShape{{1, 16, 3}}; res.Verdict != explore.Violated || !equalShapes(got, want) {
		t.Errorf("%s: lassos %v, want %v", res.Verdict, got, want)
	}
}
