package banerjee

import (
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// codec is the variant's layout: which optional fields its process states
// carry. Fields a variant does not use stay zero and are not encoded, and
// fields that are meaningless in the current role (the collected list of a
// non-arbiter, the token data of a non-holder) are not encoded either, so
// that equal states encode to equal bytes. Messages are encoded whole (the
// unused fields are zero).
type codec struct {
	seq  bool // request numbers: SN, QN, the token's L (banerjee-seq, banerjee-rec)
	sf   bool // the monitor's fields: Cnt, Miss, Resub, S (banerjee-sf)
	win  bool // the adaptive period's window Win (banerjee-sf/adaptive-eq)
	rec  bool // the recovery fields: Epoch .. Rep (banerjee-rec)
	from bool // messages record their sender (banerjee-rec, whose replies need it)
	had  bool // Had (banerjee-rec, but banerjee-rec/waiting-first)
}

func (cfg codec) encodeProc(e *model.Encoder, p *Proc) {
	e.Uint(uint64(p.Arb))
	e.Uint(uint64(p.Role))
	collecting := p.Role == Collecting || p.Role == Collecting2
	if collecting {
		e.Ints(p.Q)
		if cfg.seq {
			e.Ints(p.QN)
		}
	}
	e.Bool(p.Has)
	if p.Has {
		e.Ints(p.TQ)
		if cfg.seq {
			e.Ints(p.L)
		}
		if cfg.sf {
			e.Uint(uint64(p.Cnt))
		}
		if cfg.win {
			e.Uint(uint64(p.Win))
		}
	}
	e.Uint(uint64(p.Round))
	if cfg.seq {
		e.Uint(uint64(p.SN))
	}
	if cfg.sf {
		e.Uint(uint64(p.Miss))
		e.Bool(p.Resub)
		e.Ints(p.S)
	}
	if cfg.rec {
		e.Uint(uint64(p.Epoch))
		e.Ints(p.Sched)
		e.Int(p.Prev)
		e.Bool(p.Susp)
		e.Bool(p.Warn)
		e.Ints(p.Rep)
		e.Ints(p.Mon)
		e.Bool(p.Crash)
	}
	if cfg.had {
		e.Bool(p.Had)
	}
}

func (cfg codec) decodeProc(d *model.Decoder, p *Proc) {
	p.Arb = int(d.Uint())
	p.Role = Role(d.Uint())
	p.Q, p.QN = p.Q[:0], p.QN[:0]
	if p.Role == Collecting || p.Role == Collecting2 {
		p.Q = d.Ints(p.Q)
		if cfg.seq {
			p.QN = d.Ints(p.QN)
		}
	}
	p.Has = d.Bool()
	p.TQ, p.L, p.Cnt, p.Win = p.TQ[:0], p.L[:0], 0, 0
	if p.Has {
		p.TQ = d.Ints(p.TQ)
		if cfg.seq {
			p.L = d.Ints(p.L)
		}
		if cfg.sf {
			p.Cnt = int(d.Uint())
		}
		if cfg.win {
			p.Win = int(d.Uint())
		}
	}
	p.Round = int(d.Uint())
	p.SN = 0
	if cfg.seq {
		p.SN = int(d.Uint())
	}
	p.Miss, p.Resub, p.S = 0, false, p.S[:0]
	if cfg.sf {
		p.Miss = int(d.Uint())
		p.Resub = d.Bool()
		p.S = d.Ints(p.S)
	}
	p.Epoch, p.Sched, p.Prev, p.Susp, p.Warn, p.Rep, p.Mon, p.Crash = 0, p.Sched[:0], noProcess, false, false, p.Rep[:0], p.Mon[:0], false
	if cfg.rec {
		p.Epoch = int(d.Uint())
		p.Sched = d.Ints(p.Sched)
		p.Prev = d.Int()
		p.Susp = d.Bool()
		p.Warn = d.Bool()
		p.Rep = d.Ints(p.Rep)
		p.Mon = d.Ints(p.Mon)
		p.Crash = d.Bool()
	}
	p.Had = false
	if cfg.had {
		p.Had = d.Bool()
	}
}

func encodeMsg(e *model.Encoder, m *Msg) {
	e.Uint(uint64(m.Kind))
	e.Uint(uint64(m.To))
	e.Int(m.From)
	e.Int(m.J)
	e.Ints(m.Q)
	e.Uint(uint64(m.Round))
	e.Uint(uint64(m.N))
	e.Ints(m.L)
	e.Uint(uint64(m.F))
	e.Uint(uint64(m.Cnt))
	e.Uint(uint64(m.Win))
	e.Bool(m.Via)
	e.Uint(uint64(m.Epoch))
}

func decodeMsg(d *model.Decoder, m *Msg) {
	m.Kind = Kind(d.Uint())
	m.To = int(d.Uint())
	m.From = d.Int()
	m.J = d.Int()
	m.Q = d.Ints(m.Q)
	m.Round = int(d.Uint())
	m.N = int(d.Uint())
	m.L = d.Ints(m.L)
	m.F = int(d.Uint())
	m.Cnt = int(d.Uint())
	m.Win = int(d.Uint())
	m.Via = d.Bool()
	m.Epoch = int(d.Uint())
}

var replyNames = [...]string{"none", "WAITING", "HAD", "HAVE", "-"}

// FormatMsg renders a message, e.g. "REQUEST(j=P2, ->P0)",
// "PRIVILEGE(->P1, Q=[1,2], round=1)" or "NEW-ARBITER(->P2, a=P2, Q=[1,2], round=1)".
func FormatMsg(m *Msg) string {
	var b strings.Builder
	b.WriteString(m.Kind.String())
	b.WriteByte('(')
	if m.From >= 0 {
		fmt.Fprintf(&b, "P%d", m.From)
	}
	fmt.Fprintf(&b, "->P%d", m.To)
	switch m.Kind {
	case REQUEST:
		fmt.Fprintf(&b, ", j=P%d", m.J)
		if m.N > 0 {
			fmt.Fprintf(&b, ", n=%d", m.N)
		}
		if m.F > 0 {
			fmt.Fprintf(&b, ", f=%d", m.F)
		}
	case PRIVILEGE:
		fmt.Fprintf(&b, ", Q=%s, round=%d", protocol.FormatInts(m.Q), m.Round)
		if m.L != nil {
			fmt.Fprintf(&b, ", L=%s", protocol.FormatInts(m.L))
		}
		if m.Cnt > 0 {
			fmt.Fprintf(&b, ", cnt=%d", m.Cnt)
		}
		if m.Win > 0 {
			fmt.Fprintf(&b, ", win=%d", m.Win)
		}
		if m.Via {
			b.WriteString(", via-monitor")
		}
		if m.Epoch > 0 {
			fmt.Fprintf(&b, ", epoch=%d", m.Epoch)
		}
	case NEWARBITER:
		fmt.Fprintf(&b, ", a=P%d, Q=%s, round=%d", m.J, protocol.FormatInts(m.Q), m.Round)
	case REPLY:
		if m.J >= 0 && m.J < len(replyNames) {
			fmt.Fprintf(&b, ", %s", replyNames[m.J])
		}
		// the replier's last granted request number: two replies of one
		// process to two enquiries (premature timeouts, timers-any) differ
		// only there, and labels must be unique
		fmt.Fprintf(&b, ", n=%d", m.N)
	case INVALIDATE:
		fmt.Fprintf(&b, ", epoch=%d", m.Epoch)
	}
	b.WriteByte(')')
	return b.String()
}
