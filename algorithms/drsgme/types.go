package drsgme

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// St is the paper's process state st_i (§III): N, R, EC, EF, HS or HI.
type St uint8

// The six process states of §III.
const (
	N  St = iota // not requesting
	R            // requesting
	EC           // in its CS as captain (holds the token)
	EF           // in its CS as follower
	HS           // captain out of its CS, followers still inside (holds the token)
	HI           // holds the token, idle
)

var stNames = [...]string{"N", "R", "EC", "EF", "HS", "HI"}

// String returns the paper's name of the state.
func (s St) String() string {
	if int(s) < len(stNames) {
		return stNames[s]
	}
	return "St(" + strconv.Itoa(int(s)) + ")"
}

// MarshalJSON renders the state by name.
func (s St) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a state name.
func (s *St) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	for k, n := range stNames {
		if n == v {
			*s = St(k)
			return nil
		}
	}
	return fmt.Errorf("drsgme: unknown state %q", v)
}

// holds reports whether a process in state s holds the token (§V:
// holds_valid_token = EC, HS or HI).
func (s St) holds() bool { return s == EC || s == HS || s == HI }

// Set is a set of process ids (or of groups) as a bit mask.
type Set uint32

func bit(i int) Set { return Set(1) << uint(i) }

// Has reports whether i is in the set.
func (s Set) Has(i int) bool { return s&bit(i) != 0 }

// List returns the members in ascending order.
func (s Set) List() []int {
	out := []int{}
	for x := uint32(s); x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros32(x))
	}
	return out
}

// MarshalJSON renders the set as a sorted list.
func (s Set) MarshalJSON() ([]byte, error) { return json.Marshal(s.List()) }

// UnmarshalJSON reads a list.
func (s *Set) UnmarshalJSON(b []byte) error {
	var v []int
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = 0
	for _, i := range v {
		*s |= bit(i)
	}
	return nil
}

func formatSet(s Set) string {
	var b strings.Builder
	b.WriteByte('{')
	for k, i := range s.List() {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteByte('}')
	return b.String()
}

// Member is one request in a token queue entry or one admitted follower:
// the process and the number of the request.
type Member struct {
	P  int `json:"p"`
	SN int `json:"sn"`
}

// Entry is one entry of token.queue: a group and the requests grouped in
// it; the first member is the future captain.
type Entry struct {
	G       int      `json:"g"`
	Members []Member `json:"members"`
}

// Token is the token's data (§III plus the repairs of algorithms.md §7.1).
type Token struct {
	Session   int     `json:"session"`
	Type      int     `json:"type"` // group of the current session; -1 = NULL
	Followers int     `json:"followers"`
	LN        []int   `json:"ln"` // last served request number of each process (repair R7)
	Queue     []Entry `json:"queue"`
}

func newToken(n int) Token { return Token{Type: -1, LN: make([]int, n), Queue: []Entry{}} }

func (t *Token) clone() Token {
	c := *t
	c.LN = append([]int{}, t.LN...)
	c.Queue = make([]Entry, len(t.Queue))
	for k, e := range t.Queue {
		c.Queue[k] = Entry{G: e.G, Members: append([]Member{}, e.Members...)}
	}
	return c
}

// queued reports whether j is a member of some entry.
func (t *Token) queued(j int) bool {
	for _, e := range t.Queue {
		for _, m := range e.Members {
			if m.P == j {
				return true
			}
		}
	}
	return false
}

// heads returns the set of first members of all entries.
func (t *Token) heads() Set {
	var s Set
	for _, e := range t.Queue {
		s |= bit(e.Members[0].P)
	}
	return s
}

// add puts request (j, sn) into the entry of group g, creating it at the
// tail; a process already in that entry is not added twice.
func (t *Token) add(j, sn, g int) {
	for k := range t.Queue {
		if t.Queue[k].G != g {
			continue
		}
		for _, m := range t.Queue[k].Members {
			if m.P == j {
				return
			}
		}
		t.Queue[k].Members = append(t.Queue[k].Members, Member{j, sn})
		return
	}
	t.Queue = append(t.Queue, Entry{G: g, Members: []Member{{j, sn}}})
}

// remove deletes every membership of j and drops entries left empty.
func (t *Token) remove(j int) {
	out := t.Queue[:0]
	for _, e := range t.Queue {
		ms := e.Members[:0]
		for _, m := range e.Members {
			if m.P != j {
				ms = append(ms, m)
			}
		}
		if len(ms) > 0 {
			out = append(out, Entry{G: e.G, Members: ms})
		}
	}
	t.Queue = out
}

func formatQueue(q []Entry) string {
	var b strings.Builder
	b.WriteByte('[')
	for k, e := range q {
		if k > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "g%d:", e.G)
		for x, m := range e.Members {
			if x > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "P%d#%d", m.P, m.SN)
		}
	}
	b.WriteByte(']')
	return b.String()
}

func formatToken(t *Token) string {
	ty := "-"
	if t.Type >= 0 {
		ty = "g" + strconv.Itoa(t.Type)
	}
	return fmt.Sprintf("s=%d, type=%s, fol=%d, LN=%s, Q=%s", t.Session, ty, t.Followers, protocol.FormatInts(t.LN), formatQueue(t.Queue))
}

func encodeToken(e *model.Encoder, t *Token) {
	e.Int(t.Session)
	e.Int(t.Type)
	e.Int(t.Followers)
	e.Ints(t.LN)
	e.Uint(uint64(len(t.Queue)))
	for _, en := range t.Queue {
		e.Uint(uint64(en.G))
		e.Uint(uint64(len(en.Members)))
		for _, m := range en.Members {
			e.Uint(uint64(m.P))
			e.Int(m.SN)
		}
	}
}

func decodeToken(d *model.Decoder, t *Token, s *scratch) {
	t.Session = d.Int()
	t.Type = d.Int()
	t.Followers = d.Int()
	t.LN = s.intList(d)
	t.Queue = s.entries(int(d.Uint()))
	for k := range t.Queue {
		t.Queue[k].G = int(d.Uint())
		t.Queue[k].Members = s.members(d, int(d.Uint()))
	}
}

// Proc is the local state of process i (algorithms.md §7.1). The client
// phase, the request count and the group are kept by the protocol layer.
type Proc struct {
	St      St  `json:"st"`
	Captain int `json:"captain"` // captain_i while EF, else -1
	// SN[j] is the highest request number seen from j, SX[j] the group (or,
	// extended, the group set) of that request. SN[i], SX[i] are i's own.
	SN []int `json:"sn"`
	SX []int `json:"sx"`
	RS Set   `json:"rs"` // dynamic request set
	// Acc is the session of the last token accepted or opened (repair R1);
	// always 0 in the literal session reading.
	Acc int `json:"acc"`
	// Old is old_token_i: the token as i last passed it or went HI with it.
	Old Token `json:"old"`
	// Fol is follower_i: admitted followers that have not completed, sorted
	// (repair R6; in the literal reading SN is 0 and Fol is a set of ids).
	Fol []Member `json:"fol"`
	// Tok is the token while St is EC, HS or HI; otherwise absent.
	Tok *Token `json:"tok,omitempty"`
	// Ahead is drs-gme/fcfs's request-order history (fcfs.go); always 0
	// in the other variants, and not part of their encoding.
	Ahead int `json:"ahead,omitempty"`

	buf *scratch // decodeProc's storage, owned while at == this Proc's address
	at  *Proc
}

func (p *Proc) hasFol(j, sn int) bool {
	for _, m := range p.Fol {
		if m.P == j && m.SN == sn {
			return true
		}
	}
	return false
}

func (p *Proc) addFol(j, sn int) {
	k := 0
	for k < len(p.Fol) && (p.Fol[k].P < j || (p.Fol[k].P == j && p.Fol[k].SN < sn)) {
		k++
	}
	if k < len(p.Fol) && p.Fol[k] == (Member{j, sn}) {
		return
	}
	p.Fol = append(p.Fol, Member{})
	copy(p.Fol[k+1:], p.Fol[k:])
	p.Fol[k] = Member{j, sn}
}

func (p *Proc) delFol(j, sn int) {
	for k, m := range p.Fol {
		if m.P == j && m.SN == sn {
			p.Fol = append(p.Fol[:k], p.Fol[k+1:]...)
			return
		}
	}
}

func encodeProc(e *model.Encoder, p *Proc) {
	e.Uint(uint64(p.St))
	if p.St == EF {
		e.Uint(uint64(p.Captain))
	}
	e.Ints(p.SN)
	e.Ints(p.SX)
	e.Uint(uint64(p.RS))
	e.Int(p.Acc)
	encodeToken(e, &p.Old)
	e.Uint(uint64(len(p.Fol)))
	for _, m := range p.Fol {
		e.Uint(uint64(m.P))
		e.Int(m.SN)
	}
	if p.St.holds() {
		encodeToken(e, p.Tok)
	}
}

// decodeProc decodes into p's scratch (scratch.go): no allocation once
// the variable p has been decoded into before.
func decodeProc(d *model.Decoder, p *Proc) {
	s := scratchFor(p.buf, p.at, p)
	p.buf, p.at = s, p
	p.St = St(d.Uint())
	p.Captain = -1
	if p.St == EF {
		p.Captain = int(d.Uint())
	}
	p.SN = s.intList(d)
	p.SX = s.intList(d)
	p.RS = Set(d.Uint())
	p.Acc = d.Int()
	decodeToken(d, &p.Old, s)
	p.Fol = s.members(d, int(d.Uint()))
	p.Tok = nil
	if p.St.holds() {
		p.Tok = &s.tok
		decodeToken(d, p.Tok, s)
	}
	p.Ahead = 0
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds (algorithms.md §7.1): request, token, start, complete,
// gen_token and is_complete.
const (
	REQ Kind = iota
	TOKEN
	START
	COMPLETE
	GEN
	ISC
)

var kindNames = [...]string{"REQ", "TOKEN", "START", "COMPLETE", "GEN", "ISC"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalJSON renders the kind by name.
func (k Kind) MarshalJSON() ([]byte, error) { return json.Marshal(k.String()) }

// Msg is a message in transit. Fields used per kind:
//
//	REQ(From->To, SN, X)        request (X: group, or group set in drs-gme/ext)
//	TOKEN(->To, T)              the token; the sender is not recorded
//	START(From->To, X, SN)      admission of request SN as follower of group X
//	COMPLETE(From->To, SN)      follower of request SN left its CS
//	GEN(From->To, SN, X, S)     gen_token: regeneration request, S = sender's old session
//	ISC(From->To, X, SN)        is_complete
type Msg struct {
	Kind Kind   `json:"kind"`
	From int    `json:"from"`
	To   int    `json:"to"`
	SN   int    `json:"sn"`
	X    int    `json:"x"`
	S    int    `json:"s"`
	T    *Token `json:"token,omitempty"`

	buf *scratch // decodeMsg's storage, owned while at == this Msg's address
	at  *Msg
}

func encodeMsg(e *model.Encoder, m *Msg) {
	e.Uint(uint64(m.Kind))
	e.Uint(uint64(m.To))
	switch m.Kind {
	case TOKEN:
		encodeToken(e, m.T)
	case REQ, START, ISC:
		e.Uint(uint64(m.From))
		e.Int(m.SN)
		e.Int(m.X)
	case COMPLETE:
		e.Uint(uint64(m.From))
		e.Int(m.SN)
	case GEN:
		e.Uint(uint64(m.From))
		e.Int(m.SN)
		e.Int(m.X)
		e.Int(m.S)
	default:
		panic(fmt.Sprintf("drsgme: encoding a message of unknown kind %d", m.Kind))
	}
}

// decodeMsg decodes into m's scratch (scratch.go) as decodeProc does.
func decodeMsg(d *model.Decoder, m *Msg) {
	buf, at := m.buf, m.at
	*m = Msg{Kind: Kind(d.Uint()), To: int(d.Uint()), From: -1, buf: buf, at: at}
	switch m.Kind {
	case TOKEN:
		s := scratchFor(m.buf, m.at, m)
		m.buf, m.at = s, m
		m.T = &s.tok
		decodeToken(d, m.T, s)
	case REQ, START, ISC:
		m.From = int(d.Uint())
		m.SN = d.Int()
		m.X = d.Int()
	case COMPLETE:
		m.From = int(d.Uint())
		m.SN = d.Int()
	case GEN:
		m.From = int(d.Uint())
		m.SN = d.Int()
		m.X = d.Int()
		m.S = d.Int()
	}
}

// formatter renders messages with the variant's rendering of request
// values (formatGroup, or formatSetArg in drs-gme/ext).
type formatter struct{ arg func(x int) string }

// formatGroup renders a request value that names one group: "g1".
func formatGroup(x int) string { return "g" + strconv.Itoa(x) }

// formatSetArg renders a request value that names a group set (drs-gme/ext):
// "SX={0,1}".
func formatSetArg(x int) string { return "SX=" + formatSet(Set(x)) }

// FormatMsg renders m, e.g. "REQ(P1->P0, sn=1, g0)" or
// "TOKEN(->P1, s=1, type=-, fol=0, LN=[0,0], Q=[g0:P1#1])".
func (f formatter) FormatMsg(m *Msg) string {
	switch m.Kind {
	case REQ:
		return fmt.Sprintf("REQ(P%d->P%d, sn=%d, %s)", m.From, m.To, m.SN, f.arg(m.X))
	case TOKEN:
		return fmt.Sprintf("TOKEN(->P%d, %s)", m.To, formatToken(m.T))
	case START:
		return fmt.Sprintf("START(P%d->P%d, g%d, sn=%d)", m.From, m.To, m.X, m.SN)
	case COMPLETE:
		return fmt.Sprintf("COMPLETE(P%d->P%d, sn=%d)", m.From, m.To, m.SN)
	case GEN:
		return fmt.Sprintf("GEN(P%d->P%d, sn=%d, %s, s=%d)", m.From, m.To, m.SN, f.arg(m.X), m.S)
	case ISC:
		return fmt.Sprintf("ISC(P%d->P%d, g%d, sn=%d)", m.From, m.To, m.X, m.SN)
	}
	return fmt.Sprintf("%v(->P%d)", m.Kind, m.To)
}
