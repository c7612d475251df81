package coordres

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default          = "coord-res"
	AgeAll           = "coord-res/age-all"
	GrantAnyFree     = "coord-res/grant-any-free"
	ReturnWrongQueue = "coord-res/return-wrong-queue"
	NoAging          = "coord-res/no-aging"
	TieByPID         = "coord-res/tie-by-pid"
	// AgeHead is reading (b) of the aging sentence (algorithms.md §3): the
	// head of the sorted queue, not the earliest request, ages.
	AgeHead = "coord-res/age-head"
)

// Variants returns every variant name, the default first.
func Variants() []string {
	return []string{Default, AgeAll, GrantAnyFree, ReturnWrongQueue, NoAging, TieByPID, AgeHead}
}

type config struct {
	ageAll       bool // every lower entry ages, not only the earliest
	grantAnyFree bool // grant when the queue is empty instead of when the token is home
	wrongQueue   bool // RETURN(r) serves resource (r+1) mod K
	noAging      bool // step 2's aging removed
	tieByPID     bool // equal priorities served by the larger pid, not by arrival
	ageHead      bool // the head of the sorted queue ages, not the earliest entry
}

func configOf(variant string) (config, bool) {
	switch variant {
	case Default, "":
		return config{}, true
	case AgeAll:
		return config{ageAll: true}, true
	case GrantAnyFree:
		return config{grantAnyFree: true}, true
	case ReturnWrongQueue:
		return config{wrongQueue: true}, true
	case NoAging:
		return config{noAging: true}, true
	case TieByPID:
		return config{tieByPID: true}, true
	case AgeHead:
		return config{ageHead: true}, true
	}
	return config{}, false
}

// Entry is a queued request: process PID with its current (aged) priority.
type Entry struct {
	PID  int `json:"pid"`
	Prio int `json:"prio"`
}

// Proc is the local state of one process. Has and Q are the coordinator's
// (P0's) and are empty at clients.
type Proc struct {
	// Res is the resource of the current request or CS; -1 when Idle.
	Res int `json:"res"`
	// Held reports whether a client holds the token of Res (only InCS).
	Held bool `json:"held"`
	// Has[r] reports whether the token of resource r is at the coordinator.
	Has []bool `json:"has,omitempty"`
	// Q[r] is the queue of resource r in arrival order; the entry served
	// next is the first of the largest priority (the stable "sort").
	Q [][]Entry `json:"q,omitempty"`
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds.
const (
	REQUEST Kind = iota // client -> coordinator (resource, pid, priority)
	TOKEN               // coordinator -> client: the token of a resource
	RETURN              // client -> coordinator: the token back after the CS
)

// Msg is a message in transit.
type Msg struct {
	Kind Kind `json:"kind"`
	From int  `json:"from"`
	To   int  `json:"to"`
	Res  int  `json:"res"`
	Prio int  `json:"prio"` // REQUEST only
}

// FormatMsg renders m as "REQUEST(P1->P0, r=0, prio=1)",
// "TOKEN(P0->P1, r=0)" or "RETURN(P1->P0, r=0)".
func FormatMsg(m *Msg) string {
	switch m.Kind {
	case REQUEST:
		return fmt.Sprintf("REQUEST(P%d->P%d, r=%d, prio=%d)", m.From, m.To, m.Res, m.Prio)
	case TOKEN:
		return fmt.Sprintf("TOKEN(P%d->P%d, r=%d)", m.From, m.To, m.Res)
	}
	return fmt.Sprintf("RETURN(P%d->P%d, r=%d)", m.From, m.To, m.Res)
}

// Base returns the base priority of process i: its id ("priority which is
// equal to process id"); larger = served first.
func Base(i int) int { return i }

// New builds the per-resource coordinator for n processes (P0 the
// coordinator), k resources and at most r requests per process.
func New(variant string, n, k, r int) (*protocol.Protocol[Proc, Msg], error) {
	return newProtocol(variant, n, k, r, false)
}

// NewCyclic builds the per-resource coordinator with cyclic clients
// (R = infinity: protocol.Protocol.Cyclic, every process requests again
// whenever it is Idle), for starvation checks. Nothing is renumbered: see
// the package doc, "Cyclic clients".
func NewCyclic(variant string, n, k int) (*protocol.Protocol[Proc, Msg], error) {
	return newProtocol(variant, n, k, 0, true)
}

func newProtocol(variant string, n, k, r int, cyclic bool) (*protocol.Protocol[Proc, Msg], error) {
	cfg, ok := configOf(variant)
	if !ok {
		return nil, fmt.Errorf("unknown coord-res variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
	}
	if variant == "" {
		variant = Default
	}
	if n < 2 {
		return nil, fmt.Errorf("%s needs n >= 2 processes (the coordinator P0 and a client), got n=%d", variant, n)
	}
	if k < 1 {
		return nil, fmt.Errorf("%s needs k >= 1 resources, got k=%d", variant, k)
	}
	if r < 1 && !cyclic {
		return nil, fmt.Errorf("%s needs r >= 1 requests per process, got r=%d", variant, r)
	}
	return &protocol.Protocol[Proc, Msg]{
		Name: variant,
		N:    n,
		R:    r,
		Options: protocol.Options{
			Cyclic: cyclic,
			Groups: k,
		},
		Init: func(i int) Proc {
			p := Proc{Res: -1}
			if i == 0 {
				p.Has = make([]bool, k)
				p.Q = make([][]Entry, k)
				for x := range p.Has {
					p.Has[x] = true
				}
			}
			return p
		},
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: encodeProc,
			DecodeProc: decodeProc,
			EncodeMsg:  encodeMsg,
			DecodeMsg:  decodeMsg,
			To:         func(m *Msg) int { return m.To },
			From:       func(m *Msg) int { return m.From },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: FormatMsg,
		},
		OnRequest: cfg.onRequest,
		OnExit:    cfg.onExit,
		OnDeliver: cfg.onDeliver,
		Hooks: protocol.Hooks[Proc, Msg]{
			HoldsToken: func(_ model.Phase, p *Proc) bool {
				for _, h := range p.Has {
					if h {
						return true
					}
				}
				return p.Held
			},
			CarriesToken: func(m *Msg) bool { return m.Kind != REQUEST },
		},
	}, nil
}

func encodeProc(e *model.Encoder, p *Proc) {
	e.Int(p.Res)
	e.Bool(p.Held)
	e.Uint(uint64(len(p.Has)))
	for _, h := range p.Has {
		e.Bool(h)
	}
	e.Uint(uint64(len(p.Q)))
	for _, q := range p.Q {
		e.Uint(uint64(len(q)))
		for _, x := range q {
			e.Int(x.PID)
			e.Int(x.Prio)
		}
	}
}

func decodeProc(d *model.Decoder, p *Proc) {
	p.Res = d.Int()
	p.Held = d.Bool()
	n := int(d.Uint())
	p.Has = p.Has[:0]
	for range n {
		p.Has = append(p.Has, d.Bool())
	}
	n = int(d.Uint())
	if cap(p.Q) < n {
		p.Q = make([][]Entry, n)
	}
	p.Q = p.Q[:n]
	for r := range p.Q {
		m := int(d.Uint())
		p.Q[r] = p.Q[r][:0]
		for range m {
			p.Q[r] = append(p.Q[r], Entry{PID: d.Int(), Prio: d.Int()})
		}
	}
}

func encodeMsg(e *model.Encoder, m *Msg) {
	e.Uint(uint64(m.Kind))
	e.Int(m.From)
	e.Int(m.To)
	e.Int(m.Res)
	e.Int(m.Prio)
}

func decodeMsg(d *model.Decoder, m *Msg) {
	m.Kind = Kind(d.Uint())
	m.From = d.Int()
	m.To = d.Int()
	m.Res = d.Int()
	m.Prio = d.Int()
}

// arrive is step 2 at the coordinator: a request (pid, r, prio) arrives
// (for pid 0 locally, at its own Request).
func (cfg config) arrive(c *protocol.Ctx[Proc, Msg], pid, r, prio int) {
	p := c.Self
	busy := c.Phase() == model.InCS && p.Res == r // the coordinator uses r itself
	grant := p.Has[r] && !busy
	if cfg.grantAnyFree {
		grant = len(p.Q[r]) == 0 && !busy
	}
	if grant {
		if pid == 0 {
			p.Has[r] = true
			c.Enter()
			return
		}
		p.Has[r] = false
		c.Send(Msg{Kind: TOKEN, From: 0, To: pid, Res: r})
		return
	}
	q := p.Q[r]
	if cfg.ageHead {
		// the entry release would serve next: the largest priority, the
		// earliest among equals
		if h := cfg.head(q); h >= 0 && q[h].Prio < prio {
			q[h].Prio++
		}
	}
	for k := range q {
		if !cfg.noAging && !cfg.ageHead && q[k].Prio < prio && (cfg.ageAll || k == 0) {
			q[k].Prio++
		}
	}
	p.Q[r] = append(q, Entry{PID: pid, Prio: prio})
}

// release is step 5: the token of r is home; serve the first entry of
// the largest priority, or keep the token.
func (cfg config) release(c *protocol.Ctx[Proc, Msg], r int) {
	p := c.Self
	q := p.Q[r]
	if len(q) == 0 {
		p.Has[r] = true
		return
	}
	h := cfg.head(q)
	pid := q[h].PID
	p.Q[r] = append(q[:h], q[h+1:]...)
	if pid == 0 {
		p.Has[r] = true
		c.Enter()
		return
	}
	p.Has[r] = false
	c.Send(Msg{Kind: TOKEN, From: 0, To: pid, Res: r})
}

func (cfg config) onRequest(c *protocol.Ctx[Proc, Msg], r int) {
	c.Self.Res = r
	if c.ID == 0 {
		cfg.arrive(c, 0, r, Base(0))
		return
	}
	c.Send(Msg{Kind: REQUEST, From: c.ID, To: 0, Res: r, Prio: Base(c.ID)})
}

func (cfg config) onExit(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	r := p.Res
	p.Res = -1
	if c.ID == 0 {
		cfg.release(c, r)
		return
	}
	p.Held = false
	c.Send(Msg{Kind: RETURN, From: c.ID, To: 0, Res: r})
}

func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], m *Msg) {
	p := c.Self
	switch m.Kind {
	case REQUEST:
		cfg.arrive(c, m.From, m.Res, m.Prio)
	case TOKEN:
		p.Held = true
		c.Enter()
	case RETURN:
		r := m.Res
		if cfg.wrongQueue {
			r = (r + 1) % len(p.Has)
		}
		if c.Phase() == model.InCS && p.Res == r {
			return // only in broken variants: the token of r is already home
		}
		cfg.release(c, r)
	}
}

// head returns the index of the entry served next from q: the largest
// priority, ties by arrival (or by the larger pid in tie-by-pid); -1 for an
// empty queue.
func (cfg config) head(q []Entry) int {
	if len(q) == 0 {
		return -1
	}
	h := 0
	for k := range q {
		if q[k].Prio > q[h].Prio || (cfg.tieByPID && q[k].Prio == q[h].Prio && q[k].PID > q[h].PID) {
			h = k
		}
	}
	return h
}
