package raymond

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default    = "raymond"
	KeepHolder = "raymond/keep-holder"
	NoReask    = "raymond/no-reask"
)

// Variants returns every variant name, the default first.
func Variants() []string { return []string{Default, KeepHolder, NoReask} }

// Tree shapes (the "tree" parameter).
const (
	Line   = 0 // edges i - i+1
	Binary = 1 // parent of i is (i-1)/2
	Star   = 2 // every node's parent is P0
)

// Parent returns the parent of node i != 0 in the given tree shape, rooted
// at P0.
func Parent(tree, i int) int {
	switch tree {
	case Binary:
		return (i - 1) / 2
	case Star:
		return 0
	}
	return i - 1
}

// Self is the value of Proc.Holder at the node that holds the token
// (Raymond's HOLDER = self).
const Self = -1

// Proc is the local state of one node.
type Proc struct {
	Holder int   `json:"holder"` // neighbour towards the token, or Self (-1)
	Queue  []int `json:"queue"`  // FIFO request_q
	Asked  bool  `json:"asked"`  // a REQUEST to Holder is outstanding
}

// MarshalJSON renders Queue as [] when empty.
func (p Proc) MarshalJSON() ([]byte, error) {
	type plain Proc
	q := p
	if q.Queue == nil {
		q.Queue = []int{}
	}
	return json.Marshal(plain(q))
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds.
const (
	REQUEST Kind = iota
	PRIVILEGE
)

// Msg is REQUEST(From->To) or PRIVILEGE(From->To).
type Msg struct {
	Kind Kind `json:"kind"`
	From int  `json:"from"`
	To   int  `json:"to"`
}

// FormatMsg renders m as "REQUEST(P1->P0)" or "PRIVILEGE(P0->P1)".
func FormatMsg(m *Msg) string {
	k := "REQUEST"
	if m.Kind == PRIVILEGE {
		k = "PRIVILEGE"
	}
	return fmt.Sprintf("%s(P%d->P%d)", k, m.From, m.To)
}

type config struct{ keepHolder, noReask bool }

// New builds Raymond's algorithm, or one of its mutants, on the given tree
// shape (Line, Binary or Star) for n processes making at most r requests.
func New(variant string, n, r, tree int) (*protocol.Protocol[Proc, Msg], error) {
	var cfg config
	switch variant {
	case Default, "":
		variant = Default
	case KeepHolder:
		cfg.keepHolder = true
	case NoReask:
		cfg.noReask = true
	default:
		return nil, fmt.Errorf("unknown Raymond variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
	}
	if n < 2 {
		return nil, fmt.Errorf("%s needs n >= 2 processes, got n=%d", variant, n)
	}
	if r < 1 {
		return nil, fmt.Errorf("%s needs r >= 1 requests per process, got r=%d", variant, r)
	}
	if tree < Line || tree > Star {
		return nil, fmt.Errorf("%s: tree=%d is not a tree shape; use 0 (line), 1 (binary) or 2 (star)", variant, tree)
	}
	return &protocol.Protocol[Proc, Msg]{
		Name: variant,
		N:    n,
		R:    r,
		Init: func(i int) Proc {
			if i == 0 {
				return Proc{Holder: Self}
			}
			return Proc{Holder: Parent(tree, i)}
		},
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: func(e *model.Encoder, p *Proc) {
				e.Int(p.Holder)
				e.Ints(p.Queue)
				e.Bool(p.Asked)
			},
			DecodeProc: func(d *model.Decoder, p *Proc) {
				p.Holder = d.Int()
				p.Queue = d.Ints(p.Queue)
				p.Asked = d.Bool()
			},
			EncodeMsg: func(e *model.Encoder, m *Msg) {
				e.Uint(uint64(m.Kind))
				e.Uint(uint64(m.From))
				e.Uint(uint64(m.To))
			},
			DecodeMsg: func(d *model.Decoder, m *Msg) {
				m.Kind = Kind(d.Uint())
				m.From = int(d.Uint())
				m.To = int(d.Uint())
			},
			To:   func(m *Msg) int { return m.To },
			From: func(m *Msg) int { return m.From },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: FormatMsg,
		},
		OnRequest: func(c *protocol.Ctx[Proc, Msg], _ int) {
			c.Self.Queue = append(c.Self.Queue, c.ID)
			cfg.assignAndAsk(c)
		},
		OnExit: cfg.assignAndAsk,
		OnDeliver: func(c *protocol.Ctx[Proc, Msg], m *Msg) {
			if m.Kind == REQUEST {
				c.Self.Queue = append(c.Self.Queue, m.From)
			} else {
				c.Self.Holder = Self
			}
			cfg.assignAndAsk(c)
		},
		Hooks: protocol.Hooks[Proc, Msg]{
			HoldsToken:   func(_ model.Phase, p *Proc) bool { return p.Holder == Self },
			CarriesToken: func(m *Msg) bool { return m.Kind == PRIVILEGE },
		},
	}, nil
}

// assignAndAsk runs ASSIGN_PRIVILEGE then MAKE_REQUEST.
func (cfg config) assignAndAsk(c *protocol.Ctx[Proc, Msg]) {
	p, i := c.Self, c.ID
	passed := false
	if p.Holder == Self && c.Phase() != model.InCS && len(p.Queue) > 0 {
		h := p.Queue[0]
		copy(p.Queue, p.Queue[1:])
		p.Queue = p.Queue[:len(p.Queue)-1]
		p.Asked = false
		if h == i {
			c.Enter()
		} else {
			if !cfg.keepHolder {
				p.Holder = h
			}
			c.Send(Msg{Kind: PRIVILEGE, From: i, To: h})
			passed = true
		}
	}
	if passed && cfg.noReask {
		return
	}
	if p.Holder != Self && len(p.Queue) > 0 && !p.Asked {
		c.Send(Msg{Kind: REQUEST, From: i, To: p.Holder})
		p.Asked = true
	}
}
