package torus

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Repaired      = "torus"
	Literal       = "torus/literal"
	SkipColumnEnd = "torus/skip-column-end"
	CopyOnEnter   = "torus/copy-on-enter"
	EnterIfMarked = "torus/enter-if-marked"
	ClearOwnFirst = "torus/clear-own-first"
	EndlessTour   = "torus/endless-tour"
)

// Variants returns every variant name, the default (Repaired) first.
func Variants() []string {
	return []string{Repaired, Literal, ClearOwnFirst, CopyOnEnter, EndlessTour, EnterIfMarked, SkipColumnEnd}
}

// config is a compiled variant for one torus size.
type config struct {
	d      int
	te, ce int // tour end and column end
	// mutations of the repaired reading
	copyOnEnter   bool
	enterIfMarked bool
	clearOwnFirst bool
	endlessTour   bool
	// fifo: FIFO channels (Options.FIFO, fifo.go)
	fifo bool
}

func configOf(variant string, d int) (config, bool) {
	rep := config{d: d, te: d + 1, ce: d + 1}
	switch variant {
	case Repaired, "":
	case Literal:
		rep.te, rep.ce = d, d
	case SkipColumnEnd:
		rep.ce = d
	case CopyOnEnter:
		rep.copyOnEnter = true
	case EnterIfMarked:
		rep.enterIfMarked = true
	case ClearOwnFirst:
		rep.clearOwnFirst = true
	case EndlessTour:
		rep.endlessTour = true
	default:
		return config{}, false
	}
	return rep, true
}

// Side returns d for n = d*d with d >= 2, or an error that says what would
// be right.
func Side(n int) (int, error) {
	d := 0
	for (d+1)*(d+1) <= n {
		d++
	}
	if d*d == n && d >= 2 {
		return d, nil
	}
	if d*d == n {
		return 0, fmt.Errorf("torus needs N = d*d with d >= 2; N=%d gives d=%d (try 4 or 9)", n, d)
	}
	var try []string
	if d >= 2 {
		try = append(try, strconv.Itoa(d*d))
	}
	try = append(try, strconv.Itoa((d+1)*(d+1)))
	if d < 2 && (d+1)*(d+1) == 4 {
		try = append(try, "9")
	}
	return 0, fmt.Errorf("torus needs N = d*d with d >= 2; N=%d is not a square (try %s)", n, strings.Join(try, " or "))
}

// Proc is the local state of one process (semantics.md §3). The client
// phase (the paper's CS-permission) and the request count are kept by the
// protocol layer.
type Proc struct {
	// Waiting is the ordered request queue Waiting_i: [], [i], [x] or [x, i].
	Waiting []int `json:"waiting"`
	// Has reports whether this process holds the token (it is in its CS);
	// RC, CC and Ch are the token fields while it does, zero otherwise.
	Has bool `json:"has"`
	RC  int  `json:"rc,omitempty"` // RowCounter
	CC  int  `json:"cc,omitempty"` // ColCounter
	Ch  bool `json:"ch,omitempty"` // ChCol
	// Out is used only with FIFO channels (Options.FIFO, fifo.go): the
	// number of the next message on the channel to right(i) (Out[Right])
	// and to down(i) (Out[Down]). The checker's normal form renumbers the
	// messages so that Out is 0 between steps (as it is without FIFO); only
	// tokenmc run counts up.
	Out [2]int `json:"out,omitempty"`
}

// MarshalJSON renders a process for trace files: waiting and has always,
// and the token fields rc, cc and ch exactly when the process holds the
// token.
func (p Proc) MarshalJSON() ([]byte, error) {
	type held struct {
		Waiting []int `json:"waiting"`
		Has     bool  `json:"has"`
		RC      int   `json:"rc"`
		CC      int   `json:"cc"`
		Ch      bool  `json:"ch"`
	}
	type idle struct {
		Waiting []int `json:"waiting"`
		Has     bool  `json:"has"`
	}
	w := p.Waiting
	if w == nil {
		w = []int{}
	}
	if p.Out != ([2]int{}) {
		return marshalWithOut(p, w)
	}
	if p.Has {
		return json.Marshal(held{w, true, p.RC, p.CC, p.Ch})
	}
	return json.Marshal(idle{w, false})
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds of semantics.md §3.
const (
	REQUEST Kind = iota
	TOKEN
)

// String returns "REQUEST" or "TOKEN".
func (k Kind) String() string {
	switch k {
	case REQUEST:
		return "REQUEST"
	case TOKEN:
		return "TOKEN"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Msg is a message in transit: REQUEST(Origin, To) or TOKEN(To, RC, CC, Ch).
type Msg struct {
	Kind   Kind `json:"kind"`
	Origin int  `json:"origin,omitempty"` // the requester, for a REQUEST
	To     int  `json:"to"`               // receiver
	RC     int  `json:"rc,omitempty"`     // RowCounter, for a TOKEN
	CC     int  `json:"cc,omitempty"`     // ColCounter, for a TOKEN
	Ch     bool `json:"ch,omitempty"`     // ChCol, for a TOKEN
	// Seq is used only with FIFO channels (Options.FIFO, fifo.go): the
	// message's number on its channel, smaller is older, and only the
	// oldest can be delivered. The checker numbers the k messages of a
	// channel -k .. -1 from the oldest. Zero otherwise.
	Seq int `json:"seq,omitempty"`
}

// FormatMsg renders m as "REQUEST(origin=P0, ->P1)" or
// "TOKEN(->P0, rc=1, cc=0, ch=F)".
func FormatMsg(m *Msg) string {
	switch m.Kind {
	case REQUEST:
		return fmt.Sprintf("REQUEST(origin=P%d, ->P%d)", m.Origin, m.To)
	case TOKEN:
		ch := "F"
		if m.Ch {
			ch = "T"
		}
		return fmt.Sprintf("TOKEN(->P%d, rc=%d, cc=%d, ch=%s)", m.To, m.RC, m.CC, ch)
	}
	return fmt.Sprintf("%v(->P%d)", m.Kind, m.To)
}

// New builds the torus protocol, variant one of the names returned by
// Variants ("" selects the default, Repaired), for n = d*d processes making
// at most r requests each, over the unordered network of semantics.md §1.
// It is NewWith with the zero Options.
func New(variant string, n, r int) (*protocol.Protocol[Proc, Msg], error) {
	return NewWith(variant, n, r, Options{})
}

// Options are the torus's modelling options beyond the variant, n and r.
// The zero value is the semantics.md model.
type Options struct {
	// FIFO makes every channel between neighbours deliver in the order of
	// sending (docs/notes/algorithms.md §10.2 --fifo; see fifo.go).
	FIFO bool
}

// NewWith is New with modelling options.
func NewWith(variant string, n, r int, opt Options) (*protocol.Protocol[Proc, Msg], error) {
	if _, ok := configOf(variant, 2); !ok {
		return nil, fmt.Errorf("unknown torus variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
	}
	if variant == "" {
		variant = Repaired
	}
	d, err := Side(n)
	if err != nil {
		return nil, err
	}
	if r < 1 {
		return nil, fmt.Errorf("%s needs r >= 1 requests per process, got r=%d", variant, r)
	}
	cfg, _ := configOf(variant, d)
	cfg.fifo = opt.FIFO
	p := &protocol.Protocol[Proc, Msg]{
		Name: variant,
		N:    n,
		R:    r,
		Init: func(int) Proc { return Proc{} },
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
		Hooks: protocol.Hooks[Proc, Msg]{
			InitialMessages: func() []Msg {
				return []Msg{{Kind: TOKEN, To: 0, RC: 1, CC: 0, Ch: false}}
			},
			HoldsToken:   func(_ model.Phase, p *Proc) bool { return p.Has },
			CarriesToken: func(m *Msg) bool { return m.Kind == TOKEN },
		},
		OnRequest: cfg.onRequest,
		OnExit:    cfg.onExit,
		OnDeliver: cfg.onDeliver,
	}
	if cfg.fifo {
		cfg.installFIFO(p)
	}
	return p, nil
}

// encodeProc writes Waiting, Has and, only when Has, the token fields.
func encodeProc(e *model.Encoder, p *Proc) {
	e.Ints(p.Waiting)
	e.Bool(p.Has)
	if p.Has {
		e.Int(p.RC)
		e.Int(p.CC)
		e.Bool(p.Ch)
	}
}

func decodeProc(d *model.Decoder, p *Proc) {
	p.Waiting = d.Ints(p.Waiting)
	p.Has = d.Bool()
	p.RC, p.CC, p.Ch = 0, 0, false
	if p.Has {
		p.RC = d.Int()
		p.CC = d.Int()
		p.Ch = d.Bool()
	}
}

func encodeMsg(e *model.Encoder, m *Msg) {
	e.Uint(uint64(m.Kind))
	e.Uint(uint64(m.To))
	switch m.Kind {
	case REQUEST:
		e.Uint(uint64(m.Origin))
	case TOKEN:
		e.Int(m.RC)
		e.Int(m.CC)
		e.Bool(m.Ch)
	default:
		panic(fmt.Sprintf("torus: encoding a message of unknown kind %d", m.Kind))
	}
}

func decodeMsg(d *model.Decoder, m *Msg) {
	*m = Msg{Kind: Kind(d.Uint()), To: int(d.Uint())}
	switch m.Kind {
	case REQUEST:
		m.Origin = int(d.Uint())
	case TOKEN:
		m.RC = d.Int()
		m.CC = d.Int()
		m.Ch = d.Bool()
	default:
		panic(fmt.Sprintf("torus: decoding a message of unknown kind %d", m.Kind))
	}
}

func (cfg config) right(i int) int { return (i/cfg.d)*cfg.d + (i%cfg.d+1)%cfg.d }
func (cfg config) down(i int) int  { return ((i/cfg.d+1)%cfg.d)*cfg.d + i%cfg.d }

// onRequest is rule 1 of semantics.md §3 (Fig. 2 lines 1-7).
func (cfg config) onRequest(c *protocol.Ctx[Proc, Msg], _ int) {
	p, i := c.Self, c.ID
	p.Waiting = append(p.Waiting, i)
	if len(p.Waiting) == 1 {
		cfg.sendOn(c, Msg{Kind: REQUEST, Origin: i}, Right)
	}
	// else PCL_2: a forwarded request is already queued here; send nothing.
}

// onExit is rule 4 of semantics.md §3 (Fig. 2 lines 8-15).
func (cfg config) onExit(c *protocol.Ctx[Proc, Msg]) {
	p, i := c.Self, c.ID
	if !p.Has {
		panic(fmt.Sprintf("torus: P%d leaves its CS without the token", i))
	}
	p.Waiting = p.Waiting[:0]
	t := Msg{Kind: TOKEN, RC: p.RC, CC: p.CC, Ch: p.Ch}
	p.Has, p.RC, p.CC, p.Ch = false, 0, 0, false
	cfg.passOn(c, t)
}

// passOn sends the token fields t on after a CS or a tour step at the acting
// process: down with cc = 0 at the tour end, right otherwise (Fig. 2 lines
// 11-15 and 50-54).
func (cfg config) passOn(c *protocol.Ctx[Proc, Msg], t Msg) {
	if t.CC == cfg.te {
		if cfg.endlessTour {
			t.CC = 1
			cfg.send(c, t, Right)
			return
		}
		t.CC = 0
		cfg.send(c, t, Down)
		return
	}
	cfg.send(c, t, Right)
}

// send sends the token fields t on the channel dir of the acting process.
func (cfg config) send(c *protocol.Ctx[Proc, Msg], t Msg, dir int) {
	t.Kind = TOKEN
	cfg.sendOn(c, t, dir)
}

// Channels of a process: to its right and to its lower neighbour.
const (
	Right = 0 // the channel to right(i): REQUESTs and TOKENs with cc != 0
	Down  = 1 // the channel to down(i): TOKENs with cc == 0
)

// sendOn sends m on the channel dir (Right or Down) of the acting process,
// numbering it on that channel when the channels are FIFO.
func (cfg config) sendOn(c *protocol.Ctx[Proc, Msg], m Msg, dir int) {
	if dir == Down {
		m.To = cfg.down(c.ID)
	} else {
		m.To = cfg.right(c.ID)
	}
	m.Seq = 0
	if cfg.fifo {
		if channelOf(&m) != dir {
			panic(fmt.Sprintf("torus: P%d sends %s on its %s channel", c.ID, FormatMsg(&m), dirName[dir]))
		}
		m.Seq = c.Self.Out[dir]
		c.Self.Out[dir]++
	}
	c.Send(m)
}

var dirName = [2]string{"right", "down"}

// onDeliver is rules 2 and 3 of semantics.md §3 (Fig. 2 lines 16-68).
func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], m *Msg) {
	p, i := c.Self, c.ID
	if m.Kind == REQUEST {
		if j := m.Origin; i != j && len(p.Waiting) == 0 {
			p.Waiting = append(p.Waiting, j)
			cfg.sendOn(c, Msg{Kind: REQUEST, Origin: j}, Right)
		}
		return // otherwise dropped (PCL_1, or back home)
	}
	t := *m
	switch {
	case t.CC == 0: // from above, lines 25-41
		t.RC++
		switch {
		case t.RC == cfg.ce:
			t.Ch = true
			t.CC = -1
			cfg.send(c, t, Right)
		case len(p.Waiting) == 0:
			cfg.send(c, t, Down)
		default:
			t.CC = 1
			cfg.tourStart(c, t)
		}
	case t.CC > 0: // touring a row, lines 42-54
		t.CC++
		if cfg.mayEnter(c) {
			cfg.enter(c, t)
			return
		}
		p.Waiting = p.Waiting[:0]
		cfg.passOn(c, t)
	case t.CC == -1: // changing column, lines 55-68
		t.Ch = false
		t.RC = 1
		if len(p.Waiting) == 0 {
			t.CC = 0
			cfg.send(c, t, Down)
			return
		}
		t.CC = 1
		cfg.tourStart(c, t)
	default:
		panic(fmt.Sprintf("torus: P%d received a token with ColCounter %d", i, t.CC))
	}
}

// tourStart is the common tail of lines 36-41 and 63-68: enter if the own
// request is queued, otherwise clear Waiting and send the token right.
func (cfg config) tourStart(c *protocol.Ctx[Proc, Msg], t Msg) {
	p := c.Self
	if cfg.clearOwnFirst {
		p.Waiting = p.Waiting[:0]
	}
	if cfg.mayEnter(c) {
		cfg.enter(c, t)
		return
	}
	p.Waiting = p.Waiting[:0]
	cfg.send(c, t, Right)
}

// mayEnter is Fig. 2's "There is Request_i in Waiting_i" (lines 37, 46, 64);
// enter-if-marked accepts any queued request.
func (cfg config) mayEnter(c *protocol.Ctx[Proc, Msg]) bool {
	p := c.Self
	if cfg.enterIfMarked {
		return len(p.Waiting) > 0
	}
	for _, x := range p.Waiting {
		if x == c.ID {
			return true
		}
	}
	return false
}

// enter puts the acting process in its CS holding the token fields t;
// copy-on-enter also sends a copy on.
func (cfg config) enter(c *protocol.Ctx[Proc, Msg], t Msg) {
	p := c.Self
	p.Has, p.RC, p.CC, p.Ch = true, t.RC, t.CC, t.Ch
	c.Enter()
	if cfg.copyOnEnter {
		cfg.passOn(c, t)
	}
}

// NameWaitingShape is the name of WaitingShape.
const NameWaitingShape = "waiting-shape"

// WaitingShape is the algorithm-specific invariant of the package doc:
// every Waiting_i is [], [i], [x] or [x, i] with x != i, and contains i
// exactly when process i is Waiting or InCS.
var WaitingShape = protocol.LocalInvariant[Proc, Msg](NameWaitingShape,
	"every Waiting_i is [], [i], [x] or [x, i] (x != i), and holds i exactly when P_i is Waiting or InCS",
	func(i int, phase model.Phase, p *Proc) bool {
		w := p.Waiting
		own := false
		switch len(w) {
		case 0:
		case 1:
			own = w[0] == i
		case 2:
			if w[0] == i || w[1] != i {
				return false
			}
			own = true
		default:
			return false
		}
		return own == (phase != model.Idle)
	})

// Properties returns the algorithm-specific properties, checked in addition
// to the generic ones of package invariants.
func Properties() []model.Property {
	return []model.Property{WaitingShape}
}
