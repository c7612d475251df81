package protocol

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/tokenmc/tokenmc/model"
)

// LocalState is one process's part of a global state: its client phase,
// the number of requests it has made, the group of its current or last
// request, and its encoded protocol-local state.
type LocalState struct {
	Phase model.Phase
	Made  int
	Group int
	Local []byte // the protocol's canonical encoding of the process's local state
}

// LocalEvent is what happens to one process in one step: a request (Arg is
// the group), an exit, a timer (Arg is the timer) or the delivery of the
// encoded message Msg. Choice selects the alternative of a
// Nondeterministic protocol's handler (Ctx.Choose), numbered as
// Transition.Choice numbers them; 0 for every other protocol.
type LocalEvent struct {
	Kind   model.ActionKind
	Arg    int
	Msg    []byte
	Choice int
}

// LocalResult is the effect of one LocalEvent: the process's next local
// state, the encoded messages it sent (in the order the handler sent them)
// and the flags of the transition.
type LocalResult struct {
	Next    LocalState
	Sent    [][]byte
	Entered bool // the step put the process in its CS
	Flags   model.Flags
}

// LocalSystem is implemented by the Systems that Protocol.System returns:
// besides global states it can step one process at a time, with the very
// handlers the checker runs, so a runtime of real concurrent processes and
// the checker share one implementation.
type LocalSystem interface {
	model.System
	// NewLocalWorker returns a LocalWorker for one goroutine.
	NewLocalWorker() LocalWorker
}

// LocalWorker steps single processes. Like Worker it owns scratch memory
// and is used by one goroutine at a time; the slices it returns are fresh
// copies that the caller may keep.
type LocalWorker interface {
	// InitialLocal returns the initial local state of process i.
	InitialLocal(i int) LocalState
	// InitialMessages returns the encoded messages in transit initially.
	InitialMessages() [][]byte
	// Step runs ev at process i in local state s. It returns an error when
	// ev is not enabled: a request when not Idle or after R requests, an
	// exit when not InCS, a timer that is not enabled, a message addressed
	// to another process. It does not evaluate the protocol's Guard, which
	// needs the global state: callers of a Guarded system ask Allowed.
	Step(i int, s LocalState, ev LocalEvent) (LocalResult, error)
	// Alternatives returns how many alternatives the handler of ev has
	// for process i in local state s: the LocalEvents with Choice
	// 0..k-1 are the ones Step accepts. It is 1 for a protocol that is
	// not Nondeterministic; it returns Step's errors for a step that is
	// not enabled, and ignores ev.Choice.
	Alternatives(i int, s LocalState, ev LocalEvent) (int, error)
	// Guarded reports whether the protocol has a whole-state Guard, so
	// that stepping one process needs a consistent global state.
	Guarded() bool
	// Allowed reports whether the protocol's Guard allows event ev of
	// process i in the global state state (Assemble's encoding); true
	// without a Guard. For a Deliver, ev.Msg must be in transit in state;
	// Allowed does not check the other conditions Step checks.
	Allowed(state []byte, i int, ev LocalEvent) bool
	// TimerName returns the name of timer t (Protocol.TimerNames), or ""
	// when the timers are not named.
	TimerName(t int) string
	// To returns the receiver of an encoded message.
	To(msg []byte) int
	// FormatMsg renders an encoded message as Protocol.FormatMsg does.
	FormatMsg(msg []byte) string
	// CarriesToken reports whether an encoded message carries a token
	// (false for systems without tokens).
	CarriesToken(msg []byte) bool
	// HoldsToken reports whether process state s holds a token.
	HoldsToken(s LocalState) bool
	// TimerEnabled reports whether timer t of process i may fire in s.
	TimerEnabled(i int, s LocalState, t int) bool
	// Timers returns the number of timer kinds per process.
	Timers() int
	// Assemble builds the canonical global state made of the given local
	// states (one per process), the encoded messages in transit (any
	// order, one entry per copy) and the faults used so far. It is the
	// inverse of Split.
	Assemble(locals []LocalState, network [][]byte, faults int) []byte
	// Split parses a global state into its local states, its messages in
	// transit (canonical order, one entry per copy) and its faults used.
	Split(state []byte) (locals []LocalState, network [][]byte, faults int)
	// Normalize returns the normal form of a global state under the
	// protocol's Normalize hook (a fresh copy), or state itself without
	// one. Steps never normalise: the global System does, after each step.
	Normalize(state []byte) []byte
}

func (s *protocolSystem[P, M]) NewLocalWorker() LocalWorker {
	return &localWorker[P, M]{w: newProtocolWorker(s.p)}
}

type localWorker[P, M any] struct {
	w *protocolWorker[P, M]
	// seq: a Nondeterministic protocol's last Step ran alternative
	// seq.k of this input, and w.choice still holds its choices, so the
	// next alternative of the same input costs one run of the handler.
	seq struct {
		ok    bool
		i, k  int
		s     LocalState
		kind  model.ActionKind
		arg   int
		msg   []byte
		local []byte
	}
}

// sameInput reports whether Step's input is the one seq remembers.
func (l *localWorker[P, M]) sameInput(i int, s LocalState, ev LocalEvent) bool {
	q := &l.seq
	return q.ok && q.i == i && q.kind == ev.Kind && q.arg == ev.Arg && bytes.Equal(q.msg, ev.Msg) &&
		q.s.Phase == s.Phase && q.s.Made == s.Made && q.s.Group == s.Group && bytes.Equal(q.local, s.Local)
}

func (l *localWorker[P, M]) InitialLocal(i int) LocalState {
	p := l.w.p
	v := p.Init(i)
	var e model.Encoder
	p.EncodeProc(&e, &v)
	return LocalState{Phase: model.Idle, Local: append([]byte{}, e.Bytes()...)}
}

func (l *localWorker[P, M]) InitialMessages() [][]byte {
	p := l.w.p
	var out [][]byte
	if p.InitialMessages == nil {
		return nil
	}
	for _, m := range p.InitialMessages() {
		var e model.Encoder
		p.EncodeMsg(&e, &m)
		out = append(out, append([]byte{}, e.Bytes()...))
	}
	return out
}

func (l *localWorker[P, M]) decodeMsg(b []byte) M {
	var m M
	d := model.NewDecoder(b)
	l.w.p.DecodeMsg(&d, &m)
	return m
}

func (l *localWorker[P, M]) To(msg []byte) int {
	m := l.decodeMsg(msg)
	return l.w.p.To(&m)
}

func (l *localWorker[P, M]) FormatMsg(msg []byte) string {
	m := l.decodeMsg(msg)
	return l.w.p.FormatMsg(&m)
}

func (l *localWorker[P, M]) CarriesToken(msg []byte) bool {
	if l.w.p.CarriesToken == nil {
		return false
	}
	m := l.decodeMsg(msg)
	return l.w.p.CarriesToken(&m)
}

func (l *localWorker[P, M]) decodeLocal(s LocalState) P {
	var v P
	d := model.NewDecoder(s.Local)
	l.w.p.DecodeProc(&d, &v)
	return v
}

func (l *localWorker[P, M]) HoldsToken(s LocalState) bool {
	if l.w.p.HoldsToken == nil {
		return false
	}
	v := l.decodeLocal(s)
	return l.w.p.HoldsToken(s.Phase, &v)
}

func (l *localWorker[P, M]) Timers() int { return l.w.p.Timers }

func (l *localWorker[P, M]) TimerEnabled(i int, s LocalState, t int) bool {
	p := l.w.p
	if t < 0 || t >= p.Timers {
		return false
	}
	v := l.decodeLocal(s)
	return p.TimerEnabled(i, s.Phase, &v, t)
}

func (l *localWorker[P, M]) Step(i int, s LocalState, ev LocalEvent) (LocalResult, error) {
	p := l.w.p
	defer l.catchStep(i, ev)
	if !p.Nondeterministic {
		if ev.Choice != 0 {
			return LocalResult{}, fmt.Errorf("%s has no alternative %d: its handlers make no choices (%w)", p.Name, ev.Choice, ErrNoAlternative)
		}
		return l.stepOnce(i, s, ev)
	}
	ch := &l.w.choice
	k := 0
	if l.sameInput(i, s, ev) && ev.Choice > l.seq.k {
		k = l.seq.k // continue from the alternative run last
		if !ch.next(p.Name) {
			l.seq.ok = false
			return LocalResult{}, fmt.Errorf("%s of P%d has %d alternatives, not alternative %d (%w)", ev.Kind, i, k+1, ev.Choice, ErrNoAlternative)
		}
		k++
	} else {
		ch.reset()
	}
	l.seq.ok = false
	for ; ; k++ {
		res, err := l.stepOnce(i, s, ev)
		if err != nil {
			return res, err
		}
		if k == ev.Choice {
			q := &l.seq
			q.ok, q.i, q.k, q.kind, q.arg = true, i, k, ev.Kind, ev.Arg
			q.s = LocalState{Phase: s.Phase, Made: s.Made, Group: s.Group}
			q.msg = append(q.msg[:0], ev.Msg...)
			q.local = append(q.local[:0], s.Local...)
			return res, nil
		}
		if !ch.next(p.Name) {
			return LocalResult{}, fmt.Errorf("%s of P%d has %d alternatives, not alternative %d (%w)", ev.Kind, i, k+1, ev.Choice, ErrNoAlternative)
		}
	}
}

// Alternatives returns how many alternatives the handler of ev has for
// process i in local state s (see Step and Ctx.Choose): 1 for a protocol
// that is not Nondeterministic, and for a Nondeterministic one the number
// of combinations of the choices the handler makes on that input. It
// returns the errors Step returns for a step that is not enabled (and
// ignores ev.Choice). It runs the handler once per alternative without
// encoding results, so LocalEvents with Choice 0..k-1, for the k it
// returns, are exactly the ones Step accepts.
func (l *localWorker[P, M]) Alternatives(i int, s LocalState, ev LocalEvent) (int, error) {
	p := l.w.p
	if !p.Nondeterministic {
		if err := l.begin(i, s, ev); err != nil {
			return 0, err
		}
		return 1, nil
	}
	ch := &l.w.choice
	ch.reset()
	l.seq.ok = false // the chooser no longer holds Step's choices
	for k := 1; ; k++ {
		if err := l.begin(i, s, ev); err != nil {
			return 0, err
		}
		l.handle(ev, s.Made)
		if !ch.next(p.Name) {
			return k, nil
		}
	}
}

// stepOnce runs the handler of ev once, with the choices l.w.choice holds
// for a Nondeterministic protocol.
func (l *localWorker[P, M]) stepOnce(i int, s LocalState, ev LocalEvent) (LocalResult, error) {
	if err := l.begin(i, s, ev); err != nil {
		return LocalResult{}, err
	}
	made := l.handle(ev, s.Made)
	w := l.w
	p := w.p
	c := &w.ctx
	var e model.Encoder
	p.EncodeProc(&e, &w.self)
	res := LocalResult{
		Next:    LocalState{Phase: c.phase, Made: made, Group: c.group, Local: append([]byte{}, e.Bytes()...)},
		Flags:   c.flags,
		Entered: c.phase == model.InCS && s.Phase != model.InCS,
	}
	for _, sp := range w.sends {
		res.Sent = append(res.Sent, append([]byte{}, w.sendBytes(sp)...))
	}
	return res, nil
}

// begin checks that ev is enabled at process i in local state s and
// prepares the worker's context to run its handler (handle): the decoded
// local state, its phase and group, the message to deliver.
func (l *localWorker[P, M]) begin(i int, s LocalState, ev LocalEvent) error {
	w := l.w
	p := w.p
	if i < 0 || i >= p.N {
		return fmt.Errorf("no process P%d; processes are P0..P%d", i, p.N-1)
	}
	w.sendBuf.Reset()
	w.sends = w.sends[:0]
	c := &w.ctx
	w.self = l.decodeLocal(s)
	c.ID, c.Self, c.flags, c.phase, c.group = i, &w.self, 0, s.Phase, s.Group
	switch ev.Kind {
	case model.Request:
		if s.Phase != model.Idle {
			return fmt.Errorf("P%d cannot request: it is %s, not Idle", i, s.Phase)
		}
		if !p.Cyclic && s.Made >= p.R {
			return fmt.Errorf("P%d cannot request: it has made all R=%d requests", i, p.R)
		}
		if ev.Arg < 0 || ev.Arg >= p.Groups {
			return fmt.Errorf("P%d cannot request group %d: groups are 0..%d", i, ev.Arg, p.Groups-1)
		}
	case model.Exit:
		if s.Phase != model.InCS {
			return fmt.Errorf("P%d cannot exit: it is %s, not InCS", i, s.Phase)
		}
	case model.Timer:
		if ev.Arg < 0 || ev.Arg >= p.Timers || !p.TimerEnabled(i, s.Phase, &w.self, ev.Arg) {
			return fmt.Errorf("timer %d of P%d is not enabled", ev.Arg, i)
		}
	case model.Deliver:
		w.msg = l.decodeMsg(ev.Msg)
		if to := p.To(&w.msg); to != i {
			return fmt.Errorf("message %s is addressed to P%d, not P%d", p.FormatMsg(&w.msg), to, i)
		}
	default:
		return fmt.Errorf("%s is not a step of one process", ev.Kind)
	}
	return nil
}

// handle runs the handler of ev in the context begin prepared (made:
// the requests made before it) and returns the requests made after it.
func (l *localWorker[P, M]) handle(ev LocalEvent, made int) int {
	w := l.w
	return w.p.act(&w.ctx, ev.Kind, ev.Arg, &w.msg, made)
}

func (l *localWorker[P, M]) Assemble(locals []LocalState, network [][]byte, faults int) []byte {
	p := l.w.p
	if len(locals) != p.N {
		panic(fmt.Sprintf("model: Assemble: %d local states for %d processes", len(locals), p.N))
	}
	out := appendUvarint(nil, uint64(faults))
	for _, s := range locals {
		out = append(out, byte(s.Phase))
		out = appendUvarint(out, uint64(s.Made))
		out = appendUvarint(out, uint64(s.Group))
		out = appendUvarint(out, uint64(len(s.Local)))
		out = append(out, s.Local...)
	}
	msgs := append([][]byte(nil), network...)
	sort.Slice(msgs, func(a, b int) bool { return bytes.Compare(msgs[a], msgs[b]) < 0 })
	type item struct {
		b     []byte
		count int
	}
	var items []item
	for _, m := range msgs {
		if n := len(items); n > 0 && bytes.Equal(items[n-1].b, m) {
			items[n-1].count++
			continue
		}
		items = append(items, item{m, 1})
	}
	out = appendUvarint(out, uint64(len(items)))
	for _, it := range items {
		out = appendUvarint(out, uint64(it.count))
		out = appendUvarint(out, uint64(len(it.b)))
		out = append(out, it.b...)
	}
	return out
}

func (l *localWorker[P, M]) Split(state []byte) ([]LocalState, [][]byte, int) {
	w := l.w
	w.parse(state)
	locals := make([]LocalState, len(w.procs))
	for i, ps := range w.procs {
		locals[i] = LocalState{Phase: ps.phase, Made: ps.made, Group: ps.group, Local: append([]byte{}, w.bytesOf(ps.local)...)}
	}
	var network [][]byte
	for _, m := range w.msgs {
		for range m.count {
			network = append(network, append([]byte{}, w.bytesOf(m.b)...))
		}
	}
	return locals, network, w.faults
}

func (l *localWorker[P, M]) Guarded() bool { return l.w.p.Guard != nil }

func (l *localWorker[P, M]) TimerName(t int) string {
	if t >= 0 && t < len(l.w.p.TimerNames) {
		return l.w.p.TimerNames[t]
	}
	return ""
}

func (l *localWorker[P, M]) Allowed(state []byte, i int, ev LocalEvent) bool {
	w := l.w
	p := w.p
	if p.Guard == nil {
		return true
	}
	w.parse(state)
	clear(w.view.decoded)
	var m *M
	if ev.Kind == model.Deliver || ev.Kind == model.Lose {
		w.msg = l.decodeMsg(ev.Msg)
		m = &w.msg
	}
	w.act = Action[M]{Kind: ev.Kind, Proc: i, Arg: ev.Arg, Msg: m}
	return p.Guard(&w.view, &w.act)
}

func (l *localWorker[P, M]) Normalize(state []byte) []byte {
	if l.w.norm == nil {
		return state
	}
	return append([]byte(nil), l.w.norm.apply(state)...)
}
