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
	if w.p.Nondeterministic || !w.memoOn {
		return w.runHandler(t, ps, out) // several effects per input, or a random walk
	}
	arg, mid := 0, int32(-1)
	switch t.Kind {
	case model.Request, model.Timer:
		arg = t.Arg
	case model.Deliver: // its Arg indexes the network: not an input
		mid = w.msgInputID(t.Arg)
	}
	key, ok := stepKey(w.procInputID(t.Proc), mid, t.Kind, arg)
	if !ok {
		return w.runHandler(t, ps, out)
	}
	m := &w.memos.step
	e, slot := m.find(key)
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
	if slot < 0 {
		return out // the memo is full
	}
	made, rest := uvarint(out, start+1)
	w.remember(slot, key, stepEntry{outPhase: model.Phase(out[start]), counts: int(made) != ps.made}, out[rest:])
	return out
}

// remember adds to the step memo, at the slot its find returned for key,
// the effect of the step that just ran: en's phase and count, the flags in
// w.ctx, out (the next group and local state, as procInput has them) and
// the sends in w.sends. It returns the entry's index.
func (w *protocolWorker[P, M]) remember(slot int, key uint64, en stepEntry, out []byte) int {
	m := &w.memos.step
	first := len(m.sends)
	for _, s := range w.sends {
		m.sends = append(m.sends, m.store(w.sendBytes(s)))
	}
	en.flags, en.out, en.sends = w.ctx.flags, m.store(out), span{first, len(m.sends)}
	m.entries = append(m.entries, en)
	m.slots[slot] = stepSlot{key, int32(len(m.entries))}
	return len(m.entries) - 1
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

// msgInputID returns the id of the encoding of message k of the parsed
// state, or -2 if the table is full.
func (w *protocolWorker[P, M]) msgInputID(k int) int32 {
	ms := &w.memos
	id := ms.msgID[k]
	if id == -1 {
		id = ms.msgs.intern(0, w.bytesOf(w.msgs[k].b))
		ms.msgID[k] = id
	}
	return id
}

// msgFacts returns what Successors needs to know of message k of the
// parsed state without running a handler: its receiver, whether it carries
// a token, and whether a Lose may drop it (false without faults). They are
// functions of the message's encoding, kept with its id: the message is
// decoded (into w.msg) only the first time.
func (w *protocolWorker[P, M]) msgFacts(k int) (to int, token, losable bool) {
	id := w.msgInputID(k)
	if id >= 0 {
		if v := *w.memos.msgs.val(id); v != 0 {
			return int(v >> 3), v&2 != 0, v&1 != 0
		}
	}
	p := w.p
	w.decodeMsg(k)
	to = p.To(&w.msg)
	token = p.CarriesToken != nil && p.CarriesToken(&w.msg)
	losable = p.Faults > 0 && (p.CanLose == nil || p.CanLose(&w.msg))
	if id >= 0 {
		v := int64(to)<<3 | 4 // 4: known
		if token {
			v |= 2
		}
		if losable {
			v |= 1
		}
		*w.memos.msgs.val(id) = v
	}
	return to, token, losable
}

// holdsToken is HoldsToken of process i: a function of its phase and
// encoded local state, kept with the id of its input, so that
// single-token, which asks it of every process of every state, decodes a
// local state only the first time it meets it (or when another property
// decoded it already).
func (v *View[P, M]) holdsToken(i int) bool {
	w := v.w
	p := w.p
	ps := &w.procs[i]
	if v.decoded[i] || !w.memoOn {
		return p.HoldsToken(ps.phase, v.Local(i))
	}
	id := w.procInputID(i)
	if id >= 0 {
		if h := *w.memos.procs.val(id) & 3; h != 0 {
			return h == 2
		}
	}
	b := p.HoldsToken(ps.phase, v.Local(i))
	if id >= 0 {
		h := int64(1)
		if b {
			h = 2
		}
		*w.memos.procs.val(id) |= h
	}
	return b
}
