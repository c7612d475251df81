package drsgme

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// Variant names, as typed on the command line.
const (
	Default            = "drs-gme"
	Literal            = "drs-gme/literal"
	LiteralR1          = "drs-gme/literal-r1"
	Ext                = "drs-gme/ext"
	PassBeforeComplete = "drs-gme/pass-before-complete"
	AdmitAnyGroup      = "drs-gme/admit-any-group"
	KeepToken          = "drs-gme/keep-token"
	NoRSAdd            = "drs-gme/no-rs-add"
	AcceptAnyToken     = "drs-gme/accept-any-token"
	// RegenLT is the repaired reading with D11's proof reading of the
	// regeneration test, session < old_token.session (instead of <=).
	RegenLT = "drs-gme/regen-lt"
	// FCFS is the repaired reading with a request-order history variable
	// and the informational property fcfs (§VIII, D22; fcfs.go).
	FCFS = "drs-gme/fcfs"
	// LiteralD2, LiteralD4, LiteralD6, LiteralD7 and LiteralD9 are the
	// repaired reading with exactly one literal item of algorithms.md §7.7
	// put back, so that each item's own counterexample shows (in
	// drs-gme/literal-r1 the shorter D3 and D8 ones come first).
	LiteralD2 = "drs-gme/literal-d2"
	LiteralD4 = "drs-gme/literal-d4"
	LiteralD6 = "drs-gme/literal-d6"
	LiteralD7 = "drs-gme/literal-d7"
	LiteralD9 = "drs-gme/literal-d9"
	// RegenEmpty is the repaired reading with D11's other side (drs-gme.md
	// E12): the <= test without R9's "old_token.queue non-empty", so every
	// process that never passed the token regenerates; the undefined head
	// of its empty copy is read as the requester j of the gen_token.
	RegenEmpty = "drs-gme/regen-empty"
)

// Variants returns every variant name, the default first.
func Variants() []string {
	return []string{Default, Literal, LiteralR1, Ext, AcceptAnyToken, AdmitAnyGroup, KeepToken, NoRSAdd, PassBeforeComplete, RegenLT, FCFS,
		LiteralD2, LiteralD4, LiteralD6, LiteralD7, LiteralD9, RegenEmpty}
}

// Timer modes (algorithms.md §7.3), the values of the "timers" parameter.
const (
	TimersAuto      = 0 // default: TimersOff when F = 0, TimersQuiescent when F > 0
	TimersOff       = 1 // T1 and T2 never fire
	TimersQuiescent = 2 // they fire only when the network is empty
	TimersAny       = 3 // they fire whenever running, at most one broadcast of each in transit
)

// Mode resolves TimersAuto for cfg.
func (cfg Config) Mode() int {
	if cfg.Timers != TimersAuto {
		return cfg.Timers
	}
	if cfg.F > 0 {
		return TimersQuiescent
	}
	return TimersOff
}

// Timer numbers of the protocol layer.
const (
	T1 = 0 // requester suspects token loss: gen_token (Event 7)
	T2 = 1 // captain suspects a lost start/complete: is_complete (Event 9)
)

// Config is a fully resolved configuration.
type Config struct {
	Variant string
	N       int // processes
	M       int // groups
	R       int // requests per process
	F       int // message-loss budget
	Timers  int // TimersAuto, TimersOff, TimersQuiescent or TimersAny
}

// flags select the literal items (algorithms.md §7.7) and the mutants
// (§7.8); the zero value is the repaired reading.
type flags struct {
	ext bool

	litSession   bool // D1: session grows only in Event 1 HI; valid iff old.session < session
	litRelay     bool // D2: Event 2 case R adds i (not j) to RS_i and "sends" to itself
	litHIAddSelf bool // D3: Event 2 case HI adds i (not j) to RS_i, RS not recomputed
	litHIStateR  bool // D4: Event 2 case HI sets state R
	litStart     bool // D6: start/is_complete admit regardless of the request number
	litFollowers bool // D7: follower_i is a set of ids; Event 2 always counts
	litNoLN      bool // D8: no token LN, stale requests are served again
	litNoAbsorb  bool // D9: a new captain forgets requests recorded while R
	litGen       bool // D12, D13: Event 8 cases HI, HS, EC as printed
	litE5HI      bool // D15: Event 5's HI branch keeps token.type and old_token (drs-gme.md's enumerator)
	regenLT      bool // D11: regenerate only if session < old_token.session (the proof's reading)
	regenEmpty   bool // D11/E12: regenerate from an empty old_token too, towards the gen_token's requester

	passBeforeComplete bool
	admitAnyGroup      bool
	keepToken          bool
	noRSAdd            bool
	acceptAnyToken     bool
}

func flagsOf(variant string) (flags, bool) {
	lit := flags{litRelay: true, litHIAddSelf: true, litHIStateR: true, litStart: true,
		litFollowers: true, litNoLN: true, litNoAbsorb: true, litGen: true}
	switch variant {
	case Default, "":
		return flags{}, true
	case Literal:
		lit.litSession = true
		return lit, true
	case LiteralR1:
		return lit, true
	case Ext:
		return flags{ext: true}, true
	case PassBeforeComplete:
		return flags{passBeforeComplete: true}, true
	case AdmitAnyGroup:
		return flags{admitAnyGroup: true}, true
	case KeepToken:
		return flags{keepToken: true}, true
	case NoRSAdd:
		return flags{noRSAdd: true}, true
	case AcceptAnyToken:
		return flags{acceptAnyToken: true}, true
	case RegenLT:
		return flags{regenLT: true}, true
	case FCFS:
		return flags{}, true
	case LiteralD2:
		return flags{litRelay: true}, true
	case LiteralD4:
		return flags{litHIStateR: true}, true
	case LiteralD6:
		return flags{litStart: true}, true
	case LiteralD7:
		return flags{litFollowers: true}, true
	case LiteralD9:
		return flags{litNoAbsorb: true}, true
	case RegenEmpty:
		return flags{regenEmpty: true}, true
	}
	return flags{}, false
}

type proto struct {
	flags
	n, m int
}

type ctx = protocol.Ctx[Proc, Msg]

// New builds the DRS_GME protocol for cfg.
func New(cfg Config) (*protocol.Protocol[Proc, Msg], error) {
	fl, ok := flagsOf(cfg.Variant)
	if !ok {
		return nil, fmt.Errorf("unknown DRS_GME variant %q; valid: %s", cfg.Variant, strings.Join(Variants(), ", "))
	}
	return newWith(cfg, fl)
}

// newWith builds cfg with explicit flags (tests use it for readings that
// are not registered variants).
func newWith(cfg Config, fl flags) (*protocol.Protocol[Proc, Msg], error) {
	if cfg.Variant == "" {
		cfg.Variant = Default
	}
	switch {
	case cfg.N < 2 || cfg.N > 8:
		return nil, fmt.Errorf("%s needs 2 <= n <= 8 processes, got n=%d", cfg.Variant, cfg.N)
	case cfg.M < 1 || cfg.M > 4:
		return nil, fmt.Errorf("%s needs 1 <= groups <= 4, got groups=%d", cfg.Variant, cfg.M)
	case cfg.R < 1:
		return nil, fmt.Errorf("%s needs r >= 1 requests per process, got r=%d", cfg.Variant, cfg.R)
	case cfg.F < 0:
		return nil, fmt.Errorf("%s needs faults >= 0, got faults=%d", cfg.Variant, cfg.F)
	case cfg.Timers < TimersAuto || cfg.Timers > TimersAny:
		return nil, fmt.Errorf("%s: timers=%d is not a mode; use 0 (auto), 1 (off), 2 (quiescent) or 3 (any)", cfg.Variant, cfg.Timers)
	}
	pr := &proto{flags: fl, n: cfg.N, m: cfg.M}
	groups := cfg.M
	if fl.ext {
		groups = 1<<cfg.M - 1 // every non-empty subset
	}
	f := formatter{ext: fl.ext}
	p := &protocol.Protocol[Proc, Msg]{
		Name: cfg.Variant,
		N:    cfg.N,
		R:    cfg.R,
		Options: protocol.Options{
			Groups: groups,
			Faults: cfg.F,
			GME:    true,
		},
		Init: pr.initial,
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: encodeProc,
			DecodeProc: decodeProc,
			EncodeMsg:  encodeMsg,
			DecodeMsg:  decodeMsg,
			To:         func(m *Msg) int { return m.To },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: f.FormatMsg,
		},
		OnRequest: pr.onRequest,
		OnExit:    pr.onExit,
		OnDeliver: pr.onDeliver,
		Hooks: protocol.Hooks[Proc, Msg]{
			HoldsToken: func(_ model.Phase, p *Proc) bool { return p.St.holds() },
			// Every TOKEN message counts for the generic property; the
			// algorithm's own single-token (Properties) counts valid ones only.
			CarriesToken: func(m *Msg) bool { return m.Kind == TOKEN },
		},
	}
	if cfg.Mode() != TimersOff {
		p.Timers = 2
		p.TimerEnabled = timerRunning
		p.OnTimer = pr.onTimer
		p.Guard = timerGuard(cfg.Mode()) // the timer modes (guard.go)
	}
	if cfg.Variant == FCFS {
		withFCFS(p) // the request-order history (fcfs.go)
	}
	return p, nil
}

// System compiles cfg into a model.System: New(cfg).System().
func System(cfg Config) (model.System, error) {
	p, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return p.System(), nil
}

// initial: P0 is HI with the token (session 0), RS_0 = {}; every other
// process is N with RS_i = all others (Appendix A, Initialization).
func (pr *proto) initial(i int) Proc {
	p := Proc{St: N, Captain: -1, SN: make([]int, pr.n), SX: make([]int, pr.n), Old: newToken(pr.n), Fol: []Member{}}
	if i == 0 {
		p.St = HI
		t := newToken(pr.n)
		p.Tok = &t
	} else {
		p.RS = (bit(pr.n) - 1) &^ bit(i)
	}
	return p
}

// set returns the group set that a stored request value x (SX, REQ.X,
// GEN.X) names: {x} in the basic problem, the mask x itself in the
// extended one (see argOf).
func (pr *proto) set(x int) Set {
	if pr.ext {
		return Set(x)
	}
	return bit(x)
}

// argOf turns the protocol layer's request argument into the value stored
// in SX and carried by REQ and GEN: the group, or the group set mask.
func (pr *proto) argOf(group int) int {
	if pr.ext {
		return group + 1
	}
	return group
}

func minGroup(s Set) int { return bits.TrailingZeros32(uint32(s)) }

// enter puts the acting process in its CS with group g.
func (pr *proto) enter(c *ctx, g int) {
	if pr.ext {
		c.EnterGroup(g)
		return
	}
	c.Enter()
}

// valid is the token validity test of Event 6 (repair R1 / literal D1).
func (pr *proto) valid(p *Proc, t *Token) bool {
	if pr.litSession {
		return p.Old.Session < t.Session
	}
	return t.Session > max(p.Acc, p.Old.Session)
}

// addReq adds request (j, sn, x) to the queue: the entry of its group, or,
// extended, one membership per group of the set.
func (pr *proto) addReq(t *Token, j, sn, x int) {
	for b := uint32(pr.set(x)); b != 0; b &= b - 1 { // the groups in ascending order, as Set.List without allocating
		t.add(j, sn, bits.TrailingZeros32(b))
	}
}

// send adds m to the network; a send to oneself is dropped (it only arises
// in the literal Event 2 typos D2/D3, "send to P_i").
func send(c *ctx, m Msg) {
	if m.To == c.ID {
		return
	}
	m.From = c.ID
	c.Send(m)
}

// onRequest is Event 1.
func (pr *proto) onRequest(c *ctx, group int) {
	p, i := c.Self, c.ID
	x := pr.argOf(group)
	p.SN[i]++
	p.SX[i] = x
	sn := p.SN[i]
	switch p.St {
	case HI:
		t := p.Tok
		g := minGroup(pr.set(x))
		t.Type = g
		t.Session++
		if !pr.litSession {
			p.Acc = t.Session
		}
		t.Followers = 0
		if !pr.litNoLN {
			t.LN[i] = sn
		}
		p.St = EC
		pr.enter(c, g)
	case HS:
		t := p.Tok
		if len(t.Queue) == 0 && t.Type >= 0 && pr.set(x).Has(t.Type) {
			if !pr.litNoLN {
				t.LN[i] = sn
			}
			p.St = EC
			pr.enter(c, t.Type)
			return
		}
		pr.addReq(t, i, sn, x) // stays HS and Waiting; T1 runs
	default:
		p.St = R
		for b := uint32(p.RS); b != 0; b &= b - 1 { // ascending, as Set.List
			send(c, Msg{Kind: REQ, To: bits.TrailingZeros32(b), SN: sn, X: x})
		}
	}
}

// serve is holder-request(j, sn, x) at a holder (algorithms.md §7.1).
func (pr *proto) serve(c *ctx, j, sn, x int) {
	p := c.Self
	t := p.Tok
	if !pr.litNoLN && sn <= t.LN[j] {
		return // already served (R7)
	}
	if !pr.litFollowers && p.hasFol(j, sn) {
		return
	}
	if t.queued(j) {
		return
	}
	match := t.Type >= 0 && pr.set(x).Has(t.Type)
	if pr.admitAnyGroup && t.Type >= 0 {
		match = true
	}
	admit := match && (p.St == EC || p.St == HS) && (len(t.Queue) == 0 || (p.St == EC && !pr.ext))
	switch {
	case admit:
		pr.admit(c, j, sn, x)
	case p.St == HI:
		pr.addReq(t, j, sn, x)
		if pr.keepToken {
			// mutant: the holder passes a copy and stays HI with the token
			keep := p.Tok.clone()
			keep.Queue = []Entry{}
			pr.pass(c, true)
			p.St = HI
			p.Tok = &keep
			return
		}
		if pr.litHIStateR {
			p.St = R // D4
		} else {
			p.St = N
		}
		pr.pass(c, true)
	default:
		pr.addReq(t, j, sn, x)
	}
}

// admit sends start to j for request (sn, x) in the current session.
func (pr *proto) admit(c *ctx, j, sn, x int) {
	p := c.Self
	t := p.Tok
	if pr.litFollowers {
		t.Followers++ // D7: counted always, recorded as an id
		p.addFol(j, 0)
	} else {
		t.Followers++
		p.addFol(j, sn)
	}
	if !pr.litNoLN {
		t.LN[j] = sn
	}
	if pr.ext {
		t.remove(j)
	}
	g := t.Type
	if pr.admitAnyGroup {
		g = minGroup(pr.set(x)) // mutant: "start" for whatever j asked
	}
	send(c, Msg{Kind: START, To: j, X: g, SN: sn})
}

// pass hands the token (queue non-empty) to the head of the front entry.
// fromHI marks Event 2/8 case HI, where the literal text adds one id to
// RS_i instead of recomputing it.
func (pr *proto) pass(c *ctx, fromHI bool) {
	p, i := c.Self, c.ID
	t := p.Tok
	p.Old = t.cloneIn(p.scratch())
	switch {
	case fromHI && pr.noRSAdd:
		// mutant: RS_i stays as it was (empty for a holder)
	case fromHI && pr.litHIAddSelf:
		p.RS |= bit(i) // D3
	default:
		p.RS = t.heads() &^ bit(i)
	}
	if !pr.litSession {
		t.Session++
	}
	h := t.Queue[0].Members[0].P
	p.Tok = nil
	p.Fol = p.Fol[:0]
	if h != i {
		c.Send(Msg{Kind: TOKEN, From: i, To: h, T: t})
		return
	}
	if pr.valid(p, t) { // local self-pass (Event 5, E4)
		pr.accept(c, t)
	}
}

// accept is Event 6 for a valid token t at the acting process.
func (pr *proto) accept(c *ctx, t *Token) {
	p, i := c.Self, c.ID
	if !pr.litSession {
		p.Acc = t.Session
	}
	var front Entry
	if len(t.Queue) > 0 {
		front = t.Queue[0]
		t.Queue = t.Queue[1:]
	} else {
		// only reachable in the literal Event 8 case HI (D12) and from an
		// empty regenerated copy (regen-empty): "delete front entry" of an
		// empty queue; the receiver opens its own group
		front = Entry{G: minGroup(pr.set(p.SX[i])), Members: []Member{{i, p.SN[i]}}}
	}
	if pr.ext {
		for _, m := range front.Members {
			t.remove(m.P)
		}
	}
	if !pr.litNoLN {
		for _, m := range front.Members {
			t.LN[m.P] = max(t.LN[m.P], m.SN)
		}
	}
	t.Type = front.G
	t.Followers = 0
	p.Fol = p.Fol[:0]
	p.Tok = t
	for _, m := range front.Members {
		if m.P == i {
			continue
		}
		t.Followers++
		if pr.litFollowers {
			p.addFol(m.P, 0)
		} else {
			p.addFol(m.P, m.SN)
		}
		send(c, Msg{Kind: START, To: m.P, X: front.G, SN: m.SN})
	}
	p.St = EC
	p.RS = 0
	pr.enter(c, front.G)
	if pr.litNoAbsorb {
		return
	}
	for j := range pr.n { // repair R8: serve requests recorded while R
		if j != i && p.SN[j] > t.LN[j] && !t.queued(j) && !p.hasFol(j, p.SN[j]) {
			pr.serve(c, j, p.SN[j], p.SX[j])
		}
	}
}

// onExit is Event 4.
func (pr *proto) onExit(c *ctx) {
	p := c.Self
	switch p.St {
	case EF:
		send(c, Msg{Kind: COMPLETE, To: p.Captain, SN: p.SN[c.ID]})
		p.Captain = -1
		p.St = N
	case EC:
		t := p.Tok
		switch {
		case pr.passBeforeComplete && len(t.Queue) > 0:
			p.St = N
			pr.pass(c, false)
		case t.Followers == 0 && len(t.Queue) == 0:
			p.St = HI
			t.Type = -1
			p.Old = t.cloneIn(p.scratch())
		case t.Followers == 0:
			p.St = N
			pr.pass(c, false)
		default:
			p.St = HS
		}
	}
}

func (pr *proto) onDeliver(c *ctx, m *Msg) {
	switch m.Kind {
	case REQ:
		pr.onReq(c, m)
	case TOKEN:
		if pr.acceptAnyToken || pr.valid(c.Self, m.T) {
			pr.accept(c, m.T)
		}
	case START:
		pr.onStart(c, m.From, m.X, m.SN)
	case COMPLETE:
		pr.onComplete(c, m.From, m.SN)
	case GEN:
		pr.onGen(c, m.From, m.SN, m.X, m.S)
	case ISC:
		pr.onISC(c, m)
	}
}

// onReq is Event 2.
func (pr *proto) onReq(c *ctx, m *Msg) {
	p, i, j := c.Self, c.ID, m.From
	if m.SN <= p.SN[j] {
		return // old request
	}
	p.SN[j] = m.SN
	p.SX[j] = m.X
	switch p.St {
	case R:
		if p.RS.Has(j) {
			return
		}
		if pr.litRelay {
			p.RS |= bit(i) // D2: "Add i to RS_i; send request to P_i"
			return
		}
		p.RS |= bit(j)
		send(c, Msg{Kind: REQ, To: j, SN: p.SN[i], X: p.SX[i]})
	case EC, HS, HI:
		pr.serve(c, j, m.SN, m.X)
	default:
		p.RS |= bit(j)
	}
}

// waitingFor reports whether the acting process is R with request sn
// whose group set contains g.
func (pr *proto) waitingFor(c *ctx, g, sn int) bool {
	p := c.Self
	return p.St == R && pr.set(p.SX[c.ID]).Has(g) && (pr.litStart || p.SN[c.ID] == sn)
}

// onStart is Event 3.
func (pr *proto) onStart(c *ctx, from, g, sn int) {
	p := c.Self
	if pr.litStart {
		// D6: no guard at all
		p.Captain = from
		if p.St.holds() {
			p.Tok = nil
		}
		p.St = EF
		pr.enter(c, g)
		return
	}
	if !pr.waitingFor(c, g, sn) {
		return
	}
	p.Captain = from
	p.St = EF
	pr.enter(c, g)
}

// onComplete is Event 5.
func (pr *proto) onComplete(c *ctx, j, sn int) {
	p := c.Self
	if !p.St.holds() {
		return
	}
	if pr.litFollowers {
		sn = 0
	}
	if !p.hasFol(j, sn) {
		return
	}
	p.delFol(j, sn)
	t := p.Tok
	t.Followers--
	if t.Followers != 0 || p.St != HS {
		return
	}
	if len(t.Queue) == 0 {
		p.St = HI
		if !pr.litE5HI {
			t.Type = -1 // D15 repaired (R10), as in Event 4
			p.Old = t.cloneIn(p.scratch())
		}
		return
	}
	if t.queued(c.ID) {
		p.St = R
	} else {
		p.St = N
	}
	pr.pass(c, false)
}

// onGen is Event 8 (also run locally for the sender's own copy).
func (pr *proto) onGen(c *ctx, j, sn, x, s int) {
	p, i := c.Self, c.ID
	if sn < p.SN[j] {
		return
	}
	p.SN[j] = sn
	p.SX[j] = x
	switch p.St {
	case N, R:
		if j != i {
			p.RS |= bit(j)
			if p.St == R {
				send(c, Msg{Kind: REQ, To: j, SN: p.SN[i], X: p.SX[i]})
			}
		}
		if (s < p.Old.Session || (s == p.Old.Session && !pr.regenLT)) && (len(p.Old.Queue) > 0 || pr.regenEmpty) {
			t := p.regenerated()
			if !pr.litSession {
				t.Session++
			}
			h := j // regen-empty: an empty copy goes to the requester (accept opens its group)
			if len(t.Queue) > 0 {
				h = t.Queue[0].Members[0].P
			}
			if h != i {
				c.Send(Msg{Kind: TOKEN, From: i, To: h, T: t})
			} else if pr.valid(p, t) {
				pr.accept(c, t)
			}
		}
	case EF:
		if j != i {
			p.RS |= bit(j)
		}
	default:
		if pr.litGen {
			pr.genLiteral(c, j, sn, x)
			return
		}
		if p.hasFol(j, sn) {
			// Event 8 EC/HS as printed: "send start(i) to P_j" also to an
			// admitted follower: its gen_token shows the start was lost
			// (repair R4 keeps this; the start is accepted only by that
			// very request, R5)
			send(c, Msg{Kind: START, To: j, X: p.Tok.Type, SN: sn})
			return
		}
		pr.serve(c, j, sn, x)
	}
}

// genLiteral is Event 8 cases EC, HI and HS as printed (D12, D13).
func (pr *proto) genLiteral(c *ctx, j, sn, x int) {
	p, i := c.Self, c.ID
	t := p.Tok
	match := t.Type >= 0 && pr.set(x).Has(t.Type)
	switch p.St {
	case EC:
		if match {
			send(c, Msg{Kind: START, To: j, X: t.Type, SN: sn})
			if !p.hasFol(j, 0) {
				t.Followers++
				p.addFol(j, 0)
			}
			return
		}
		pr.addReq(t, j, sn, x)
	case HI:
		// D12: the request goes into old_token (then overwritten), the token
		// goes to j without j's entry, and i stays HI with the token. Repair
		// R1 (literal-r1) gives the sent token its session + 1, as in pass()
		// and the regeneration; the copy i keeps is unchanged.
		p.RS |= bit(j)
		p.Old = t.cloneIn(p.scratch())
		sent := t.clone()
		if !pr.litSession {
			sent.Session++
		}
		c.Send(Msg{Kind: TOKEN, From: i, To: j, T: &sent})
	case HS:
		if match && len(t.Queue) == 0 {
			send(c, Msg{Kind: START, To: j, X: t.Type, SN: sn})
			if !p.hasFol(j, 0) {
				t.Followers++ // D13: j is not added to follower_i
			}
			return
		}
		pr.addReq(t, j, sn, x)
	}
}

// onISC is Event 10.
func (pr *proto) onISC(c *ctx, m *Msg) {
	p := c.Self
	if pr.waitingFor(c, m.X, m.SN) {
		p.Captain = m.From
		p.St = EF
		pr.enter(c, m.X)
		return
	}
	if p.St == EF && (pr.litStart || (p.Captain == m.From && p.SN[c.ID] == m.SN)) {
		return
	}
	send(c, Msg{Kind: COMPLETE, To: m.From, SN: m.SN})
}

// timerRunning: T1 runs while the process is Waiting (Events 1, 7); T2
// while a captain has followers that have not completed (Event 9). The
// timer-mode guard (guard.go) further restricts when they fire.
func timerRunning(_ int, phase model.Phase, p *Proc, t int) bool {
	if t == T1 {
		return phase == model.Waiting
	}
	return p.St.holds() && len(p.Fol) > 0
}

// onTimer is Event 7 (T1) and Event 9 (T2).
func (pr *proto) onTimer(c *ctx, k int) {
	p, i := c.Self, c.ID
	if k == T1 {
		sn, x, s := p.SN[i], p.SX[i], p.Old.Session
		for j := range pr.n {
			if j != i {
				c.Send(Msg{Kind: GEN, From: i, To: j, SN: sn, X: x, S: s})
			}
		}
		pr.onGen(c, i, sn, x, s) // the copy "to itself", handled at once
		return
	}
	for _, f := range p.Fol {
		c.Send(Msg{Kind: ISC, From: i, To: f.P, X: p.Tok.Type, SN: f.SN})
	}
}
