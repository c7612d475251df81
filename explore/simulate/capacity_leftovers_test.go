package simulate_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// channelRE finds the sender and receiver in a message as fapp and
// raymond render it: "REQ(P1->P0, prio=2)", "TOKEN(P0->P2)".
var channelRE = regexp.MustCompile(`\(P(\d+)->P(\d+)`)

// mostPerChannel returns the most copies in transit on one channel
// (sender -> receiver) in state, read from its description.
func mostPerChannel(w model.Worker, state []byte) (int, error) {
	per := map[[2]int]int{}
	most := 0
	for _, m := range w.Describe(state).Network {
		g := channelRE.FindStringSubmatch(m.Message)
		if g == nil {
			return 0, fmt.Errorf("message %q does not name its channel", m.Message)
		}
		from, _ := strconv.Atoi(g[1])
		to, _ := strconv.Atoi(g[2])
		if to != m.To {
			return 0, fmt.Errorf("message %q: receiver P%d, description says P%d", m.Message, to, m.To)
		}
		per[[2]int{from, to}] += m.Count
		most = max(most, per[[2]int{from, to}])
	}
	return most, nil
}

// watched wraps a system so that every state its workers' Successors
// yield (every state a walk could step to) is measured: the most copies
// on one channel seen. Its workers forward CapacityBlocked, so the walk
// treats them as the wrapped ones.
type watched struct {
	model.System
	mu   sync.Mutex
	most int
	err  error // the first state whose channels could not be read
}

func (s *watched) NewWorker() model.Worker {
	return &watchedWorker{Worker: s.System.NewWorker(), desc: s.System.NewWorker(), s: s}
}

// watchedWorker measures with a worker of its own (desc): a worker's
// methods may not be called from inside its Successors.
type watchedWorker struct {
	model.Worker
	desc model.Worker
	s    *watched
}

func (w *watchedWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	w.Worker.Successors(state, func(t *model.Transition, next []byte) bool {
		k, err := mostPerChannel(w.desc, next)
		w.s.mu.Lock()
		w.s.most = max(w.s.most, k)
		if w.s.err == nil {
			w.s.err = err
		}
		w.s.mu.Unlock()
		return yield(t, next)
	})
}

func (w *watchedWorker) CapacityBlocked() bool {
	c, ok := w.Worker.(interface{ CapacityBlocked() bool })
	return ok && c.CapacityBlocked()
}

// cyclicFapp is fapp with cyclic clients at its default size, whose
// network is unbounded, and the same system with every channel bounded to
// k.
func cyclicFapp(t *testing.T, k int) (unbounded, capped model.System, props []model.Property) {
	t.Helper()
	a, _, err := algorithms.Lookup("fapp")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
	}
	params["cyclic"] = 1
	sys, extra, err := a.Build("fapp", params)
	if err != nil {
		t.Fatal(err)
	}
	capped, err = sys.(protosys.Capacitated).WithCapacity(k)
	if err != nil {
		t.Fatal(err)
	}
	return sys, capped, invariants.Applicable(invariants.With(extra...), sys.Info())
}

// simulate --channel-capacity 1 on cyclic fapp: no walk steps to a state
// with more than one message on a channel, although unbounded walks of
// the same seed do; the walks that stop early stop in capacity-blocked
// states, which are counted and not reported as deadlocks (no-deadlock is
// among the properties: a Waiting process there has nothing enabled).
func TestSimulateUnderChannelCapacity(t *testing.T) {
	unbounded, capped, props := cyclicFapp(t, 1)
	opts := simulate.Options{Properties: props, Runs: 40, Steps: 2000, Seed: 1, NoShrink: true}

	free := &watched{System: unbounded}
	res, err := simulate.Run(context.Background(), free, opts)
	if err != nil || res.Violation != nil {
		t.Fatalf("unbounded: %v, %+v", err, res.Violation)
	}
	if free.err != nil {
		t.Fatal(free.err)
	}
	if free.most < 2 || res.CapacityBlocked != 0 {
		t.Fatalf("unbounded walks: at most %d messages on a channel, %d capacity-blocked runs; want >= 2 and 0 (else the test shows nothing)", free.most, res.CapacityBlocked)
	}

	bounded := &watched{System: capped}
	for _, workers := range []int{1, 2} {
		opts.Workers = workers
		res, err := simulate.Run(context.Background(), bounded, opts)
		if err != nil || res.Violation != nil {
			t.Fatalf("capacity 1, %d workers: %v, %+v", workers, err, res.Violation)
		}
		if bounded.err != nil {
			t.Fatal(bounded.err)
		}
		if bounded.most != 1 {
			t.Fatalf("capacity 1: a walk could step to a state with %d messages on one channel", bounded.most)
		}
		if res.Runs != 40 || res.CapacityBlocked == 0 || res.CapacityBlocked+res.Terminal > res.Runs || res.Terminal != 0 {
			t.Fatalf("capacity 1, %d workers: %d runs, %d capacity-blocked, %d terminal; want 40 runs, some capacity-blocked, none terminal", workers, res.Runs, res.CapacityBlocked, res.Terminal)
		}
	}
}

// Walk under a capacity: a walk that ends early with no violation ends in
// a capacity-blocked state, which the unbounded system can leave by the
// steps the bound disables; checked with Walk's own random choices.
func TestWalkEndsInCapacityBlockedState(t *testing.T) {
	unbounded, capped, props := cyclicFapp(t, 1)
	cw, uw, desc := capped.NewWorker(), unbounded.NewWorker(), unbounded.NewWorker()
	rng := rand.New(rand.NewPCG(1, 2))
	blocked := 0
	for run := range 30 {
		path, bad := simulate.Walk(capped, props, 2000, func(n int, _ []model.Transition) int { return rng.IntN(n) })
		if bad != nil {
			t.Fatalf("run %d: %s violated after %d steps", run, bad.Name, len(path)-1)
		}
		if len(path)-1 == 2000 {
			continue
		}
		last := path[len(path)-1]
		var over []int
		cw.Successors(last, func(*model.Transition, []byte) bool { over = append(over, -1); return true })
		uw.Successors(last, func(_ *model.Transition, next []byte) bool {
			k, err := mostPerChannel(desc, next)
			if err != nil {
				t.Fatal(err)
			}
			over = append(over, k)
			return true
		})
		if len(over) == 0 || slices.Contains(over, -1) || slices.ContainsFunc(over, func(k int) bool { return k <= 1 }) {
			t.Fatalf("run %d ends after %d steps in a state that is not capacity-blocked: bounded/unbounded successors %v", run, len(path)-1, over)
		}
		blocked++
	}
	if blocked == 0 {
		t.Fatal("no walk ended capacity-blocked; the test shows nothing")
	}
	t.Logf("%d of 30 walks ended capacity-blocked", blocked)
}
