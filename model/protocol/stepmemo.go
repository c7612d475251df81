package protocol

import "github.com/tokenmc/tokenmc/model"

// runLocal runs action t (not a Lose) of process t.Proc, whose parsed
// segment is ps, in w.ctx (set to the process before the step). It
// appends the process's next segment (phase, requests made, group and
// encoded local state) to out and returns it, and leaves the
// transition's flags in w.ctx.flags and the sends in w.sendBuf and
// w.sends. The effect comes from the memo when the same local step ran
// before (see memos); otherwise runHandler runs it.
func (w *protocolWorker[P, M]) runLocal(t *model.Transition, ps *procSeg, out []byte) []byte {
	if w.p.Nondeterministic {
		return w.runHandler(t, ps, out) // several effects per input: not memoised
	}
	i := t.Proc
	in := w.procInput(ps)
	var msg []byte
	arg, mh := 0, uint64(0)
	switch t.Kind {
	case model.Request, model.Timer:
		arg = t.Arg
	case model.Deliver: // its Arg indexes the network: not an input
		msg = w.bytesOf(w.msgs[t.Arg].b)
		mh = w.msgHash(t.Arg)
	}
	h := mix64(w.procHash(i)^uint64(t.Kind)<<56^uint64(arg)<<32^uint64(i), mh)
	m := &w.memos.step
	e, slot := m.find(h, t.Kind, ps.phase, i, arg, in, msg)
	if e >= 0 {
		en := &m.entries[e]
		w.actingOn = true // as runHandler leaves it
		w.ctx.flags = en.flags
		for _, s := range m.sends[en.sends.start:en.sends.end] {
			start := w.sendBuf.Len()
			w.sendBuf.Raw(m.arena[s.start:s.end])
			w.sends = append(w.sends, span{start, w.sendBuf.Len()})
		}
		made := ps.made
		if en.counts {
			made++
		}
		out = append(out, byte(en.outPhase))
		out = appendUvarint(out, uint64(made))
		return append(out, m.arena[en.out.start:en.out.end]...)
	}
	start := len(out)
	out = w.runHandler(t, ps, out)
	made, rest := uvarint(out, start+1)
	first := len(m.sends)
	for _, s := range w.sends {
		m.sends = append(m.sends, m.store(w.sendBytes(s)))
	}
	m.entries = append(m.entries, stepEntry{
		h: h, kind: t.Kind, phase: ps.phase, proc: i, arg: arg,
		in: m.store(in), msg: m.store(msg),
		outPhase: model.Phase(out[start]), counts: int(made) != ps.made, out: m.store(out[rest:]),
		sends: span{first, len(m.sends)}, flags: w.ctx.flags,
	})
	m.slots[slot] = int32(len(m.entries))
	return out
}

// runHandler decodes process t.Proc (and the message of a Deliver, a
// fresh copy for each run), runs the handler of t and appends the
// process's next segment to out.
func (w *protocolWorker[P, M]) runHandler(t *model.Transition, ps *procSeg, out []byte) []byte {
	p := w.p
	c := &w.ctx
	w.decodeSelf(t.Proc)
	if t.Kind == model.Deliver {
		w.decodeMsg(t.Arg)
	}
	w.hook, w.actingOn = handlerOf(t.Kind), true
	made := p.act(c, t.Kind, t.Arg, &w.msg, ps.made)
	w.hook = hookNone
	w.enc.Reset()
	p.EncodeProc(&w.enc, &w.self)
	out = append(out, byte(c.phase))
	out = appendUvarint(out, uint64(made))
	out = appendUvarint(out, uint64(c.group))
	out = appendUvarint(out, uint64(w.enc.Len()))
	return append(out, w.enc.Bytes()...)
}

// msgFacts returns what Successors needs to know of message k of the
// parsed state without running a handler: its receiver, whether it carries
// a token, and whether a Lose may drop it (false without faults). They are
// functions of the message's encoding, memoised per encoding: the message
// is decoded (into w.msg) only the first time.
func (w *protocolWorker[P, M]) msgFacts(k int) (to int, token, losable bool) {
	b := w.bytesOf(w.msgs[k].b)
	h := w.msgHash(k)
	v, ok, slot := w.memos.facts.get(b, h)
	if !ok {
		p := w.p
		w.decodeMsg(k)
		to = p.To(&w.msg)
		token = p.CarriesToken != nil && p.CarriesToken(&w.msg)
		losable = p.Faults > 0 && (p.CanLose == nil || p.CanLose(&w.msg))
		if to < 0 || to >= p.N {
			return to, token, losable // not remembered: stepping it panics
		}
		v = int32(to) << 2
		if token {
			v |= 2
		}
		if losable {
			v |= 1
		}
		w.memos.facts.put(b, h, slot, v)
	}
	return int(v >> 2), v&2 != 0, v&1 != 0
}

// holdsToken is HoldsToken of process i: a function of its phase and
// encoded local state, memoised per encoding, so that single-token, which
// asks it of every process of every state, decodes a local state only the
// first time it meets it (or when another property decoded it already).
func (v *View[P, M]) holdsToken(i int) bool {
	w := v.w
	p := w.p
	ps := &w.procs[i]
	if v.decoded[i] {
		return p.HoldsToken(ps.phase, &v.locals[i])
	}
	// the key: the phase byte with group and local state after it
	key := append(append(w.memos.seg[:0], byte(ps.phase)), w.procInput(ps)...)
	w.memos.seg = key
	h := w.procHash(i)
	b, ok, slot := w.memos.holds.get(key, h)
	if !ok {
		if p.HoldsToken(ps.phase, v.Local(i)) {
			b = 1
		}
		w.memos.holds.put(key, h, slot, b)
	}
	return b == 1
}
