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

// proto is one variant of DRS_GME: its size and its handler set. The
// handlers of the repaired reading (this file, Events 1-10 of Appendix A
// as repaired by algorithms.md §7.2) are the defaults; each literal item of
// §7.7, the extended problem of §VII, the regeneration readings of D11 and
// each mutant of §7.8 is an item (readings.go) that replaces the steps it
// changes, once, when the protocol is built, so no handler asks which
// variant it runs in.
type proto struct {
	n, m int

	// Request arguments: one group (§III) or, extended, a set (§VII).
	groups     func(m int) int                       // request arguments for M groups
	set        func(x int) Set                       // the groups a stored request value x names
	argOf      func(group int) int                   // the layer's request argument as stored in SX, REQ.X, GEN.X
	enter      func(c *ctx, g int)                   // enter the CS admitted with group g
	unqueue    func(t *Token, j int)                 // an admitted process leaves the other entries of its set
	admitAhead func(p *Proc) bool                    // a matching request may be admitted ahead of a non-empty queue
	maxEntries func(n, m int) int                    // §VI's bound on token.queue
	formatArg  func(x int) string                    // how messages render a request value
	finish     func(p *protocol.Protocol[Proc, Msg]) // last touch on the compiled protocol (drs-gme/fcfs)

	// Sessions and token validity (R1; literal D1).
	valid    func(p *Proc, t *Token) bool // Event 6's validity test
	bump     func(t *Token)               // a token handed on or regenerated gets a new session
	accepted func(p *Proc, t *Token)      // acc_i records the session of the token accepted
	// Served requests (R7; literal D8): the token's LN.
	served     func(t *Token, j, sn int) bool // request (j, sn) was served already
	grant      func(t *Token, j, sn int)      // request (j, sn) is being served
	grantFront func(t *Token, front Entry)    // the members of the accepted front entry are served
	// Followers (R6; literal D7): (pid, sn) pairs or ids.
	folSN    func(sn int) int              // the request number a follower is recorded with
	admitted func(p *Proc, j, sn int) bool // holder-request: j was admitted with request sn already
	// Start and is_complete (R5; literal D6).
	start       func(c *ctx, from, g, sn int)       // Event 3
	sameRequest func(p *Proc, i, sn int) bool       // a start/is_complete for i's request sn is for its current one
	stillWith   func(p *Proc, i, from, sn int) bool // an EF process is still in captain from's session with request sn
	// The other steps where a literal item or a mutant differs:
	relay        func(c *ctx, j int)          // Event 2 case R: a requester learns of j's request (R2; literal D2)
	serveHI      func(c *ctx, j, sn, x int)   // holder-request at an idle holder: pass the token (R3; literal D4; keep-token)
	rsAfterHI    func(c *ctx, t *Token)       // RS_i of an idle holder that passed the token (R3; literal D3; no-rs-add)
	absorb       func(c *ctx, t *Token)       // a new captain serves the requests it recorded while R (R8; literal D9)
	admits       func(t *Token, x int) bool   // holder-request: request value x matches the session (admit-any-group)
	startGroup   func(t *Token, x int) int    // the group a START admits to (admit-any-group)
	exitCaptain  func(c *ctx)                 // Event 4 at a captain (pass-before-complete)
	idleHolder   func(p *Proc, t *Token)      // Event 5: the last follower completed, queue empty (R10; literal D15)
	acceptsToken func(p *Proc, t *Token) bool // Event 6 at delivery (accept-any-token)
	genHolder    func(c *ctx, j, sn, x int)   // Event 8 at a holder (R4; literal D12, D13)
	regenerates  func(p *Proc, s int) bool    // Event 8: regenerate from old_token for a gen_token of session s (R9; D11)
}

type ctx = protocol.Ctx[Proc, Msg]

// New builds the DRS_GME protocol for cfg.
func New(cfg Config) (*protocol.Protocol[Proc, Msg], error) {
	items, ok := variantItems[cfg.Variant]
	if !ok && cfg.Variant != "" {
		return nil, fmt.Errorf("unknown DRS_GME variant %q; valid: %s", cfg.Variant, strings.Join(Variants(), ", "))
	}
	return newWith(cfg, items...)
}

// newProto returns the repaired handler set for n processes and m groups
// with items applied in order.
func newProto(n, m int, items ...item) *proto {
	pr := &proto{n: n, m: m}
	pr.useRepaired()
	for _, it := range items {
		it(pr)
	}
	return pr
}

// newWith builds cfg with explicit items (tests use it for readings that
// are not registered variants).
func newWith(cfg Config, items ...item) (*protocol.Protocol[Proc, Msg], error) {
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
	pr := newProto(cfg.N, cfg.M, items...)
	f := formatter{arg: pr.formatArg}
	p := &protocol.Protocol[Proc, Msg]{
		Name: cfg.Variant,
		N:    cfg.N,
		R:    cfg.R,
		Options: protocol.Options{
			Groups: pr.groups(cfg.M),
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
	pr.finish(p)
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

// useRepaired fills pr's handler set with the repaired reading's steps.
func (pr *proto) useRepaired() {
	pr.groups = func(m int) int { return m }
	pr.set = bit
	pr.argOf = func(group int) int { return group }
	pr.enter = func(c *ctx, _ int) { c.Enter() }
	pr.unqueue = func(*Token, int) {}
	pr.admitAhead = func(p *Proc) bool { return p.St == EC }
	pr.maxEntries = func(n, m int) int { return min(n, m) }
	pr.formatArg = formatGroup
	pr.finish = func(*protocol.Protocol[Proc, Msg]) {}
	pr.valid = validR1
	pr.bump = func(t *Token) { t.Session++ }
	pr.accepted = func(p *Proc, t *Token) { p.Acc = t.Session }
	pr.served = func(t *Token, j, sn int) bool { return sn <= t.LN[j] }
	pr.grant = func(t *Token, j, sn int) { t.LN[j] = sn }
	pr.grantFront = grantFront
	pr.folSN = func(sn int) int { return sn }
	pr.admitted = (*Proc).hasFol
	pr.start = pr.onStart
	pr.sameRequest = func(p *Proc, i, sn int) bool { return p.SN[i] == sn }
	pr.stillWith = func(p *Proc, i, from, sn int) bool { return p.Captain == from && p.SN[i] == sn }
	pr.relay = relayJ
	pr.serveHI = pr.passFromHI
	pr.rsAfterHI = rsHeads
	pr.absorb = pr.absorbRecorded
	pr.admits = pr.matches
	pr.startGroup = func(t *Token, _ int) int { return t.Type }
	pr.exitCaptain = pr.exitCaptainR
	pr.idleHolder = idleR10
	pr.acceptsToken = func(p *Proc, t *Token) bool { return pr.valid(p, t) }
	pr.genHolder = pr.genServe
	pr.regenerates = regenR9
}

func minGroup(s Set) int { return bits.TrailingZeros32(uint32(s)) }

// validR1 is the token validity test of Event 6 as repaired (R1): the
// session exceeds max(acc_i, old_token_i.session).
func validR1(p *Proc, t *Token) bool { return t.Session > max(p.Acc, p.Old.Session) }

// grantFront records in LN the requests of the accepted front entry (R7).
func grantFront(t *Token, front Entry) {
	for _, m := range front.Members {
		t.LN[m.P] = max(t.LN[m.P], m.SN)
	}
}

// matches reports whether request value x names the session's group.
func (pr *proto) matches(t *Token, x int) bool { return t.Type >= 0 && pr.set(x).Has(t.Type) }

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
		pr.accepted(p, t)
		t.Followers = 0
		pr.grant(t, i, sn)
		p.St = EC
		pr.enter(c, g)
	case HS:
		t := p.Tok
		if len(t.Queue) == 0 && pr.matches(t, x) {
			pr.grant(t, i, sn)
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
	if pr.served(t, j, sn) || pr.admitted(p, j, sn) || t.queued(j) {
		return // already served (R7), already admitted (R6) or waiting
	}
	admit := pr.admits(t, x) && (p.St == EC || p.St == HS) && (len(t.Queue) == 0 || pr.admitAhead(p))
	switch {
	case admit:
		pr.admit(c, j, sn, x)
	case p.St == HI:
		pr.serveHI(c, j, sn, x)
	default:
		pr.addReq(t, j, sn, x)
	}
}

// passFromHI is holder-request at an idle holder (Event 2 case HI,
// repaired R3): j's request is queued, the token goes to j and the holder
// becomes N.
func (pr *proto) passFromHI(c *ctx, j, sn, x int) {
	p := c.Self
	pr.addReq(p.Tok, j, sn, x)
	p.St = N
	pr.pass(c, true)
}

// admit sends start to j for request (sn, x) in the current session.
func (pr *proto) admit(c *ctx, j, sn, x int) {
	p := c.Self
	t := p.Tok
	t.Followers++
	p.addFol(j, pr.folSN(sn))
	pr.grant(t, j, sn)
	pr.unqueue(t, j)
	send(c, Msg{Kind: START, To: j, X: pr.startGroup(t, x), SN: sn})
}

// rsHeads: RS_i of a process that passed the token is the heads of the
// queue's entries but itself (R3).
func rsHeads(c *ctx, t *Token) { c.Self.RS = t.heads() &^ bit(c.ID) }

// pass hands the token (queue non-empty) to the head of the front entry.
// fromHI marks Event 2/8 case HI, where RS_i is set by rsAfterHI.
func (pr *proto) pass(c *ctx, fromHI bool) {
	p, i := c.Self, c.ID
	t := p.Tok
	p.Old = t.cloneIn(p.scratch())
	if fromHI {
		pr.rsAfterHI(c, t)
	} else {
		rsHeads(c, t)
	}
	pr.bump(t)
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
	pr.accepted(p, t)
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
	for _, m := range front.Members {
		pr.unqueue(t, m.P)
	}
	pr.grantFront(t, front)
	t.Type = front.G
	t.Followers = 0
	p.Fol = p.Fol[:0]
	p.Tok = t
	for _, m := range front.Members {
		if m.P == i {
			continue
		}
		t.Followers++
		p.addFol(m.P, pr.folSN(m.SN))
		send(c, Msg{Kind: START, To: m.P, X: front.G, SN: m.SN})
	}
	p.St = EC
	p.RS = 0
	pr.enter(c, front.G)
	pr.absorb(c, t)
}

// absorbRecorded is repair R8: a new captain serves the requests it
// recorded while R.
func (pr *proto) absorbRecorded(c *ctx, t *Token) {
	p, i := c.Self, c.ID
	for j := range pr.n {
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
		pr.exitCaptain(c)
	}
}

// exitCaptainR is Event 4 at a captain: idle holder without followers and
// requests, pass the token without followers, else HS.
func (pr *proto) exitCaptainR(c *ctx) {
	p := c.Self
	t := p.Tok
	switch {
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

func (pr *proto) onDeliver(c *ctx, m *Msg) {
	switch m.Kind {
	case REQ:
		pr.onReq(c, m)
	case TOKEN:
		if pr.acceptsToken(c.Self, m.T) {
			pr.accept(c, m.T)
		}
	case START:
		pr.start(c, m.From, m.X, m.SN)
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
	p, j := c.Self, m.From
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
		pr.relay(c, j)
	case EC, HS, HI:
		pr.serve(c, j, m.SN, m.X)
	default:
		p.RS |= bit(j)
	}
}

// relayJ is Event 2 case R as repaired (R2): add j to RS_i and send it i's
// own request.
func relayJ(c *ctx, j int) {
	p, i := c.Self, c.ID
	p.RS |= bit(j)
	send(c, Msg{Kind: REQ, To: j, SN: p.SN[i], X: p.SX[i]})
}

// waitingFor reports whether the acting process is R with request sn
// whose group set contains g.
func (pr *proto) waitingFor(c *ctx, g, sn int) bool {
	p := c.Self
	return p.St == R && pr.set(p.SX[c.ID]).Has(g) && pr.sameRequest(p, c.ID, sn)
}

// onStart is Event 3 as repaired (R5): only the waiting request it was
// sent for follows.
func (pr *proto) onStart(c *ctx, from, g, sn int) {
	p := c.Self
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
	sn = pr.folSN(sn)
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
		pr.idleHolder(p, t)
		return
	}
	if t.queued(c.ID) {
		p.St = R
	} else {
		p.St = N
	}
	pr.pass(c, false)
}

// idleR10: Event 5's HI branch resets type and old_token as Event 4 does
// (R10, D15 repaired).
func idleR10(p *Proc, t *Token) {
	t.Type = -1
	p.Old = t.cloneIn(p.scratch())
}

// regenR9 is Event 8's regeneration test as repaired (R9): s <=
// old_token.session and a non-empty old queue.
func regenR9(p *Proc, s int) bool { return s <= p.Old.Session && len(p.Old.Queue) > 0 }

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
		if pr.regenerates(p, s) {
			t := p.regenerated()
			pr.bump(t)
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
		pr.genHolder(c, j, sn, x)
	}
}

// genServe is Event 8 at a holder as repaired (R4): Event 2's
// holder-request, except for an admitted follower.
func (pr *proto) genServe(c *ctx, j, sn, x int) {
	p := c.Self
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

// onISC is Event 10.
func (pr *proto) onISC(c *ctx, m *Msg) {
	p := c.Self
	if pr.waitingFor(c, m.X, m.SN) {
		p.Captain = m.From
		p.St = EF
		pr.enter(c, m.X)
		return
	}
	if p.St == EF && pr.stillWith(p, c.ID, m.From, m.SN) {
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
