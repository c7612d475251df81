package live

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"sync"
	"time"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// Transports.
const (
	Chan = "chan" // Go channels between goroutines
	TCP  = "tcp"  // one TCP listener per process on 127.0.0.1
)

// Config describes one run.
type Config struct {
	Algorithm string         // registry name, recorded in the log header
	Params    map[string]int // recorded in the log header; "n" must equal the system's N
	System    model.System   // must implement protosys.LocalSystem
	Transport string         // Chan (default) or TCP
	Duration  time.Duration  // the run stops after this long at the latest
	Seed      uint64         // seeds every random choice (delays, CS and think times, groups, alternatives)
	MaxDelay  time.Duration  // message delays are uniform in [0, MaxDelay]; default 2ms
	MaxCS     time.Duration  // CS durations are uniform in [MaxCS/4, MaxCS]; default 3ms
	MaxThink  time.Duration  // time between exit and the next request, uniform in [0, MaxThink]; default 2ms
	MaxTimer  time.Duration  // an enabled protocol timer fires after a delay uniform in [0, MaxTimer]; default 5ms

	// Log, when set, receives the event log as it is made (the header,
	// then one JSON line per event, as eventlog.Write writes them), so
	// that memory stays bounded however long the run; Run then returns no
	// events. Run flushes its buffer before it returns.
	Log io.Writer
	// Warn, when set, is told of each packet the TCP transport drops (at
	// most maxWarnings; Stats.Dropped counts them all).
	Warn func(msg string)
	// Progress, when set with ProgressEvery > 0, is called every
	// ProgressEvery with the counts so far.
	Progress      func(Stats)
	ProgressEvery time.Duration
}

// maxWarnings bounds the calls of Config.Warn in one run.
const maxWarnings = 10

// PanicError is Run's error when a process's handler panicked: a bug in
// tokenmc or in the model, not bad input. The log up to the panic is kept.
type PanicError struct {
	Process int
	Value   any
	Stack   []byte
}

// Error renders the panic.
func (e *PanicError) Error() string { return fmt.Sprintf("P%d panicked: %v", e.Process, e.Value) }

// Stats summarises a run.
type Stats struct {
	Requests, Entries, Exits, Sent, Received int
	Elapsed                                  time.Duration
	Completed                                bool // every process made all R requests and left its CS before the deadline (but Refused)
	Interrupted                              bool // ctx ended the run
	Events                                   int  // events logged
	Dropped                                  int  // packets the TCP transport dropped as malformed or unexpected
	// Refused counts, in a completed run of a system with a guard, the
	// processes that still had requests left when the run ended because
	// no request could ever be made again (the guard refuses them in every
	// reachable state, e.g. torus --requesters; see Run).
	Refused int
}

// packet is a message on the wire.
type packet struct {
	From    int    `json:"from"`
	MID     string `json:"mid"`
	Msg     []byte `json:"msg"`
	VC      []int  `json:"vc"`
	Lamport int    `json:"lamport"`
}

type run struct {
	cfg      Config
	ls       protosys.LocalSystem
	n, r     int
	groups   int
	log      *logger
	stop     chan struct{} // closed when the run stops, for any reason
	stopOnce sync.Once
	inbox    []chan packet
	send     func(to int, pk packet) // deliver pk to process to, after its delay
	wg       sync.WaitGroup          // delayed deliveries and transport goroutines
	mu       sync.Mutex
	stats    Stats
	finish   int // processes done with all their requests
	doneCh   chan struct{}
	doneOnce sync.Once
	err      error
	warned   int
	oracle   *oracle // the global state, for a system with a guard (oracle.go); nil otherwise
}

// Run executes the system as N concurrent processes until every process
// has made its R requests and left its CS, or until cfg.Duration (or ctx)
// ends. A system with a guard that refuses some processes' requests
// (torus --requesters) also ends, completed, once no request can ever be
// made again: every process is Idle and, from the current global state,
// no sequence of the system's own steps (deliveries, timers; the guard
// included) enables a Request of a process with requests left. This is
// checked, by a bounded search of the model, when the guard refuses a
// request; Stats.Refused counts the processes left with requests.
//
// Run returns the event log (or streams it to cfg.Log). Every step is
// computed by the same handlers the checker runs (protosys.LocalWorker);
// messages get random delays, so they may overtake each other.
//
// A run that cannot go on stops at once and returns the log so far with
// its error: ErrPeerLost (wrapped) when a TCP connection between two
// processes breaks, ErrLog (wrapped) when cfg.Log cannot be written, a
// *PanicError when a handler panics, the model's error
// when a step is refused. A cancelled ctx stops the run too (no error,
// Stats.Interrupted).
func Run(ctx context.Context, cfg Config) (eventlog.Header, []eventlog.Event, Stats, error) {
	ls, ok := cfg.System.(protosys.LocalSystem)
	if !ok {
		return eventlog.Header{}, nil, Stats{}, fmt.Errorf("%s cannot run as processes: its system is not compiled from a protocol.Protocol", cfg.Algorithm)
	}
	info := cfg.System.Info()
	if cfg.Transport == "" {
		cfg.Transport = Chan
	}
	if cfg.Transport != Chan && cfg.Transport != TCP {
		return eventlog.Header{}, nil, Stats{}, fmt.Errorf("unknown transport %q; valid: chan, tcp", cfg.Transport)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"MaxDelay", cfg.MaxDelay}, {"MaxCS", cfg.MaxCS}, {"MaxThink", cfg.MaxThink}, {"MaxTimer", cfg.MaxTimer}, {"Duration", cfg.Duration}} {
		if d.v < 0 {
			return eventlog.Header{}, nil, Stats{}, fmt.Errorf("%s %v is negative; give 0 (the default) or more", d.name, d.v)
		}
	}
	if n, ok := cfg.Params["n"]; ok && n != info.Processes {
		return eventlog.Header{}, nil, Stats{}, fmt.Errorf("Params[\"n\"] is %d but the system has %d processes", n, info.Processes)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&cfg.MaxDelay, 2*time.Millisecond)
	def(&cfg.MaxCS, 3*time.Millisecond)
	def(&cfg.MaxThink, 2*time.Millisecond)
	def(&cfg.MaxTimer, 5*time.Millisecond)
	def(&cfg.Duration, time.Second)
	start := time.Now()
	h := eventlog.Header{Algorithm: cfg.Algorithm,
		Params: cfg.Params, Transport: cfg.Transport, Seed: int64(cfg.Seed), Start: start.UTC().Format(time.RFC3339Nano)}
	lg, err := newLogger(start, cfg.Log, h)
	if err != nil {
		return h, nil, Stats{}, err
	}
	rn := &run{cfg: cfg, ls: ls, n: info.Processes, r: info.Requests, groups: info.Groups,
		log: lg, stop: make(chan struct{}), doneCh: make(chan struct{})}
	if rn.r == 0 { // cyclic clients (R = infinity): request until the deadline
		rn.r = math.MaxInt
	}
	rn.inbox = make([]chan packet, rn.n)
	for i := range rn.inbox {
		rn.inbox[i] = make(chan packet, 1024)
	}
	var closeTransport func()
	switch cfg.Transport {
	case Chan:
		rn.send = func(to int, pk packet) {
			select {
			case rn.inbox[to] <- pk:
			case <-rn.stop:
			}
		}
		closeTransport = func() {}
	case TCP:
		var err error
		closeTransport, err = rn.startTCP()
		if err != nil {
			return h, nil, Stats{}, err
		}
	}
	lw0 := ls.NewLocalWorker()
	if lw0.Guarded() {
		rn.oracle = newOracle(ls, rn.n)
	}
	for k, m := range lw0.InitialMessages() {
		rn.inbox[lw0.To(m)] <- packet{From: -1, MID: fmt.Sprintf("init.%d", k), Msg: m, VC: make([]int, rn.n)}
	}
	var procs sync.WaitGroup
	for i := range rn.n {
		procs.Add(1)
		go func() {
			defer procs.Done()
			defer func() {
				if p := recover(); p != nil {
					rn.fail(&PanicError{Process: i, Value: p, Stack: debug.Stack()})
				}
			}()
			rn.process(i, ls.NewLocalWorker())
		}()
	}
	timer := time.NewTimer(cfg.Duration)
	var tick <-chan time.Time
	if cfg.Progress != nil && cfg.ProgressEvery > 0 {
		tk := time.NewTicker(cfg.ProgressEvery)
		defer tk.Stop()
		tick = tk.C
	}
	completed, interrupted := false, false
wait:
	for {
		select {
		case <-tick:
			rn.mu.Lock()
			st := rn.stats
			rn.mu.Unlock()
			st.Elapsed = time.Since(start)
			st.Events = rn.log.logged()
			cfg.Progress(st)
			continue
		case <-timer.C:
		case <-ctx.Done():
			interrupted = true
		case <-rn.doneCh:
			completed = true
		case <-rn.stop: // a failure
		}
		break wait
	}
	timer.Stop()
	rn.halt()
	procs.Wait()
	closeTransport()
	rn.wg.Wait()
	rn.mu.Lock()
	defer rn.mu.Unlock()
	rn.stats.Completed = completed && rn.err == nil
	rn.stats.Interrupted = interrupted
	rn.stats.Elapsed = time.Since(start)
	rn.stats.Events = rn.log.count
	err = rn.err
	if ferr := rn.log.flush(); ferr != nil && err == nil {
		err = ferr
	}
	return h, rn.log.events, rn.stats, err
}

// halt stops the run: processes, timers and transport goroutines return.
func (rn *run) halt() {
	rn.stopOnce.Do(func() { close(rn.stop) })
}

// stopping reports whether the run is stopping.
func (rn *run) stopping() bool {
	select {
	case <-rn.stop:
		return true
	default:
		return false
	}
}

// fail records the first error and stops the run.
func (rn *run) fail(err error) {
	rn.mu.Lock()
	if rn.err == nil {
		rn.err = err
	}
	rn.mu.Unlock()
	rn.halt()
}

// warn reports a dropped packet.
func (rn *run) warn(format string, args ...any) {
	rn.mu.Lock()
	rn.stats.Dropped++
	tell := rn.cfg.Warn != nil && rn.warned < maxWarnings
	if tell {
		rn.warned++
	}
	rn.mu.Unlock()
	if tell {
		rn.cfg.Warn(fmt.Sprintf(format, args...))
	}
}

// after runs f after d unless the run stops first.
func (rn *run) after(d time.Duration, f func()) {
	rn.wg.Add(1)
	go func() {
		defer rn.wg.Done()
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			f()
		case <-rn.stop:
		}
	}()
}

func uniform(rng *rand.Rand, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
}

// process is one process: it owns its local state, vector clock and
// random source, and reacts to messages, its client's wishes and its timers.
func (rn *run) process(i int, lw protosys.LocalWorker) {
	cfg := rn.cfg
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)+1))
	s := lw.InitialLocal(i)
	vc := make([]int, rn.n)
	lamport := 0
	seq := 0
	sentK := 0
	event := func(e eventlog.Event) {
		seq++
		vc[i] = seq
		lamport++
		e.P, e.Seq, e.VC, e.Lamport = i, seq, append([]int(nil), vc...), lamport
		rn.log.add(e)
	}
	client := time.NewTimer(uniform(rng, 0, cfg.MaxThink)) // next request or exit
	clientArmed := s.Made < rn.r
	if !clientArmed {
		client.Stop()
	}
	var timerC <-chan time.Time
	var protoTimer *time.Timer
	armTimer := func() {
		if protoTimer != nil {
			protoTimer.Stop()
			protoTimer, timerC = nil, nil
		}
		for t := range lw.Timers() {
			if lw.TimerEnabled(i, s, t) {
				protoTimer = time.NewTimer(uniform(rng, 0, cfg.MaxTimer))
				timerC = protoTimer.C
				return
			}
		}
	}
	armTimer()
	finished := false
	apply := func(ev protosys.LocalEvent) {
		// A handler that leaves a choice open (Ctx.Choose) takes one of
		// its alternatives at random; the rng is drawn only then, so the
		// runs of other models are the same as without choices.
		k, err := lw.Alternatives(i, s, ev)
		if err != nil {
			rn.fail(fmt.Errorf("P%d: %v", i, err))
			return
		}
		if k > 1 {
			ev.Choice = rng.IntN(k)
		}
		res, err := lw.Step(i, s, ev)
		if err != nil {
			rn.fail(fmt.Errorf("P%d: %v", i, err))
			return
		}
		for _, m := range res.Sent {
			to := lw.To(m)
			sentK++
			mid := fmt.Sprintf("%d.%d", i, sentK)
			event(eventlog.Event{Kind: eventlog.KindSend, Msg: lw.FormatMsg(m), MID: mid, To: &to, Token: lw.CarriesToken(m)})
			pk := packet{From: i, MID: mid, Msg: m, VC: append([]int(nil), vc...), Lamport: lamport}
			rn.after(uniform(rng, 0, cfg.MaxDelay), func() { rn.send(to, pk) })
		}
		if res.Entered {
			event(eventlog.Event{Kind: eventlog.KindEnter, Group: res.Next.Group})
		}
		if rn.oracle != nil {
			var consumed []byte
			if ev.Kind == model.Deliver {
				consumed = ev.Msg
			}
			rn.oracle.record(i, res.Next, consumed, res.Sent)
		}
		rn.mu.Lock()
		rn.stats.Sent += len(res.Sent)
		if res.Entered {
			rn.stats.Entries++
		}
		rn.mu.Unlock()
		prev := s.Phase
		s = res.Next
		if s.Phase != prev || ev.Kind != model.Deliver {
			// client: in CS, leave after a CS duration; Idle with requests left, request after a think time
			client.Stop()
			clientArmed = false
			if s.Phase == model.InCS {
				client.Reset(uniform(rng, cfg.MaxCS/4, cfg.MaxCS))
				clientArmed = true
			} else if s.Phase == model.Idle && s.Made < rn.r {
				client.Reset(uniform(rng, 0, cfg.MaxThink))
				clientArmed = true
			}
		}
		if !finished && s.Phase == model.Idle && s.Made >= rn.r {
			finished = true
			rn.mu.Lock()
			rn.finish++
			if rn.finish == rn.n {
				rn.doneOnce.Do(func() { close(rn.doneCh) })
			}
			rn.mu.Unlock()
		}
		armTimer()
	}
	// try takes step ev, logging its trigger first, unless the system's
	// guard refuses it in the current global state (then it returns false
	// and nothing happens). With a guard the whole step is taken under the
	// oracle's lock (oracle.go).
	try := func(ev protosys.LocalEvent, trigger func()) bool {
		if o := rn.oracle; o != nil {
			o.mu.Lock()
			defer o.mu.Unlock()
			if !o.allowed(i, ev) {
				return false
			}
		}
		trigger()
		apply(ev)
		return true
	}
	if rn.r == 0 {
		finished = true
	}
	for {
		if rn.log.failed() != nil {
			rn.fail(rn.log.failed())
			return
		}
		select {
		case <-rn.stop:
			client.Stop()
			if protoTimer != nil {
				protoTimer.Stop()
			}
			return
		case pk := <-rn.inbox[i]:
			if len(pk.VC) != len(vc) {
				rn.fail(fmt.Errorf("P%d received a packet with a vector clock of %d entries; want %d", i, len(pk.VC), len(vc)))
				return
			}
			ok := try(protosys.LocalEvent{Kind: model.Deliver, Msg: pk.Msg}, func() {
				for q := range vc {
					vc[q] = max(vc[q], pk.VC[q])
				}
				lamport = max(lamport, pk.Lamport)
				var from *int
				if pk.From >= 0 {
					f := pk.From
					from = &f
				}
				event(eventlog.Event{Kind: eventlog.KindReceive, Msg: lw.FormatMsg(pk.Msg), MID: pk.MID, From: from, Token: lw.CarriesToken(pk.Msg)})
				rn.mu.Lock()
				rn.stats.Received++
				rn.mu.Unlock()
			})
			if !ok { // the guard holds the message back: it stays in transit
				rn.after(retry(rng, cfg.MaxDelay), func() {
					select {
					case rn.inbox[i] <- pk:
					case <-rn.stop:
					}
				})
			}
		case <-client.C:
			if !clientArmed {
				continue
			}
			clientArmed = false
			switch s.Phase {
			case model.Idle:
				g := 0
				if rn.groups > 1 {
					g = rng.IntN(rn.groups)
				}
				if !try(protosys.LocalEvent{Kind: model.Request, Arg: g}, func() {
					event(eventlog.Event{Kind: eventlog.KindRequest, Group: g})
					rn.mu.Lock()
					rn.stats.Requests++
					rn.mu.Unlock()
				}) {
					if rn.endIfDead() {
						continue
					}
					client.Reset(retry(rng, cfg.MaxThink)) // the guard refused: ask again later
					clientArmed = true
				}
			case model.InCS:
				if !try(protosys.LocalEvent{Kind: model.Exit}, func() {
					event(eventlog.Event{Kind: eventlog.KindExit})
					rn.mu.Lock()
					rn.stats.Exits++
					rn.mu.Unlock()
				}) {
					client.Reset(retry(rng, cfg.MaxCS))
					clientArmed = true
				}
			}
		case <-timerC:
			timerC = nil
			fired := false
			for t := range lw.Timers() {
				if lw.TimerEnabled(i, s, t) && try(protosys.LocalEvent{Kind: model.Timer, Arg: t}, func() {
					event(eventlog.Event{Kind: eventlog.KindTimer, Timer: t})
				}) {
					fired = true
					break
				}
			}
			if !fired {
				armTimer() // the guard refused every enabled timer: try again later
			}
		}
	}
}

// endIfDead ends the run, as completed, when a system with a guard can
// never make a request again (oracle.dead); it reports whether it did. It
// is asked when the guard refuses a request: a process with requests left
// keeps asking, so such a state is seen within a few think times.
func (rn *run) endIfDead() bool {
	o := rn.oracle
	o.mu.Lock()
	refused, dead := o.dead(rn.r, rn.groups)
	o.mu.Unlock()
	if !dead {
		return false
	}
	rn.mu.Lock()
	rn.stats.Refused = refused
	rn.mu.Unlock()
	rn.doneOnce.Do(func() { close(rn.doneCh) })
	return true
}

// retry is the delay before a step the guard refused is tried again:
// uniform in [most/4, most], plus 50µs, so that a refused step does not
// spin.
func retry(rng *rand.Rand, most time.Duration) time.Duration {
	return uniform(rng, most/4, most) + 50*time.Microsecond
}
