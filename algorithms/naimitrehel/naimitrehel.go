package naimitrehel

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default  = "naimi-trehel"
	SendInCS = "naimi-trehel/send-in-cs"
	DropNext = "naimi-trehel/drop-next"
)

// Variants returns every variant name, the default first.
func Variants() []string { return []string{Default, DropNext, SendInCS} }

// Nil is the value of Proc.Last and Proc.Next that the paper writes nil.
const Nil = -1

// Proc is the local state of one process.
type Proc struct {
	Last  int  `json:"last"`  // probable owner, or Nil at the root
	Next  int  `json:"next"`  // who gets the token after the CS, or Nil
	Token bool `json:"token"` // token_present
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds.
const (
	REQUEST Kind = iota
	TOKEN
)

// Msg is REQUEST(Origin, ->To) or TOKEN(->To).
type Msg struct {
	Kind   Kind `json:"kind"`
	Origin int  `json:"origin,omitempty"` // the requester of a REQUEST
	To     int  `json:"to"`
}

// FormatMsg renders m as "REQUEST(P2, ->P0)" (P2's request, on its way to
// P0) or "TOKEN(->P1)".
func FormatMsg(m *Msg) string {
	if m.Kind == TOKEN {
		return fmt.Sprintf("TOKEN(->P%d)", m.To)
	}
	return fmt.Sprintf("REQUEST(P%d, ->P%d)", m.Origin, m.To)
}

type config struct{ sendInCS, dropNext bool }

// New builds the Naimi-Trehel algorithm, or one of its mutants, for n
// processes making at most r requests each.
func New(variant string, n, r int) (*protocol.Protocol[Proc, Msg], error) {
	var cfg config
	switch variant {
	case Default, "":
		variant = Default
	case SendInCS:
		cfg.sendInCS = true
	case DropNext:
		cfg.dropNext = true
	default:
		return nil, fmt.Errorf("unknown Naimi-Trehel variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
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
		Init: func(i int) Proc {
			if i == 0 {
				return Proc{Last: Nil, Next: Nil, Token: true}
			}
			return Proc{Last: 0, Next: Nil}
		},
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: func(e *model.Encoder, p *Proc) {
				e.Int(p.Last)
				e.Int(p.Next)
				e.Bool(p.Token)
			},
			DecodeProc: func(d *model.Decoder, p *Proc) {
				p.Last = d.Int()
				p.Next = d.Int()
				p.Token = d.Bool()
			},
			EncodeMsg: func(e *model.Encoder, m *Msg) {
				e.Uint(uint64(m.Kind))
				e.Uint(uint64(m.To))
				if m.Kind == REQUEST {
					e.Uint(uint64(m.Origin))
				}
			},
			DecodeMsg: func(d *model.Decoder, m *Msg) {
				m.Kind = Kind(d.Uint())
				m.To = int(d.Uint())
				m.Origin = 0
				if m.Kind == REQUEST {
					m.Origin = int(d.Uint())
				}
			},
			To: func(m *Msg) int { return m.To },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: FormatMsg,
		},
		OnRequest: onRequest,
		OnExit:    onExit,
		OnDeliver: cfg.onDeliver,
		Hooks: protocol.Hooks[Proc, Msg]{
			HoldsToken:   func(_ model.Phase, p *Proc) bool { return p.Token },
			CarriesToken: func(m *Msg) bool { return m.Kind == TOKEN },
		},
	}, nil
}

// onRequest is rule 1.
func onRequest(c *protocol.Ctx[Proc, Msg], _ int) {
	p := c.Self
	if p.Last == Nil {
		c.Enter() // the root holds the token
		return
	}
	c.Send(Msg{Kind: REQUEST, Origin: c.ID, To: p.Last})
	p.Last = Nil
}

// onExit is rule 2.
func onExit(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	if p.Next != Nil {
		c.Send(Msg{Kind: TOKEN, To: p.Next})
		p.Token = false
		p.Next = Nil
	}
}

// onDeliver is rules 3 and 4.
func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], m *Msg) {
	p := c.Self
	if m.Kind == TOKEN {
		p.Token = true
		c.Enter()
		return
	}
	j := m.Origin
	switch {
	case p.Last != Nil:
		c.Send(Msg{Kind: REQUEST, Origin: j, To: p.Last})
	case c.Phase() == model.Idle || (cfg.sendInCS && p.Token):
		c.Send(Msg{Kind: TOKEN, To: j})
		p.Token = false
	case !cfg.dropNext:
		p.Next = j
	}
	p.Last = j
}
