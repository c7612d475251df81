package main

import (
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/tokenmc/tokenmc/traces/record"
)

// This file is a lock service that implements Suzuki and Kasami's
// broadcast algorithm as ordinary concurrent Go: one goroutine per node,
// channels between them, its own types. It knows nothing of tokenmc's
// model; it only reports what it does to a record.Log.

// ask is a node's request for the privilege: "node from wants its seq-th
// critical section".
type ask struct {
	from, seq int
	stamp     record.Stamp
}

// privilege is the token: granted[j] is the seq of node j's last served
// request, queue the nodes waiting for it.
type privilege struct {
	granted []int
	queue   []int
	stamp   record.Stamp
}

// Wire forms of the messages, as the log records them: the
// implementation's own names, which mapping.json translates into the
// model's (Ask -> REQ, seq -> sn, Privilege -> TOKEN, ...).
type askWire struct {
	Type string `json:"type"`
	Seq  int    `json:"seq"`
}

type privilegeWire struct {
	Type    string `json:"type"`
	Dest    int    `json:"dest"`
	Granted []int  `json:"granted"`
	Queue   []int  `json:"queue"`
}

func (a *ask) wire() askWire { return askWire{"Ask", a.seq} }

func (p *privilege) wire(to int) privilegeWire {
	return privilegeWire{"Privilege", to, slices.Clone(p.granted), append([]int{}, p.queue...)}
}

// Options configure a cluster.
type Options struct {
	Nodes    int           // number of nodes
	Rounds   int           // critical sections per node
	MaxDelay time.Duration // message delay: uniform in [0, MaxDelay)
	MaxCS    time.Duration // time in the critical section: uniform in [0, MaxCS)
	Seed     uint64
	// Stall ends the run when no critical section has been entered for
	// this long (a lost privilege); 0 means 2s.
	Stall time.Duration
	// Bug injects a realistic bug: a node that holds the privilege hands
	// it to a requester when it is not waiting for it, forgetting that it
	// may be inside its own critical section.
	Bug bool
}

type node struct {
	id, n     int
	seqs      []int      // highest request seq heard from each node
	priv      *privilege // nil unless this node holds the privilege
	inside    bool       // in the critical section
	waiting   bool
	granted   chan struct{}
	inbox     chan any
	lock      chan chan struct{}
	unlock    chan struct{}
	cl        *cluster
	bugFired  int
	rnd       *rand.Rand
	rndMu     sync.Mutex
	delivered sync.WaitGroup
}

type cluster struct {
	opts  Options
	nodes []*node
	log   *record.Log
	stop  chan struct{}
}

// send delivers m to node to after a random delay, on its own goroutine:
// messages may overtake each other.
func (nd *node) send(to int, m any) {
	nd.rndMu.Lock()
	d := time.Duration(0)
	if nd.cl.opts.MaxDelay > 0 {
		d = time.Duration(nd.rnd.Int64N(int64(nd.cl.opts.MaxDelay)))
	}
	nd.rndMu.Unlock()
	dst := nd.cl.nodes[to]
	dst.delivered.Add(1)
	go func() {
		defer dst.delivered.Done()
		if d > 0 {
			time.Sleep(d)
		}
		select {
		case dst.inbox <- m:
		case <-nd.cl.stop:
		}
	}()
}

// run is the node's event loop: everything the node does happens here,
// one event at a time.
func (nd *node) run() {
	for {
		select {
		case reply := <-nd.lock:
			nd.onLock(reply)
		case <-nd.unlock:
			nd.onUnlock()
		case m := <-nd.inbox:
			switch m := m.(type) {
			case *ask:
				nd.onAsk(m)
			case *privilege:
				nd.onPrivilege(m)
			}
		case <-nd.cl.stop:
			return
		}
	}
}

func (nd *node) onLock(reply chan struct{}) {
	log := nd.cl.log
	log.Request(nd.id)
	if nd.priv != nil {
		nd.inside = true
		log.Enter(nd.id)
		close(reply)
		return
	}
	nd.seqs[nd.id]++
	nd.waiting = true
	nd.granted = reply
	for j := range nd.n {
		if j != nd.id {
			a := &ask{from: nd.id, seq: nd.seqs[nd.id]}
			a.stamp = log.Send(nd.id, j, a.wire())
			nd.send(j, a)
		}
	}
}

func (nd *node) onUnlock() {
	log := nd.cl.log
	nd.inside = false
	log.Exit(nd.id)
	p := nd.priv
	if p == nil {
		return // (only with the bug: the privilege already left)
	}
	p.granted[nd.id] = nd.seqs[nd.id]
	for j := range nd.n {
		if !slices.Contains(p.queue, j) && nd.seqs[j] == p.granted[j]+1 {
			p.queue = append(p.queue, j)
		}
	}
	if len(p.queue) > 0 {
		nd.handOver(p.queue[0], p, func() { p.queue = p.queue[1:] })
	}
}

// handOver sends the privilege to node to; pop removes to from the queue
// first when it came from there.
func (nd *node) handOver(to int, p *privilege, pop func()) {
	pop()
	nd.priv = nil
	p.stamp = nd.cl.log.Send(nd.id, to, p.wire(to))
	nd.send(to, p)
}

func (nd *node) onAsk(a *ask) {
	nd.cl.log.Receive(nd.id, a.stamp, a.wire())
	nd.seqs[a.from] = max(nd.seqs[a.from], a.seq)
	p := nd.priv
	idle := !nd.inside && !nd.waiting
	if nd.cl.opts.Bug {
		if nd.inside && p != nil && nd.seqs[a.from] == p.granted[a.from]+1 {
			nd.bugFired++
		}
		idle = !nd.waiting // the bug: forgets the critical section
	}
	if p != nil && idle && nd.seqs[a.from] == p.granted[a.from]+1 {
		nd.handOver(a.from, p, func() {})
	}
}

func (nd *node) onPrivilege(p *privilege) {
	log := nd.cl.log
	log.Receive(nd.id, p.stamp, p.wire(nd.id))
	nd.priv = p
	if !nd.waiting {
		return // (only with the bug: a stale request was served again)
	}
	nd.waiting = false
	nd.inside = true
	log.Enter(nd.id)
	close(nd.granted)
}

// Result says what a run of the cluster did.
type Result struct {
	Entries  int  // critical sections entered
	BugFired int  // times the injected bug handed the privilege away from inside the CS
	Stalled  bool // the run was ended because no node could enter any more
}

// Run starts a cluster of opts.Nodes nodes that each enter their critical
// section opts.Rounds times, logging to log, and waits for all of them.
func Run(opts Options, log *record.Log) Result {
	cl := &cluster{opts: opts, log: log, stop: make(chan struct{})}
	for i := range opts.Nodes {
		nd := &node{id: i, n: opts.Nodes, seqs: make([]int, opts.Nodes), inbox: make(chan any, 64),
			lock: make(chan chan struct{}), unlock: make(chan struct{}), cl: cl,
			rnd: rand.New(rand.NewPCG(opts.Seed, uint64(i)))}
		if i == 0 {
			nd.priv = &privilege{granted: make([]int, opts.Nodes)}
		}
		cl.nodes = append(cl.nodes, nd)
	}
	var loops sync.WaitGroup
	for _, nd := range cl.nodes {
		loops.Add(1)
		go func() { defer loops.Done(); nd.run() }()
	}
	var clients sync.WaitGroup
	var res Result
	var mu sync.Mutex
	progress := make(chan struct{}, 1)
	for _, nd := range cl.nodes {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for range opts.Rounds {
				reply := make(chan struct{})
				select {
				case nd.lock <- reply:
				case <-cl.stop:
					return
				}
				select {
				case <-reply:
				case <-cl.stop:
					return
				}
				nd.rndMu.Lock()
				cs := time.Duration(0)
				if opts.MaxCS > 0 {
					cs = time.Duration(nd.rnd.Int64N(int64(opts.MaxCS)))
				}
				nd.rndMu.Unlock()
				time.Sleep(cs)
				mu.Lock()
				res.Entries++
				mu.Unlock()
				select {
				case progress <- struct{}{}:
				default:
				}
				select {
				case nd.unlock <- struct{}{}:
				case <-cl.stop:
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { clients.Wait(); close(done) }()
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
			res.Stalled = true
			break wait
		}
	}
	timer.Stop()
	close(cl.stop)
	loops.Wait()
	clients.Wait()
	for _, nd := range cl.nodes {
		nd.delivered.Wait()
		res.BugFired += nd.bugFired
	}
	return res
}
