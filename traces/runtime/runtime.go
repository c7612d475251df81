package runtime

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/tokenmc/tokenmc/model"
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
	System    model.System   // must implement model.LocalSystem
	Transport string         // Chan (default) or TCP
	Duration  time.Duration  // the run stops after this long at the latest
	Seed      uint64         // seeds every random choice (delays, CS and think times, groups)
	MaxDelay  time.Duration  // message delays are uniform in [0, MaxDelay]; default 2ms
	MaxCS     time.Duration  // CS durations are uniform in [MaxCS/4, MaxCS]; default 3ms
	MaxThink  time.Duration  // time between exit and the next request, uniform in [0, MaxThink]; default 2ms
	MaxTimer  time.Duration  // an enabled protocol timer fires after a delay uniform in [0, MaxTimer]; default 5ms
}

// Stats summarises a run.
type Stats struct {
	Requests, Entries, Exits, Sent, Received int
	Elapsed                                  time.Duration
	Completed                                bool // every process made all R requests and left its CS before the deadline
}

// packet is a message on the wire.
type packet struct {
	From    int    `json:"from"`
	MID     string `json:"mid"`
	Msg     []byte `json:"msg"`
	VC      []int  `json:"vc"`
	Lamport int    `json:"lamport"`
}

type logger struct {
	mu     sync.Mutex
	start  time.Time
	events []eventlog.Event
}

func (l *logger) add(e eventlog.Event) {
	l.mu.Lock()
	e.TNs = time.Since(l.start).Nanoseconds()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

type run struct {
	cfg    Config
	n, r   int
	groups int
	log    *logger
	stop   chan struct{}
	inbox  []chan packet
	send   func(to int, pk packet) // deliver pk to process to, after its delay
	wg     sync.WaitGroup          // delayed deliveries and transport goroutines
	mu     sync.Mutex
	stats  Stats
	finish int // processes done with all their requests
	doneCh chan struct{}
	err    error
}

// Run executes the system as N concurrent processes until every process
// has made its R requests and left its CS, or until cfg.Duration (or ctx)
// ends. It returns the event log. Every step is computed by the same
// handlers the checker runs (model.LocalWorker); messages get random
// delays, so they may overtake each other.
func Run(ctx context.Context, cfg Config) (eventlog.Header, []eventlog.Event, Stats, error) {
	ls, ok := cfg.System.(model.LocalSystem)
	if !ok {
		return eventlog.Header{}, nil, Stats{}, fmt.Errorf("%s cannot run as processes: its system is not compiled from a model.Protocol", cfg.Algorithm)
	}
	info := cfg.System.Info()
	if cfg.Transport == "" {
		cfg.Transport = Chan
	}
	if cfg.Transport != Chan && cfg.Transport != TCP {
		return eventlog.Header{}, nil, Stats{}, fmt.Errorf("unknown transport %q; valid: chan, tcp", cfg.Transport)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.MaxDelay, 2*time.Millisecond)
	def(&cfg.MaxCS, 3*time.Millisecond)
	def(&cfg.MaxThink, 2*time.Millisecond)
	def(&cfg.MaxTimer, 5*time.Millisecond)
	def(&cfg.Duration, time.Second)
	start := time.Now()
	rn := &run{cfg: cfg, n: info.Processes, r: info.Requests, groups: info.Groups,
		log: &logger{start: start}, stop: make(chan struct{}), doneCh: make(chan struct{})}
	if rn.r == 0 { // cyclic clients (R = infinity): request until the deadline
		rn.r = math.MaxInt
	}
	rn.inbox = make([]chan packet, rn.n)
	for i := range rn.inbox {
		rn.inbox[i] = make(chan packet, 1024)
	}
	h := eventlog.Header{Format: eventlog.Format, Version: eventlog.Version, Algorithm: cfg.Algorithm,
		Params: cfg.Params, Transport: cfg.Transport, Seed: int64(cfg.Seed), Start: start.UTC().Format(time.RFC3339Nano)}
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
	for k, m := range lw0.InitialMessages() {
		rn.inbox[lw0.To(m)] <- packet{From: -1, MID: fmt.Sprintf("init.%d", k), Msg: m, VC: make([]int, rn.n)}
	}
	var procs sync.WaitGroup
	for i := range rn.n {
		procs.Add(1)
		go func() {
			defer procs.Done()
			rn.process(i, ls.NewLocalWorker())
		}()
	}
	timer := time.NewTimer(cfg.Duration)
	select {
	case <-timer.C:
	case <-ctx.Done():
	case <-rn.doneCh:
		rn.stats.Completed = true
	}
	timer.Stop()
	close(rn.stop)
	procs.Wait()
	closeTransport()
	rn.wg.Wait()
	rn.stats.Elapsed = time.Since(start)
	return h, rn.log.events, rn.stats, rn.err
}

func (rn *run) fail(err error) {
	rn.mu.Lock()
	if rn.err == nil {
		rn.err = err
	}
	rn.mu.Unlock()
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
func (rn *run) process(i int, lw model.LocalWorker) {
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
	apply := func(ev model.LocalEvent) {
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
				close(rn.doneCh)
			}
			rn.mu.Unlock()
		}
		armTimer()
	}
	if rn.r == 0 {
		finished = true
	}
	for {
		rn.mu.Lock()
		failed := rn.err != nil
		rn.mu.Unlock()
		if failed {
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
			apply(model.LocalEvent{Kind: model.Deliver, Msg: pk.Msg})
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
				event(eventlog.Event{Kind: eventlog.KindRequest, Group: g})
				rn.mu.Lock()
				rn.stats.Requests++
				rn.mu.Unlock()
				apply(model.LocalEvent{Kind: model.Request, Arg: g})
			case model.InCS:
				event(eventlog.Event{Kind: eventlog.KindExit})
				rn.mu.Lock()
				rn.stats.Exits++
				rn.mu.Unlock()
				apply(model.LocalEvent{Kind: model.Exit})
			}
		case <-timerC:
			timerC = nil
			for t := range lw.Timers() {
				if lw.TimerEnabled(i, s, t) {
					event(eventlog.Event{Kind: eventlog.KindTimer, Timer: t})
					apply(model.LocalEvent{Kind: model.Timer, Arg: t})
					break
				}
			}
		}
	}
}

// startTCP gives every process a listener on 127.0.0.1 and makes rn.send
// write packets as JSON lines over one connection per ordered pair.
func (rn *run) startTCP() (func(), error) {
	lns := make([]net.Listener, rn.n)
	addrs := make([]string, rn.n)
	for i := range rn.n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			for _, l := range lns[:i] {
				l.Close()
			}
			return nil, fmt.Errorf("tcp transport: %v", err)
		}
		lns[i], addrs[i] = ln, ln.Addr().String()
	}
	var connMu sync.Mutex
	var all []net.Conn
	track := func(c net.Conn) bool {
		connMu.Lock()
		defer connMu.Unlock()
		select {
		case <-rn.stop:
			c.Close()
			return false
		default:
		}
		all = append(all, c)
		return true
	}
	for i, ln := range lns {
		rn.wg.Add(1)
		go func() {
			defer rn.wg.Done()
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				if !track(c) {
					return
				}
				rn.wg.Add(1)
				go func() {
					defer rn.wg.Done()
					sc := bufio.NewScanner(c)
					sc.Buffer(make([]byte, 1<<16), 1<<24)
					for sc.Scan() {
						var pk packet
						if err := json.Unmarshal(sc.Bytes(), &pk); err != nil {
							rn.fail(fmt.Errorf("tcp transport: P%d received a bad packet: %v", i, err))
							return
						}
						select {
						case rn.inbox[i] <- pk:
						case <-rn.stop:
							return
						}
					}
				}()
			}
		}()
	}
	type pair struct{ from, to int }
	conns := map[pair]net.Conn{}
	var sendMu sync.Mutex
	rn.send = func(to int, pk packet) {
		sendMu.Lock()
		defer sendMu.Unlock()
		k := pair{pk.From, to}
		c, ok := conns[k]
		if !ok {
			var err error
			c, err = net.Dial("tcp", addrs[to])
			if err != nil {
				select {
				case <-rn.stop:
				default:
					rn.fail(fmt.Errorf("tcp transport: dial P%d: %v", to, err))
				}
				return
			}
			if !track(c) {
				return
			}
			conns[k] = c
		}
		b, _ := json.Marshal(pk)
		if _, err := c.Write(append(b, '\n')); err != nil && !errors.Is(err, net.ErrClosed) {
			select {
			case <-rn.stop:
			default:
				rn.fail(fmt.Errorf("tcp transport: send to P%d: %v", to, err))
			}
		}
	}
	return func() {
		for _, ln := range lns {
			ln.Close()
		}
		connMu.Lock()
		for _, c := range all {
			c.Close()
		}
		connMu.Unlock()
	}, nil
}
