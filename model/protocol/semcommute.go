package protocol

import (
	"bytes"

	"github.com/tokenmc/tokenmc/model"
)

// Delivers to the same process that commute (see commute.go). Whether
// delivering message b and then message a to process i leaves the same
// state as a then b is a function of i's input (its id, phase, group and
// local state: a handler sees nothing else) and of the two messages, so
// the memos keep the verdict by their ids (commuteTable), and work it out
// from the step memo's effects, running a handler only on inputs the memo
// has not met: the effects of b and of a on i's input, of a after b and
// of b after a. The intermediate inputs are interned like any process
// input. A handler that panics here, or a memo that is full, makes the
// verdict "no": the steps are then simply stepped (and a panic happens
// again where the search steps it).

// deliversCommute reports whether the Delivers of messages kb and ka of
// the parsed state, both to process i, commute in it.
func (w *protocolWorker[P, M]) deliversCommute(i, kb, ka int) bool {
	pid, mb, ma := w.procInputID(i), w.msgInputID(kb), w.msgInputID(ka)
	if pid < 0 || mb < 0 || ma < 0 {
		return false
	}
	key := uint64(pid)<<(2*commuteIDBits) | uint64(mb)<<commuteIDBits | uint64(ma)
	ct := &w.memos.commute
	v, slot := ct.find(key)
	if v != 0 {
		return v == commuteYes
	}
	ok := w.workOutCommute(i, pid, kb, ka, mb, ma)
	if slot >= 0 {
		ct.add(slot, key, ok)
	}
	return ok
}

// workOutCommute compares the two orders of the Delivers (see
// deliversCommute) with the step memo's effects.
func (w *protocolWorker[P, M]) workOutCommute(i int, pid int32, kb, ka int, mb, ma int32) bool {
	ps := &w.procs[i]
	msgB, msgA := w.bytesOf(w.msgs[kb].b), w.bytesOf(w.msgs[ka].b)
	m := &w.memos.step
	eb := w.deliverEffect(i, ps.phase, w.procInput(ps), pid, mb, msgB)
	ea := w.deliverEffect(i, ps.phase, w.procInput(ps), pid, ma, msgA)
	if eb < 0 || ea < 0 {
		return false
	}
	// after: the effect of message id mid (bytes msg) on i's input after
	// entry e.
	after := func(e int, mid int32, msg []byte) int {
		en := m.entries[e]
		input := m.arena[en.out.start:en.out.end]
		id := w.memos.procs.intern(int64(i)<<8|int64(en.outPhase), input)
		if id < 0 {
			return -1
		}
		return w.deliverEffect(i, en.outPhase, input, id, mid, msg)
	}
	eba := after(eb, ma, msgA)
	if eba < 0 {
		return false
	}
	eab := after(ea, mb, msgB)
	if eab < 0 {
		return false
	}
	b, a, ba, ab := &m.entries[eb], &m.entries[ea], &m.entries[eba], &m.entries[eab]
	// A Deliver counts no request (act): the requests made agree.
	if ba.outPhase != ab.outPhase || ab.flags != b.flags ||
		!bytes.Equal(m.arena[ba.out.start:ba.out.end], m.arena[ab.out.start:ab.out.end]) {
		return false
	}
	return m.sameSends(b, ba, a, ab)
}

// sameSends reports whether the messages x1 and x2 send are those y1 and
// y2 send, as multisets (few: a pairing by equal bytes).
func (m *stepMemo) sameSends(x1, x2, y1, y2 *stepEntry) bool {
	xs := [2][]span{m.sends[x1.sends.start:x1.sends.end], m.sends[x2.sends.start:x2.sends.end]}
	ys := [2][]span{m.sends[y1.sends.start:y1.sends.end], m.sends[y2.sends.start:y2.sends.end]}
	n := len(xs[0]) + len(xs[1])
	if n != len(ys[0])+len(ys[1]) || n > 64 {
		return false
	}
	var used uint64 // of ys, in order
	for _, l := range xs {
	next:
		for _, x := range l {
			j := 0
			for _, r := range ys {
				for _, y := range r {
					if used>>j&1 == 0 && bytes.Equal(m.arena[x.start:x.end], m.arena[y.start:y.end]) {
						used |= 1 << j
						continue next
					}
					j++
				}
			}
			return false
		}
	}
	return true
}

// deliverEffect returns the step memo's entry for the Deliver of message
// mid (encoded msg) to process i with input id pid (phase, and group and
// local state as procInput has them), running the handler if the memo
// has none; -1 if the memo is full or the handler panicked.
func (w *protocolWorker[P, M]) deliverEffect(i int, phase model.Phase, input []byte, pid, mid int32, msg []byte) int {
	key, ok := stepKey(pid, mid, model.Deliver, 0)
	if !ok {
		return -1
	}
	m := &w.memos.step
	e, slot := m.find(key)
	if e >= 0 || slot < 0 {
		return e
	}
	w.sendBuf.Reset()
	w.sends = w.sends[:0]
	if !w.runDetached(i, phase, input, msg) {
		return -1
	}
	// The entry's out is the input's layout: group, length, local state.
	out := appendUvarint(w.detached[:0], uint64(w.ctx.group))
	out = appendUvarint(out, uint64(w.enc.Len()))
	w.detached = append(out, w.enc.Bytes()...)
	return w.remember(slot, key, stepEntry{outPhase: w.ctx.phase}, w.detached)
}

// runDetached runs the Deliver of msg to process i in the given phase
// with the given input (not necessarily a process of the parsed state),
// leaving the result in w.ctx, w.enc and the sends; false if a handler
// or decoder panicked.
func (w *protocolWorker[P, M]) runDetached(i int, phase model.Phase, input []byte, msg []byte) (ok bool) {
	hook, acting := w.hook, w.actingOn
	defer func() {
		if recover() != nil {
			ok = false
		}
		w.hook, w.actingOn = hook, acting
	}()
	group, n := uvarint(input, 0)
	size, n := uvarint(input, n)
	w.dec.Reset(input[n : n+int(size)])
	w.p.DecodeProc(&w.dec, &w.self)
	w.dec.Reset(msg)
	w.p.DecodeMsg(&w.dec, &w.msg)
	c := &w.ctx
	c.ID, c.Self, c.flags, c.phase, c.group = i, &w.self, 0, phase, int(group)
	w.hook = hookDeliver
	w.p.act(c, model.Deliver, 0, &w.msg, 0)
	w.enc.Reset()
	w.p.EncodeProc(&w.enc, &w.self)
	return true
}

// commuteTable maps (process input id, message id, message id) to
// whether the two Delivers commute: open addressing over one word a slot
// (the key, packed by deliversCommute in 39 bits, plus one, in the low
// commuteKeyBits bits, and the verdict above them), reset with the other
// memos (the ids change meaning).
type commuteTable struct {
	slots []uint64 // 0 empty
	n     int
}

const (
	commuteYes = 1
	commuteNo  = 2
	// commuteIDBits holds an id of the intern tables (internEntries).
	commuteIDBits  = 13
	commuteKeyBits = 3*commuteIDBits + 1 // the key plus one
	// commuteEntries bounds the verdicts kept between two resets.
	commuteEntries = 1 << 15
)

// find returns the verdict of key (0 if unknown) and the slot add puts it
// in (-1 if the table is full).
func (t *commuteTable) find(key uint64) (uint8, int) {
	if t.slots == nil {
		t.reset()
	}
	mask := len(t.slots) - 1
	for s := stepSlotOf(key) & mask; ; s = (s + 1) & mask {
		sl := t.slots[s]
		if sl == 0 {
			if t.n >= commuteEntries {
				return 0, -1
			}
			if 2*(t.n+1) > len(t.slots) {
				t.grow()
				return 0, freeSlot(t.slots, stepSlotOf(key))
			}
			return 0, s
		}
		if sl&(1<<commuteKeyBits-1) == key+1 {
			return uint8(sl >> commuteKeyBits), s
		}
	}
}

func (t *commuteTable) add(slot int, key uint64, yes bool) {
	v := uint64(commuteNo)
	if yes {
		v = commuteYes
	}
	t.slots[slot] = v<<commuteKeyBits | (key + 1)
	t.n++
}

func (t *commuteTable) reset() {
	if t.slots == nil {
		t.slots = make([]uint64, memoFirstSlots)
	} else {
		clear(t.slots)
	}
	t.n = 0
}

func (t *commuteTable) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	for _, sl := range old {
		if sl != 0 {
			t.slots[freeSlot(t.slots, stepSlotOf(sl&(1<<commuteKeyBits-1)-1))] = sl
		}
	}
}
