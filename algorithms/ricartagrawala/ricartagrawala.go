package ricartagrawala

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default        = "ricart-agrawala"
	NoMax          = "ricart-agrawala/no-max"
	ReplyOnTie     = "ricart-agrawala/reply-on-tie"
	ForgetDeferred = "ricart-agrawala/forget-deferred"
)

// Variants returns every variant name, the default first.
func Variants() []string { return []string{Default, ForgetDeferred, NoMax, ReplyOnTie} }

// Proc is the local state of one process.
type Proc struct {
	OurSeq      int   `json:"our_seq"`     // sequence number of the current request; 0 when Idle
	Highest     int   `json:"highest_seq"` // largest sequence number seen
	Outstanding int   `json:"outstanding"` // replies still awaited
	Deferred    []int `json:"deferred"`    // processes whose REQUEST awaits our REPLY, sorted
}

// MarshalJSON renders Deferred as [] when empty.
func (p Proc) MarshalJSON() ([]byte, error) {
	type plain Proc
	q := p
	if q.Deferred == nil {
		q.Deferred = []int{}
	}
	return json.Marshal(plain(q))
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds.
const (
	REQUEST Kind = iota
	REPLY
)

// Msg is REQUEST(From->To, SN) or REPLY(From->To).
type Msg struct {
	Kind Kind `json:"kind"`
	From int  `json:"from"`
	To   int  `json:"to"`
	SN   int  `json:"sn,omitempty"`
}

// FormatMsg renders m as "REQUEST(P1->P0, sn=1)" or "REPLY(P0->P1)".
func FormatMsg(m *Msg) string {
	if m.Kind == REPLY {
		return fmt.Sprintf("REPLY(P%d->P%d)", m.From, m.To)
	}
	return fmt.Sprintf("REQUEST(P%d->P%d, sn=%d)", m.From, m.To, m.SN)
}

type config struct{ noMax, replyOnTie, forgetDeferred bool }

// New builds Ricart-Agrawala, or one of its mutants, for n processes making
// at most r requests each.
func New(variant string, n, r int) (*protocol.Protocol[Proc, Msg], error) {
	var cfg config
	switch variant {
	case Default, "":
		variant = Default
	case NoMax:
		cfg.noMax = true
	case ReplyOnTie:
		cfg.replyOnTie = true
	case ForgetDeferred:
		cfg.forgetDeferred = true
	default:
		return nil, fmt.Errorf("unknown Ricart-Agrawala variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
	}
	if n < 2 {
		return nil, fmt.Errorf("%s needs n >= 2 processes, got n=%d", variant, n)
	}
	if r < 1 {
		return nil, fmt.Errorf("%s needs r >= 1 requests per process, got r=%d", variant, r)
	}
	return &protocol.Protocol[Proc, Msg]{
		Name: variant,
		N:    n,
		R:    r,
		Init: func(int) Proc { return Proc{} },
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: func(e *model.Encoder, p *Proc) {
				e.Uint(uint64(p.OurSeq))
				e.Uint(uint64(p.Highest))
				e.Uint(uint64(p.Outstanding))
				e.Ints(p.Deferred)
			},
			DecodeProc: func(d *model.Decoder, p *Proc) {
				p.OurSeq = int(d.Uint())
				p.Highest = int(d.Uint())
				p.Outstanding = int(d.Uint())
				p.Deferred = d.Ints(p.Deferred)
			},
			EncodeMsg: func(e *model.Encoder, m *Msg) {
				e.Uint(uint64(m.Kind))
				e.Uint(uint64(m.From))
				e.Uint(uint64(m.To))
				if m.Kind == REQUEST {
					e.Uint(uint64(m.SN))
				}
			},
			DecodeMsg: func(d *model.Decoder, m *Msg) {
				m.Kind = Kind(d.Uint())
				m.From = int(d.Uint())
				m.To = int(d.Uint())
				m.SN = 0
				if m.Kind == REQUEST {
					m.SN = int(d.Uint())
				}
			},
			To:   func(m *Msg) int { return m.To },
			From: func(m *Msg) int { return m.From },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: FormatMsg,
		},
		OnRequest: onRequest,
		OnExit:    cfg.onExit,
		OnDeliver: cfg.onDeliver,
		// No token: HoldsToken and CarriesToken stay nil, so single-token
		// does not apply.
	}, nil
}

// onRequest is rule 1.
func onRequest(c *protocol.Ctx[Proc, Msg], _ int) {
	p := c.Self
	p.OurSeq = p.Highest + 1
	p.Outstanding = c.N - 1
	for j := range c.N {
		if j != c.ID {
			c.Send(Msg{Kind: REQUEST, From: c.ID, To: j, SN: p.OurSeq})
		}
	}
}

// onDeliver is rules 2 and 3.
func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], m *Msg) {
	p := c.Self
	if m.Kind == REPLY {
		p.Outstanding--
		if p.Outstanding == 0 {
			c.Enter()
		}
		return
	}
	k, j := m.SN, m.From
	if !cfg.noMax {
		p.Highest = max(p.Highest, k)
	}
	requesting := c.Phase() != model.Idle
	later := k > p.OurSeq || (k == p.OurSeq && j > c.ID && !cfg.replyOnTie)
	if requesting && later {
		p.Deferred = insertSorted(p.Deferred, j)
		return
	}
	c.Send(Msg{Kind: REPLY, From: c.ID, To: j})
}

// onExit is rule 4.
func (cfg config) onExit(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	if !cfg.forgetDeferred {
		for _, j := range p.Deferred {
			c.Send(Msg{Kind: REPLY, From: c.ID, To: j})
		}
	}
	p.Deferred = p.Deferred[:0]
	p.OurSeq = 0
}

func insertSorted(list []int, x int) []int {
	k := 0
	for k < len(list) && list[k] < x {
		k++
	}
	if k < len(list) && list[k] == x {
		return list
	}
	list = append(list, 0)
	copy(list[k+1:], list[k:])
	list[k] = x
	return list
}
