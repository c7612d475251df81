package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/tokenmc/tokenmc/traces/record"
)

// This file is a distributed lock written the way such code is usually
// written: Suzuki and Kasami's broadcast algorithm with, per node, a
// receiver goroutine that handles the messages, the application's
// goroutine that asks for the lock, polls until it holds the token and
// releases it, one mutex for the node's state (not held while sending),
// and unbuffered channels. It knows nothing of tokenmc's model; it tells
// a record.Log what it does, where it does it, in its own words: nodes
// are "node-0", "node-1", ...; messages are the strings "REQ7" and
// "TOKEN q=[2 1] ln=[3 0 1]". mapping.json translates them.
//
// Each trigger (a request, a receive, an exit) is logged where it changes
// the node's state, under the node's mutex, so that the log's order of a
// node's triggers is the order in which its state saw them; the effects
// (the sends, the entry) are logged where they happen, later, outside the
// mutex, after other events of the node: the validator takes a step's
// effects logged late (docs/eventlog.md).

// Bugs are the realistic bugs the program can be built with.
type Bugs struct {
	// Window: the receiver hands the token to a requester whenever its
	// node is not in its critical section, forgetting the window between
	// the token's arrival and the moment the polling application notices
	// it: the token leaves a node that is, for the algorithm, already in
	// its critical section.
	Window bool
	// NoAppend: on release, the holder appends the newly eligible
	// requesters to the token's queue only when the queue is empty.
	NoAppend bool
	// Keep: on release, the holder passes the token on but forgets to
	// clear its own flag: a second token.
	Keep bool
}

// Options configure a run.
type Options struct {
	Nodes    int           // number of nodes
	Rounds   int           // critical sections per node
	Seed     uint64        // seeds every delay and every think and CS time
	MaxDelay time.Duration // message delay: uniform in [0, MaxDelay), ten times that for one message in ten
	MaxCS    time.Duration // time in the critical section: uniform in [0, MaxCS)
	MaxThink time.Duration // time between two critical sections: uniform in [0, MaxThink)
	Poll     time.Duration // the waiting node checks for the token this often (0: yields)
	Stall    time.Duration // end the run when no node entered for this long (0: 2s)
	// Threads marks each event with the goroutine that logged it
	// ("app" or "receiver"), so that the validator need not infer which
	// step a send belongs to (record.Log.Thread).
	Threads bool
	Bugs    Bugs
}

// Result says what a run did.
type Result struct {
	Entries int  // critical sections entered
	Stalled bool // no node could enter any more; the run was ended
	// Fired counts the times a planted bug made the program act
	// differently from the algorithm.
	Fired int
	// BugSends are the message ids (as logged) of the sends a planted
	// bug made in place of the algorithm's (Window and NoAppend, and a
	// token sent from a kept copy by Keep).
	BugSends []string
}

type kind int

const (
	request kind = iota
	token
)

// message is what travels between nodes.
type message struct {
	kind  kind
	from  int
	sn    int   // request: the requester's request number
	ln, q []int // token: last served request of each node, and the queue
	stamp record.Stamp
}

// wire is the message as the program writes it on the wire (and in the log).
func (m *message) wire() string {
	if m.kind == request {
		return fmt.Sprintf("REQ%d", m.sn)
	}
	return fmt.Sprintf("TOKEN q=%v ln=%v", m.q, m.ln)
}

type node struct {
	id  int
	cl  *cluster
	mu  sync.Mutex // guards the fields below
	rn  []int      // highest request number heard from each node
	has bool       // holds the token
	ln  []int      // token: last served request of each node (when has)
	q   []int      // token: queue (when has)
	// requesting: asked for the lock and not yet inside; inCS: inside.
	requesting, inCS bool
	// ghost: has is a copy of a token passed on (the Keep bug).
	ghost bool

	inbox chan *message // unbuffered
	app   goroutine     // the application's
	recv  goroutine     // the receiver's
}

// goroutine is what one of a node's goroutines logs to and draws its
// random delays from.
type goroutine struct {
	log *record.Log
	rnd *rand.Rand
}

type cluster struct {
	opts     Options
	nodes    []*node
	log      *record.Log
	stop     chan struct{}
	inflight sync.WaitGroup
	mu       sync.Mutex // guards res
	res      Result
}

func (cl *cluster) fired(mid string) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	cl.res.Fired++
	if mid != "" {
		cl.res.BugSends = append(cl.res.BugSends, mid)
	}
}

func randDur(r *rand.Rand, max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	return time.Duration(r.Int64N(int64(max)))
}

// send logs the send and puts m on the network, which delivers it to the
// receiver's unbuffered inbox after a delay: messages may overtake each
// other, and a slow one may arrive long after it matters. It returns the message id.
func (nd *node) send(to int, m *message, g goroutine) string {
	m.stamp = g.log.Send(nd.id, to, m.wire())
	d := randDur(g.rnd, nd.cl.opts.MaxDelay)
	if g.rnd.IntN(10) == 0 {
		d *= 10 // one message in ten is slow
	}
	dst := nd.cl.nodes[to]
	nd.cl.inflight.Add(1)
	go func() {
		defer nd.cl.inflight.Done()
		time.Sleep(d)
		select {
		case dst.inbox <- m:
		case <-nd.cl.stop:
		}
	}()
	return m.stamp.MID
}

// tokenMsg copies the token for sending; the caller holds nd.mu.
func (nd *node) tokenMsg() *message {
	return &message{kind: token, from: nd.id, ln: slices.Clone(nd.ln), q: slices.Clone(nd.q)}
}

// receive is the node's receiver goroutine.
func (nd *node) receive() {
	log := nd.recv.log
	for {
		var m *message
		select {
		case m = <-nd.inbox:
		case <-nd.cl.stop:
			return
		}
		nd.mu.Lock()
		log.Receive(nd.id, m.stamp, m.wire())
		switch m.kind {
		case request:
			j := m.from
			nd.rn[j] = max(nd.rn[j], m.sn)
			idle := !nd.requesting && !nd.inCS
			if nd.cl.opts.Bugs.Window {
				idle = !nd.inCS
			}
			if nd.has && idle && nd.rn[j] == nd.ln[j]+1 {
				t := nd.tokenMsg()
				bug := nd.ghost || nd.requesting
				nd.has, nd.ghost = false, false
				nd.mu.Unlock()
				mid := nd.send(j, t, nd.recv)
				if bug {
					nd.cl.fired(mid)
				}
				continue
			}
		case token:
			nd.has, nd.ln, nd.q, nd.ghost = true, m.ln, m.q, false
		}
		nd.mu.Unlock()
	}
}

// acquire asks for the lock and returns once the node is in its critical
// section, or false when the run is stopped.
func (nd *node) acquire() bool {
	log := nd.app.log
	nd.mu.Lock()
	log.Request(nd.id)
	if nd.has {
		nd.inCS = true
		if nd.ghost {
			nd.ghost = false
			nd.cl.fired("")
		}
		nd.mu.Unlock()
		log.Enter(nd.id)
		return true
	}
	nd.rn[nd.id]++
	sn := nd.rn[nd.id]
	nd.requesting = true
	nd.mu.Unlock()
	for j := range nd.cl.nodes {
		if j != nd.id {
			nd.send(j, &message{kind: request, from: nd.id, sn: sn}, nd.app)
		}
	}
	for {
		nd.mu.Lock()
		if nd.has {
			nd.requesting, nd.inCS = false, true
			nd.mu.Unlock()
			break
		}
		nd.mu.Unlock()
		select {
		case <-nd.cl.stop:
			return false
		default:
		}
		if nd.cl.opts.Poll > 0 {
			time.Sleep(nd.cl.opts.Poll)
		} else {
			runtime.Gosched()
		}
	}
	log.Enter(nd.id)
	return true
}

// release leaves the critical section and passes the token on to the
// head of its queue, if any.
func (nd *node) release() {
	log := nd.app.log
	bugs := nd.cl.opts.Bugs
	nd.mu.Lock()
	nd.inCS = false
	log.Exit(nd.id)
	if !nd.has {
		nd.mu.Unlock()
		return
	}
	nd.ln[nd.id] = nd.rn[nd.id]
	wasEmpty := len(nd.q) == 0
	skipped := false
	for j := range nd.cl.nodes {
		if !slices.Contains(nd.q, j) && nd.rn[j] == nd.ln[j]+1 {
			if bugs.NoAppend && !wasEmpty {
				skipped = true
				continue
			}
			nd.q = append(nd.q, j)
		}
	}
	if len(nd.q) == 0 {
		nd.mu.Unlock()
		return
	}
	to := nd.q[0]
	nd.q = nd.q[1:]
	t := nd.tokenMsg()
	if bugs.Keep {
		nd.ghost = true // keeps has: the next use of this copy is the bug
	} else {
		nd.has = false
	}
	nd.mu.Unlock()
	mid := nd.send(to, t, nd.app)
	if skipped {
		nd.cl.fired(mid)
	}
}

// Run runs a cluster of opts.Nodes nodes, each entering its critical
// section opts.Rounds times, logging to log.
func Run(opts Options, log *record.Log) Result {
	cl := &cluster{opts: opts, log: log, stop: make(chan struct{})}
	for i := range opts.Nodes {
		nd := &node{id: i, cl: cl, rn: make([]int, opts.Nodes), ln: make([]int, opts.Nodes), has: i == 0,
			inbox: make(chan *message), app: goroutine{log, rand.New(rand.NewPCG(opts.Seed, uint64(2*i)))},
			recv: goroutine{log, rand.New(rand.NewPCG(opts.Seed, uint64(2*i+1)))}}
		if opts.Threads {
			nd.app.log, nd.recv.log = log.Thread("app"), log.Thread("receiver")
		}
		cl.nodes = append(cl.nodes, nd)
	}
	var receivers, apps sync.WaitGroup
	progress := make(chan struct{}, 1)
	for _, nd := range cl.nodes {
		receivers.Add(1)
		go func() { defer receivers.Done(); nd.receive() }()
	}
	for _, nd := range cl.nodes {
		apps.Add(1)
		go func() {
			defer apps.Done()
			for range opts.Rounds {
				time.Sleep(randDur(nd.app.rnd, opts.MaxThink))
				if !nd.acquire() {
					return
				}
				cl.mu.Lock()
				cl.res.Entries++
				cl.mu.Unlock()
				select {
				case progress <- struct{}{}:
				default:
				}
				time.Sleep(randDur(nd.app.rnd, opts.MaxCS))
				nd.release()
			}
		}()
	}
	done := make(chan struct{})
	go func() { apps.Wait(); close(done) }()
	stall := opts.Stall
	if stall <= 0 {
		stall = 2 * time.Second
	}
	timer := time.NewTimer(stall)
wait:
	for {
		select {
		case <-done:
			break wait
		case <-progress:
			timer.Reset(stall)
		case <-timer.C:
			cl.res.Stalled = true
			break wait
		}
	}
	timer.Stop()
	close(cl.stop)
	apps.Wait()
	receivers.Wait()
	cl.inflight.Wait()
	return cl.res
}
