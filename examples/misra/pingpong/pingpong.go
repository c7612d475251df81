package pingpong

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Proc is a process's local state.
type Proc struct {
	M    int  `json:"m"`    // number of the last token that left (0: none yet)
	Ping bool `json:"ping"` // holds ping (only in its critical section)
	Nb   int  `json:"nb"`   // the held ping's number
	Out  int  `json:"out"`  // sequence number of the next token sent to the successor, mod 3
}

// Msg is a token in transit on the link to process To.
type Msg struct {
	Pong bool // false: PING
	To   int
	Nb   int
	Seq  int // the sender's Out when sent: FIFO order on the link
}

// New returns the protocol of variant ("misra" or "misra/no-increment")
// on an n-process ring, r requests per process and a budget of faults
// lost tokens.
func New(variant string, n, r, faults int) *protocol.Protocol[Proc, Msg] {
	increment := variant != NoIncrement
	return &protocol.Protocol[Proc, Msg]{
		Name: variant,
		N:    n,
		R:    r,
		Options: protocol.Options{
			Faults: faults,
			Params: map[string]int{"n": n, "r": r, "faults": faults},
		},
		Init: func(i int) Proc { return Proc{Out: b2i(i == n-1 || i == 0)} },
		Hooks: protocol.Hooks[Proc, Msg]{
			InitialMessages: func() []Msg {
				return []Msg{{To: 0, Nb: 1}, {Pong: true, To: 1 % n, Nb: -1}}
			},
			// FIFO links: a token waits for the ones sent before it.
			Guard: func(v *protocol.View[Proc, Msg], a *protocol.Action[Msg]) bool {
				if a.Kind != model.Deliver {
					return true
				}
				out := v.Local((a.Msg.To + n - 1) % n).Out
				age := func(m *Msg) int { return (out - m.Seq + 2) % 3 } // 0: the newest
				first := true
				v.Messages(func(o *Msg, _ int) { first = first && (o.To != a.Msg.To || age(o) <= age(a.Msg)) })
				return first
			},
			Normalize: normalize,
		},
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: func(e *model.Encoder, p *Proc) { e.Int(p.M); e.Bool(p.Ping); e.Int(p.Nb); e.Uint(uint64(p.Out)) },
			DecodeProc: func(d *model.Decoder, p *Proc) { p.M, p.Ping, p.Nb, p.Out = d.Int(), d.Bool(), d.Int(), int(d.Uint()) },
			EncodeMsg: func(e *model.Encoder, m *Msg) {
				e.Bool(m.Pong)
				e.Uint(uint64(m.To))
				e.Int(m.Nb)
				e.Uint(uint64(m.Seq))
			},
			DecodeMsg: func(d *model.Decoder, m *Msg) {
				m.Pong, m.To, m.Nb, m.Seq = d.Bool(), int(d.Uint()), d.Int(), int(d.Uint())
			},
			To: func(m *Msg) int { return m.To },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: func(m *Msg) string {
				return fmt.Sprintf("%s(P%d->P%d, nb=%d, seq=%d)", kind(m), (m.To+n-1)%n, m.To, m.Nb, m.Seq)
			},
		},
		OnRequest: func(c *protocol.Ctx[Proc, Msg], _ int) {},
		OnExit: func(c *protocol.Ctx[Proc, Msg]) {
			c.Self.Ping = false
			send(c, false, c.Self.Nb)
		},
		OnDeliver: func(c *protocol.Ctx[Proc, Msg], m *Msg) {
			s := c.Self
			switch {
			case m.Pong && s.Ping: // the tokens meet: pong overtakes ping
				v := m.Nb
				if increment {
					s.Nb, v = s.Nb+1, v-1
				}
				s.M = s.Nb
				send(c, true, v)
			case m.Pong && s.M == m.Nb: // pong came round twice: ping is lost
				send(c, true, m.Nb-1)
				takePing(c, 1-m.Nb)
			case m.Pong:
				s.M = m.Nb
				send(c, true, m.Nb)
			case s.M == m.Nb: // ping came round twice: pong is lost
				send(c, true, -(m.Nb + 1))
				takePing(c, m.Nb+1)
			default:
				takePing(c, m.Nb)
			}
		},
	}
}

// The variants.
const (
	Correct     = "misra"
	NoIncrement = "misra/no-increment"
)

// send puts a token on the link to the successor.
func send(c *protocol.Ctx[Proc, Msg], pong bool, nb int) {
	c.Send(Msg{Pong: pong, To: (c.ID + 1) % c.N, Nb: nb, Seq: c.Self.Out})
	c.Self.Out = (c.Self.Out + 1) % 3
}

// takePing receives ping with number nb: a Waiting process keeps it and
// enters its critical section, any other passes it on.
func takePing(c *protocol.Ctx[Proc, Msg], nb int) {
	c.Self.M = nb
	if c.Phase() == model.Waiting {
		c.Self.Ping, c.Self.Nb = true, nb
		c.Enter()
		return
	}
	send(c, false, nb)
}

func kind(m *Msg) string {
	if m.Pong {
		return "PONG"
	}
	return "PING"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
