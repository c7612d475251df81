package protocol

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/tokenmc/tokenmc/model"
)

// Renaming says how a renaming of process ids acts on a Protocol's local
// states and messages; Renamer turns it into a model.Renamer factory.
type Renaming[P, M any] struct {
	// Proc writes into dst the local state src with every process id
	// renamed by perm (perm[i] is the new id of i; arrays indexed by id
	// permuted, see PermuteIndexed and RenameIDs). It must overwrite every
	// field of dst (it may reuse its slices) and keep no reference to src.
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
		return &protocolRenamer[P, M]{p: p, proc: r.Proc, msg: r.Msg, key: r.Key, procs: make([]procSeg, p.N), inv: make([]int, p.N)}
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

	dec       model.Decoder
	src, dst  P
	srcM      M
	dstM      M
	enc       model.Encoder
	msgBuf    model.Encoder
	msgSpans  []renamedMsg
	sortSpans sortRenamed
}

type renamedMsg struct {
	b     span // in msgBuf
	count int
}

// sortRenamed sorts renamed messages by their encoding without allocating.
type sortRenamed struct {
	buf   []byte
	spans []renamedMsg
}

func (s *sortRenamed) Len() int { return len(s.spans) }
func (s *sortRenamed) Less(a, b int) bool {
	x, y := s.spans[a].b, s.spans[b].b
	return bytes.Compare(s.buf[x.start:x.end], s.buf[y.start:y.end]) < 0
}
func (s *sortRenamed) Swap(a, b int) { s.spans[a], s.spans[b] = s.spans[b], s.spans[a] }

// parse indexes state as protocolWorker.parse does (protocol.go documents
// the layout).
func (r *protocolRenamer[P, M]) parse(state []byte) {
	r.state = state
	r.faults, r.msgs = parseLayout(state, r.procs, r.msgs, r.p.Name)
}

func (r *protocolRenamer[P, M]) Keys(keys []uint64, state []byte) []uint64 {
	r.parse(state)
	keys = keys[:0]
	for _, ps := range r.procs {
		k := uint64(ps.phase)<<56 | uint64(ps.made&0xffff)<<40 | uint64(ps.group&0xff)<<32
		if r.key != nil {
			r.dec.Reset(state[ps.local.start:ps.local.end])
			r.p.DecodeProc(&r.dec, &r.src)
			k ^= mix(r.key(&r.src)) & (1<<32 - 1)
		}
		keys = append(keys, k)
	}
	// Messages in transit to a process move with it: count them.
	for _, m := range r.msgs {
		r.dec.Reset(state[m.b.start:m.b.end])
		r.p.DecodeMsg(&r.dec, &r.srcM)
		to := r.p.To(&r.srcM)
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
		r.dec.Reset(state[ps.local.start:ps.local.end])
		p.DecodeProc(&r.dec, &r.src)
		r.proc(perm, &r.dst, &r.src)
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
	r.msgBuf.Reset()
	r.msgSpans = r.msgSpans[:0]
	for _, m := range r.msgs {
		r.dec.Reset(state[m.b.start:m.b.end])
		p.DecodeMsg(&r.dec, &r.srcM)
		r.msg(perm, &r.dstM, &r.srcM)
		start := r.msgBuf.Len()
		p.EncodeMsg(&r.msgBuf, &r.dstM)
		r.msgSpans = append(r.msgSpans, renamedMsg{span{start, r.msgBuf.Len()}, m.count})
	}
	r.sortSpans = sortRenamed{r.msgBuf.Bytes(), r.msgSpans}
	sort.Sort(&r.sortSpans)
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
