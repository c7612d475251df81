package banerjee

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// Variant names, as typed on the command line.
const (
	Default       = "banerjee"
	Literal       = "banerjee/literal"
	SendBeforeCS  = "banerjee/send-before-cs"
	ArbiterNoTok  = "banerjee/arbiter-no-token"
	KeepHead      = "banerjee/keep-head"
	Seq           = "banerjee-seq"
	CountFromZero = "banerjee-seq/count-from-zero"
	SF            = "banerjee-sf"
	StoreUnused   = "banerjee-sf/store-unused"
	EnterDup      = "banerjee-sf/enter-duplicate"
	Rec           = "banerjee-rec"
	ForgetWaiting = "banerjee-rec/forget-waiting"
	// TimersAny is banerjee-rec with the recovery timers in algorithms.md
	// §10.5 mode "any": premature timeouts (see rec.go, quiescent).
	TimersAny = "banerjee-rec/timers-any"
	// TimersOracle is banerjee-rec with the recovery timers in
	// algorithms.md §6.5 / §10.5 mode "oracle": a token timeout fires only
	// when no valid token exists, an enquiry timeout only when every
	// missing reply is really lost (see rec.go, quiescent).
	TimersOracle = "banerjee-rec/timers-oracle"
	// AdaptiveEq is banerjee-sf with §4.1's adaptive period read literally
	// (A8): route via the monitor iff the counter equals the ceiling of the
	// average Q size (window of one, carried by the token).
	AdaptiveEq = "banerjee-sf/adaptive-eq"
)

// Variants returns the variant names of the algorithm called base
// ("banerjee", "banerjee-seq", "banerjee-sf" or "banerjee-rec"), the
// default first, as registered.
func Variants(base string) []string {
	switch base {
	case Default:
		return []string{Default, ArbiterNoTok, KeepHead, Literal, SendBeforeCS}
	case Seq:
		return []string{Seq, CountFromZero}
	case SF:
		return []string{SF, EnterDup, StoreUnused, AdaptiveEq}
	case Rec:
		return []string{Rec, ForgetWaiting, TimersAny, TimersOracle}
	}
	return nil
}

// Timer numbers (Timer(Pi, t=k) in traces).
const (
	TimerCollect  = 0 // end of the request-collection phase (EndCollection)
	TimerForward  = 1 // end of the request-forwarding phase (EndForwarding)
	TimerMonitor  = 2 // banerjee-sf: end of collection, routing the token via the monitor
	TimerRetrans  = 2 // banerjee-rec: request retransmission timeout
	TimerToken    = 3 // banerjee-rec: token timeout (WARNING, or the arbiter's own enquiry)
	TimerEnquiry  = 4 // banerjee-rec: enquiry timeout (decide with the replies received)
	TimerTakeover = 5 // banerjee-rec: the previous arbiter takes over from a crashed arbiter
	TimerCrash    = 6 // banerjee-rec with crash=1: the process crashes (a fault, not a timer)
	timersBasic   = 2
	timersSF      = 3
	timersRec     = 7
	noProcess     = -1
	replyNone     = 0
	replyWaiting  = 1
	replyHad      = 2
	replyHave     = 3
	replyNotAsked = 4
)

// Role is what a process does for the algorithm besides being a client.
type Role uint8

// Roles of algorithms.md §6.1 (Collecting2 only in banerjee/literal).
const (
	None        Role = iota // neither arbiter nor forwarding: incoming requests are dropped
	Collecting              // the arbiter: collects requests into Q
	Forwarding              // the previous arbiter: forwards requests to Arb
	Collecting2             // literal only: Figure 1's second collection phase after an empty one
)

// String names the role as in traces.
func (r Role) String() string {
	switch r {
	case None:
		return "None"
	case Collecting:
		return "Collecting"
	case Forwarding:
		return "Forwarding"
	case Collecting2:
		return "Collecting2"
	}
	return "Role(" + strconv.Itoa(int(r)) + ")"
}

// MarshalText renders the role by name in trace files.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText is the inverse of MarshalText.
func (r *Role) UnmarshalText(b []byte) error {
	for _, x := range []Role{None, Collecting, Forwarding, Collecting2} {
		if x.String() == string(b) {
			*r = x
			return nil
		}
	}
	return fmt.Errorf("banerjee: unknown role %q", b)
}

// Proc is the local state of one process. The client phase and the request
// count are kept by the protocol layer. Fields a variant does not use stay
// zero and are not encoded; fields that are meaningless in the current role
// (the collected list of a non-arbiter, the token data of a non-holder) are
// cleared, so that equal states encode to equal bytes.
type Proc struct {
	Arb   int   `json:"arb"`          // the process believed to be the arbiter (paper: ARBITER)
	Role  Role  `json:"role"`         // None, Collecting, Forwarding (Collecting2: literal)
	Q     []int `json:"q,omitempty"`  // requests collected while Collecting (ids, no duplicates)
	QN    []int `json:"qn,omitempty"` // banerjee-seq: the sequence number of each entry of Q
	Has   bool  `json:"has"`          // holds the token
	TQ    []int `json:"tq,omitempty"` // the token's Q-list while Has (head = this process)
	Round int   `json:"round"`        // newest round seen (repair A4); always 0 in the literal reading

	// banerjee-seq
	SN int   `json:"sn,omitempty"` // number of the current request (1, 2, ...)
	L  []int `json:"l,omitempty"`  // token: last granted request number of each process, while Has

	// banerjee-sf
	Cnt   int   `json:"cnt,omitempty"`   // token: NEW-ARBITER broadcasts since the last monitor visit, while Has
	Win   int   `json:"win,omitempty"`   // banerjee-sf/adaptive-eq token: size of the last scheduled Q-list (the period), while Has
	Miss  int   `json:"miss,omitempty"`  // consecutive accepted NEW-ARBITERs without this process while Waiting
	Resub bool  `json:"resub,omitempty"` // a resubmission to the monitor is outstanding
	S     []int `json:"s,omitempty"`     // monitor: stored requests (ascending ids)

	// banerjee-rec
	Epoch int   `json:"epoch,omitempty"`   // newest token epoch known (number*N + creator)
	Sched []int `json:"sched,omitempty"`   // Q-list of the last accepted NEW-ARBITER naming or containing this process
	Prev  int   `json:"prev"`              // the sender of that NEW-ARBITER (the previous arbiter); -1 none
	Susp  bool  `json:"susp,omitempty"`    // token hand-over suspended by an ENQUIRY until RESUME/INVALIDATE
	Warn  bool  `json:"warn,omitempty"`    // a WARNING is outstanding (at most one per schedule)
	Mon   []int `json:"mon,omitempty"`     // the list this process launched last; it watches the tail (its successor) until a newer round
	Crash bool  `json:"crashed,omitempty"` // crashed (crash-stop): takes no step, messages to it are discarded
	Rep   []int `json:"rep,omitempty"`     // arbiter enquiring: reply of each process (0 none, 1 waiting, 2 had, 3 have, 4 not asked); empty when not enquiring
}

// Kind is the kind of a message.
type Kind uint8

// Message kinds.
const (
	REQUEST Kind = iota
	PRIVILEGE
	NEWARBITER
	WARNING
	ENQUIRY
	REPLY
	RESUME
	INVALIDATE
)

var kindNames = [...]string{"REQUEST", "PRIVILEGE", "NEW-ARBITER", "WARNING", "ENQUIRY", "REPLY", "RESUME", "INVALIDATE"}

// String returns the paper's name of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Msg is a message in transit. Which fields are meaningful depends on Kind
// (see FormatMsg); the others are zero.
type Msg struct {
	Kind  Kind  `json:"kind"`
	From  int   `json:"from"`            // sender (rec messages, and NEW-ARBITER in banerjee-rec); -1 when not recorded
	To    int   `json:"to"`              // receiver
	J     int   `json:"j"`               // REQUEST: requester; NEW-ARBITER: the new arbiter; REPLY: status
	Q     []int `json:"q,omitempty"`     // PRIVILEGE and NEW-ARBITER: the Q-list
	Round int   `json:"round,omitempty"` // PRIVILEGE and NEW-ARBITER: round number
	N     int   `json:"n,omitempty"`     // banerjee-seq REQUEST: request number
	L     []int `json:"l,omitempty"`     // banerjee-seq PRIVILEGE: last granted numbers
	F     int   `json:"f,omitempty"`     // banerjee-sf REQUEST: times forwarded
	Cnt   int   `json:"cnt,omitempty"`   // banerjee-sf PRIVILEGE: broadcast counter
	Win   int   `json:"win,omitempty"`   // banerjee-sf/adaptive-eq PRIVILEGE: size of the last Q-list
	Via   bool  `json:"via,omitempty"`   // banerjee-sf PRIVILEGE: routed to the monitor outside the Q order
	Epoch int   `json:"epoch,omitempty"` // banerjee-rec PRIVILEGE/INVALIDATE: token epoch
}

// config selects the reading, the extension and the mutation of a variant.
type config struct {
	name       string
	n, r       int
	literal    bool
	seq        bool
	sf         bool
	rec        bool
	tau        int // banerjee-sf: forwarding threshold and miss count
	period     int // banerjee-sf: monitor period (0: any)
	monitor    int // banerjee-sf: monitor process
	faults     int // banerjee-rec: message-loss budget
	crash      int // banerjee-rec: crash budget (0 or 1)
	sendBefore bool
	noToken    bool
	keepHead   bool
	forget     bool
	fromZero   bool // banerjee-seq/count-from-zero: n = CS executions so far
	enterDup   bool // banerjee-sf/enter-duplicate: a duplicate grant is entered, not passed on
	storeNo    bool // banerjee-sf/store-unused: the monitor clears its store without scheduling it
	timersAny  bool // banerjee-rec/timers-any: recovery timers fire while messages are in transit
	oracle     bool // banerjee-rec/timers-oracle: recovery timers fire only when what they detect has happened
	adaptiveEq bool // banerjee-sf/adaptive-eq: period = size of the last Q-list, routing iff cnt+1 == period
}

// Options are the parameters of New besides the variant; zero values take
// the defaults of the registry.
type Options struct {
	N, R   int
	Tau    int // banerjee-sf: threshold tau >= 1 (default 1)
	Faults int // banerjee-rec: message-loss budget F
	Crash  int // banerjee-rec: crash-stop budget C (0 or 1)
	Lose   int // banerjee-rec: which messages may be lost: LoseAny, LoseToken or LoseRequestOrToken
	Period int // banerjee-sf: visit the monitor when cnt+1 >= Period; 0: at any collection end, and must at cnt+1 >= N
	// Cyclic gives every process a cyclic client (R = infinity, R is
	// ignored): rounds (and banerjee-seq's request numbers) are renumbered
	// after every step, and a Request is enabled only while at most Backlog
	// NEW-ARBITER messages are in transit (see cyclic.go and the package
	// doc). Not for banerjee-rec or banerjee/literal.
	Cyclic  bool
	Backlog int // with Cyclic: the largest number of NEW-ARBITER messages in transit at which a Request is still enabled (>= 0)
}

// Which messages a Lose fault may drop (banerjee-rec, parameter "lose").
const (
	LoseAny            = 0 // any message
	LoseToken          = 1 // only PRIVILEGE (the paper's "Lost Token" case)
	LoseRequestOrToken = 2 // REQUEST or PRIVILEGE (the paper's two cases of §6)
)

// New builds the protocol of variant (one of the names of Variants) with
// the given options.
func New(variant string, o Options) (*model.Protocol[Proc, Msg], error) {
	p, _, err := build(variant, o)
	return p, err
}

// build is New that also returns the variant's configuration.
func build(variant string, o Options) (*model.Protocol[Proc, Msg], config, error) {
	cfg := config{name: variant, n: o.N, r: o.R, tau: max(o.Tau, 1), faults: o.Faults, period: o.Period, crash: o.Crash}
	switch variant {
	case Default:
	case Literal:
		cfg.literal = true
	case SendBeforeCS:
		cfg.sendBefore = true
	case ArbiterNoTok:
		cfg.noToken = true
	case KeepHead:
		cfg.keepHead = true
	case Seq:
		cfg.seq = true
	case CountFromZero:
		cfg.seq, cfg.fromZero = true, true
	case SF:
		cfg.sf = true
	case EnterDup:
		cfg.sf, cfg.enterDup = true, true
	case StoreUnused:
		cfg.sf, cfg.storeNo = true, true
	case Rec:
		cfg.rec, cfg.seq = true, true
	case ForgetWaiting:
		cfg.rec, cfg.seq, cfg.forget = true, true, true
	case TimersAny:
		cfg.rec, cfg.seq, cfg.timersAny = true, true, true
	case TimersOracle:
		cfg.rec, cfg.seq, cfg.oracle = true, true, true
	case AdaptiveEq:
		cfg.sf, cfg.adaptiveEq = true, true
		cfg.period = 1 // unused: the adaptive test decides (not "--period any")
	default:
		var all []string
		for _, b := range []string{Default, Seq, SF, Rec} {
			all = append(all, Variants(b)...)
		}
		return nil, cfg, fmt.Errorf("unknown Banerjee-Chrysanthis variant %q; valid: %s", variant, strings.Join(all, ", "))
	}
	if o.N < 2 {
		return nil, cfg, fmt.Errorf("%s needs n >= 2 processes, got n=%d", variant, o.N)
	}
	if o.R < 1 && !o.Cyclic {
		return nil, cfg, fmt.Errorf("%s needs r >= 1 requests per process, got r=%d", variant, o.R)
	}
	if o.Cyclic && (cfg.rec || cfg.literal) {
		why := "its token epochs grow without bound"
		if cfg.literal {
			why = "it has no round numbers to tell a stale NEW-ARBITER"
		}
		return nil, cfg, fmt.Errorf("%s does not offer cyclic clients (%s); use cyclic=0", variant, why)
	}
	if o.Cyclic && o.Backlog < 0 {
		return nil, cfg, fmt.Errorf("%s with cyclic clients needs backlog >= 0, got backlog=%d", variant, o.Backlog)
	}
	if o.Faults < 0 {
		return nil, cfg, fmt.Errorf("%s needs faults >= 0, got faults=%d", variant, o.Faults)
	}
	if o.Lose < LoseAny || o.Lose > LoseRequestOrToken {
		return nil, cfg, fmt.Errorf("%s: lose=%d is not a loss kind; valid: 0 (any message), 1 (PRIVILEGE only), 2 (REQUEST or PRIVILEGE)", variant, o.Lose)
	}
	if o.Crash < 0 || o.Crash > 1 || (o.Crash > 0 && !cfg.rec) {
		return nil, cfg, fmt.Errorf("%s: crash=%d is not allowed; crashes (0 or 1) exist only in banerjee-rec", variant, o.Crash)
	}
	if o.Faults > 0 && !cfg.rec {
		return nil, cfg, fmt.Errorf("%s does not recover from message loss; use faults=0 (or banerjee-rec)", variant)
	}
	cfg.monitor = o.N - 1
	timers := timersBasic
	if cfg.sf {
		timers = timersSF
	}
	if cfg.rec {
		timers = timersRec
	}
	p := &model.Protocol[Proc, Msg]{
		Name:         variant,
		N:            o.N,
		R:            o.R,
		Cyclic:       o.Cyclic,
		Faults:       o.Faults,
		Timers:       timers,
		Init:         cfg.initial,
		EncodeProc:   cfg.encodeProc,
		DecodeProc:   cfg.decodeProc,
		EncodeMsg:    encodeMsg,
		DecodeMsg:    decodeMsg,
		To:           func(m *Msg) int { return m.To },
		FormatMsg:    FormatMsg,
		OnRequest:    cfg.onRequest,
		OnExit:       cfg.onExit,
		OnDeliver:    cfg.onDeliver,
		TimerEnabled: cfg.timerEnabled,
		OnTimer:      cfg.onTimer,
		CanLose:      canLose(o.Lose),
		HoldsToken:   func(_ model.Phase, p *Proc) bool { return p.Has },
		CarriesToken: func(m *Msg) bool { return m.Kind == PRIVILEGE },
	}
	return p, cfg, nil
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
func (cfg config) initial(i int) Proc {
	p := Proc{Arb: 0, Prev: noProcess}
	if i == 0 {
		p.Role = Collecting
		p.Has = true
		if cfg.seq {
			p.L = make([]int, cfg.n)
		}
	}
	return p
}

func (cfg config) encodeProc(e *model.Encoder, p *Proc) {
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
		if cfg.adaptiveEq {
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
}

func (cfg config) decodeProc(d *model.Decoder, p *Proc) {
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
		if cfg.adaptiveEq {
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
		fmt.Fprintf(&b, ", Q=%s, round=%d", formatInts(m.Q), m.Round)
		if m.L != nil {
			fmt.Fprintf(&b, ", L=%s", formatInts(m.L))
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
		fmt.Fprintf(&b, ", a=P%d, Q=%s, round=%d", m.J, formatInts(m.Q), m.Round)
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

func formatInts(v []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for k, x := range v {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
	return b.String()
}

// send adds m, recording the sender only where the variant's messages
// carry it (banerjee-rec), so that the basic models count states as the
// notes do (a forwarded REQUEST is the same message whoever forwards it).
func (cfg config) send(c *model.Ctx[Proc, Msg], m Msg) {
	if !cfg.rec {
		m.From = noProcess
	}
	if m.To == c.ID {
		panic(fmt.Sprintf("banerjee: %s: P%d sends %s to itself", cfg.name, c.ID, FormatMsg(&m)))
	}
	c.Send(m)
}

func collecting(p *Proc) bool { return p.Role == Collecting || p.Role == Collecting2 }

// addEntry appends request (j, n) to the collected list if j is absent;
// banerjee-seq keeps the larger number.
func (cfg config) addEntry(p *Proc, j, n int) {
	if k := slices.Index(p.Q, j); k >= 0 {
		if cfg.seq && n > p.QN[k] {
			p.QN[k] = n
		}
		return
	}
	p.Q = append(p.Q, j)
	if cfg.seq {
		p.QN = append(p.QN, n)
	}
}

func (cfg config) clearCollected(p *Proc) { p.Q, p.QN = p.Q[:0], p.QN[:0] }

// becomeArbiter makes the process the collecting arbiter with an empty list.
func (cfg config) becomeArbiter(c *model.Ctx[Proc, Msg]) {
	p := c.Self
	p.Role = Collecting
	p.Arb = c.ID
	cfg.clearCollected(p)
}

// onRequest: algorithms.md §6.1 handler 1.
func (cfg config) onRequest(c *model.Ctx[Proc, Msg], _ int) {
	p, i := c.Self, c.ID
	if cfg.seq {
		p.SN++
	}
	n := p.SN
	if cfg.fromZero {
		n-- // mutant: "requesting its (n+1)th CS" with L starting at 0
	}
	if cfg.sf {
		p.Miss, p.Resub = 0, false
	}
	if cfg.rec {
		p.Warn = false
		if !collecting(p) {
			p.Sched = p.Sched[:0] // a new request has no schedule yet
		}
	}
	switch {
	case collecting(p):
		cfg.addEntry(p, i, n) // the arbiter's own request: local, no message
	case p.Arb == i:
		// literal only: a process that stopped being arbiter (Figure 1's
		// return from arbiter-node) still names itself; its REQUEST to itself
		// reaches a process that is not collecting and is dropped.
	default:
		cfg.send(c, Msg{Kind: REQUEST, From: i, To: p.Arb, J: i, N: n})
	}
}

// onDeliver dispatches on the message kind.
func (cfg config) onDeliver(c *model.Ctx[Proc, Msg], m *Msg) {
	if c.Self.Crash {
		return // a crashed process: the message is discarded
	}
	switch m.Kind {
	case REQUEST:
		cfg.onRequestMsg(c, m)
	case PRIVILEGE:
		cfg.onPrivilege(c, m)
	case NEWARBITER:
		cfg.onNewArbiter(c, m)
	default:
		cfg.onRecovery(c, m)
	}
}

// onRequestMsg: handler 2 (with the monitor's store of §4.1).
func (cfg config) onRequestMsg(c *model.Ctx[Proc, Msg], m *Msg) {
	p, i := c.Self, c.ID
	switch {
	case collecting(p):
		cfg.addEntry(p, m.J, m.N)
	case cfg.sf && i == cfg.monitor:
		if !slices.Contains(p.S, m.J) {
			p.S = append(p.S, m.J)
			slices.Sort(p.S)
		}
	case p.Role == Forwarding:
		if cfg.sf && m.F >= cfg.tau {
			return // forwarded tau times already: dropped (A7)
		}
		f := m.F
		if cfg.sf {
			f++
		}
		cfg.send(c, Msg{Kind: REQUEST, From: i, To: p.Arb, J: m.J, N: m.N, F: f})
	default:
		// None: "Any requests arriving after the end of the forwarding
		// phase are dropped" (and so is a request reaching a designated
		// arbiter before it knows).
	}
}

// onPrivilege: handler 3.
func (cfg config) onPrivilege(c *model.Ctx[Proc, Msg], m *Msg) {
	p, i := c.Self, c.ID
	if cfg.rec {
		if m.Epoch < p.Epoch {
			return // stale token of an invalidated epoch: discarded
		}
		p.Epoch = m.Epoch
	}
	if cfg.sf && m.Via && i == cfg.monitor {
		cfg.monitorVisit(c, m)
		return
	}
	p.Has = true
	p.TQ = append(p.TQ[:0], m.Q...)
	p.Round = max(p.Round, m.Round)
	if cfg.seq {
		p.L = append(p.L[:0], m.L...)
	}
	p.Cnt, p.Win = m.Cnt, m.Win
	if !cfg.literal && len(m.Q) > 0 && m.Q[len(m.Q)-1] == i && p.Role != Collecting {
		cfg.becomeArbiter(c) // the token is proof of being the new arbiter (A3)
		if cfg.rec {
			p.Sched = append(p.Sched[:0], m.Q...)
		}
	}
	if cfg.rec {
		p.Warn = false
		p.Rep = p.Rep[:0] // the token came: an enquiry in progress is moot
	}
	cfg.takeTurn(c)
}

// takeTurn: the holder whose turn it is enters its CS; a process that does
// not wait (a duplicate grant, possible only with resubmission or
// retransmission) hands the token on at once (algorithms.md §6.1 3.3). In
// the variants without duplicates the holder always enters, so that a
// mutant's grant to an Idle process is an unrequested entry.
func (cfg config) takeTurn(c *model.Ctx[Proc, Msg]) {
	if c.Phase() == model.Waiting || !(cfg.sf || cfg.rec) || (cfg.enterDup && c.Phase() == model.Idle) {
		if cfg.sendBefore {
			cfg.passOn(c) // mutant: hand the token on, then enter
		}
		cfg.enter(c)
		return
	}
	if c.Phase() == model.Idle {
		cfg.passOn(c)
	}
	// InCS (banerjee-rec: a regenerated token reaching a process that
	// entered with the old one): the process keeps the new token and passes
	// it on at its exit.
}

func (cfg config) enter(c *model.Ctx[Proc, Msg]) {
	p := c.Self
	if cfg.seq && p.Has && c.Phase() == model.Waiting {
		p.L[c.ID] = p.SN
		if cfg.fromZero {
			p.L[c.ID] = p.SN - 1
		}
	}
	c.Enter()
}

// onExit: handler 4.
func (cfg config) onExit(c *model.Ctx[Proc, Msg]) {
	if cfg.rec && c.Self.Susp {
		return // suspended by an ENQUIRY: keep the token until RESUME or INVALIDATE
	}
	cfg.passOn(c)
}

// passOn removes the holder from the head of the token's list and sends the
// token to the new head; the last process (the arbiter) keeps it.
func (cfg config) passOn(c *model.Ctx[Proc, Msg]) {
	p, i := c.Self, c.ID
	if !p.Has {
		return // send-before-cs: the token left at arrival
	}
	next := noProcess
	if cfg.keepHead {
		for _, x := range p.TQ {
			if x != i {
				next = x
				break
			}
		}
	} else {
		if len(p.TQ) > 0 && p.TQ[0] == i {
			p.TQ = append(p.TQ[:0], p.TQ[1:]...)
		}
		if len(p.TQ) > 0 {
			next = p.TQ[0]
		}
	}
	if next == noProcess {
		if !cfg.keepHead {
			p.TQ = p.TQ[:0]
		}
		return // the tail keeps the token: it is the arbiter
	}
	cfg.sendToken(c, next, false)
}

// sendToken sends PRIVILEGE with the held token data and drops it locally.
func (cfg config) sendToken(c *model.Ctx[Proc, Msg], to int, via bool) {
	p := c.Self
	m := Msg{Kind: PRIVILEGE, From: c.ID, To: to, Q: p.TQ, Round: p.Round, Cnt: p.Cnt, Win: p.Win, Via: via, Epoch: p.Epoch}
	if cfg.seq {
		m.L = p.L
	}
	cfg.send(c, m)
	p.Has = false
	p.TQ, p.L, p.Cnt, p.Win = p.TQ[:0], p.L[:0], 0, 0
}

// onNewArbiter: handler 5 (repaired: rounds), or the literal acceptance of
// every NEW-ARBITER; banerjee-sf counts misses, banerjee-rec records the
// schedule.
func (cfg config) onNewArbiter(c *model.Ctx[Proc, Msg], m *Msg) {
	p, i := c.Self, c.ID
	a := m.J
	if cfg.literal {
		p.Arb = a
		if a == i {
			cfg.becomeArbiter(c) // arbiter-node starts with q = empty
		}
		return
	}
	if m.Round <= p.Round {
		return // stale
	}
	p.Round = m.Round
	p.Arb = a
	if a == i && p.Role != Collecting {
		cfg.becomeArbiter(c)
	}
	in := slices.Contains(m.Q, i)
	if cfg.sf && c.Phase() == model.Waiting && !p.Has && p.Role != Collecting {
		if in {
			p.Miss, p.Resub = 0, false
		} else if !p.Resub {
			p.Miss++
			if p.Miss >= cfg.tau {
				p.Miss, p.Resub = 0, true
				if i == cfg.monitor {
					if !slices.Contains(p.S, i) {
						p.S = append(p.S, i)
						slices.Sort(p.S)
					}
				} else {
					cfg.send(c, Msg{Kind: REQUEST, From: i, To: cfg.monitor, J: i})
				}
			}
		}
	}
	if cfg.rec {
		cfg.recNewArbiter(c, m, in)
	}
}

// timerEnabled: the phase ends of §6.2 and the recovery timers of §6.5.
func (cfg config) timerEnabled(i int, phase model.Phase, p *Proc, t int) bool {
	if p.Crash {
		return false
	}
	switch t {
	case TimerCollect:
		if cfg.literal && p.Role == Collecting2 {
			return true
		}
		if p.Role != Collecting || phase == model.InCS || (cfg.rec && len(p.Rep) > 0) {
			return false
		}
		if !cfg.noToken && (!p.Has || len(p.TQ) > 0) {
			return false
		}
		if cfg.literal {
			return true // Figure 1 ends a collection phase even with nothing collected (A1)
		}
		if cfg.sf {
			if i == cfg.monitor {
				return len(p.Q) > 0 || len(p.S) > 0
			}
			if cfg.monitorDue(p) {
				return false // the monitor is due: only TimerMonitor
			}
		}
		return cfg.pending(p) > 0
	case TimerForward:
		return p.Role == Forwarding
	}
	if cfg.sf && t == TimerMonitor {
		// --period any (algorithms.md §6.4): the arbiter may route the token
		// via the monitor at the end of any collection phase, even an empty
		// one, and must once cnt+1 >= N.
		return i != cfg.monitor && p.Role == Collecting && p.Has && len(p.TQ) == 0 && phase != model.InCS &&
			(cfg.period == 0 || cfg.monitorDue(p))
	}
	if cfg.rec {
		return cfg.recTimerEnabled(i, phase, p, t)
	}
	return false
}

// monitorDue reports whether the arbiter must route the token via the
// monitor at the end of this collection phase.
func (cfg config) monitorDue(p *Proc) bool {
	if cfg.adaptiveEq {
		return p.Cnt+1 == max(p.Win, 1) // A8 literal: "equals the ceiling"
	}
	if cfg.period == 0 {
		return p.Cnt+1 >= cfg.n
	}
	return p.Cnt+1 >= cfg.period
}

// pending is the number of collected entries that will be scheduled
// (banerjee-seq drops entries already granted).
func (cfg config) pending(p *Proc) int {
	if !cfg.seq || !p.Has {
		return len(p.Q)
	}
	k := 0
	for e, j := range p.Q {
		if p.QN[e] > p.L[j] {
			k++
		}
	}
	return k
}

func (cfg config) onTimer(c *model.Ctx[Proc, Msg], t int) {
	p := c.Self
	switch t {
	case TimerCollect:
		if cfg.literal && p.Role == Collecting2 {
			// end of Figure 1's second collection phase: arbiter-node
			// returns; whatever was collected is lost (A1).
			p.Role = None
			cfg.clearCollected(p)
			return
		}
		if cfg.literal && len(p.Q) == 0 {
			p.Role = Collecting2
			return
		}
		cfg.endCollection(c)
		return
	case TimerForward:
		p.Role = None
		return
	}
	if cfg.sf && t == TimerMonitor {
		cfg.routeViaMonitor(c)
		return
	}
	if cfg.rec {
		cfg.recTimer(c, t)
	}
}

// schedule turns the collected entries into the next Q-list: banerjee-seq
// drops entries already granted and orders by request number (stable, so
// ties keep arrival order); the others keep arrival order.
func (cfg config) schedule(c *model.Ctx[Proc, Msg]) []int {
	p := c.Self
	var q []int
	if cfg.seq && p.Has {
		type ent struct{ j, n int }
		var es []ent
		for e, j := range p.Q {
			if p.QN[e] > p.L[j] {
				es = append(es, ent{j, p.QN[e]})
			}
		}
		slices.SortStableFunc(es, func(a, b ent) int { return a.n - b.n })
		for _, x := range es {
			q = append(q, x.j)
		}
	} else {
		q = append(q, p.Q...)
	}
	if cfg.sf && c.ID == cfg.monitor {
		for _, j := range p.S {
			if !slices.Contains(q, j) && !cfg.storeNo {
				q = append(q, j)
			}
		}
		p.S = p.S[:0]
		p.Cnt = 0
	}
	cfg.clearCollected(p)
	return q
}

// endCollection: handler 6.
func (cfg config) endCollection(c *model.Ctx[Proc, Msg]) {
	p := c.Self
	q := cfg.schedule(c)
	if !cfg.literal {
		p.Round++ // the literal reading has no round numbers (A4)
	}
	cfg.launch(c, q, false)
}

// launch sends a freshly scheduled list on its way: NEW-ARBITER to every
// other process naming the tail, the token to the head (or the CS here).
func (cfg config) launch(c *model.Ctx[Proc, Msg], q []int, visit bool) {
	p, i := c.Self, c.ID
	if cfg.noToken && !p.Has {
		// mutant arbiter-no-token: a fresh token is made up
		p.Has = true
		if cfg.seq {
			p.L = make([]int, cfg.n)
		}
	}
	if len(q) == 0 {
		// banerjee-sf monitor with nothing to schedule: it stays the
		// arbiter holding the token and says so.
		p.TQ = p.TQ[:0]
		p.Role, p.Arb = Collecting, i
		cfg.broadcast(c, i, q)
		return
	}
	if len(q) == 1 && q[0] == i && !visit {
		// the arbiter serves itself and stays arbiter: no message
		p.TQ = append(p.TQ[:0], i)
		if cfg.rec {
			p.Sched = append(p.Sched[:0], i)
		}
		cfg.takeTurn(c)
		return
	}
	t := q[len(q)-1]
	if cfg.sf && !visit && i != cfg.monitor {
		p.Cnt++ // one more NEW-ARBITER broadcast since the last monitor visit
		if cfg.adaptiveEq {
			// beyond N the equality can never hold again (the period is at
			// most N): capping keeps the state space finite
			p.Cnt = min(p.Cnt, cfg.n)
		}
	}
	cfg.broadcast(c, t, q)
	if t == i {
		p.Role, p.Arb = Collecting, i // its own request came last: it stays arbiter
	} else {
		p.Role, p.Arb = Forwarding, t
	}
	p.TQ = append(p.TQ[:0], q...)
	if q[0] == i {
		cfg.takeTurn(c)
		return
	}
	cfg.sendToken(c, q[0], false)
}

func (cfg config) broadcast(c *model.Ctx[Proc, Msg], a int, q []int) {
	p := c.Self
	if cfg.adaptiveEq && p.Has {
		p.Win = len(q) // the window of one Q size travels with the token
	}
	for k := range cfg.n {
		if k != c.ID {
			cfg.send(c, Msg{Kind: NEWARBITER, From: c.ID, To: k, J: a, Q: q, Round: p.Round})
		}
	}
	if cfg.rec {
		cfg.recLaunched(c, q)
	}
}

// routeViaMonitor: banerjee-sf, §4.1: the arbiter sends the token to the
// monitor without broadcasting; late requests go to the monitor (A9).
func (cfg config) routeViaMonitor(c *model.Ctx[Proc, Msg]) {
	p := c.Self
	q := cfg.schedule(c)
	p.Round++
	p.TQ = append(p.TQ[:0], q...)
	p.Role, p.Arb = Forwarding, cfg.monitor
	cfg.sendToken(c, cfg.monitor, true)
}

// monitorVisit: the monitor appends its stored requests to the Q-list,
// resets the counter, broadcasts NEW-ARBITER and sends the token on.
func (cfg config) monitorVisit(c *model.Ctx[Proc, Msg], m *Msg) {
	p := c.Self
	p.Has = true
	p.Round = max(p.Round, m.Round)
	q := append([]int(nil), m.Q...)
	for _, j := range p.S {
		if !slices.Contains(q, j) && !cfg.storeNo {
			q = append(q, j)
		}
	}
	p.S = p.S[:0]
	p.Cnt = 0
	if p.Role == Collecting {
		// cannot happen: only the token holder ends a collection phase
		panic("banerjee: the monitor is visited while it is the arbiter")
	}
	cfg.launch(c, q, true)
}

// System builds variant with the given options and compiles it; for
// banerjee-rec it adds the quiescent timer rule (see rec.go).
func System(variant string, o Options) (model.System, error) {
	p, cfg, err := build(variant, o)
	if err != nil {
		return nil, err
	}
	sys := p.System()
	if o.Cyclic {
		return cyclic{inner: sys, cfg: cfg, backlog: o.Backlog}, nil
	}
	if p.Timers == timersRec {
		return quiescent{inner: sys, any: cfg.timersAny, oracle: cfg.oracle}, nil
	}
	return sys, nil
}
