package multitokenring

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default   = "multi-token-ring"
	Literal   = "multi-token-ring/literal"
	NoMax     = "multi-token-ring/no-max"
	PassInCS  = "multi-token-ring/pass-in-cs"
	NoRelease = "multi-token-ring/no-release"
)

// Variants returns every variant name, the default first.
func Variants() []string {
	return []string{Default, Literal, NoMax, NoRelease, PassInCS}
}

// config selects the deviations of a variant; the zero value is the default.
type config struct {
	rewrite   bool // literal: a forwarder with no interest replaces sn by its H
	noMax     bool // H is never updated from received tokens
	passInCS  bool // a process InCS for r forwards tokens for r
	noRelease bool // Exit drops the held-back tokens instead of sending them
}

func configOf(variant string) (config, bool) {
	switch variant {
	case Default, "":
		return config{}, true
	case Literal:
		return config{rewrite: true}, true
	case NoMax:
		return config{noMax: true}, true
	case PassInCS:
		return config{passInCS: true}, true
	case NoRelease:
		return config{noRelease: true}, true
	}
	return config{}, false
}

// Token is a request token: TokenID = (SN, Owner) and ResourceID Res.
type Token struct {
	Owner int `json:"owner"`
	SN    int `json:"sn"`
	Res   int `json:"res"`
}

// before reports whether a has priority over b: the smaller (SN, Owner).
func (a Token) before(b Token) bool {
	return a.SN < b.SN || (a.SN == b.SN && a.Owner < b.Owner)
}

// Proc is the local state of one process. The client phase, the request
// count and the requested resource (the request argument) are kept by the
// protocol layer as well; Res repeats the resource so that handlers and
// invariants read it from the process.
type Proc struct {
	// Res is the resource of the current request or CS; -1 when Idle.
	Res int `json:"res"`
	// MySN is the sequence number of the process's own token (its "copy");
	// 0 when Idle.
	MySN int `json:"mysn"`
	// H is HSeqNumSeen, the highest sequence number seen so far.
	H int `json:"h"`
	// Held are the tokens held back, in order of arrival. They are all for
	// Res: a process holds back only tokens for the resource it waits for
	// or uses, so one list serves for the paper's per-resource queues.
	Held []Token `json:"held,omitempty"`
}

// Msg is a token in transit to To.
type Msg struct {
	To  int   `json:"to"`
	Tok Token `json:"tok"`
}

// FormatMsg renders m as "TOKEN(->P1, owner=P0, sn=1, r=0)".
func FormatMsg(m *Msg) string {
	return fmt.Sprintf("TOKEN(->P%d, owner=P%d, sn=%d, r=%d)", m.To, m.Tok.Owner, m.Tok.SN, m.Tok.Res)
}

// New builds the several-tokens ring for n processes, k resources and at
// most r requests per process. variant is one of Variants; "" selects the
// default.
func New(variant string, n, k, r int) (*protocol.Protocol[Proc, Msg], error) {
	cfg, ok := configOf(variant)
	if !ok {
		return nil, fmt.Errorf("unknown multi-token-ring variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
	}
	if variant == "" {
		variant = Default
	}
	if n < 2 {
		return nil, fmt.Errorf("%s needs n >= 2 processes, got n=%d", variant, n)
	}
	if k < 1 {
		return nil, fmt.Errorf("%s needs k >= 1 resources, got k=%d", variant, k)
	}
	if r < 1 {
		return nil, fmt.Errorf("%s needs r >= 1 requests per process, got r=%d", variant, r)
	}
	return &protocol.Protocol[Proc, Msg]{
		Name: variant,
		N:    n,
		R:    r,
		Options: protocol.Options{
			Groups: k,
		},
		Init: func(int) Proc { return Proc{Res: -1} },
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: encodeProc,
			DecodeProc: decodeProc,
			EncodeMsg:  encodeMsg,
			DecodeMsg:  decodeMsg,
			To:         func(m *Msg) int { return m.To },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: FormatMsg,
		},
		OnRequest: cfg.onRequest,
		OnExit:    cfg.onExit,
		OnDeliver: cfg.onDeliver,
	}, nil
}

func encodeTok(e *model.Encoder, t Token) {
	e.Int(t.Owner)
	e.Int(t.SN)
	e.Int(t.Res)
}

func decodeTok(d *model.Decoder) Token {
	return Token{Owner: d.Int(), SN: d.Int(), Res: d.Int()}
}

func encodeProc(e *model.Encoder, p *Proc) {
	e.Int(p.Res)
	e.Int(p.MySN)
	e.Int(p.H)
	e.Uint(uint64(len(p.Held)))
	for _, t := range p.Held {
		encodeTok(e, t)
	}
}

func decodeProc(d *model.Decoder, p *Proc) {
	p.Res = d.Int()
	p.MySN = d.Int()
	p.H = d.Int()
	n := int(d.Uint())
	p.Held = p.Held[:0]
	for range n {
		p.Held = append(p.Held, decodeTok(d))
	}
}

func encodeMsg(e *model.Encoder, m *Msg) {
	e.Int(m.To)
	encodeTok(e, m.Tok)
}

func decodeMsg(d *model.Decoder, m *Msg) {
	m.To = d.Int()
	m.Tok = decodeTok(d)
}

func next(c *protocol.Ctx[Proc, Msg]) int { return (c.ID + 1) % c.N }

// onRequest is handler 1: a new token (H+1, i) for resource res goes to
// the successor; H is not changed (it catches up when the token returns).
func (cfg config) onRequest(c *protocol.Ctx[Proc, Msg], res int) {
	p := c.Self
	p.Res = res
	p.MySN = p.H + 1
	c.Send(Msg{To: next(c), Tok: Token{Owner: c.ID, SN: p.MySN, Res: res}})
}

// onDeliver is handler 2.
func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], m *Msg) {
	p, t := c.Self, m.Tok
	if !cfg.noMax {
		p.H = max(p.H, t.SN) // 2.0
	}
	switch {
	case t.Owner == c.ID: // 2.1: every other node let it pass
		c.Enter()
	case c.Phase() == model.InCS && p.Res == t.Res && !cfg.passInCS: // 2.2
		p.Held = append(p.Held, t)
	case c.Phase() == model.Waiting && p.Res == t.Res: // 2.3
		if t.before(Token{Owner: c.ID, SN: p.MySN}) {
			c.Send(Msg{To: next(c), Tok: t})
		} else {
			p.Held = append(p.Held, t)
		}
	default: // 2.4: no interest in t.Res
		if cfg.rewrite {
			t.SN = p.H // "replaces the sequence number by HSeqNumSeen"
		}
		c.Send(Msg{To: next(c), Tok: t})
	}
}

// onExit is handler 3: release the held-back tokens in arrival order and
// drop the copy.
func (cfg config) onExit(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	if !cfg.noRelease {
		for _, t := range p.Held {
			c.Send(Msg{To: next(c), Tok: t})
		}
	}
	p.Held = p.Held[:0]
	p.Res = -1
	p.MySN = 0
}
