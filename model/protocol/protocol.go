package protocol

import (
	"bytes"
	"fmt"
	"unsafe"

	"github.com/tokenmc/tokenmc/model"
)

// Protocol is the protocol layer: an algorithm written as per-process
// handlers over its own process type P and message type M. Compile it with
// System to get an explicit-state System with, for free, the network
// multiset in canonical order, the client phases Idle/Waiting/InCS with the
// R bound, action labels, message-loss faults and the data the generic
// properties need (semantics.md §1).
//
// Handlers see only the acting process (Ctx.Self) and add messages with
// Ctx.Send; they must be deterministic and must not keep references to
// their arguments.
//
// A model names its size (Name, N, R), its initial local states (Init),
// how its types are encoded and addressed (Codec), and its four handlers
// (OnRequest, OnExit, OnDeliver, and OnTimer when Options.Timers > 0).
// Everything else is optional and grouped: Options for the model's
// configuration (plain values: groups, faults, timers, cyclic clients,
// channel capacity, ...), Hooks for the optional functions that refine
// the semantics (initial messages, when timers may fire, which messages
// may be lost, tokens, a whole-state Guard, Normalize), and Format for how
// people read its messages, local states and timers. The groups are
// embedded, so p.Guard or p.Faults read and set a field directly; only a
// composite literal names the group:
//
//	p := &protocol.Protocol[Proc, Msg]{
//		Name: "ring", N: 3, R: 1,
//		Init:      initial,
//		Codec:     protocol.Codec[Proc, Msg]{EncodeProc: encP, DecodeProc: decP, EncodeMsg: encM, DecodeMsg: decM, To: to},
//		OnRequest: onRequest, OnExit: onExit, OnDeliver: onDeliver,
//		Options:   protocol.Options{Faults: 1},
//		Hooks:     protocol.Hooks[Proc, Msg]{CanLose: isToken},
//	}
//
// System fills the defaults documented on each field (Groups 1,
// TimerEnabled always true, a generic FormatMsg, no initial messages, no
// faults, no tokens). A Protocol literal must name its fields
// (Protocol{N: 3, ...}), and so must the literals of its groups: a blank
// field rules out positional literals, so new fields can be added.
type Protocol[P, M any] struct {
	_ struct{} // forces keyed literals

	Name string // algorithm name with variant
	N    int    // processes 0..N-1
	R    int    // requests per process (ignored when Options.Cyclic)

	// Init returns the initial local state of process i.
	Init func(i int) P
	// Codec encodes and decodes the local states and messages and tells
	// a message's receiver (required).
	Codec[P, M]

	// OnRequest runs when Ctx.ID requests its CS (its phase is already
	// Waiting); it may call Ctx.Enter.
	OnRequest func(c *Ctx[P, M], group int)
	// OnExit runs when Ctx.ID leaves its CS (its phase is already Idle).
	OnExit func(c *Ctx[P, M])
	// OnDeliver runs when m is delivered to Ctx.ID.
	OnDeliver func(c *Ctx[P, M], m *M)
	// OnTimer runs when timer t of Ctx.ID fires (required when
	// Options.Timers > 0).
	OnTimer func(c *Ctx[P, M], t int)

	// Options is the model's configuration beyond its size (optional).
	Options
	// Hooks are the optional functions that refine the semantics.
	Hooks[P, M]
	// Format is how people read the model's messages, local states and
	// timers (optional).
	Format[P, M]
}

// Codec is the required part of a Protocol that gives its types a
// canonical encoding and addresses its messages.
type Codec[P, M any] struct {
	_ struct{} // forces keyed literals

	// EncodeProc and DecodeProc give P a canonical encoding: equal values
	// encode to equal bytes. DecodeProc must overwrite every field of *p
	// (it may reuse p's slices).
	EncodeProc func(e *model.Encoder, p *P)
	DecodeProc func(d *model.Decoder, p *P)
	// EncodeMsg and DecodeMsg do the same for messages.
	EncodeMsg func(e *model.Encoder, m *M)
	DecodeMsg func(d *model.Decoder, m *M)
	// To returns the receiver of m.
	To func(m *M) int
	// From (optional) returns the sender of m: the process whose handler
	// sent it (not the origin of a forwarded request). It is needed only
	// with Options.Capacity > 0, where a channel is the ordered pair From
	// -> To, and the layer then checks it on every send (a wrong From
	// panics).
	From func(m *M) int
}

// Options is a Protocol's configuration beyond N and R: plain values, all
// optional (the zero value is a fault-free model of one group without
// timers, with R requests per process).
type Options struct {
	_ struct{} // forces keyed literals

	// Cyclic makes clients request forever (R = infinity): Request is
	// enabled whenever a process is Idle and no request count is kept, so
	// the state stays finite if the algorithm's own counters are bounded.
	// Only for models that renumber their counters (design notes §10.1).
	Cyclic bool
	Groups int // request arguments (GME groups); 0 (the default) or 1 for none
	Faults int // message-loss budget F (0: no faults)
	Timers int // timer or phase-end kinds per process (0: none)
	// GME marks group mutual exclusion: processes in the same group may
	// share the CS, so gme-safety applies instead of mutex.
	GME bool
	// Capacity bounds every channel (design notes §10.2): a transition
	// whose sends would leave more than Capacity messages on one channel
	// (ordered pair From(m) -> To(m), counting the copies already in
	// transit, after the delivered one is removed) is disabled. 0: no
	// bound. The search is then an under-approximation; workers report
	// the disabled transitions through CapacityBlocked. Initial messages
	// are not checked against it. Capacity > 0 needs Codec.From.
	Capacity int
	// Nondeterministic lets handlers call Ctx.Choose, for pseudo-code that
	// leaves a choice open ("append the waiting ids in any order", "send
	// to some neighbour"). An action then has one successor per
	// alternative (Transition.Choice numbers them), the checker explores
	// every one, labels say which alternative a step took, and random
	// walks step through Successors (there is no in-place fast path).
	// A handler of a protocol without it that calls Choose panics.
	Nondeterministic bool
	// Params records the parameters the protocol was built with; Info
	// returns them (for trace metadata). Not copied: do not change the
	// map afterwards.
	Params map[string]int
}

// Hooks are a Protocol's optional functions that refine the semantics the
// layer gives for free: each is nil by default.
type Hooks[P, M any] struct {
	_ struct{} // forces keyed literals

	// InitialMessages returns the messages in transit in the initial
	// state; nil: none.
	InitialMessages func() []M
	// TimerEnabled reports whether timer t of process i may fire; nil:
	// every timer may always fire (when Options.Timers > 0).
	TimerEnabled func(i int, phase model.Phase, p *P, t int) bool
	// CanLose restricts which messages a Lose fault may drop; nil: any.
	CanLose func(m *M) bool

	// HoldsToken reports whether a process holds a (valid) token, and
	// CarriesToken whether a message carries one. Leave both nil for
	// algorithms without tokens: single-token then does not apply.
	HoldsToken   func(phase model.Phase, p *P) bool
	CarriesToken func(m *M) bool

	// Guard restricts actions by the whole state. It is asked about every
	// action the layer itself enables (a Request of an Idle process with
	// requests left, an Exit, a Timer that TimerEnabled allows, a
	// Deliver, a Lose within the fault budget that CanLose allows), in
	// the order of Successors; the action is enabled only if Guard
	// returns true. v is the read-only View of the whole state (phases,
	// local states, messages in transit with their copies), decoded on
	// demand and cached for the state; a is the candidate action. Guard
	// must be deterministic and must not modify v, a or what they point
	// to. It models an oracle (a failure detector that knows no token
	// exists, a bound on the clients): the checker, random walks, and the
	// runtime of cmd/internal/live, which keeps all processes and messages
	// under one lock for a guarded system, all evaluate it on a
	// consistent global state.
	Guard func(v *View[P, M], a *Action[M]) bool
	// GuardLocal declares that Guard reads only the candidate action and
	// the acting process (a.Proc's phase, group, requests made and local
	// state in v), never another process or the messages in transit: a
	// bound on which processes may request, say. Then steps of different
	// processes commute as without a Guard, and explore's breadth-first
	// search may leave such steps unstepped (see commute.go); otherwise a
	// guarded protocol steps every transition. The checker trusts it and
	// cannot verify it: a Guard that reads more makes the counts wrong.
	// Whoever adds a condition to a local Guard that reads more must clear
	// it.
	GuardLocal bool
	// Normalize is applied to every state the system yields (initial
	// states and successors) before it is encoded. phases[i] is process
	// i's client phase (read only); procs[i] its decoded local state and
	// msgs the messages in transit, one entry per copy, in canonical
	// order. Normalize may change procs and msgs in place (not their
	// number, and without making two of them share a slice): renumber
	// counters to their ranks, blank the fields of a stale message. The
	// layer then encodes the state again, re-sorting the network and
	// merging equal messages into copies. It must be a bisimulation-
	// preserving renaming: a state and its normal form enable the same
	// actions, with successors that normalise alike, and satisfy the same
	// properties. The checker trusts it and cannot verify it. It is a
	// state-space abstraction: the per-process stepping of real runs and
	// event-log validation works without it, on absolute values, but
	// with Guard. With symmetry (Renamer) Guard must be invariant under
	// the renamings and Normalize must commute with them
	// (explore/symmetry.Verify checks both on the reachable states).
	Normalize func(phases []model.Phase, procs []P, msgs []M)
}

// Format is how people read a Protocol's messages, local states and
// timers; every field is optional.
type Format[P, M any] struct {
	_ struct{} // forces keyed literals

	// FormatMsg renders m for people, naming its kind, sender, receiver and
	// every field, e.g. "REQ(P1->P0, sn=1)". Distinct messages must render
	// differently. nil: the generic rendering fmt.Sprintf("%+v", *m),
	// e.g. "{Kind:0 From:1 To:0 SN:1}".
	FormatMsg func(m *M) string
	// FormatProc renders a process's local state for people, as FormatMsg
	// renders messages, e.g. "RN=[1,0] LN=[0,0] Q=[]". Every
	// StateDescription the system gives (Worker.Describe: trace files,
	// validate's reached state, the explorer) then carries it in
	// ProcessDescription.Text, and the state tables of show, replay,
	// check --report, explore and validate show it instead of the JSON
	// of the variables. What a step changed is still told per variable,
	// and replay compares Vars only: Text is derived from the state. It
	// should be one short line, deterministic, and must not keep or
	// change p. nil: the views list the variables.
	FormatProc func(p *P) string
	// TimerNames names the Options.Timers timers, for labels: with names
	// a timer reads Timer(P0, expire) instead of Timer(P0, t=0).
	TimerNames []string
}

// Ctx is what a handler sees: the acting process and the means to act.
type Ctx[P, M any] struct {
	ID   int // the acting process
	N    int // number of processes
	Self *P  // the acting process's local state; handlers modify it in place

	phase model.Phase
	group int
	flags model.Flags
	w     *protocolWorker[P, M]
}

// Phase returns the acting process's client phase.
func (c *Ctx[P, M]) Phase() model.Phase { return c.phase }

// Enter puts the acting process in its CS. Entering from any phase but
// Waiting is recorded on the transition and violates no-unrequested-entry.
func (c *Ctx[P, M]) Enter() {
	if c.phase != model.Waiting {
		c.flags |= model.FlagUnrequestedEntry
	}
	c.phase = model.InCS
}

// EnterGroup enters the CS in group g: for extended GME, where a request
// names a set of groups and the process is admitted with one of them.
// Snapshot.Group (and so gme-safety) then reports g.
func (c *Ctx[P, M]) EnterGroup(g int) {
	c.Enter()
	c.group = g
}

// Group returns the group of the acting process's current (or last)
// request, or the group it entered with.
func (c *Ctx[P, M]) Group() int { return c.group }

// AddFlags records algorithm-specific facts on the transition, for the
// algorithm's TransitionInvariant properties. The layer's own flags
// (FlagUnrequestedEntry) use the low 16 bits; use FlagsUser and above.
func (c *Ctx[P, M]) AddFlags(f model.Flags) { c.flags |= f }

// Send adds one copy of m to the network. m is encoded at once, so later
// changes to the slices it shares with Self do not affect it.
func (c *Ctx[P, M]) Send(m M) {
	w := c.w
	w.sendMsg = m // a field, so that passing its address does not allocate
	to := w.p.To(&w.sendMsg)
	if to < 0 || to >= w.p.N {
		panic(fmt.Sprintf("model: %s: process %d sent a message to P%d, outside 0..%d", w.p.Name, c.ID, to, w.p.N-1))
	}
	start := w.sendBuf.Len()
	w.p.EncodeMsg(&w.sendBuf, &w.sendMsg)
	w.sends = append(w.sends, span{start, w.sendBuf.Len()})
}

// act runs the handler of an action of one process: kind with argument
// arg (a group or a timer number), m the delivered message. c is the
// acting process's context with its phase, group and local state before
// the action; act first does the layer's part of the client phases (a
// Request makes the process Waiting in group arg, an Exit makes it Idle)
// and returns the request count after the action (made, plus one for a
// counted Request). Every way of stepping a process (Successors, the
// in-place walk, LocalWorker.Step) goes through it.
func (p *Protocol[P, M]) act(c *Ctx[P, M], kind model.ActionKind, arg int, m *M, made int) int {
	switch kind {
	case model.Request:
		if !p.Cyclic {
			made++
		}
		c.group, c.phase = arg, model.Waiting
		p.OnRequest(c, arg)
	case model.Exit:
		c.phase = model.Idle
		p.OnExit(c)
	case model.Timer:
		p.OnTimer(c, arg)
	case model.Deliver:
		p.OnDeliver(c, m)
	}
	return made
}

// System compiles the protocol into a System. It fills the defaults of
// the optional fields (in a copy: p is not changed) and panics with a
// message naming the field when a required field is missing or two fields
// disagree: that is a programming error, not bad input, and it shows when
// the system is built rather than in the middle of a search.
func (p *Protocol[P, M]) System() model.System {
	need := func(ok bool, field string) {
		if !ok {
			panic(fmt.Sprintf("model: protocol %q has no %s", p.Name, field))
		}
	}
	need(p.N >= 1, "N >= 1")
	need(p.R >= 1 || p.Cyclic, "R >= 1 (or Cyclic)")
	need(p.Init != nil, "Init")
	need(p.EncodeProc != nil && p.DecodeProc != nil, "EncodeProc/DecodeProc")
	need(p.EncodeMsg != nil && p.DecodeMsg != nil, "EncodeMsg/DecodeMsg")
	need(p.To != nil, "To")
	need(p.OnRequest != nil, "OnRequest")
	need(p.OnExit != nil, "OnExit")
	need(p.OnDeliver != nil, "OnDeliver")
	need(p.Timers == 0 || p.OnTimer != nil, "OnTimer (Timers > 0)")
	need((p.HoldsToken == nil) == (p.CarriesToken == nil), "HoldsToken and CarriesToken together")
	need(p.TimerNames == nil || len(p.TimerNames) == p.Timers, "one TimerNames entry per timer")
	need(p.Capacity >= 0, "Capacity >= 0")
	need(p.Capacity == 0 || p.From != nil, "From (Capacity > 0)")
	cp := *p
	if cp.Groups < 1 {
		cp.Groups = 1
	}
	if cp.FormatMsg == nil {
		cp.FormatMsg = formatGeneric[M]
	}
	if cp.TimerEnabled == nil {
		cp.TimerEnabled = func(int, model.Phase, *P, int) bool { return true }
	}
	return &protocolSystem[P, M]{p: &cp}
}

// formatGeneric is the default FormatMsg.
func formatGeneric[M any](m *M) string { return fmt.Sprintf("%+v", *m) }

// formatMsg renders m with p.FormatMsg, or generically when it is nil.
func (p *Protocol[P, M]) formatMsg(m *M) string {
	if p.FormatMsg == nil {
		return formatGeneric(m)
	}
	return p.FormatMsg(m)
}

type protocolSystem[P, M any] struct {
	p *Protocol[P, M]
}

func (s *protocolSystem[P, M]) Info() model.Info {
	r := s.p.R
	if s.p.Cyclic {
		r = 0
	}
	return model.Info{
		Name:      s.p.Name,
		Processes: s.p.N,
		Requests:  r,
		Groups:    s.p.Groups,
		Faults:    s.p.Faults,
		Tokens:    s.p.HoldsToken != nil,
		GME:       s.p.GME,
		Params:    s.p.Params,
	}
}

func (s *protocolSystem[P, M]) NewWorker() model.Worker {
	if s.p.Capacity > 0 {
		return &cappedWorker[P, M]{plainWorker[P, M]{w: newProtocolWorker(s.p)}}
	}
	if s.p.Nondeterministic {
		return &plainWorker[P, M]{w: newProtocolWorker(s.p)}
	}
	return newProtocolWorker(s.p)
}

// newProtocolWorker returns a worker of protocol p with its buffers.
func newProtocolWorker[P, M any](p *Protocol[P, M]) *protocolWorker[P, M] {
	w := &protocolWorker[P, M]{p: p}
	// The buffers a worker writes for every state are padded: the workers
	// of a search are made one after the other, and their small buffers
	// would otherwise share cache lines (each write then stalls the other
	// processor).
	w.procs = padded[procSeg](p.N)
	w.below = padded[uint64](p.N)
	w.ctx.w = w
	w.ctx.N = p.N
	w.view.w = w
	w.view.locals = padded[P](p.N)
	w.view.decoded = padded[bool](p.N)
	if p.Normalize != nil {
		w.norm = newNormalizer(p)
	}
	return w
}

// padded returns n zero Ts with a cache line's worth of bytes unused on
// either side, so that no other allocation shares their cache lines.
func padded[T any](n int) []T {
	const line = 64
	var z T
	pad := 1
	if size := int(unsafe.Sizeof(z)); size > 0 {
		pad = (line + size - 1) / size
	}
	return make([]T, n+2*pad)[pad : pad+n : pad+n]
}

type span struct{ start, end int }

// procSeg locates one process in an encoded state. A state is
//
//	faults-used uvarint
//	per process: phase byte, made uvarint, group uvarint, len uvarint, P bytes
//	distinct messages uvarint
//	per distinct message, in bytes.Compare order: count uvarint, len uvarint, M bytes
type procSeg struct {
	phase       model.Phase
	made, group int
	seg, local  span // whole segment; encoded P within it
	rest        int  // where the segment's group starts (after made)
}

type msgSeg struct {
	count int
	b     span
	rec   int // where the message's record (count, len, bytes) starts
}

type protocolWorker[P, M any] struct {
	p      *Protocol[P, M]
	state  []byte
	faults int
	procs  []procSeg
	msgs   []msgSeg

	ctx     Ctx[P, M]
	self    P
	msg     M
	sendMsg M
	dec     model.Decoder // reused: a local Decoder would escape to the heap
	sendBuf model.Encoder
	sends   []span
	enc     model.Encoder
	out     []byte
	plan    []sendPlan
	view    View[P, M]
	tr      model.Transition
	act     Action[M]             // the candidate action Guard sees
	norm    *normalizer[P, M]     // nil without Normalize
	cap     capacityState[M]      // with Capacity > 0: the channel counts
	next    []byte                // the successor step yielded last
	choice  chooser               // Nondeterministic: the alternatives of the running handler
	aux     *protocolWorker[P, M] // Nondeterministic: steps for Label (alternatives)
	memos   memos                 // local steps and facts met before (memo.go)
	memoOn  bool                  // the memos are used: set by Successors, cleared by Apply (random walks)
	via     viaTag                // SuccessorsAfter: the step that reached the state (commute.go)
	tagging bool                  // SuccessorsAfter: stepOnce sets tag
	tag     uint64                // the StepTag of the transition yielded last
	// While Successors steps the Deliver of message k (with tagging),
	// below[i] has bit j set for each message j < min(k, 64) to process
	// i (commute.go's stepTag).
	below []uint64
	// detached: the next group and local state of a handler run outside
	// the parsed state (semcommute.go's deliverEffect)
	detached []byte

	// netTokens counts the token copies in transit of the parsed state, when
	// netTokensKnown: Successors decodes every message anyway, so View.Tokens
	// need not decode them again for LastSnapshot.
	netTokens      int
	netTokensKnown bool

	// For ModelPanic (see catch): yielding while the caller's yield runs,
	// actingOn while w.tr is the action being stepped, hook the handler
	// or hook of the protocol running.
	yielding, actingOn bool
	hook               string
}

// parse indexes state into w.procs and w.msgs without decoding locals.
func (w *protocolWorker[P, M]) parse(state []byte) {
	w.state = state
	w.netTokensKnown = false
	w.faults, w.msgs = parseLayout(state, w.procs, w.msgs, w.p.Name)
	p := w.p
	w.memos.newState(len(w.procs), len(w.msgs), len(w.procs)*(p.Groups+1+p.Timers)+2*len(w.msgs))
}

// parseLayout indexes an encoded protocol state (the layout documented
// above) into procs, one entry per process, and msgs, reusing its storage,
// without decoding any local state or message. It returns the fault count
// and the message segments.
func parseLayout(state []byte, procs []procSeg, msgs []msgSeg, name string) (int, []msgSeg) {
	f, pos := uvarint(state, 0)
	faults := int(f)
	for i := range procs {
		ps := &procs[i]
		ps.seg.start = pos
		ps.phase = model.Phase(state[pos])
		pos++
		var made, group, n uint64
		made, pos = uvarint(state, pos)
		ps.rest = pos
		group, pos = uvarint(state, pos)
		n, pos = uvarint(state, pos)
		ps.made, ps.group = int(made), int(group)
		ps.local = span{pos, pos + int(n)}
		pos += int(n)
		ps.seg.end = pos
	}
	nd, pos := uvarint(state, pos)
	msgs = msgs[:0]
	for range nd {
		var c, n uint64
		rec := pos
		c, pos = uvarint(state, pos)
		n, pos = uvarint(state, pos)
		msgs = append(msgs, msgSeg{int(c), span{pos, pos + int(n)}, rec})
		pos += int(n)
	}
	if pos != len(state) {
		panic(fmt.Sprintf("model: %s: state has %d trailing bytes", name, len(state)-pos))
	}
	return faults, msgs
}

// uvarint reads the unsigned varint at b[pos:] (as model.Decoder.Uint
// does) and returns it with the offset of the byte after it.
func uvarint(b []byte, pos int) (uint64, int) {
	if c := b[pos]; c < 0x80 {
		return uint64(c), pos + 1 // most are one byte
	}
	return uvarintLong(b, pos)
}

// uvarintLong is uvarint of two or more bytes.
func uvarintLong(b []byte, pos int) (uint64, int) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c := b[pos]
		pos++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, pos
		}
	}
}

func (w *protocolWorker[P, M]) bytesOf(s span) []byte { return w.state[s.start:s.end] }

func (w *protocolWorker[P, M]) Initial(yield func([]byte) bool) {
	p := w.p
	w.sendBuf.Reset()
	w.sends = w.sends[:0]
	if p.InitialMessages != nil {
		for _, m := range p.InitialMessages() {
			start := w.sendBuf.Len()
			p.EncodeMsg(&w.sendBuf, &m)
			w.sends = append(w.sends, span{start, w.sendBuf.Len()})
		}
	}
	e := &w.enc
	e.Reset()
	e.Uint(0)
	var local model.Encoder
	for i := range p.N {
		v := p.Init(i)
		local.Reset()
		p.EncodeProc(&local, &v)
		e.Uint(uint64(model.Idle)) // one byte: a phase is below 0x80
		e.Uint(0)
		e.Uint(0)
		e.Uint(uint64(local.Len()))
		e.Raw(local.Bytes())
	}
	w.state = nil
	w.msgs = w.msgs[:0]
	w.out = w.writeNetwork(append(w.out[:0], e.Bytes()...), -1)
	out := w.out
	if w.norm != nil {
		out = w.norm.apply(out)
	}
	yield(out)
}

func (w *protocolWorker[P, M]) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	w.via, w.tagging = viaTag{}, false
	w.successors(state, yield)
}

// setTransition sets every field of *t, one by one: an assignment of a
// composite literal (*t = model.Transition{...}) is built on the stack
// and copied with 16-byte loads that straddle its 8-byte stores, which
// defeats store forwarding, once per transition.
func setTransition(t *model.Transition, kind model.ActionKind, proc, arg int, msg []byte) {
	t.Kind, t.Proc, t.Arg, t.Msg, t.Flags, t.Choice = kind, proc, arg, msg, 0, 0
}

// successors is Successors; with w.via set (SuccessorsAfter) it yields the
// transitions w.via shows to be redundant without stepping them.
func (w *protocolWorker[P, M]) successors(state []byte, yield func(*model.Transition, []byte) bool) {
	p := w.p
	w.yielding, w.actingOn, w.hook = false, false, hookNone
	w.memoOn = true
	defer w.catch()
	w.parse(state)
	if p.Guard != nil {
		clear(w.view.decoded)
	}
	w.cap.dropped = false
	if p.Capacity > 0 {
		w.countChannels()
	}
	t := &w.tr
	for i := range w.procs {
		ps := &w.procs[i]
		switch ps.phase {
		case model.Idle:
			if p.Cyclic || ps.made < p.R {
				for g := range p.Groups {
					setTransition(t, model.Request, i, g, nil)
					if w.allowed(t, nil) && !w.stepLocal(t, yield) {
						return
					}
				}
			}
		case model.InCS:
			setTransition(t, model.Exit, i, 0, nil)
			if w.allowed(t, nil) && !w.stepLocal(t, yield) {
				return
			}
		}
		if p.Timers > 0 {
			for k := range p.Timers {
				w.decodeSelf(i)
				if p.TimerEnabled(i, ps.phase, &w.self, k) {
					setTransition(t, model.Timer, i, k, nil)
					if w.allowed(t, nil) && !w.stepLocal(t, yield) {
						return
					}
				}
			}
		}
	}
	tokens := 0
	if w.tagging {
		clear(w.below)
	}
	prevTo := 0 // the receiver of message k-1
	for k := range w.msgs {
		to, token, _ := w.msgFacts(k)
		if token {
			tokens += w.msgs[k].count
		}
		if w.tagging && k > 0 && k <= 64 {
			w.below[prevTo] |= 1 << (k - 1)
		}
		prevTo = to
		setTransition(t, model.Deliver, to, k, w.bytesOf(w.msgs[k].b))
		if w.via.skipsDeliver(to, k) {
			if !yield(t, nil) {
				return
			}
			continue
		}
		if p.Guard != nil {
			w.decodeMsg(k) // for Guard
		}
		if w.allowed(t, &w.msg) && !w.step(t, yield) {
			return
		}
	}
	w.netTokens, w.netTokensKnown = tokens, true
	if w.faults < p.Faults {
		for k := range w.msgs {
			to, _, losable := w.msgFacts(k)
			if !losable {
				continue
			}
			setTransition(t, model.Lose, to, k, w.bytesOf(w.msgs[k].b))
			if p.Guard != nil {
				w.decodeMsg(k) // for Guard
			}
			if w.allowed(t, &w.msg) && !w.step(t, yield) {
				return
			}
		}
	}
}

// allowed reports whether Protocol.Guard (if any) allows t, an action the
// layer enables in the parsed state; m is the decoded message of a Deliver
// or Lose. The view's cache must belong to the parsed state.
func (w *protocolWorker[P, M]) allowed(t *model.Transition, m *M) bool {
	if w.p.Guard == nil {
		return true
	}
	w.act = Action[M]{Kind: t.Kind, Proc: t.Proc, Arg: t.Arg, Msg: m}
	w.hook, w.actingOn = hookGuard, true
	ok := w.p.Guard(&w.view, &w.act)
	w.hook, w.actingOn = hookNone, false
	return ok
}

func (w *protocolWorker[P, M]) decodeSelf(i int) {
	w.dec.Reset(w.bytesOf(w.procs[i].local))
	w.p.DecodeProc(&w.dec, &w.self)
}

func (w *protocolWorker[P, M]) decodeMsg(k int) {
	w.dec.Reset(w.bytesOf(w.msgs[k].b))
	w.p.DecodeMsg(&w.dec, &w.msg)
}

// step runs transition t on the parsed state and yields the successor,
// or, for a Nondeterministic protocol, one successor per alternative of
// its handler (see stepChoices). For Deliver and Lose, t.Arg indexes
// w.msgs and w.msg holds the decoded message.
func (w *protocolWorker[P, M]) step(t *model.Transition, yield func(*model.Transition, []byte) bool) bool {
	if w.p.Nondeterministic {
		return w.stepChoices(t, yield)
	}
	return w.stepOnce(t, yield)
}

// stepOnce runs the handler of t once (with the choices w.choice holds,
// for a Nondeterministic protocol) and yields the successor.
func (w *protocolWorker[P, M]) stepOnce(t *model.Transition, yield func(*model.Transition, []byte) bool) bool {
	p := w.p
	i := t.Proc
	ps := &w.procs[i]
	w.sendBuf.Reset()
	w.sends = w.sends[:0]
	removed := -1
	c := &w.ctx
	c.ID, c.Self, c.flags, c.phase, c.group = i, &w.self, 0, ps.phase, ps.group
	// The processes other than i are copied as they are: those before it
	// (with the faults used, unchanged) and those after it are two
	// contiguous runs of the parsed state.
	out := w.out[:0]
	last := w.procs[len(w.procs)-1].seg.end
	if t.Kind == model.Lose {
		removed = t.Arg
		out = appendUvarint(out, uint64(w.faults+1))
		out = append(out, w.state[w.procs[0].seg.start:last]...)
	} else {
		if t.Kind == model.Deliver {
			removed = t.Arg
		}
		out = append(out, w.state[:ps.seg.start]...)
		out = w.runLocal(t, ps, out)
		out = append(out, w.state[ps.seg.end:last]...)
	}
	t.Flags = c.flags
	if p.Capacity > 0 && len(w.sends) > 0 && w.overCapacity(i, removed) {
		w.cap.dropped = true
		w.actingOn = false
		w.out = out
		return true // disabled by the channel capacity: not yielded
	}
	out = w.writeNetwork(out, removed)
	w.out = out
	if w.norm != nil {
		out = w.norm.apply(out)
	}
	if w.tagging {
		w.tag = w.stepTag(t, removed)
	}
	w.next = out
	w.actingOn, w.yielding = false, true
	ok := yield(t, out)
	w.yielding = false
	return ok
}

// writeNetwork appends the network of the parsed state, minus one copy of
// message index removed (if >= 0), plus w.sends, in canonical order. The
// records of the parsed state that do not change are copied as they are,
// in runs between the places where a new message goes. It leaves in
// w.plan where each distinct new message went, in their order.
func (w *protocolWorker[P, M]) writeNetwork(out []byte, removed int) []byte {
	msgs := w.msgs
	distinct := len(msgs)
	if removed >= 0 && msgs[removed].count == 1 {
		distinct--
	}
	switch len(w.sends) {
	case 0: // the common cases, without sorting
		w.plan = w.plan[:0]
		out = appendUvarint(out, uint64(distinct))
		return w.copyRecords(out, 0, len(msgs), removed)
	case 1:
		b := w.sendBytes(w.sends[0])
		at, eq := w.place(b, 0)
		if !eq || (at == removed && msgs[at].count == 1) {
			distinct++
		}
		w.plan = append(w.plan[:0], sendPlan{copies: 1, at: at, equal: eq})
		out = appendUvarint(out, uint64(distinct))
		out = w.copyRecords(out, 0, at, removed)
		return w.copyRecords(w.appendPlaced(out, w.plan[0], b, removed), w.after(at, eq), len(msgs), removed)
	}
	sends := w.sends
	// insertion sort of the new messages by their bytes
	for a := 1; a < len(sends); a++ {
		for b := a; b > 0 && bytes.Compare(w.sendBytes(sends[b]), w.sendBytes(sends[b-1])) < 0; b-- {
			sends[b], sends[b-1] = sends[b-1], sends[b]
		}
	}
	// Plan: for each distinct new message, the index of the first message
	// in transit not below it, and whether it is equal (then the copies
	// add up); count the distinct messages of the result.
	plan := w.plan[:0]
	lo := 0
	for si := 0; si < len(sends); {
		b := w.sendBytes(sends[si])
		n := 1
		for si+n < len(sends) && bytes.Equal(w.sendBytes(sends[si+n]), b) {
			n++
		}
		// the sends are sorted: search from the previous place on
		at, eq := w.place(b, lo)
		if !eq || (at == removed && msgs[at].count == 1) {
			distinct++
		}
		plan = append(plan, sendPlan{send: si, copies: n, at: at, equal: eq})
		lo = at
		si += n
	}
	w.plan = plan
	out = appendUvarint(out, uint64(distinct))
	oi := 0
	for _, pl := range plan {
		out = w.copyRecords(out, oi, pl.at, removed)
		out = w.appendPlaced(out, pl, w.sendBytes(sends[pl.send]), removed)
		oi = w.after(pl.at, pl.equal)
	}
	return w.copyRecords(out, oi, len(msgs), removed)
}

// place returns the index of the first message in transit, from lo on,
// whose bytes are not below b, and whether they are equal to b.
func (w *protocolWorker[P, M]) place(b []byte, lo int) (int, bool) {
	msgs, state := w.msgs, w.state
	at, hi := lo, len(msgs)
	for at < hi {
		mid := int(uint(at+hi) >> 1)
		if bytes.Compare(state[msgs[mid].b.start:msgs[mid].b.end], b) < 0 {
			at = mid + 1
		} else {
			hi = mid
		}
	}
	return at, at < len(msgs) && bytes.Equal(state[msgs[at].b.start:msgs[at].b.end], b)
}

// appendPlaced appends the record of the new message b placed by pl: its
// copies, plus those in transit if it equals message pl.at (one fewer if
// that is the removed one).
func (w *protocolWorker[P, M]) appendPlaced(out []byte, pl sendPlan, b []byte, removed int) []byte {
	count := pl.copies
	if pl.equal {
		count += w.msgs[pl.at].count
		if pl.at == removed {
			count--
		}
	}
	return appendRecord(out, count, b)
}

// after returns the first message in transit to copy after a new message
// placed at at: the one after it if the new message merged into it.
func (w *protocolWorker[P, M]) after(at int, equal bool) int {
	if equal {
		return at + 1
	}
	return at
}

// appendRecord appends a network record: count copies of message b.
func appendRecord(out []byte, count int, b []byte) []byte {
	out = appendUvarint(out, uint64(count))
	out = appendUvarint(out, uint64(len(b)))
	return append(out, b...)
}

// sendPlan places one distinct new message (copies of w.sends[send]) in
// the network being written: before message at of the parsed state, or
// onto it when equal.
type sendPlan struct {
	send, copies, at int
	equal            bool
}

// copyRecords appends the records of messages from..to-1 of the parsed
// state, one copy fewer of message removed.
func (w *protocolWorker[P, M]) copyRecords(out []byte, from, to, removed int) []byte {
	if from >= to {
		return out
	}
	msgs := w.msgs
	if removed < from || removed >= to {
		return append(out, w.state[msgs[from].rec:msgs[to-1].b.end]...)
	}
	out = append(out, w.state[msgs[from].rec:msgs[removed].rec]...)
	if ms := msgs[removed]; ms.count > 1 {
		out = appendRecord(out, ms.count-1, w.bytesOf(ms.b))
	}
	return append(out, w.state[msgs[removed].b.end:msgs[to-1].b.end]...)
}

func (w *protocolWorker[P, M]) sendBytes(s span) []byte { return w.sendBuf.Bytes()[s.start:s.end] }

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
