package protocol

import (
	"encoding/binary"

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
// handler once per distinct input (step) and afterwards copies its effect.
// The same holds for what a message's encoding tells (its receiver,
// whether it carries a token, whether a Lose may drop it: facts) and for
// HoldsToken of a process (holds). Every look-up compares the whole input,
// so a hash collision costs a miss, never a wrong answer. Hashes of the
// parsed state's process segments and messages are computed once per
// state, when first needed.
type memos struct {
	step  stepMemo
	facts intMemo
	holds intMemo

	gen     uint32   // the parse the hashes below belong to
	procGen []uint32 // per process: the parse procH[i] was computed for
	procH   []uint64
	msgGen  []uint32 // per distinct message: the parse msgH[k] was computed for
	msgH    []uint64
	seg     []byte // scratch: a key of holds
}

// newState forgets the hashes of the previous parsed state: n processes,
// m distinct messages.
func (ms *memos) newState(n, m int) {
	ms.gen++
	if ms.gen == 0 { // wrapped: no stale entry may look current
		clear(ms.procGen)
		clear(ms.msgGen)
		ms.gen = 1
	}
	if len(ms.procGen) < n {
		ms.procGen, ms.procH = make([]uint32, n), make([]uint64, n)
	}
	if len(ms.msgGen) < m {
		ms.msgGen, ms.msgH = make([]uint32, 2*m), make([]uint64, 2*m)
	}
}

// procHash returns the hash of what process i's segment of the parsed
// state shows a handler: its phase and the rest after the requests made
// (group and encoded local state, procInput).
func (w *protocolWorker[P, M]) procHash(i int) uint64 {
	ms := &w.memos
	if ms.procGen[i] != ms.gen {
		ps := &w.procs[i]
		ms.procH[i] = memoHash(w.procInput(ps)) ^ uint64(ps.phase)*0x9e3779b97f4a7c15
		ms.procGen[i] = ms.gen
	}
	return ms.procH[i]
}

// procInput returns the group and encoded local state of a process of the
// parsed state (its segment after phase and made), as encoded.
func (w *protocolWorker[P, M]) procInput(ps *procSeg) []byte {
	return w.state[ps.rest:ps.local.end]
}

// msgHash returns the hash of the encoding of message k of the parsed
// state.
func (w *protocolWorker[P, M]) msgHash(k int) uint64 {
	ms := &w.memos
	if ms.msgGen[k] != ms.gen {
		ms.msgH[k] = memoHash(w.bytesOf(w.msgs[k].b))
		ms.msgGen[k] = ms.gen
	}
	return ms.msgH[k]
}

// memoArenaMax bounds the bytes a memo keeps (keys and values): a memo
// whose arena passes it starts over.
const memoArenaMax = 1 << 20

// Entries a memo keeps before it starts over (powers of two).
const (
	stepMemoEntries = 1 << 14
	intMemoEntries  = 1 << 12
)

// stepMemo maps local steps to their effects: open addressing with linear
// probing over entries, whose bytes live in one arena, so that once it
// has grown it allocates nothing.
type stepMemo struct {
	slots   []int32 // entry+1, 0 empty
	entries []stepEntry
	arena   []byte
	sends   []span // every entry's sends, in arena
}

// stepEntry is one local step: its input (the action, the process, its
// phase, group and encoded local state, and the delivered message) and its
// effect (the process's next phase, group and local state, whether it
// counts a request, the transition's flags and the sends in the order the
// handler sent them). Requests made are not an input: a handler does not
// see them.
type stepEntry struct {
	h         uint64
	kind      model.ActionKind
	phase     model.Phase
	proc, arg int
	in, msg   span // in arena: procInput, and the message
	outPhase  model.Phase
	counts    bool // the step makes a request
	out       span // in arena: the next procInput
	sends     span // indexes into stepMemo.sends
	flags     model.Flags
}

// find returns the entry of the step (-1 if none) and the slot where add
// puts it. It first starts the memo over if it is full, so that add may
// follow.
func (m *stepMemo) find(h uint64, kind model.ActionKind, phase model.Phase, proc, arg int, in, msg []byte) (int, int) {
	if m.slots == nil || len(m.entries) >= stepMemoEntries || len(m.arena) >= memoArenaMax {
		m.reset()
	}
	mask := len(m.slots) - 1
	for s := int(h) & mask; ; s = (s + 1) & mask {
		e := int(m.slots[s]) - 1
		if e < 0 {
			return -1, s
		}
		en := &m.entries[e]
		if en.h == h && en.kind == kind && en.phase == phase && en.proc == proc && en.arg == arg &&
			string(m.arena[en.in.start:en.in.end]) == string(in) &&
			string(m.arena[en.msg.start:en.msg.end]) == string(msg) {
			return e, s
		}
	}
}

func (m *stepMemo) reset() {
	if m.slots == nil {
		m.slots = make([]int32, 2*stepMemoEntries)
	} else {
		clear(m.slots)
	}
	m.entries, m.arena, m.sends = m.entries[:0], m.arena[:0], m.sends[:0]
}

// store appends b to the arena and returns where it is.
func (m *stepMemo) store(b []byte) span {
	start := len(m.arena)
	m.arena = append(m.arena, b...)
	return span{start, len(m.arena)}
}

// intMemo maps byte strings to small integers, as stepMemo maps steps.
type intMemo struct {
	slots []int32 // entry+1, 0 empty
	hs    []uint64
	keys  []span // in arena
	vals  []int32
	arena []byte
}

// get returns the value of key (whose memoHash is h) and true, or the
// slot for put and false. It starts the memo over if it is full, so that
// put may follow.
func (m *intMemo) get(key []byte, h uint64) (v int32, ok bool, slot int) {
	if m.slots == nil || len(m.vals) >= intMemoEntries || len(m.arena) >= memoArenaMax {
		if m.slots == nil {
			m.slots = make([]int32, 2*intMemoEntries)
		} else {
			clear(m.slots)
		}
		m.hs, m.keys, m.vals, m.arena = m.hs[:0], m.keys[:0], m.vals[:0], m.arena[:0]
	}
	mask := len(m.slots) - 1
	for s := int(h) & mask; ; s = (s + 1) & mask {
		e := int(m.slots[s]) - 1
		if e < 0 {
			return 0, false, s
		}
		if m.hs[e] == h {
			k := m.keys[e]
			if string(m.arena[k.start:k.end]) == string(key) {
				return m.vals[e], true, s
			}
		}
	}
}

// put records v for key (hash h) at the slot get returned.
func (m *intMemo) put(key []byte, h uint64, slot int, v int32) {
	start := len(m.arena)
	m.arena = append(m.arena, key...)
	m.keys = append(m.keys, span{start, len(m.arena)})
	m.hs = append(m.hs, h)
	m.vals = append(m.vals, v)
	m.slots[slot] = int32(len(m.vals))
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
