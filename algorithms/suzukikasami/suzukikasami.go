package suzukikasami

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
	Default     = "suzuki-kasami"
	SendInCS    = "suzuki-kasami/send-in-cs"
	KeepCopy    = "suzuki-kasami/keep-copy"
	NoLNUpdate  = "suzuki-kasami/no-ln-update"
	DupInQ      = "suzuki-kasami/dup-in-q"
	NoIncrement = "suzuki-kasami/no-increment"
	// AnyOrder is the seed read as written: Exit appends the newly
	// eligible ids "for every site S_j" in no stated order, so the model
	// takes every order (one successor per order, Ctx.Choose). Its
	// behaviours include the default's (ascending order) and those of
	// any implementation's order; it is symmetric under all permutations
	// of the ids (Symmetry).
	AnyOrder = "suzuki-kasami/any-order"
)

// Variants returns every variant name, the default first.
func Variants() []string {
	return []string{Default, AnyOrder, DupInQ, KeepCopy, NoIncrement, NoLNUpdate, SendInCS}
}

// config selects the mutations of a variant; the zero value is the default.
type config struct {
	sendInCS    bool // REQ handler ignores the holder's phase
	keepCopy    bool // the sender of the token keeps Has, LN and Q
	noLNUpdate  bool // Exit omits LN[i] = RN_i[i]
	dupInQ      bool // Exit appends j even if it is already in Q
	noIncrement bool // Request does not increment RN_i[i]
	anyOrder    bool // Exit appends the eligible ids in every order
}

func configOf(variant string) (config, bool) {
	switch variant {
	case Default, "":
		return config{}, true
	case SendInCS:
		return config{sendInCS: true}, true
	case KeepCopy:
		return config{keepCopy: true}, true
	case NoLNUpdate:
		return config{noLNUpdate: true}, true
	case DupInQ:
		return config{dupInQ: true}, true
	case NoIncrement:
		return config{noIncrement: true}, true
	case AnyOrder:
		return config{anyOrder: true}, true
	}
	return config{}, false
}

// Proc is the local state of one process (semantics.md §2). The client
// phase and the request count are kept by the protocol layer.
type Proc struct {
	// RN[j] is the largest request number this process has seen from j.
	RN []int `json:"rn"`
	// Has reports whether this process holds the token.
	Has bool `json:"has"`
	// LN is the token's array of last served request numbers; empty unless Has.
	LN []int `json:"ln,omitempty"`
	// Q is the token's queue of waiting processes; empty unless Has.
	Q []int `json:"q,omitempty"`
}

// MarshalJSON renders a process for trace files: rn and has always, and ln
// and q (q as [] when empty) exactly when the process holds the token.
func (p Proc) MarshalJSON() ([]byte, error) {
	type held struct {
		RN  []int `json:"rn"`
		Has bool  `json:"has"`
		LN  []int `json:"ln"`
		Q   []int `json:"q"`
	}
	type idle struct {
		RN  []int `json:"rn"`
		Has bool  `json:"has"`
	}
	rn := nonNil(p.RN)
	if p.Has {
		return json.Marshal(held{rn, true, nonNil(p.LN), nonNil(p.Q)})
	}
	return json.Marshal(idle{rn, false})
}

func nonNil(v []int) []int {
	if v == nil {
		return []int{}
	}
	return v
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds of semantics.md §2.
const (
	REQ Kind = iota
	TOKEN
)

// String returns "REQ" or "TOKEN".
func (k Kind) String() string {
	switch k {
	case REQ:
		return "REQ"
	case TOKEN:
		return "TOKEN"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Msg is a message in transit: REQ(From, To, SN) or TOKEN(To, LN, Q).
type Msg struct {
	Kind Kind  `json:"kind"`
	From int   `json:"from"`         // sender of a REQ; -1 in a decoded TOKEN, which does not record it
	To   int   `json:"to"`           // receiver
	SN   int   `json:"sn,omitempty"` // request number of a REQ
	LN   []int `json:"ln,omitempty"` // token data of a TOKEN
	Q    []int `json:"q,omitempty"`  // token data of a TOKEN
}

// FormatMsg renders m as "REQ(P1->P0, sn=1)" or
// "TOKEN(->P2, LN=[1,0,0], Q=[])".
func FormatMsg(m *Msg) string {
	switch m.Kind {
	case REQ:
		return fmt.Sprintf("REQ(P%d->P%d, sn=%d)", m.From, m.To, m.SN)
	case TOKEN:
		return fmt.Sprintf("TOKEN(->P%d, LN=%s, Q=%s)", m.To, protocol.FormatInts(m.LN), protocol.FormatInts(m.Q))
	}
	return fmt.Sprintf("%v(->P%d)", m.Kind, m.To)
}

// FormatProc renders p for the views' state tables: "RN=[1,0,0]", and
// with the token its array and queue, "RN=[1,0,0] LN=[0,0,0] Q=[2]".
func FormatProc(p *Proc) string {
	if !p.Has {
		return "RN=" + protocol.FormatInts(p.RN)
	}
	return fmt.Sprintf("RN=%s LN=%s Q=%s", protocol.FormatInts(p.RN), protocol.FormatInts(p.LN), protocol.FormatInts(p.Q))
}

// New builds the Suzuki-Kasami protocol of semantics.md §2, or one of its
// mutants, for n processes making at most r requests each. variant is one of
// the names returned by Variants; "" selects the default.
func New(variant string, n, r int) (*protocol.Protocol[Proc, Msg], error) {
	cfg, ok := configOf(variant)
	if !ok {
		return nil, fmt.Errorf("unknown Suzuki-Kasami variant %q; valid: %s", variant, strings.Join(Variants(), ", "))
	}
	if variant == "" {
		variant = Default
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
		Init: func(i int) Proc { return initial(n, i) },
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: encodeProc,
			DecodeProc: decodeProc,
			EncodeMsg:  encodeMsg,
			DecodeMsg:  decodeMsg,
			To:         func(m *Msg) int { return m.To },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg:  FormatMsg,
			FormatProc: FormatProc,
		},
		OnRequest: cfg.onRequest,
		OnExit:    cfg.onExit,
		OnDeliver: cfg.onDeliver,
		Hooks: protocol.Hooks[Proc, Msg]{
			HoldsToken:      func(_ model.Phase, p *Proc) bool { return p.Has },
			CarriesToken:    func(m *Msg) bool { return m.Kind == TOKEN },
			InitialMessages: nil, // the network starts empty
		},
		Options: protocol.Options{
			// any-order: Exit chooses the order of the ids it appends
			Nondeterministic: cfg.anyOrder,
		},
	}, nil
}

// initial is process i's initial state: RN all 0; P0 holds the token with
// LN all 0 and Q empty.
func initial(n, i int) Proc {
	p := Proc{RN: make([]int, n)}
	if i == 0 {
		p.Has = true
		p.LN = make([]int, n)
		p.Q = []int{}
	}
	return p
}

// encodeProc writes RN, Has and, only when Has, LN and Q: a process that
// does not hold the token encodes no token data, whatever its slices hold.
func encodeProc(e *model.Encoder, p *Proc) {
	e.Ints(p.RN)
	e.Bool(p.Has)
	if p.Has {
		e.Ints(p.LN)
		e.Ints(p.Q)
	}
}

func decodeProc(d *model.Decoder, p *Proc) {
	p.RN = d.Ints(p.RN)
	p.Has = d.Bool()
	if p.Has {
		p.LN = d.Ints(p.LN)
		p.Q = d.Ints(p.Q)
	} else {
		p.LN = p.LN[:0]
		p.Q = p.Q[:0]
	}
}

func encodeMsg(e *model.Encoder, m *Msg) {
	e.Uint(uint64(m.Kind))
	e.Uint(uint64(m.To))
	switch m.Kind {
	case REQ:
		e.Uint(uint64(m.From))
		e.Int(m.SN)
	case TOKEN:
		e.Ints(m.LN)
		e.Ints(m.Q)
	default:
		panic(fmt.Sprintf("suzukikasami: encoding a message of unknown kind %d", m.Kind))
	}
}

func decodeMsg(d *model.Decoder, m *Msg) {
	m.Kind = Kind(d.Uint())
	m.To = int(d.Uint())
	switch m.Kind {
	case REQ:
		m.From = int(d.Uint())
		m.SN = d.Int()
		m.LN = m.LN[:0]
		m.Q = m.Q[:0]
	case TOKEN:
		m.From = -1
		m.SN = 0
		m.LN = d.Ints(m.LN)
		m.Q = d.Ints(m.Q)
	default:
		panic(fmt.Sprintf("suzukikasami: decoding a message of unknown kind %d", m.Kind))
	}
}

// onRequest is rule 1 of semantics.md §2.
func (cfg config) onRequest(c *protocol.Ctx[Proc, Msg], _ int) {
	p, i := c.Self, c.ID
	if p.Has {
		c.Enter() // no message, RN_i[i] unchanged
		return
	}
	if !cfg.noIncrement {
		p.RN[i]++
	}
	for j := range c.N {
		if j != i {
			c.Send(Msg{Kind: REQ, From: i, To: j, SN: p.RN[i]})
		}
	}
	// The protocol layer has already made the phase Waiting.
}

// onExit is rule 2 of semantics.md §2.
func (cfg config) onExit(c *protocol.Ctx[Proc, Msg]) {
	p, i := c.Self, c.ID
	if !p.Has {
		return // send-in-cs only: the token left during the CS
	}
	if !cfg.noLNUpdate {
		p.LN[i] = p.RN[i]
	}
	if cfg.anyOrder {
		appendAnyOrder(c)
	}
	for j := range c.N {
		if (cfg.dupInQ || !contains(p.Q, j)) && p.RN[j] == p.LN[j]+1 {
			p.Q = append(p.Q, j)
		}
	}
	if len(p.Q) == 0 {
		return // keep the token
	}
	h := p.Q[0]
	copy(p.Q, p.Q[1:])
	p.Q = p.Q[:len(p.Q)-1]
	cfg.sendToken(c, h)
}

// onDeliver is rules 3 and 4 of semantics.md §2.
func (cfg config) onDeliver(c *protocol.Ctx[Proc, Msg], m *Msg) {
	p := c.Self
	switch m.Kind {
	case REQ:
		j := m.From
		p.RN[j] = max(p.RN[j], m.SN)
		if p.Has && (cfg.sendInCS || c.Phase() == model.Idle) && p.RN[j] == p.LN[j]+1 {
			cfg.sendToken(c, j)
		}
	case TOKEN:
		p.Has = true
		p.LN = append(p.LN[:0], m.LN...)
		p.Q = append(p.Q[:0], m.Q...)
		c.Enter()
	}
}

// sendToken sends TOKEN(to, LN, Q) and, unless the variant keeps a copy,
// drops the sender's token data so that the state stays canonical.
func (cfg config) sendToken(c *protocol.Ctx[Proc, Msg], to int) {
	p := c.Self
	c.Send(Msg{Kind: TOKEN, From: c.ID, To: to, LN: p.LN, Q: p.Q}) // encoded at once
	if cfg.keepCopy {
		return
	}
	p.Has = false
	p.LN = p.LN[:0]
	p.Q = p.Q[:0]
}

// appendAnyOrder appends to the token's Q the ids j not in Q with
// RN_i[j] == LN[j] + 1, in an order Ctx.Choose picks: every order is one
// alternative of Exit (the first is ascending, as the default model).
func appendAnyOrder(c *protocol.Ctx[Proc, Msg]) {
	p := c.Self
	var buf [64]int
	eligible := buf[:0] // on the stack for n <= 64
	for j := range c.N {
		if !contains(p.Q, j) && p.RN[j] == p.LN[j]+1 {
			eligible = append(eligible, j)
		}
	}
	for len(eligible) > 0 {
		k := c.Choose(len(eligible))
		p.Q = append(p.Q, eligible[k])
		eligible = append(eligible[:k], eligible[k+1:]...)
	}
}

func contains(list []int, x int) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// NameTokenServesWaiting is the name of TokenServesWaiting.
const NameTokenServesWaiting = "token-serves-waiting"

// TokenServesWaiting is the algorithm-specific invariant of the package doc:
// the receiver of every TOKEN in transit and every id in a token's queue is
// Waiting, and no queue holds an id twice.
var TokenServesWaiting = protocol.Invariant(NameTokenServesWaiting,
	"the token goes only to Waiting processes: every TOKEN receiver and every id in the token's Q is Waiting, and Q has no duplicates",
	func(v *protocol.View[Proc, Msg]) bool {
		ok := true
		queueOK := func(q []int) bool {
			for k, j := range q {
				if j < 0 || j >= v.Processes() || v.Phase(j) != model.Waiting || contains(q[:k], j) {
					return false
				}
			}
			return true
		}
		for i := range v.Processes() {
			if p := v.Local(i); p.Has && !queueOK(p.Q) {
				return false
			}
		}
		v.Messages(func(m *Msg, _ int) {
			if m.Kind == TOKEN && (v.Phase(m.To) != model.Waiting || !queueOK(m.Q) || contains(m.Q, m.To)) {
				ok = false
			}
		})
		return ok
	})

// Properties returns the algorithm-specific properties, checked in addition
// to the generic ones of package invariants.
func Properties() []model.Property {
	return []model.Property{TokenServesWaiting}
}
