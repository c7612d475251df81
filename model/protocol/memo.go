package protocol

import (
	"encoding/binary"
	"math"

	"github.com/tokenmc/tokenmc/model"
)

// memos is what a worker remembers across states to step a deterministic
// protocol without running its code again on inputs it has met before.
// A handler's effect is a function of what it can see: the acting
// process's id, client phase, group and (encoded) local state, the action
// and its argument, and the delivered message's encoding (Ctx offers
// nothing else, and handlers must be deterministic). A search runs the
// same local step many times, in every combination of the other
// processes' states and of the rest of the network, so the worker runs a
// handler once per distinct input and afterwards copies its effect.
//
// The inputs are interned: every distinct process input (the process, its
// phase, group and local state; not the requests made, which a handler
// does not see) and every distinct message encoding gets a small id, once
// per parsed state and process or message, by a look-up that compares the
// whole input (a hash collision costs a probe, never a wrong answer). The
// ids carry what is a function of the input alone: HoldsToken of a
// process input, and a message's receiver, whether it carries a token and
// whether a Lose may drop it. A local step is then looked up by its ids,
// the action and its argument. The tables start over together, between
// two states, when one could fill up during the next; a table that is
// full nonetheless (steps outside Successors) only stops remembering.
type memos struct {
	procs internTable // process inputs; values (val): bits 0-1 HoldsToken (0 unknown, 1 false, 2 true), then LocalInvariant verdicts (view.go)
	msgs  internTable // message encodings; values: msgFacts, packed
	step  stepMemo
	// commute: whether two Delivers to a process commute, by the ids of
	// its input and of the messages (semcommute.go)
	commute commuteTable

	procID []int32 // per process of the parsed state: its input's id, -1 before asked, -2 if not interned
	msgID  []int32 // per distinct message of the parsed state: the same
	resets int     // how many times newState started the tables over
}

// Table bounds: entries (powers of two, under 2^20 for stepKey) and bytes.
// A worker looks its tables up several times a transition, so they are
// kept to about what a processor's second-level cache holds (1-2.5 MB
// with the commute verdicts, against 3-5 MB at twice these bounds, which
// made Suzuki-Kasami N=3 R=3 3% slower with 2 workers for fewer resets).
const (
	internEntries   = 1 << 12
	stepMemoEntries = 1 << 13
	memoArenaMax    = 1 << 19
)

// newState forgets the ids of the previous parsed state, with n processes,
// m distinct messages and at most steps transitions; it starts the tables
// over if they could fill up while this state is stepped.
func (ms *memos) newState(n, m, steps int) {
	if ms.procs.len()+n > internEntries || ms.msgs.len()+m > internEntries ||
		len(ms.step.entries)+steps > stepMemoEntries || ms.commute.n+steps > commuteEntries ||
		len(ms.procs.arena) > memoArenaMax || len(ms.msgs.arena) > memoArenaMax || len(ms.step.arena) > memoArenaMax {
		ms.procs.reset()
		ms.msgs.reset()
		ms.step.reset()
		ms.commute.reset()
		ms.resets++
	}
	if cap(ms.procID) < n {
		ms.procID = make([]int32, n)
	}
	ms.procID = ms.procID[:n]
	for i := range ms.procID {
		ms.procID[i] = -1
	}
	if cap(ms.msgID) < m {
		ms.msgID = make([]int32, m, 2*m)
	}
	ms.msgID = ms.msgID[:m]
	for k := range ms.msgID {
		ms.msgID[k] = -1
	}
}

// procInputID returns the id of process i's input in the parsed state,
// or -2 if the table is full.
func (w *protocolWorker[P, M]) procInputID(i int) int32 {
	ms := &w.memos
	id := ms.procID[i]
	if id == -1 {
		ps := &w.procs[i]
		id = ms.procs.intern(int64(i)<<8|int64(ps.phase), w.procInput(ps))
		ms.procID[i] = id
	}
	return id
}

// procInput returns the group and encoded local state of a process of the
// parsed state (its segment after phase and made), as encoded.
func (w *protocolWorker[P, M]) procInput(ps *procSeg) []byte {
	return w.state[ps.rest:ps.local.end]
}

// internTable gives distinct keys (a tag and bytes) the ids 0, 1, 2, ...
// in the order they come, with an int64 value each for its user: open
// addressing with linear probing, the keys in one arena, so that once it
// has grown it allocates nothing. A slot holds the high half of its key's
// hash beside the id, so that a probe past another key costs no look at
// its entry, and an entry holds all the table keeps of a key (hash, tag,
// where its bytes are, value) in one place: a look-up that finds its key
// reads a slot, an entry and the key's bytes.
type internTable struct {
	slots   []uint64 // 0 empty; else the hash's high 32 bits, then id+1
	entries []internEntry
	arena   []byte
}

// internEntry is what an internTable keeps of a key.
type internEntry struct {
	h          uint64
	tag        int64
	val        int64
	start, end int32 // the key's bytes, in arena
}

func (t *internTable) len() int { return len(t.entries) }

// val returns the value of id, for its user to read and set.
func (t *internTable) val(id int32) *int64 { return &t.entries[id].val }

func (t *internTable) reset() {
	if t.slots == nil {
		t.slots = make([]uint64, memoFirstSlots)
	} else {
		clear(t.slots)
	}
	t.entries, t.arena = t.entries[:0], t.arena[:0]
}

// intern returns the id of (tag, key), adding it with value 0 if it is
// new; -2 if it is new and the table is full.
func (t *internTable) intern(tag int64, key []byte) int32 {
	if t.slots == nil {
		t.reset()
	}
	h := memoHash(key) ^ uint64(tag)*0x9e3779b97f4a7c15
	mask := len(t.slots) - 1
	s := int(h) & mask
	for {
		v := t.slots[s]
		if v == 0 {
			break
		}
		if v>>32 == h>>32 {
			id := int32(uint32(v)) - 1
			e := &t.entries[id]
			if e.tag == tag && string(t.arena[e.start:e.end]) == string(key) {
				return id
			}
		}
		s = (s + 1) & mask
	}
	if len(t.entries) >= internEntries || len(t.arena)+len(key) > math.MaxInt32 {
		return -2 // full (or its offsets would overflow)
	}
	if 2*(len(t.entries)+1) > len(t.slots) {
		t.grow()
		s = freeSlot(t.slots, int(h))
	}
	start := len(t.arena)
	t.arena = append(t.arena, key...)
	t.entries = append(t.entries, internEntry{h: h, tag: tag, start: int32(start), end: int32(len(t.arena))})
	t.slots[s] = h>>32<<32 | uint64(len(t.entries))
	return int32(len(t.entries) - 1)
}

// grow doubles the slots of t.
func (t *internTable) grow() {
	t.slots = make([]uint64, 2*len(t.slots))
	for e := range t.entries {
		h := t.entries[e].h
		t.slots[freeSlot(t.slots, int(h))] = h>>32<<32 | uint64(e+1)
	}
}

// freeSlot returns the first empty (zero) slot of slots, a power of two
// of them, from home on (linear probing; home is reduced to the size).
func freeSlot(slots []uint64, home int) int {
	mask := len(slots) - 1
	s := home & mask
	for slots[s] != 0 {
		s = (s + 1) & mask
	}
	return s
}

// memoFirstSlots is the slots a table starts with: it doubles them as it
// fills (half at most), up to twice its bound of entries, so that a
// worker that steps few states costs little memory.
const memoFirstSlots = 1 << 9

// stepMemo maps local steps (stepKey) to their effects, as internTable
// maps its keys.
type stepMemo struct {
	slots   []stepSlot
	entries []stepEntry
	arena   []byte
	sends   []span // every entry's sends, in arena
}

type stepSlot struct {
	key   uint64
	entry int32 // entry+1, 0 empty
}

// stepEntry is the effect of one local step: the process's next phase,
// group and local state (the segment without made), whether it counts a
// request, the transition's flags and the sends in the order the handler
// sent them.
type stepEntry struct {
	outPhase model.Phase
	counts   bool
	flags    model.Flags
	out      span // in arena: the next group and local state, as procInput
	sends    span // indexes into stepMemo.sends
}

// stepKey packs a local step: the ids of the process input and of the
// delivered message (-1: none), the action and its argument; ok is false
// if they do not fit.
func stepKey(pid, mid int32, kind model.ActionKind, arg int) (uint64, bool) {
	if pid < 0 || mid < -1 || arg < 0 || arg >= 1<<18 || kind >= 16 {
		return 0, false
	}
	return uint64(pid)<<43 | uint64(mid+1)<<22 | uint64(kind)<<18 | uint64(arg), true
}

// find returns the entry of key (-1 if none) and the slot where add puts
// it (-1 if the memo is full).
func (m *stepMemo) find(key uint64) (int, int) {
	if m.slots == nil {
		m.reset()
	}
	mask := len(m.slots) - 1
	for s := stepSlotOf(key) & mask; ; s = (s + 1) & mask {
		sl := &m.slots[s]
		if sl.entry == 0 {
			if len(m.entries) >= stepMemoEntries {
				return -1, -1
			}
			if 2*(len(m.entries)+1) > len(m.slots) {
				m.grow()
				s = m.free(key)
			}
			return -1, s
		}
		if sl.key == key {
			return int(sl.entry) - 1, s
		}
	}
}

func (m *stepMemo) reset() {
	if m.slots == nil {
		m.slots = make([]stepSlot, memoFirstSlots)
	} else {
		clear(m.slots)
	}
	m.entries, m.arena, m.sends = m.entries[:0], m.arena[:0], m.sends[:0]
}

// grow doubles the slots of m.
func (m *stepMemo) grow() {
	old := m.slots
	m.slots = make([]stepSlot, 2*len(old))
	for _, sl := range old {
		if sl.entry != 0 {
			m.slots[m.free(sl.key)] = sl
		}
	}
}

// free returns the first empty slot for key.
func (m *stepMemo) free(key uint64) int {
	mask := len(m.slots) - 1
	s := stepSlotOf(key) & mask
	for m.slots[s].entry != 0 {
		s = (s + 1) & mask
	}
	return s
}

// stepSlotOf is the home slot of key, before masking.
func stepSlotOf(key uint64) int { return int(mix64(key, 0x243f6a8885a308d3)) }

// store appends b to the arena and returns where it is.
func (m *stepMemo) store(b []byte) span {
	start := len(m.arena)
	m.arena = append(m.arena, b...)
	return span{start, len(m.arena)}
}

// memoHash is a fast 64-bit hash of b for the memos' tables (wyhash's
// reading of short keys: two overlapping loads).
func memoHash(b []byte) uint64 {
	n := len(b)
	h := uint64(n)*0x9e3779b97f4a7c15 ^ 0x2d358dccaa6c78a5
	var a, c uint64
	switch {
	case n > 16:
		full := b
		for len(b) > 16 {
			h = mix64(binary.LittleEndian.Uint64(b)^h, binary.LittleEndian.Uint64(b[8:])^0xe7037ed1a0b428db)
			b = b[16:]
		}
		t := full[n-16:]
		a, c = binary.LittleEndian.Uint64(t), binary.LittleEndian.Uint64(t[8:])
	case n >= 8:
		a, c = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		a, c = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		a = uint64(b[0])<<16 | uint64(b[n>>1])<<8 | uint64(b[n-1])
	}
	return mix64(a^h, c^0x589965cc75374cc3)
}
