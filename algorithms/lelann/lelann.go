package lelann

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default     = "lelann"
	PassOnEntry = "lelann/pass-on-entry"
	DropOnExit  = "lelann/drop-on-exit"
)

// Variants returns every variant name, the default first.
func Variants() []string { return []string{Default, DropOnExit, PassOnEntry} }

// Proc is the local state of one process.
type Proc struct {
	// Has reports whether the process holds the token (in the correct
	// model: exactly while it is InCS).
	Has bool `json:"has"`
}

// Msg is the token on its way to process To.
type Msg struct {
	To int `json:"to"`
}

// FormatMsg renders m as "TOKEN(->P1)".
func FormatMsg(m *Msg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) }

type config struct{ passOnEntry, dropOnExit bool }

// New builds Le Lann's ring, or one of its mutants, for n processes making
// at most r requests each. variant is one of Variants; "" selects the
// default.
func New(variant string, n, r int) (*protocol.Protocol[Proc, Msg], error) {
	var cfg config
	switch variant {
	case Default, "":
		variant = Default
	case PassOnEntry:
		cfg.passOnEntry = true
	case DropOnExit:
		cfg.dropOnExit = true
	default:
		return nil, fmt.Errorf("unknown Le Lann variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
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
		Hooks: protocol.Hooks[Proc, Msg]{
			InitialMessages: func() []Msg { return []Msg{{To: 0}} },
			HoldsToken:      func(_ model.Phase, p *Proc) bool { return p.Has },
			CarriesToken:    func(*Msg) bool { return true },
		},
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: func(e *model.Encoder, p *Proc) { e.Bool(p.Has) },
			DecodeProc: func(d *model.Decoder, p *Proc) { p.Has = d.Bool() },
			EncodeMsg:  func(e *model.Encoder, m *Msg) { e.Uint(uint64(m.To)) },
			DecodeMsg:  func(d *model.Decoder, m *Msg) { m.To = int(d.Uint()) },
			To:         func(m *Msg) int { return m.To },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: FormatMsg,
		},
		OnRequest: func(*protocol.Ctx[Proc, Msg], int) {}, // wait for the token
		OnExit:    cfg.onExit,
		OnDeliver: cfg.onDeliver,
	}, nil
}

// pass sends the token to the ring successor and drops the local copy.
func pass(c *protocol.Ctx[Proc, Msg]) {
	c.Self.Has = false
	c.Send(Msg{To: (c.ID + 1) % c.N})
}

// onDeliver is rule 2: a Waiting process keeps the token and enters, any
// other passes it on.
func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], _ *Msg) {
	if c.Phase() != model.Waiting {
		pass(c)
		return
	}
	c.Self.Has = true
	c.Enter()
	if cfg.passOnEntry {
		c.Send(Msg{To: (c.ID + 1) % c.N}) // keeps its copy: two tokens
	}
}

// onExit is rule 3.
func (cfg config) onExit(c *protocol.Ctx[Proc, Msg]) {
	if cfg.dropOnExit {
		c.Self.Has = false // the token is lost
		return
	}
	if cfg.passOnEntry {
		c.Self.Has = false // drop the copy: the token moved on at entry
		return
	}
	pass(c)
}
