package protocol

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// Renaming says how a renaming of process ids acts on a Protocol's local
// states and messages; Renamer turns it into a model.Renamer factory.
type Renaming[P, M any] struct {
	// Proc writes into dst the local state src with every process id
	// renamed by perm (perm[i] is the new id of i; arrays indexed by id
	// permuted, see PermuteIndexed and RenameIDs). It must overwrite every
	// field of dst (it may reuse its slices), keep no reference to src and
	// not modify src (a state's decoded parts serve every permutation).
	Proc func(perm []int, dst, src *P)
	// Msg does the same for messages; the receiver must become
	// perm[receiver].
	Msg func(perm []int, dst, src *M)
	// Key (optional) summarises a local state by something no renaming
	// changes (a flag, a counter, whether a pointer is nil). Processes
	// with different keys are never tried in each other's place when
	// canonical forms are computed for the group of all permutations, so
	// a good key makes that much cheaper. A key that a renaming does
	// change breaks canonicity (not soundness): explore/symmetry.Verify
	// reports it.
	Key func(p *P) uint64
}

// Renamer returns a model.Renamer factory for the states of p.System(),
// for model.Symmetry.NewRenamer.
// The client phase, request count and group move with their process; the
// network is re-sorted into canonical order.
func Renamer[P, M any](p *Protocol[P, M], r Renaming[P, M]) func() model.Renamer {
	if r.Proc == nil || r.Msg == nil {
		panic(fmt.Sprintf("model: Renamer of %q needs both Renaming.Proc and Renaming.Msg", p.Name))
	}
	return func() model.Renamer {
		return &protocolRenamer[P, M]{p: p, proc: r.Proc, msg: r.Msg, key: r.Key, procs: make([]procSeg, p.N), inv: make([]int, p.N),
			srcs: make([]P, p.N), decodedP: make([]bool, p.N)}
	}
}

type protocolRenamer[P, M any] struct {
	p    *Protocol[P, M]
	proc func(perm []int, dst, src *P)
	msg  func(perm []int, dst, src *M)
	key  func(p *P) uint64

	state  []byte
	faults int
	procs  []procSeg
	msgs   []msgSeg
	inv    []int

	// The decoded processes and messages of the state parsed last (a copy
	// of it is in parsed): canonical forms rename one state with many
	// permutations, so each part is decoded once per state, on demand.
	parsed   []byte
	srcs     []P
	decodedP []bool
	srcMs    []M
	decodedM []bool

	dec      model.Decoder
	dst      P
	dstM     M
	enc      model.Encoder
	msgBuf   model.Encoder
	msgSpans []renamedMsg
}

type renamedMsg struct {
	b     span // in msgBuf
	count int
}

// sortRenamedMsgs sorts renamed messages by their encoding in buf,
// without allocating: by insertion for the short networks of the states a
// symmetry reduction handles, else with slices.SortFunc.
func sortRenamedMsgs(buf []byte, spans []renamedMsg) {
	bytesOf := func(m renamedMsg) []byte { return buf[m.b.start:m.b.end] }
	if len(spans) > 32 {
		slices.SortFunc(spans, func(x, y renamedMsg) int { return bytes.Compare(bytesOf(x), bytesOf(y)) })
		return
	}
	for a := 1; a < len(spans); a++ {
		x := spans[a]
		xb := bytesOf(x)
		b := a
		for ; b > 0 && bytes.Compare(xb, bytesOf(spans[b-1])) < 0; b-- {
			spans[b] = spans[b-1]
		}
		spans[b] = x
	}
}

// parse indexes state as protocolWorker.parse does (protocol.go documents
// the layout), unless it is the state parsed last (the same bytes, which
// may be in another buffer): then the index and the decoded parts stay.
func (r *protocolRenamer[P, M]) parse(state []byte) {
	r.state = state
	if r.parsed != nil && bytes.Equal(state, r.parsed) {
		return
	}
	r.faults, r.msgs = parseLayout(state, r.procs, r.msgs, r.p.Name)
	r.parsed = append(r.parsed[:0], state...)
	clear(r.decodedP)
	if len(r.srcMs) < len(r.msgs) {
		r.srcMs = append(r.srcMs, make([]M, len(r.msgs)-len(r.srcMs))...)
		r.decodedM = append(r.decodedM, make([]bool, len(r.msgs)-len(r.decodedM))...)
	}
	clear(r.decodedM)
}

// srcProc returns process i of the parsed state, decoded.
func (r *protocolRenamer[P, M]) srcProc(i int) *P {
	if !r.decodedP[i] {
		ps := &r.procs[i]
		r.dec.Reset(r.state[ps.local.start:ps.local.end])
		r.p.DecodeProc(&r.dec, &r.srcs[i])
		r.decodedP[i] = true
	}
	return &r.srcs[i]
}

// srcMsg returns distinct message k of the parsed state, decoded.
func (r *protocolRenamer[P, M]) srcMsg(k int) *M {
	if !r.decodedM[k] {
		m := &r.msgs[k]
		r.dec.Reset(r.state[m.b.start:m.b.end])
		r.p.DecodeMsg(&r.dec, &r.srcMs[k])
		r.decodedM[k] = true
	}
	return &r.srcMs[k]
}

func (r *protocolRenamer[P, M]) Keys(keys []uint64, state []byte) []uint64 {
	r.parse(state)
	keys = keys[:0]
	for i, ps := range r.procs {
		k := uint64(ps.phase)<<56 | uint64(ps.made&0xffff)<<40 | uint64(ps.group&0xff)<<32
		if r.key != nil {
			k ^= mix(r.key(r.srcProc(i))) & (1<<32 - 1)
		}
		keys = append(keys, k)
	}
	// Messages in transit to a process move with it: count them.
	for k, m := range r.msgs {
		to := r.p.To(r.srcMsg(k))
		keys[to] += uint64(m.count) << 20 & (1<<32 - 1)
	}
	return keys
}

// mix scrambles a key so that its bits spread over the low word.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// Fixes reports whether renaming state by perm gives state itself (an
// optional capability explore/symmetry looks for): it compares each renamed
// process with the one at its new place and stops at the first that
// differs, and renames the network only when every process matches.
func (r *protocolRenamer[P, M]) Fixes(state []byte, perm []int) bool {
	p := r.p
	if len(perm) != p.N {
		panic(fmt.Sprintf("model: %s: renaming %d processes with a permutation of %d", p.Name, p.N, len(perm)))
	}
	r.parse(state)
	for i, j := range perm {
		r.inv[j] = i
	}
	for j := range p.N {
		from, at := &r.procs[r.inv[j]], &r.procs[j]
		if from.phase != at.phase || from.made != at.made || from.group != at.group {
			return false
		}
		r.proc(perm, &r.dst, r.srcProc(r.inv[j]))
		r.enc.Reset()
		p.EncodeProc(&r.enc, &r.dst)
		if !bytes.Equal(r.enc.Bytes(), state[at.local.start:at.local.end]) {
			return false
		}
	}
	r.renameNetwork(perm)
	for k, m := range r.msgSpans {
		have := r.msgs[k]
		if m.count != have.count || !bytes.Equal(r.msgBuf.Bytes()[m.b.start:m.b.end], state[have.b.start:have.b.end]) {
			return false
		}
	}
	return true
}

// renameNetwork renames every message of the parsed state into msgBuf,
// with msgSpans in canonical order.
func (r *protocolRenamer[P, M]) renameNetwork(perm []int) {
	p := r.p
	r.msgBuf.Reset()
	r.msgSpans = r.msgSpans[:0]
	for k, m := range r.msgs {
		r.msg(perm, &r.dstM, r.srcMsg(k))
		start := r.msgBuf.Len()
		p.EncodeMsg(&r.msgBuf, &r.dstM)
		r.msgSpans = append(r.msgSpans, renamedMsg{span{start, r.msgBuf.Len()}, m.count})
	}
	sortRenamedMsgs(r.msgBuf.Bytes(), r.msgSpans)
}

func (r *protocolRenamer[P, M]) Rename(dst, state []byte, perm []int) []byte {
	dst, _ = r.rename(dst, state, perm, nil)
	return dst
}

// RenameBelow is Rename that gives up as soon as the result is known not
// to be less than bound (bytes.Compare order): it then returns false and
// dst holds a partial encoding. Processes are encoded first and the
// network last, so most candidates are rejected before their messages are
// renamed.
func (r *protocolRenamer[P, M]) RenameBelow(dst, state []byte, perm []int, bound []byte) ([]byte, bool) {
	return r.rename(dst, state, perm, bound)
}

// rename writes the renamed state after dst[:len(dst)] (which RenameBelow
// expects empty); with a bound, it stops once the output exceeds or
// equals bound.
func (r *protocolRenamer[P, M]) rename(dst, state []byte, perm []int, bound []byte) ([]byte, bool) {
	p := r.p
	if len(perm) != p.N {
		panic(fmt.Sprintf("model: %s: renaming %d processes with a permutation of %d", p.Name, p.N, len(perm)))
	}
	r.parse(state)
	for i, j := range perm {
		r.inv[j] = i
	}
	less := bound == nil // once the output is below bound, stop comparing
	// above reports whether dst, compared with bound over dst's length,
	// is already greater (give up); it sets less when it is smaller.
	checked := 0
	above := func() bool {
		if less {
			return false
		}
		n := min(len(dst), len(bound))
		c := bytes.Compare(dst[checked:n], bound[checked:n])
		checked = n
		if c < 0 {
			less = true
		}
		return c > 0 || (c == 0 && len(dst) > len(bound))
	}
	dst = appendUvarint(dst, uint64(r.faults))
	for j := range p.N {
		ps := &r.procs[r.inv[j]]
		r.proc(perm, &r.dst, r.srcProc(r.inv[j]))
		r.enc.Reset()
		p.EncodeProc(&r.enc, &r.dst)
		dst = append(dst, byte(ps.phase))
		dst = appendUvarint(dst, uint64(ps.made))
		dst = appendUvarint(dst, uint64(ps.group))
		dst = appendUvarint(dst, uint64(r.enc.Len()))
		dst = append(dst, r.enc.Bytes()...)
		if above() {
			return dst, false
		}
	}
	r.renameNetwork(perm)
	dst = appendUvarint(dst, uint64(len(r.msgSpans)))
	var prev []byte
	for k, m := range r.msgSpans {
		b := r.msgBuf.Bytes()[m.b.start:m.b.end]
		if k > 0 && bytes.Equal(prev, b) {
			panic(fmt.Sprintf("model: %s: renaming merged two distinct messages into %s; the message renaming is not injective", p.Name, p.formatMsg(&r.dstM)))
		}
		prev = b
		dst = appendUvarint(dst, uint64(m.count))
		dst = appendUvarint(dst, uint64(len(b)))
		dst = append(dst, b...)
	}
	if above() {
		return dst, false
	}
	return dst, less || (bound != nil && len(dst) < len(bound))
}
