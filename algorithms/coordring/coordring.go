package coordring

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default           = "coord-ring"
	GrantIfQueueEmpty = "coord-ring/grant-if-queue-empty"
	KeepCopy          = "coord-ring/keep-copy"
	DropAfterWait     = "coord-ring/drop-after-wait"
	LIFO              = "coord-ring/lifo"
)

// Variants returns every variant name, the default first.
func Variants() []string {
	return []string{Default, DropAfterWait, GrantIfQueueEmpty, KeepCopy, LIFO}
}

// config selects the mutations of a variant; the zero value is the default.
type config struct {
	grantIfQueueEmpty bool // REQUEST handler tests "queue empty" instead of Has
	keepCopy          bool // a client keeps Has after returning the token
	dropAfterWait     bool // REQUEST handler answers WAIT but does not queue
	lifo              bool // step 6 serves the largest (newest) stamp first
	noWait            bool // cyclic clients: WAIT is not sent (package doc)
}

func configOf(variant string) (config, bool) {
	switch variant {
	case Default, "":
		return config{}, true
	case GrantIfQueueEmpty:
		return config{grantIfQueueEmpty: true}, true
	case KeepCopy:
		return config{keepCopy: true}, true
	case DropAfterWait:
		return config{dropAfterWait: true}, true
	case LIFO:
		return config{lifo: true}, true
	}
	return config{}, false
}

// Entry is one request in the coordinator's REQUEST QUEUE.
type Entry struct {
	PID int `json:"pid"`
	TS  int `json:"ts"`
}

// Proc is the local state of one process. The client phase and the request
// count are kept by the protocol layer.
type Proc struct {
	// Clock is the process's Lamport clock: the stamp of its last request,
	// raised to the coordinator's clock on every WAIT or TOKEN.
	Clock int `json:"clock"`
	// Has reports whether the process holds the token.
	Has bool `json:"has"`
	// Queue is the coordinator's REQUEST QUEUE, sorted by (TS, PID); always
	// empty at clients.
	Queue []Entry `json:"queue,omitempty"`
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds (algorithms.md §2).
const (
	REQUEST Kind = iota // client -> coordinator: PID and request time stamp
	WAIT                // coordinator -> client: the token is busy, you are queued
	TOKEN               // coordinator -> client: the token
	RETURN              // client -> coordinator: the token, back after the CS
)

var kindNames = [...]string{"REQUEST", "WAIT", "TOKEN", "RETURN"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Msg is a message in transit: REQUEST(From->P0, ts), WAIT(->To, clock),
// TOKEN(->To, clock) or RETURN(From->P0).
type Msg struct {
	Kind Kind `json:"kind"`
	From int  `json:"from"` // REQUEST and RETURN: the client; WAIT and TOKEN: 0
	To   int  `json:"to"`
	// TS is the request stamp of a REQUEST, or the coordinator's clock
	// carried by a WAIT or TOKEN; 0 in a RETURN.
	TS int `json:"ts"`
}

// FormatMsg renders m as "REQUEST(P1->P0, ts=1)", "WAIT(P0->P2, clock=1)",
// "TOKEN(P0->P1, clock=1)" or "RETURN(P1->P0)".
func FormatMsg(m *Msg) string {
	switch m.Kind {
	case REQUEST:
		return fmt.Sprintf("REQUEST(P%d->P%d, ts=%d)", m.From, m.To, m.TS)
	case WAIT, TOKEN:
		return fmt.Sprintf("%v(P%d->P%d, clock=%d)", m.Kind, m.From, m.To, m.TS)
	case RETURN:
		return fmt.Sprintf("RETURN(P%d->P%d)", m.From, m.To)
	}
	return fmt.Sprintf("%v(P%d->P%d)", m.Kind, m.From, m.To)
}

// New builds the coordinator token ring for n processes (P0 the
// coordinator) making at most r requests each. variant is one of Variants;
// "" selects the default.
func New(variant string, n, r int) (*protocol.Protocol[Proc, Msg], error) {
	return newProtocol(variant, n, r, false)
}

// newProtocol is New; cyclic selects the cyclic-client protocol (Cyclic
// set, no WAIT messages), for which r is not checked.
func newProtocol(variant string, n, r int, cyclic bool) (*protocol.Protocol[Proc, Msg], error) {
	cfg, ok := configOf(variant)
	cfg.noWait = cyclic
	if !ok {
		return nil, fmt.Errorf("unknown coord-ring variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
	}
	if variant == "" {
		variant = Default
	}
	if n < 2 {
		return nil, fmt.Errorf("%s needs n >= 2 processes (the coordinator P0 and a client), got n=%d", variant, n)
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
		},
		Init: func(i int) Proc { return Proc{Has: i == 0} },
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
			HoldsToken:   func(_ model.Phase, p *Proc) bool { return p.Has },
			CarriesToken: func(m *Msg) bool { return m.Kind == TOKEN || m.Kind == RETURN },
		},
	}, nil
}

func encodeProc(e *model.Encoder, p *Proc) {
	e.Int(p.Clock)
	e.Bool(p.Has)
	e.Uint(uint64(len(p.Queue)))
	for _, q := range p.Queue {
		e.Int(q.PID)
		e.Int(q.TS)
	}
}

func decodeProc(d *model.Decoder, p *Proc) {
	p.Clock = d.Int()
	p.Has = d.Bool()
	n := int(d.Uint())
	p.Queue = p.Queue[:0]
	for range n {
		p.Queue = append(p.Queue, Entry{PID: d.Int(), TS: d.Int()})
	}
}

func encodeMsg(e *model.Encoder, m *Msg) {
	e.Uint(uint64(m.Kind))
	e.Int(m.From)
	e.Int(m.To)
	e.Int(m.TS)
}

func decodeMsg(d *model.Decoder, m *Msg) {
	m.Kind = Kind(d.Uint())
	m.From = d.Int()
	m.To = d.Int()
	m.TS = d.Int()
}

// insert puts (pid, ts) into the queue, keeping it sorted by (TS, PID).
func insert(q []Entry, e Entry) []Entry {
	k := len(q)
	for k > 0 && (q[k-1].TS > e.TS || (q[k-1].TS == e.TS && q[k-1].PID > e.PID)) {
		k--
	}
	q = append(q, Entry{})
	copy(q[k+1:], q[k:])
	q[k] = e
	return q
}

// onRequest is step 1, and for the coordinator the local form of step 2.
func (cfg config) onRequest(c *protocol.Ctx[Proc, Msg], _ int) {
	p := c.Self
	if c.ID != 0 && cfg.keepCopy && p.Has {
		c.Enter() // keep-copy: "I still have the token"
		return
	}
	p.Clock++
	if c.ID == 0 {
		// The coordinator is a client too (no message to itself).
		if p.Has && len(p.Queue) == 0 {
			c.Enter()
			return
		}
		p.Queue = insert(p.Queue, Entry{PID: 0, TS: p.Clock})
		return
	}
	c.Send(Msg{Kind: REQUEST, From: c.ID, To: 0, TS: p.Clock})
}

// onExit is step 5 (for the coordinator: step 6 run locally).
func (cfg config) onExit(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	if c.ID == 0 {
		cfg.release(c)
		return
	}
	if !cfg.keepCopy {
		p.Has = false
	}
	c.Send(Msg{Kind: RETURN, From: c.ID, To: 0})
}

// release is step 6 at the coordinator, which holds the token and is not in
// its CS: serve the smallest stamp, or keep the token.
func (cfg config) release(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	p.Has = true
	if len(p.Queue) == 0 {
		return
	}
	var h Entry
	if cfg.lifo {
		h = p.Queue[len(p.Queue)-1]
		p.Queue = p.Queue[:len(p.Queue)-1]
	} else {
		h = p.Queue[0]
		p.Queue = append(p.Queue[:0], p.Queue[1:]...)
	}
	if h.PID == 0 {
		c.Enter()
		return
	}
	p.Has = false
	c.Send(Msg{Kind: TOKEN, From: 0, To: h.PID, TS: p.Clock})
}

// onDeliver is steps 2, 3, 4 and 6.
func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], m *Msg) {
	p := c.Self
	switch m.Kind {
	case REQUEST:
		p.Clock = max(p.Clock, m.TS)
		grant := p.Has && c.Phase() != model.InCS
		if cfg.grantIfQueueEmpty {
			grant = len(p.Queue) == 0 && c.Phase() != model.InCS
		}
		if grant {
			p.Has = false
			c.Send(Msg{Kind: TOKEN, From: 0, To: m.From, TS: p.Clock})
			return
		}
		if !cfg.dropAfterWait {
			p.Queue = insert(p.Queue, Entry{PID: m.From, TS: m.TS})
		}
		if !cfg.noWait {
			c.Send(Msg{Kind: WAIT, From: 0, To: m.From, TS: p.Clock})
		}
	case WAIT:
		p.Clock = max(p.Clock, m.TS)
	case TOKEN:
		p.Clock = max(p.Clock, m.TS)
		p.Has = true
		c.Enter()
	case RETURN:
		if c.Phase() == model.InCS {
			// Only in broken variants can the coordinator be in its CS
			// while a token comes back; it keeps it.
			p.Has = true
			return
		}
		cfg.release(c)
	}
}

// NameQueueServesWaiting is the name of QueueServesWaiting.
const NameQueueServesWaiting = "queue-serves-waiting"

// QueueServesWaiting is the algorithm-specific invariant of the package
// doc: every entry of the REQUEST QUEUE and every TOKEN receiver is a
// Waiting process, no process is queued twice or both queued and sent the
// token, and a coordinator that holds the token outside its CS has an empty
// queue (it serves a request as soon as it can).
var QueueServesWaiting = protocol.Invariant(NameQueueServesWaiting,
	"every queued process and every TOKEN receiver is Waiting and served at most once; an idle coordinator holding the token has an empty queue",
	func(v *protocol.View[Proc, Msg]) bool {
		seen := make([]bool, v.Processes())
		ok := true
		mark := func(i int) {
			if i < 0 || i >= len(seen) || seen[i] || v.Phase(i) != model.Waiting {
				ok = false
				return
			}
			seen[i] = true
		}
		c := v.Local(0)
		for _, e := range c.Queue {
			mark(e.PID)
		}
		if c.Has && v.Phase(0) != model.InCS && len(c.Queue) > 0 {
			return false
		}
		v.Messages(func(m *Msg, copies int) {
			if m.Kind == TOKEN {
				for range copies {
					mark(m.To)
				}
			}
		})
		return ok
	})

// Properties returns the algorithm-specific properties, checked in addition
// to the generic ones of package invariants.
func Properties() []model.Property {
	return []model.Property{QueueServesWaiting}
}
