package measure

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/tokenmc/tokenmc/explore/internal/capability"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/facts"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

const maxTimers = 8 // timer kinds per process the simulator can time

// built is a compiled configuration shared by the replications.
type built struct {
	sys   model.System
	inv   []model.Property
	trans []model.Property
	facts facts.Measure // Config.Facts, or none
	timed bool
	// local: the system's handlers leave choices open (a
	// Nondeterministic protocol, whose Worker is no capability.Sampler):
	// steps go through its LocalWorker, one alternative drawn at random
	// (choose.go). Systems with a whole-state Guard or Normalize hook
	// are stepped so too (guard.go).
	local bool
	// guarded: the protocol has a whole-state Guard, which every event
	// must pass before it fires; an event it refuses is postponed.
	guarded bool
}

// build compiles cfg's algorithm (Config.Build) with the facts'
// parameters under the caller's.
func build(cfg *Config) (*built, error) {
	if cfg.Build == nil {
		return nil, fmt.Errorf("%s: no Build function in the configuration (Config.Build; the CLI sets it from the algorithm, algorithms.Algorithm.MeasureBuild)", cfg.Algo)
	}
	var fs facts.Measure
	if cfg.Facts != nil {
		fs = *cfg.Facts
	}
	params := map[string]int{}
	for k, x := range fs.Params {
		params[k] = x
	}
	for k, x := range cfg.Params {
		params[k] = x
	}
	params["n"] = cfg.N
	sys, extra, err := cfg.Build(params)
	if err != nil {
		return nil, err
	}
	name := sys.Info().Name
	_, sampler := sys.NewWorker().(capability.Sampler)
	hook := wholeStateHook(sys)
	local := (!sampler || hook != "") && choosing(sys)
	if hook != "" && !local {
		return nil, fmt.Errorf("%s has a whole-state %s hook and bounded channels; measure honours the hook only by stepping processes through the local worker, which does not bound channels (use check or simulate)", name, hook)
	}
	if !sampler && !local {
		return nil, fmt.Errorf("%s is not a protocol-layer model; measure cannot time its actions", name)
	}
	b := &built{sys: sys, facts: fs, timed: !fs.NoTimers, local: local, guarded: hook == "Guard"}
	for _, p := range invariants.Applicable(invariants.With(extra...), sys.Info()) {
		switch p.Kind {
		case model.Invariant:
			b.inv = append(b.inv, p)
		case model.TransitionInvariant:
			b.trans = append(b.trans, p)
		}
	}
	return b, nil
}

// wholeStateHook names the whole-state hook of sys ("Guard" when it has
// one, else "Normalize"), or "" when it has neither. It asks the
// system's LocalWorker: Guarded, and Normalize, which returns the state
// itself (the same backing array) when there is no Normalize hook.
func wholeStateHook(sys model.System) string {
	ls, ok := sys.(protosys.LocalSystem)
	if !ok {
		return ""
	}
	lw := ls.NewLocalWorker()
	if lw.Guarded() {
		return "Guard"
	}
	hook := ""
	sys.NewWorker().Initial(func(state []byte) bool {
		if len(state) > 0 && &lw.Normalize(state)[0] != &state[0] {
			hook = "Normalize"
		}
		return false
	})
	return hook
}

type timerSlot struct {
	armed bool
	gen   uint32
	seen  uint64
}

type kindInfo struct {
	kind string
	idle bool
}

// counts are one replication's measured totals.
type counts struct {
	entries, msgs, idle, forwarded int64
	byKind                         map[string]int64
	resp, wait, sync               float64
	nResp, nWait, nSync            int64
	local, remote                  int64 // light: requests entering at once or not
	localMsgs, remoteMsgs          int64
}

// sim is one replication.
type sim struct {
	ctx   context.Context
	cfg   *Config
	b     *built
	n     int
	w     model.Worker
	smp   capability.Sampler // nil for a local system (built.local)
	loc   *localStepper      // non-nil for a local system
	inc   capability.IncrementalSnapshotter
	lw    model.Worker // for labels only
	rng   *rand.Rand
	q     queue
	now   float64
	cur   []byte
	nxt   []byte
	pv    layout
	nv    layout
	busy  int
	en    []model.Transition
	slots []timerSlot // n*maxTimers
	step  uint64
	kinds map[string]kindInfo
	free  [][]byte

	reqTime, entryTime []float64
	lastExit           float64
	exitWithWaiting    bool
	gap                float64 // light: mean gap between isolated requests

	measuring        bool
	seenEntries      int
	c                counts
	lightMsgs        int64
	lightImmediate   bool
	lightOpen        bool
	events           int64
	sinceEntry       int64
	violation        string
	stalled          bool
	interrupted      bool
	finished         bool
	delivered, fresh int64

	// pending holds the events the Guard refused, in the order they were
	// due (guard.go); dirty: a step ran since pending was last scanned.
	pending   []event
	dirty     bool
	postponed int64 // events the Guard refused when they were due
	blocked   bool  // stalled with nothing scheduled but refused events
	cand      []int // lightRequest's scratch

	// observe, when not nil, sees every step before it runs, with the
	// state before it in cur and pv (a test hook).
	observe func(t *model.Transition)

	// nUnserved and nStranded are unserved() at the end, kept by shed.
	nUnserved, nStranded int
}

// shed keeps what the summary reads of an ended replication (its counts
// and flags) and drops its working state.
func (s *sim) shed() {
	if s.pv.phases != nil {
		s.nUnserved, s.nStranded = s.unserved()
	}
	s.w, s.smp, s.loc, s.inc, s.lw, s.rng = nil, nil, nil, nil, nil, nil
	s.q, s.cur, s.nxt, s.pv, s.nv = queue{}, nil, nil, layout{}, layout{}
	s.en, s.slots, s.free, s.pending, s.cand = nil, nil, nil, nil, nil
	s.reqTime, s.entryTime, s.kinds, s.observe = nil, nil, nil, nil
}

func newSim(cfg *Config, b *built, rep int) (*sim, error) {
	s := &sim{cfg: cfg, b: b, n: cfg.N, kinds: map[string]kindInfo{}}
	s.w = b.sys.NewWorker()
	if b.local {
		s.loc = newLocalStepper(b.sys, cfg.Seed, rep)
	} else {
		s.smp = s.w.(capability.Sampler)
		s.inc, _ = s.w.(capability.IncrementalSnapshotter)
	}
	s.lw = b.sys.NewWorker()
	s.rng = rand.New(rand.NewPCG(cfg.Seed, uint64(rep)+0x9e3779b97f4a7c15))
	s.slots = make([]timerSlot, s.n*maxTimers)
	s.reqTime = make([]float64, s.n)
	s.entryTime = make([]float64, s.n)
	s.c.byKind = map[string]int64{}
	s.measuring = cfg.Warmup <= 0
	var init []byte
	s.w.Initial(func(st []byte) bool {
		if init == nil {
			init = append([]byte(nil), st...)
		}
		return true
	})
	s.cur = init
	if err := s.pv.parse(s.cur, s.n); err != nil {
		return nil, fmt.Errorf("%s: %v; measure cannot time it", cfg.Algo, err)
	}
	snap := s.w.Snapshot(s.cur)
	total := 0
	for _, m := range s.pv.msgs {
		total += m.count
	}
	if snap.Processes() != s.n || snap.InTransit() != total {
		return nil, fmt.Errorf("%s: %v; measure cannot time it", cfg.Algo, errLayout)
	}
	for i := range s.n {
		if snap.Phase(i) != s.pv.phases[i] {
			return nil, fmt.Errorf("%s: %v; measure cannot time it", cfg.Algo, errLayout)
		}
	}
	if v := s.check(snap, nil); v != "" {
		return nil, fmt.Errorf("%s: the initial state violates %s", cfg.Algo, v)
	}
	var timers float64
	for _, d := range cfg.Timers {
		timers += d
	}
	s.gap = 2*float64(s.n)*cfg.TMsg + 10*(cfg.TMsg+cfg.TExec+timers)
	// messages in the initial state leave at time 0
	for _, m := range s.pv.msgs {
		for range m.count {
			s.schedule(s.pv.bytesOf(m))
		}
	}
	switch cfg.Load.Kind {
	case "heavy":
		for i := range s.n {
			s.q.push(event{t: 0, kind: evRequest, proc: int32(i)})
		}
	case "rate":
		for i := range s.n {
			s.q.push(event{t: s.expo(1 / cfg.Load.Lambda), kind: evRequest, proc: int32(i)})
		}
	case "light":
		s.q.push(event{t: s.expo(s.gap), kind: evLight})
	}
	if b.timed {
		s.rearm()
	}
	return s, nil
}

func (s *sim) expo(mean float64) float64 { return mean * s.rng.ExpFloat64() }

// schedule sends one copy of message m (copied) on its way.
func (s *sim) schedule(m []byte) {
	var buf []byte
	if k := len(s.free); k > 0 {
		buf = s.free[k-1][:0]
		s.free = s.free[:k-1]
	}
	d := s.cfg.TMsg
	if s.cfg.ExpMsg {
		d = s.expo(d)
	}
	s.q.push(event{t: s.now + d, kind: evDeliver, msg: append(buf, m...)})
}

// kindOf classifies a message by its label, with a bounded cache.
func (s *sim) kindOf(m []byte) kindInfo {
	if ki, ok := s.kinds[string(m)]; ok {
		return ki
	}
	var l string
	if s.loc != nil {
		// the label of a model with alternatives needs a state
		l = s.loc.lw.FormatMsg(m)
	} else {
		l = s.lw.Label(nil, &model.Transition{Kind: model.Deliver, Msg: m})
		l = strings.TrimPrefix(l, "Deliver ")
	}
	ki := kindInfo{kind: l}
	if k := strings.IndexByte(l, '('); k >= 0 {
		ki.kind = l[:k]
	}
	if s.b.facts.Idle != nil {
		ki.idle = s.b.facts.Idle(l)
	}
	if len(s.kinds) >= 1<<16 {
		clear(s.kinds)
	}
	s.kinds[string(m)] = ki
	return ki
}

// check returns the name of the first property violated, or "".
func (s *sim) check(snap model.Snapshot, t *model.Transition) string {
	if t != nil {
		for k := range s.b.trans {
			if !s.b.trans[k].HoldsOn(t) {
				return s.b.trans[k].Name
			}
		}
	}
	for k := range s.b.inv {
		if !s.b.inv[k].Holds(snap) {
			return s.b.inv[k].Name
		}
	}
	return ""
}

// run fires events until enough entries are measured, a violation, or a
// stall (no entry for a long stretch of events).
func (s *sim) run() {
	target := max(s.cfg.Warmup, 0) + s.cfg.Entries
	limit := int64(200000 + 2000*s.n)
	for s.seenEntries < target && s.violation == "" {
		if s.events&0x3fff == 0 && s.ctx != nil && s.ctx.Err() != nil {
			s.interrupted = true
			break
		}
		if s.dirty && s.retry() {
			continue
		}
		if len(s.q.ev) == 0 || s.sinceEntry > limit {
			s.stalled = true
			s.blocked = len(s.q.ev) == 0 && len(s.pending) > 0
			break
		}
		e := s.q.pop()
		s.now = e.t
		s.events++
		s.sinceEntry++
		if s.fire(&e) == held {
			s.pending = append(s.pending, e)
			s.postponed++
		}
	}
	s.flushLight()
	s.finished = !s.interrupted
}

// outcome is what fire did with an event.
type outcome uint8

const (
	gone  outcome = iota // nothing to do: a cancelled timer, a request of a process that is not Idle
	fired                // the event's step ran
	held                 // the Guard refused it: it stays pending (guard.go)
)

// fire runs event e at the current time.
func (s *sim) fire(e *event) outcome {
	switch e.kind {
	case evRequest:
		if s.pv.phases[e.proc] != model.Idle {
			return gone
		}
		t := model.Transition{Kind: model.Request, Proc: int(e.proc)}
		if !s.allowed(&t) {
			return held
		}
		s.apply(t, -1, kindInfo{})
	case evLight:
		return s.lightRequest()
	case evExit:
		t := model.Transition{Kind: model.Exit, Proc: int(e.proc)}
		if !s.allowed(&t) {
			return held
		}
		s.apply(t, -1, kindInfo{})
	case evTimer:
		sl := &s.slots[int(e.proc)*maxTimers+int(e.arg)]
		if !sl.armed || sl.gen != e.gen {
			return gone
		}
		t := model.Transition{Kind: model.Timer, Proc: int(e.proc), Arg: int(e.arg)}
		if !s.allowed(&t) {
			return held
		}
		sl.armed = false
		s.apply(t, -1, kindInfo{})
	case evDeliver:
		k := s.pv.find(e.msg)
		if k < 0 {
			panic("measure: a scheduled message is not in the network")
		}
		m := s.pv.bytesOf(s.pv.msgs[k])
		t := model.Transition{Kind: model.Deliver, Proc: -1, Arg: k, Msg: m}
		if !s.allowed(&t) {
			return held
		}
		ki := s.kindOf(e.msg)
		s.free = append(s.free, e.msg)
		s.apply(t, k, ki)
	}
	return fired
}

// lightRequest makes the next isolated request, by an Idle process drawn
// uniformly (for a guarded system, among the Idle processes whose request
// the Guard allows; none: the request is held).
func (s *sim) lightRequest() outcome {
	s.flushLight()
	idle := 0
	s.cand = s.cand[:0]
	for i, ph := range s.pv.phases {
		if ph != model.Idle {
			continue
		}
		idle++
		if s.allowed(&model.Transition{Kind: model.Request, Proc: i}) {
			s.cand = append(s.cand, i)
		}
	}
	if idle == 0 {
		return gone
	}
	if len(s.cand) == 0 {
		return held
	}
	i := s.cand[s.rng.IntN(len(s.cand))]
	s.lightOpen, s.lightMsgs = true, 0
	s.apply(model.Transition{Kind: model.Request, Proc: i}, -1, kindInfo{})
	s.lightImmediate = s.pv.phases[i] == model.InCS
	return fired
}

// flushLight books the messages of the previous isolated request.
func (s *sim) flushLight() {
	if !s.lightOpen || !s.measuring {
		s.lightOpen = false
		return
	}
	s.lightOpen = false
	if s.lightImmediate {
		s.c.local++
		s.c.localMsgs += s.lightMsgs
	} else {
		s.c.remote++
		s.c.remoteMsgs += s.lightMsgs
	}
}

// apply runs t (for a delivery, of message index removed whose kind is dk)
// and books its effects.
func (s *sim) apply(t model.Transition, removed int, dk kindInfo) {
	if s.observe != nil {
		s.observe(&t)
	}
	var next []byte
	if s.loc != nil {
		next = s.loc.apply(s.cur, &t)
	} else {
		next = s.smp.Apply(s.cur, &t)
	}
	s.nxt = append(s.nxt[:0], next...)
	if err := s.nv.parse(s.nxt, s.n); err != nil {
		panic("measure: " + err.Error())
	}
	var snap model.Snapshot
	if s.inc != nil {
		snap = s.inc.SnapshotAfter(s.nxt, &t)
	} else {
		snap = s.w.Snapshot(s.nxt)
	}
	if v := s.check(snap, &t); v != "" {
		s.violation = fmt.Sprintf("%s violated at time %.4g by %s", v, s.now, s.lw.Label(s.cur, &t))
	}
	p := t.Proc
	old, now := s.pv.phases[p], s.nv.phases[p]
	quietBefore := s.busy == 0
	if old == model.Idle && now != model.Idle {
		s.busy++
	} else if old != model.Idle && now == model.Idle {
		s.busy--
	}
	quietAfter := s.busy == 0
	sent(&s.pv, removed, &s.nv, func(m []byte, k int) {
		ki := s.kindOf(m)
		for range k {
			s.schedule(m)
		}
		if !s.measuring {
			return
		}
		if ki.idle && quietBefore && quietAfter {
			s.c.idle += int64(k)
			return
		}
		s.c.msgs += int64(k)
		s.lightMsgs += int64(k)
		s.c.byKind[ki.kind] += int64(k)
		if dk.kind != "" && ki.kind == dk.kind && ki.kind == s.b.facts.ForwardKind {
			s.c.forwarded += int64(k)
		}
	})
	if old != now {
		s.phaseChange(p, old, now)
	}
	s.cur, s.nxt = s.nxt, s.cur
	s.pv, s.nv = s.nv, s.pv
	if s.b.timed {
		s.rearm()
	}
	s.dirty = len(s.pending) > 0
}

func (s *sim) phaseChange(p int, old, now model.Phase) {
	if old == model.Idle {
		s.reqTime[p] = s.now
	}
	switch now {
	case model.InCS:
		s.entryTime[p] = s.now
		s.sinceEntry = 0
		if s.measuring {
			s.c.entries++
			s.c.wait += s.now - s.reqTime[p]
			s.c.nWait++
			if s.exitWithWaiting {
				s.c.sync += s.now - s.lastExit
				s.c.nSync++
			}
		}
		s.exitWithWaiting = false
		s.seenEntries++
		if s.seenEntries == s.cfg.Warmup {
			s.measuring = true
			s.lightOpen = false // its request's messages before now were not counted
		}
		s.q.push(event{t: s.now + s.cfg.TExec, kind: evExit, proc: int32(p)})
	case model.Idle:
		if s.measuring {
			s.c.resp += s.now - s.reqTime[p]
			s.c.nResp++
		}
		s.lastExit = s.now
		s.exitWithWaiting = false
		for _, ph := range s.nv.phases {
			if ph == model.Waiting {
				s.exitWithWaiting = true
				break
			}
		}
		switch s.cfg.Load.Kind {
		case "heavy":
			s.q.push(event{t: s.now, kind: evRequest, proc: int32(p)})
		case "rate":
			s.q.push(event{t: s.now + s.expo(1/s.cfg.Load.Lambda), kind: evRequest, proc: int32(p)})
		case "light":
			s.q.push(event{t: s.now + s.expo(s.gap), kind: evLight})
		}
	}
}

// rearm arms the timers that became enabled and disarms the others.
func (s *sim) rearm() {
	s.step++
	if s.loc != nil {
		s.en = s.loc.timers(s.en[:0], s.cur)
	} else {
		s.en = s.smp.Enabled(s.en[:0], s.cur)
	}
	for _, t := range s.en {
		if t.Kind != model.Timer {
			continue
		}
		if t.Arg >= maxTimers {
			panic(fmt.Sprintf("measure: timer %d of P%d: at most %d timer kinds are supported", t.Arg, t.Proc, maxTimers))
		}
		sl := &s.slots[t.Proc*maxTimers+t.Arg]
		sl.seen = s.step
		if !sl.armed {
			sl.armed = true
			sl.gen++
			d := s.cfg.TMsg
			if t.Arg < len(s.cfg.Timers) {
				d = s.cfg.Timers[t.Arg]
			}
			s.q.push(event{t: s.now + d, kind: evTimer, proc: int32(t.Proc), arg: int32(t.Arg), gen: sl.gen})
		}
	}
	for k := range s.slots {
		if sl := &s.slots[k]; sl.armed && sl.seen != s.step {
			sl.armed = false
			sl.gen++
		}
	}
}

// unserved counts processes Waiting at the end, and stranded those of
// them that have waited for more than a fifth of the replication's
// simulated time and 100 times T_msg + T_exec: requests that were lost.
func (s *sim) unserved() (unserved, stranded int) {
	long := max(0.2*s.now, 100*(s.cfg.TMsg+s.cfg.TExec))
	for i, ph := range s.pv.phases {
		if ph == model.Waiting {
			unserved++
			if s.now-s.reqTime[i] > long {
				stranded++
			}
		}
	}
	return unserved, stranded
}

func ratio(a int64, b int64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func fratio(a float64, b int64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / float64(b)
}
