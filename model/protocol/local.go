package protocol

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

func (s *protocolSystem[P, M]) NewLocalWorker() protosys.LocalWorker {
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
		s     protosys.LocalState
		kind  model.ActionKind
		arg   int
		msg   []byte
		local []byte
	}
}

// sameInput reports whether Step's input is the one seq remembers.
func (l *localWorker[P, M]) sameInput(i int, s protosys.LocalState, ev protosys.LocalEvent) bool {
	q := &l.seq
	return q.ok && q.i == i && q.kind == ev.Kind && q.arg == ev.Arg && bytes.Equal(q.msg, ev.Msg) &&
		q.s.Phase == s.Phase && q.s.Made == s.Made && q.s.Group == s.Group && bytes.Equal(q.local, s.Local)
}

func (l *localWorker[P, M]) InitialLocal(i int) protosys.LocalState {
	p := l.w.p
	v := p.Init(i)
	var e model.Encoder
	p.EncodeProc(&e, &v)
	return protosys.LocalState{Phase: model.Idle, Local: append([]byte{}, e.Bytes()...)}
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
	var d model.Decoder
	d.Reset(b)
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

func (l *localWorker[P, M]) decodeLocal(s protosys.LocalState) P {
	var v P
	var d model.Decoder
	d.Reset(s.Local)
	l.w.p.DecodeProc(&d, &v)
	return v
}

func (l *localWorker[P, M]) HoldsToken(s protosys.LocalState) bool {
	if l.w.p.HoldsToken == nil {
		return false
	}
	v := l.decodeLocal(s)
	return l.w.p.HoldsToken(s.Phase, &v)
}

func (l *localWorker[P, M]) Timers() int { return l.w.p.Timers }

func (l *localWorker[P, M]) TimerEnabled(i int, s protosys.LocalState, t int) bool {
	p := l.w.p
	if t < 0 || t >= p.Timers {
		return false
	}
	v := l.decodeLocal(s)
	return p.TimerEnabled(i, s.Phase, &v, t)
}

func (l *localWorker[P, M]) Step(i int, s protosys.LocalState, ev protosys.LocalEvent) (protosys.LocalResult, error) {
	p := l.w.p
	defer l.catchStep(i, ev)
	if !p.Nondeterministic {
		if ev.Choice != 0 {
			return protosys.LocalResult{}, fmt.Errorf("%s has no alternative %d: its handlers make no choices (%w)", p.Name, ev.Choice, errNoAlternative)
		}
		return l.stepOnce(i, s, ev)
	}
	ch := &l.w.choice
	k := 0
	if l.sameInput(i, s, ev) && ev.Choice > l.seq.k {
		k = l.seq.k // continue from the alternative run last
		if !ch.next(p.Name) {
			l.seq.ok = false
			return protosys.LocalResult{}, fmt.Errorf("%s of P%d has %d alternatives, not alternative %d (%w)", ev.Kind, i, k+1, ev.Choice, errNoAlternative)
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
			q.s = protosys.LocalState{Phase: s.Phase, Made: s.Made, Group: s.Group}
			q.msg = append(q.msg[:0], ev.Msg...)
			q.local = append(q.local[:0], s.Local...)
			return res, nil
		}
		if !ch.next(p.Name) {
			return protosys.LocalResult{}, fmt.Errorf("%s of P%d has %d alternatives, not alternative %d (%w)", ev.Kind, i, k+1, ev.Choice, errNoAlternative)
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
func (l *localWorker[P, M]) Alternatives(i int, s protosys.LocalState, ev protosys.LocalEvent) (int, error) {
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
func (l *localWorker[P, M]) stepOnce(i int, s protosys.LocalState, ev protosys.LocalEvent) (protosys.LocalResult, error) {
	if err := l.begin(i, s, ev); err != nil {
		return protosys.LocalResult{}, err
	}
	made := l.handle(ev, s.Made)
	w := l.w
	p := w.p
	c := &w.ctx
	var e model.Encoder
	p.EncodeProc(&e, &w.self)
	res := protosys.LocalResult{
		Next:    protosys.LocalState{Phase: c.phase, Made: made, Group: c.group, Local: append([]byte{}, e.Bytes()...)},
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
func (l *localWorker[P, M]) begin(i int, s protosys.LocalState, ev protosys.LocalEvent) error {
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
func (l *localWorker[P, M]) handle(ev protosys.LocalEvent, made int) int {
	w := l.w
	return w.p.act(&w.ctx, ev.Kind, ev.Arg, &w.msg, made)
}

func (l *localWorker[P, M]) Assemble(locals []protosys.LocalState, network [][]byte, faults int) []byte {
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

func (l *localWorker[P, M]) Split(state []byte) ([]protosys.LocalState, [][]byte, int) {
	w := l.w
	w.parse(state)
	locals := make([]protosys.LocalState, len(w.procs))
	for i, ps := range w.procs {
		locals[i] = protosys.LocalState{Phase: ps.phase, Made: ps.made, Group: ps.group, Local: append([]byte{}, w.bytesOf(ps.local)...)}
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

func (l *localWorker[P, M]) Allowed(state []byte, i int, ev protosys.LocalEvent) bool {
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
