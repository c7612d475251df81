package simulate

import (
	"context"
	"math/rand/v2"
	"sync/atomic"

	"github.com/tokenmc/tokenmc/explore/internal/capability"
	"github.com/tokenmc/tokenmc/explore/internal/propsplit"
	"github.com/tokenmc/tokenmc/model"
)

// props is a property list split by kind.
// props are the properties of a walk, sorted by kind.
type props struct{ propsplit.Split }

func splitProps(ps []model.Property) props { return props{propsplit.ByKind(ps)} }

// violatedState returns the first invariant that state violates (and,
// when terminal, the first terminal property), or nil.
func (p *props) violatedState(w model.Worker, state []byte, terminal bool) *model.Property {
	if len(p.Invariants) == 0 && (!terminal || len(p.Terminals) == 0) {
		return nil
	}
	snap := w.Snapshot(state)
	if v := p.Invariant(snap); v != nil || !terminal {
		return v
	}
	return p.Terminal(snap)
}

// violatedTerminal returns the first invariant or terminal property
// violated by snap, the snapshot of a state without enabled transitions.
func (p *props) violatedTerminal(snap model.Snapshot) *model.Property {
	if v := p.Invariant(snap); v != nil {
		return v
	}
	return p.Terminal(snap)
}

// splitmix64 is the SplitMix64 finaliser, used to derive run seeds.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// runSeed returns the seed of run k of a simulation with the given seed:
// every random choice of that run comes from a PCG generator seeded with
// it, which is why results do not depend on the number of workers.
func runSeed(seed uint64, run int) uint64 {
	return splitmix64(seed ^ splitmix64(uint64(run)+1))
}

// runOut is the outcome of one run.
type runOut struct {
	run       int
	steps     int
	terminal  bool
	capBlock  bool // ended in a state whose transitions the channel bound all disabled
	partial   bool // interrupted before its end: counted in steps, not in runs
	fired     [model.Lose + 1]int64
	wait      int
	waitProc  int
	sk        *sketch
	violation *model.Property
	schedule  []int32 // when recorded: the choice made at each step (index 0: initial state)
}

// walker runs walks on one goroutine.
type walker struct {
	opts      *Options
	props     props
	w         model.Worker
	inc       capability.IncrementalSnapshotter // nil if the worker has none
	ip        capability.InPlace                // nil if the worker has none
	st        stepper
	horizon   int // PCT: steps over which change points are spread
	initial   [][]byte
	en        []model.Transition
	cur, nxt  []byte
	sk        sketch
	waitStart []int
	sched     []int32
	reported  int // steps of the current run added to the live counter
	t         model.Transition
	ch        chooser
	needProcs bool // the chooser looks at Transition.Proc
	pcg       *rand.PCG
	rng       *rand.Rand
}

func newWalker(sys model.System, opts *Options, horizon int) *walker {
	w := sys.NewWorker()
	wk := &walker{opts: opts, props: splitProps(opts.Properties), w: w, st: newStepper(w), horizon: horizon}
	if _, ok := w.(capacityBlocker); ok {
		// bounded channels: Successors only (see capacityBlocker)
	} else if ipw, ok := w.(capability.InPlaceWorker); ok {
		wk.ip = ipw.NewInPlace()
	} else if inc, ok := w.(capability.IncrementalSnapshotter); ok && wk.st.incremental() {
		wk.inc = inc
	}
	wk.pcg = rand.NewPCG(0, 0)
	wk.rng = rand.New(wk.pcg)
	w.Initial(func(s []byte) bool {
		wk.initial = append(wk.initial, append([]byte(nil), s...))
		return true
	})
	wk.waitStart = make([]int, sys.Info().Processes)
	wk.ch = newChooser(opts.Strategy, w, sys.Info().Processes, opts.Depth)
	wk.needProcs = opts.Strategy == PCT
	return wk
}

// liveEvery is how often (in steps) a walk checks for cancellation and
// adds its steps to the live counter that progress reports read.
const liveEvery = 4096

// run performs walk k. With record set it keeps the schedule (one int32
// per step) in out.schedule; otherwise it keeps nothing that grows with
// the length of the walk, and a violating run is run again with record
// set to rebuild its path. live, if not nil, receives the steps as they
// are fired (every liveEvery steps and at the end).
func (wk *walker) run(ctx context.Context, k int, strategy chooser, record bool, live *atomic.Int64) *runOut {
	seed := runSeed(wk.opts.Seed, k)
	wk.pcg.Seed(seed, seed^0x5851f42d4c957f2d)
	rng := wk.rng
	out := &runOut{run: k, waitProc: -1}
	clear(wk.sk[:])
	wk.sched = wk.sched[:0]
	wk.reported = 0
	ini := 0
	if len(wk.initial) > 1 {
		ini = rng.IntN(len(wk.initial))
	}
	if record {
		wk.sched = append(wk.sched, int32(ini))
	}
	strategy.start(rng, seed, wk.horizon)
	for i := range wk.waitStart {
		wk.waitStart[i] = -1
	}
	var step int
	if wk.ip != nil {
		step = wk.walkInPlace(ctx, out, ini, strategy, record, live)
	} else {
		step = wk.walkEncoded(ctx, out, ini, strategy, record, live)
	}
	for i, s := range wk.waitStart {
		if s >= 0 && step-s > out.wait {
			out.wait, out.waitProc = step-s, i
		}
	}
	out.steps = step
	wk.report(live, step)
	if record {
		out.schedule = append([]int32(nil), wk.sched...)
	}
	return out
}

// report adds the steps fired since the last report to live.
func (wk *walker) report(live *atomic.Int64, step int) {
	if live != nil && step > wk.reported {
		live.Add(int64(step - wk.reported))
	}
	wk.reported = step
}

// noteWait updates the waiting times after process i acted at step.
func (wk *walker) noteWait(out *runOut, snap model.Snapshot, i, step int) {
	switch ph := snap.Phase(i); {
	case ph == model.Waiting && wk.waitStart[i] < 0:
		wk.waitStart[i] = step
	case ph != model.Waiting && wk.waitStart[i] >= 0:
		if d := step - wk.waitStart[i]; d > out.wait {
			out.wait, out.waitProc = d, i
		}
		wk.waitStart[i] = -1
	}
}

// walkInPlace is a run on a InPlace state: nothing is encoded or
// decoded per step but the acting process and the messages it sends. The
// uniform strategy draws its index from the count of enabled transitions
// without listing them (the same draw as listing them).
func (wk *walker) walkInPlace(ctx context.Context, out *runOut, ini int, strategy chooser, record bool, live *atomic.Int64) int {
	ip, rng := wk.ip, wk.rng
	ip.Load(wk.initial[ini])
	snap := ip.Snapshot()
	wk.sk.add(ip.Hash())
	out.violation = wk.props.Invariant(snap)
	uniform := wk.opts.Strategy == Uniform
	step := 0
	for out.violation == nil && step < wk.opts.Steps {
		if step%liveEvery == liveEvery-1 {
			wk.report(live, step)
			if ctx.Err() != nil {
				out.partial = true
				break
			}
		}
		t := &wk.t // a field: passed to interface methods, a local would escape
		var idx int
		if uniform {
			n := ip.Count()
			if n == 0 {
				out.terminal = true
				out.violation = wk.props.violatedTerminal(snap)
				break
			}
			idx = rng.IntN(n)
			*t = ip.At(idx)
		} else {
			wk.en = ip.Enabled(wk.en[:0], wk.needProcs)
			if len(wk.en) == 0 {
				out.terminal = true
				out.violation = wk.props.violatedTerminal(snap)
				break
			}
			idx = strategy.choose(rng, nil, wk.en, step)
			*t = wk.en[idx]
		}
		if record {
			wk.sched = append(wk.sched, int32(idx))
		}
		ip.Fire(t)
		step++
		out.fired[t.Kind]++
		wk.sk.add(ip.Hash())
		if p := wk.props.Transition(t); p != nil {
			out.violation = p
			break
		}
		wk.noteWait(out, snap, t.Proc, step)
		out.violation = wk.props.Invariant(snap)
	}
	return step
}

// walkEncoded is a run on encoded states, for systems without InPlace.
func (wk *walker) walkEncoded(ctx context.Context, out *runOut, ini int, strategy chooser, record bool, live *atomic.Int64) int {
	rng := wk.rng
	wk.cur = append(wk.cur[:0], wk.initial[ini]...)
	wk.sk.add(hashState(wk.cur))
	// a full snapshot: SnapshotAfter then continues from it
	if p := wk.props.Invariant(wk.w.Snapshot(wk.cur)); p != nil {
		out.violation = p
	}
	step := 0
	for out.violation == nil && step < wk.opts.Steps {
		if step%liveEvery == liveEvery-1 {
			wk.report(live, step)
			if ctx.Err() != nil {
				out.partial = true
				break
			}
		}
		if wk.inc != nil {
			// the state was parsed by the snapshot of the previous step
			wk.en = wk.inc.EnabledAfter(wk.en[:0], wk.needProcs)
		} else {
			wk.en = wk.st.enabled(wk.en[:0], wk.cur)
		}
		if len(wk.en) == 0 {
			if capacityBlocked(wk.w) {
				out.capBlock = true // not a terminal state of the unbounded system
				break
			}
			out.terminal = true
			out.violation = wk.props.violatedState(wk.w, wk.cur, true)
			break
		}
		idx := strategy.choose(rng, wk.cur, wk.en, step)
		if record {
			wk.sched = append(wk.sched, int32(idx))
		}
		t := &wk.t // a field: passed to interface methods, a local would escape
		*t = wk.en[idx]
		next := wk.st.apply(wk.cur, t)
		wk.nxt = append(wk.nxt[:0], next...)
		wk.cur, wk.nxt = wk.nxt, wk.cur
		step++
		out.fired[t.Kind]++
		wk.sk.add(hashState(wk.cur))
		if p := wk.props.Transition(t); p != nil {
			out.violation = p
			break
		}
		var snap model.Snapshot
		if wk.inc != nil {
			snap = wk.inc.SnapshotAfter(wk.cur, t)
		} else {
			snap = wk.w.Snapshot(wk.cur)
		}
		wk.noteWait(out, snap, t.Proc, step)
		if p := wk.props.Invariant(snap); p != nil {
			out.violation = p
		}
	}
	return step
}

// pathOf replays a recorded schedule and returns the states it visits.
func (wk *walker) pathOf(schedule []int32) [][]byte {
	path := [][]byte{append([]byte(nil), wk.initial[schedule[0]]...)}
	cur := path[0]
	for _, idx := range schedule[1:] {
		wk.en = wk.st.enabled(wk.en[:0], cur)
		t := wk.en[idx]
		cur = append([]byte(nil), wk.st.apply(cur, &t)...)
		path = append(path, cur)
	}
	return path
}
