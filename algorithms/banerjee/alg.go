package banerjee

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// ctx is what a handler sees.
type ctx = protocol.Ctx[Proc, Msg]

// alg is one variant: its parameters and its handler set. The handlers of
// the basic algorithm (basic.go) are the defaults; each variant's
// constructor (useLiteral, useSeq, useSF, useRec and the mutants) replaces
// the handlers it changes, once, when the protocol is built, so no handler
// asks which variant it runs in.
type alg struct {
	name  string
	n     int
	codec codec

	// banerjee-sf (sf.go)
	tau     int // forwarding threshold and miss count
	period  int // monitor period (0: any)
	monitor int // the monitor process, P(N-1)
	// banerjee-seq (seq.go): the number a request carries is SN - lag
	// (count-from-zero: 1)
	lag int
	// banerjee-rec (rec.go)
	crash         int       // crash budget (0 or 1)
	timers        timerMode // when the recovery timers may fire
	forgetWaiting bool      // mutant forget-waiting: a regenerated token serves only the arbiter
	waitingFirst  bool      // banerjee-rec/waiting-first: a Waiting process answers an ENQUIRY with WAITING even if it had the token

	// The handler set. Protocol-level handlers:
	exit         func(c *ctx)                                        // handler 4 (Exit)
	timerEnabled func(i int, phase model.Phase, p *Proc, t int) bool // the phase ends (and recovery timers)
	timer        func(c *ctx, t int)                                 // handlers 6, 7 (and recovery timers)
	// Deliveries (handlers 2, 3, 5; recovery: WARNING .. INVALIDATE):
	requestMsg func(c *ctx, m *Msg)
	privilege  func(c *ctx, m *Msg)
	newArbiter func(c *ctx, m *Msg)
	recovery   func(c *ctx, m *Msg)
	// Steps inside the handlers:
	requested  func(c *ctx) int            // a request is made: reset per-request state, return its number
	takeTurn   func(c *ctx)                // the holder whose turn it is: enter, or pass a duplicate grant on
	enter      func(c *ctx)                // enter the CS with the token
	passOn     func(c *ctx)                // hand the token to the next process of its list
	pending    func(p *Proc) int           // collected entries that would be scheduled
	schedule   func(c *ctx) []int          // the collected entries become the next Q-list
	launched   func(c *ctx, visit bool)    // a list of other processes is about to be announced (sf: count)
	announced  func(c *ctx, q []int)       // NEW-ARBITER has been broadcast for q
	servedSelf func(c *ctx)                // the arbiter scheduled only itself (no message)
	due        func(p *Proc) bool          // sf: the token must visit the monitor at this collection end
	keepStore  func(q, stored []int) []int // sf: the monitor appends its stored requests to q
	// Request numbers (banerjee-seq, seq.go; none in the basic algorithm):
	addEntry    func(p *Proc, j, n int)                       // request (j, n) joins the collected list
	initNumbers func(p *Proc)                                 // the initial token's L
	takeNumbers func(p *Proc, m *Msg)                         // a received PRIVILEGE's L becomes the holder's
	putNumbers  func(m *Msg, p *Proc)                         // a sent PRIVILEGE carries the holder's L
	lagging     func(v *protocol.View[Proc, Msg], i int) bool // cyclic: i may not request (seq's lag rule)
	renumberSN  func(procs []Proc, msgs []Msg)                // cyclic: renumber the request numbers
}

func nop(*ctx)                                      {}
func nopProc(*Proc)                                 {}
func nopNumbers(*Proc, *Msg)                        {}
func nopPut(*Msg, *Proc)                            {}
func neverLags(*protocol.View[Proc, Msg], int) bool { return false }
func keepSN([]Proc, []Msg)                          {}
func nopVisit(*ctx, bool)                           {}
func nopList(*ctx, []int)                           {}
func nopMsg(*ctx, *Msg)                             {}
func noNumber(*ctx) int                             { return 0 }
func arrival(q, stored []int) []int                 { return q }

// protocol compiles the handler set into a protocol.Protocol.
func (a *alg) protocol(r int, o Options) *protocol.Protocol[Proc, Msg] {
	timers := timersBasic
	switch {
	case a.codec.rec:
		timers = timersRec
	case a.codec.sf:
		timers = timersSF
	}
	return &protocol.Protocol[Proc, Msg]{
		Name: a.name,
		N:    a.n,
		R:    r,
		Options: protocol.Options{
			Cyclic: o.Cyclic,
			Faults: o.Faults,
			Timers: timers,
		},
		Init: a.initial,
		Codec: protocol.Codec[Proc, Msg]{
			EncodeProc: a.codec.encodeProc,
			DecodeProc: a.codec.decodeProc,
			EncodeMsg:  encodeMsg,
			DecodeMsg:  decodeMsg,
			To:         func(m *Msg) int { return m.To },
		},
		Format: protocol.Format[Proc, Msg]{
			FormatMsg: FormatMsg,
		},
		OnRequest: a.onRequest,
		OnExit:    a.exit,
		OnDeliver: a.onDeliver,
		Hooks: protocol.Hooks[Proc, Msg]{
			TimerEnabled: a.timerEnabled,
			CanLose:      canLose(o.Lose),
			HoldsToken:   func(_ model.Phase, p *Proc) bool { return p.Has },
			CarriesToken: func(m *Msg) bool { return m.Kind == PRIVILEGE },
		},
		OnTimer: a.timer,
	}
}

func canLose(kind int) func(m *Msg) bool {
	switch kind {
	case LoseToken:
		return func(m *Msg) bool { return m.Kind == PRIVILEGE }
	case LoseRequestOrToken:
		return func(m *Msg) bool { return m.Kind == PRIVILEGE || m.Kind == REQUEST }
	}
	return nil
}

// initial: P0 is the arbiter (Collecting) and holds the idle token with an
// empty Q-list; everybody believes P0 is the arbiter.
func (a *alg) initial(i int) Proc {
	p := Proc{Arb: 0, Prev: noProcess}
	if i == 0 {
		p.Role = Collecting
		p.Has = true
		a.initNumbers(&p)
	}
	return p
}

// send adds m, recording the sender only where the variant's messages
// carry it (banerjee-rec), so that the basic models count states as the
// notes do (a forwarded REQUEST is the same message whoever forwards it).
func (a *alg) send(c *ctx, m Msg) {
	if !a.codec.from {
		m.From = noProcess
	}
	if m.To == c.ID {
		panic(fmt.Sprintf("banerjee: %s: P%d sends %s to itself", a.name, c.ID, FormatMsg(&m)))
	}
	c.Send(m)
}

// onDeliver dispatches on the message kind.
func (a *alg) onDeliver(c *ctx, m *Msg) {
	if c.Self.Crash {
		return // a crashed process (banerjee-rec): the message is discarded
	}
	switch m.Kind {
	case REQUEST:
		a.requestMsg(c, m)
	case PRIVILEGE:
		a.privilege(c, m)
	case NEWARBITER:
		a.newArbiter(c, m)
	default:
		a.recovery(c, m)
	}
}
