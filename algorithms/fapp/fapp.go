package fapp

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default  = "fapp"
	Literal  = "fapp/literal"
	KeepRoot = "fapp/keep-root"
	NoDummy  = "fapp/no-dummy"
	NoAging  = "fapp/no-aging"
)

// Variants returns every variant name, the default first.
func Variants() []string {
	return []string{Default, Literal, KeepRoot, NoDummy, NoAging}
}

// Tree shapes (the "tree" parameter).
const (
	Line = 0 // edges i -- i+1
	Star = 1 // every process attached to P0
)

type config struct {
	idleRootKeeps bool // literal: a root only queues a request, never hands over
	keepRoot      bool // the sender of the token still believes it is the root
	noDummy       bool // no request back after passing the token on
	noAging       bool // Rule 1 removed: a REQ never ages other entries
}

func configOf(variant string) (config, bool) {
	switch variant {
	case Default, "":
		return config{}, true
	case Literal:
		return config{idleRootKeeps: true}, true
	case KeepRoot:
		return config{keepRoot: true}, true
	case NoDummy:
		return config{noDummy: true}, true
	case NoAging:
		return config{noAging: true}, true
	}
	return config{}, false
}

// Entry is one entry of a priority list: a pending request of process Who
// (the process itself or a neighbour, on behalf of its subtree) with its
// current priority.
type Entry struct {
	Who  int `json:"who"`
	Prio int `json:"prio"`
}

// Proc is the local state of one process.
type Proc struct {
	// ID is the process's own id (constant), so that HoldsToken can tell
	// whether Holder points to the process itself.
	ID int `json:"-"`
	// Holder is the neighbour in the direction of the token, or the process
	// itself when it holds the token (it is the root, P_hold).
	Holder int `json:"holder"`
	// PL is the priority list in arrival order (FCFS): the entry served
	// next is the first one with the largest priority.
	PL []Entry `json:"pl,omitempty"`
	// Asked is the priority of the outstanding request sent to Holder, or
	// -1 for none.
	Asked int `json:"asked"`
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds.
const (
	REQ   Kind = iota // token request <From, Prio> to a holder
	TOKEN             // the token, to a neighbour
)

// Msg is a message in transit: REQ(From->To, prio) or TOKEN(From->To).
type Msg struct {
	Kind Kind `json:"kind"`
	From int  `json:"from"`
	To   int  `json:"to"`
	Prio int  `json:"prio"` // REQ only; 0 in a TOKEN
}

// FormatMsg renders m as "REQ(P1->P0, prio=1)" or "TOKEN(P0->P1)".
func FormatMsg(m *Msg) string {
	if m.Kind == TOKEN {
		return fmt.Sprintf("TOKEN(P%d->P%d)", m.From, m.To)
	}
	return fmt.Sprintf("REQ(P%d->P%d, prio=%d)", m.From, m.To, m.Prio)
}

// Base returns the base priority of process i: its id (larger = more
// urgent), the priority it requests with and returns to after its CS
// (Rule 2).
func Base(i int) int { return i }

// parent returns process i's initial holder on the given tree rooted at P0.
func parent(tree, i int) int {
	if i == 0 {
		return 0
	}
	if tree == Star {
		return 0
	}
	return i - 1
}

// New builds FAPP for n processes on the given tree (Line or Star) with at
// most r requests each. variant is one of Variants; "" selects the default.
func New(variant string, n, tree, r int) (*protocol.Protocol[Proc, Msg], error) {
	return newProtocol(variant, n, tree, r, false)
}

// NewCyclic builds FAPP with cyclic clients (R = infinity:
// protocol.Protocol.Cyclic, every process requests again whenever it is
// Idle), for starvation checks. Nothing is renumbered: see the package
// doc, "Cyclic clients".
func NewCyclic(variant string, n, tree int) (*protocol.Protocol[Proc, Msg], error) {
	return newProtocol(variant, n, tree, 0, true)
}

func newProtocol(variant string, n, tree, r int, cyclic bool) (*protocol.Protocol[Proc, Msg], error) {
	cfg, ok := configOf(variant)
	if !ok {
		return nil, fmt.Errorf("unknown fapp variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
	}
	if variant == "" {
		variant = Default
	}
	if n < 2 {
		return nil, fmt.Errorf("%s needs n >= 2 processes, got n=%d", variant, n)
	}
	if tree != Line && tree != Star {
		return nil, fmt.Errorf("%s: tree=%d is not a tree shape; use 0 (line) or 1 (star)", variant, tree)
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
		Init: func(i int) Proc { return Proc{ID: i, Holder: parent(tree, i), Asked: -1} },
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
			HoldsToken:   func(_ model.Phase, p *Proc) bool { return p.Holder == p.ID },
			CarriesToken: func(m *Msg) bool { return m.Kind == TOKEN },
		},
	}, nil
}

func encodeProc(e *model.Encoder, p *Proc) {
	e.Int(p.ID)
	e.Int(p.Holder)
	e.Int(p.Asked)
	e.Uint(uint64(len(p.PL)))
	for _, x := range p.PL {
		e.Int(x.Who)
		e.Int(x.Prio)
	}
}

func decodeProc(d *model.Decoder, p *Proc) {
	p.ID = d.Int()
	p.Holder = d.Int()
	p.Asked = d.Int()
	n := int(d.Uint())
	p.PL = p.PL[:0]
	for range n {
		p.PL = append(p.PL, Entry{Who: d.Int(), Prio: d.Int()})
	}
}

func encodeMsg(e *model.Encoder, m *Msg) {
	e.Uint(uint64(m.Kind))
	e.Int(m.From)
	e.Int(m.To)
	e.Int(m.Prio)
}

func decodeMsg(d *model.Decoder, m *Msg) {
	m.Kind = Kind(d.Uint())
	m.From = d.Int()
	m.To = d.Int()
	m.Prio = d.Int()
}

// head returns the index of the entry served next: the first (earliest
// arrival) among those with the largest priority; -1 if PL is empty.
func head(pl []Entry) int {
	h := -1
	for k, x := range pl {
		if h < 0 || x.Prio > pl[h].Prio {
			h = k
		}
	}
	return h
}

// insert adds (who, prio) at the end of PL (its arrival), or raises an
// existing entry of who to max(old, prio) in place (it keeps its arrival).
func insert(pl []Entry, who, prio int) []Entry {
	for k := range pl {
		if pl[k].Who == who {
			pl[k].Prio = max(pl[k].Prio, prio)
			return pl
		}
	}
	return append(pl, Entry{Who: who, Prio: prio})
}

// ask sends a request for the token to Holder with the largest priority
// in PL, unless one at least as urgent is outstanding ("the process may
// stop at an intermediate node"). An entry of the holder itself does not
// count: asking the holder for the token on the holder's own behalf is
// pointless (its REQ overtook the TOKEN it sent here, or it is a stale
// upgrade whose token has already been sent towards it).
func (cfg config) ask(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	if p.Holder == c.ID {
		return
	}
	x := -1
	for _, e := range p.PL {
		if e.Who != p.Holder {
			x = max(x, e.Prio)
		}
	}
	if x >= 0 && (p.Asked < 0 || x > p.Asked) {
		p.Asked = x
		c.Send(Msg{Kind: REQ, From: c.ID, To: p.Holder, Prio: x})
	}
}

// grant runs at a root outside its CS with a non-empty PL: the head
// enters (itself) or receives the token (a neighbour; path reversal), and
// then the root asks the new holder for the token back on behalf of the
// remaining entries (the dummy token request).
func (cfg config) grant(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	h := head(p.PL)
	if h < 0 || c.Phase() == model.InCS {
		return
	}
	g := p.PL[h].Who
	p.PL = append(p.PL[:h], p.PL[h+1:]...)
	p.Asked = -1
	if g == c.ID {
		c.Enter()
		return
	}
	c.Send(Msg{Kind: TOKEN, From: c.ID, To: g})
	if cfg.keepRoot {
		return
	}
	p.Holder = g
	if !cfg.noDummy {
		cfg.ask(c)
	}
}

// onRequest: insert <M, base> into PL_M (no aging: Rule 1 is about
// requests from another process); a root grants, others ask.
func (cfg config) onRequest(c *protocol.Ctx[Proc, Msg], _ int) {
	p := c.Self
	p.PL = insert(p.PL, c.ID, Base(c.ID))
	if p.Holder == c.ID {
		cfg.grant(c)
		return
	}
	cfg.ask(c)
}

// onExit: Rule 2 (the own entry left PL when the CS was granted, so the
// next request uses the base priority); serve the next entry.
func (cfg config) onExit(c *protocol.Ctx[Proc, Msg]) {
	if c.Self.Holder == c.ID {
		cfg.grant(c)
	}
}

func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], m *Msg) {
	p := c.Self
	switch m.Kind {
	case REQ:
		// Rule 1: every other entry with a lower priority ages by one.
		for k := range p.PL {
			if !cfg.noAging && p.PL[k].Who != m.From && p.PL[k].Prio < m.Prio {
				p.PL[k].Prio++
			}
		}
		p.PL = insert(p.PL, m.From, m.Prio)
		if p.Holder == c.ID {
			if !cfg.idleRootKeeps {
				cfg.grant(c)
			}
			return
		}
		cfg.ask(c)
	case TOKEN:
		p.Holder = c.ID
		p.Asked = -1
		cfg.grant(c)
	}
}

// NameGrantMaximal is the name of the algorithm-specific invariant
// RootOwesNothing.
const NameGrantMaximal = "idle-root-empty"

// RootOwesNothing is the local form of "the token goes to the highest
// priority pending request at once": a root outside its CS has an empty
// priority list (it granted the head as soon as it could). It fails in the
// literal reading, whose idle root keeps requests.
var RootOwesNothing = protocol.Invariant(NameGrantMaximal,
	"a process that holds the token outside its CS has an empty priority list",
	func(v *protocol.View[Proc, Msg]) bool {
		for i := range v.Processes() {
			if p := v.Local(i); p.Holder == i && v.Phase(i) != model.InCS && len(p.PL) > 0 {
				return false
			}
		}
		return true
	})

// Properties returns the algorithm-specific properties, checked in addition
// to the generic ones of package invariants.
func Properties() []model.Property {
	return []model.Property{RootOwesNothing}
}
