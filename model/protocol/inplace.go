package protocol

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/tokenmc/tokenmc/model"
)

// inPlaceState is the method set of the random walk's in-place capability
// (explore/internal/capability.InPlace), an alias of the same interface
// literal, so that NewInPlace implements capability.InPlaceWorker without
// this package importing the explorer.
type inPlaceState = interface {
	Load(state []byte)
	Count() int
	At(k int) model.Transition
	Enabled(dst []model.Transition, receivers bool) []model.Transition
	Fire(t *model.Transition)
	Snapshot() model.Snapshot
	Encode(dst []byte) []byte
	Hash() uint64
}

// NewInPlace implements explore/internal/capability.InPlaceWorker.
func (w *protocolWorker[P, M]) NewInPlace() inPlaceState {
	own := newProtocolWorker(w.p)
	ip := &inPlace[P, M]{
		w:        own,
		nacts:    make([]int, w.p.N),
		holds:    make([]bool, w.p.N),
		procEnc:  make([][]byte, w.p.N),
		procHash: make([]uint64, w.p.N),
	}
	own.view.fast = ip
	return ip
}

// inPlace implements InPlace for a Protocol. The processes live decoded
// in w.view.locals (all marked decoded) with their phase, request count
// and group in w.procs; the network is a list of distinct messages in
// canonical (bytes) order, each kept encoded and decoded.
type inPlace[P, M any] struct {
	w        *protocolWorker[P, M]
	faults   int
	nacts    []int // enabled process actions (requests, exit, timers) per process
	actTotal int
	holds    []bool // HoldsToken per process
	held     int    // processes holding a token
	procEnc  [][]byte
	procHash []uint64
	procSum  uint64

	net       []int32 // distinct messages in canonical order: indexes into ents
	ents      []msgEnt[M]
	free      []int32
	inTransit int    // messages in transit, counting copies
	tokMsgs   int    // token-carrying messages in transit, counting copies
	losable   int    // distinct messages a Lose may drop
	netSum    uint64 // sum of count*hash over the network
	enc       model.Encoder
	msgCopy   []byte // the message of the last Fire

	// With Protocol.Guard the enabled transitions are listed in full
	// (and filtered) when first asked for after a change of state.
	guarded []model.Transition
	stale   bool   // guarded does not belong to the current state
	normBuf []byte // with Protocol.Normalize: the state before normalisation
}

type msgEnt[M any] struct {
	b       []byte
	m       M
	count   int
	to      int
	token   bool
	losable bool
	h       uint64
}

func (ip *inPlace[P, M]) Load(state []byte) {
	w := ip.w
	p := w.p
	w.parse(state)
	ip.faults = w.faults
	ip.held, ip.actTotal, ip.procSum = 0, 0, 0
	clear(ip.nacts)
	clear(ip.holds)
	clear(ip.procHash)
	for i := range w.procs {
		w.dec.Reset(w.bytesOf(w.procs[i].local))
		p.DecodeProc(&w.dec, &w.view.locals[i])
		w.view.decoded[i] = true
		ip.procEnc[i] = append(ip.procEnc[i][:0], w.bytesOf(w.procs[i].local)...)
		ip.refreshProc(i, false)
	}
	for _, e := range ip.net {
		ip.free = append(ip.free, e)
	}
	ip.net = ip.net[:0]
	ip.inTransit, ip.tokMsgs, ip.losable, ip.netSum = 0, 0, 0, 0
	for k := range w.msgs {
		ms := w.msgs[k]
		b := w.bytesOf(ms.b)
		e := ip.newEnt(b)
		ip.ents[e].count = ms.count
		ip.account(e, ms.count)
		if ip.ents[e].losable {
			ip.losable++
		}
		ip.net = append(ip.net, e) // w.msgs is in canonical order already
	}
	// nothing may read the parsed bytes again: the state is not kept
	w.state, w.msgs = nil, w.msgs[:0]
	ip.stale = true
}

// refreshProc recomputes what is cached about process i after its local
// state changed; with encode set, it first re-encodes the process and
// decodes it back, so that the decoded value is exactly what a decoder
// would produce from the canonical encoding (fields a model leaves out of
// its encoding are reset, as they are when the state is stored).
func (ip *inPlace[P, M]) refreshProc(i int, encode bool) {
	w := ip.w
	p := w.p
	loc := &w.view.locals[i]
	if encode {
		ip.enc.Reset()
		p.EncodeProc(&ip.enc, loc)
		ip.procEnc[i] = append(ip.procEnc[i][:0], ip.enc.Bytes()...)
		w.dec.Reset(ip.procEnc[i])
		p.DecodeProc(&w.dec, loc)
	}
	ps := &w.procs[i]
	ip.actTotal -= ip.nacts[i]
	n := 0
	switch ps.phase {
	case model.Idle:
		if p.Cyclic || ps.made < p.R {
			n += p.Groups
		}
	case model.InCS:
		n++
	}
	for k := range p.Timers {
		if p.TimerEnabled(i, ps.phase, loc, k) {
			n++
		}
	}
	ip.nacts[i] = n
	ip.actTotal += n
	if p.HoldsToken != nil {
		h := p.HoldsToken(ps.phase, loc)
		if h != ip.holds[i] {
			if h {
				ip.held++
			} else {
				ip.held--
			}
		}
		ip.holds[i] = h
	}
	ip.procSum -= ip.procHash[i]
	ip.procHash[i] = procHash(i, ps, ip.procEnc[i])
	ip.procSum += ip.procHash[i]
}

// procHash hashes process i's part of a state.
func procHash(i int, ps *procSeg, local []byte) uint64 {
	h := hashBytes(local)
	h = mix64(h^uint64(i)*0x9e3779b97f4a7c15, uint64(ps.phase)|uint64(ps.made)<<8|uint64(ps.group)<<40)
	return mix64(h, 0x2545f4914f6cdd1d)
}

// newEnt returns a free entry holding message b, decoded.
func (ip *inPlace[P, M]) newEnt(b []byte) int32 {
	var e int32
	if n := len(ip.free); n > 0 {
		e = ip.free[n-1]
		ip.free = ip.free[:n-1]
	} else {
		ip.ents = append(ip.ents, msgEnt[M]{})
		e = int32(len(ip.ents) - 1)
	}
	p := ip.w.p
	en := &ip.ents[e]
	en.b = append(en.b[:0], b...)
	ip.w.dec.Reset(en.b)
	p.DecodeMsg(&ip.w.dec, &en.m)
	en.count = 0
	en.to = p.To(&en.m)
	en.token = p.CarriesToken != nil && p.CarriesToken(&en.m)
	en.losable = p.CanLose == nil || p.CanLose(&en.m)
	en.h = mix64(hashBytes(en.b), 0x6a09e667f3bcc909)
	return e
}

// account adds d copies of entry e (d may be negative) to the counters;
// the entry's count itself is the caller's business.
func (ip *inPlace[P, M]) account(e int32, d int) {
	en := &ip.ents[e]
	ip.inTransit += d
	if en.token {
		ip.tokMsgs += d
	}
	ip.netSum += uint64(d) * en.h
}

// find returns the position of message b in ip.net, or where it would go.
func (ip *inPlace[P, M]) find(b []byte) (int, bool) {
	lo, hi := 0, len(ip.net)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		c := bytes.Compare(ip.ents[ip.net[mid]].b, b)
		if c == 0 {
			return mid, true
		}
		if c < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, false
}

func (ip *inPlace[P, M]) addMsg(b []byte) {
	pos, ok := ip.find(b)
	if ok {
		e := ip.net[pos]
		ip.ents[e].count++
		ip.account(e, 1)
		return
	}
	e := ip.newEnt(b)
	ip.ents[e].count = 1
	ip.account(e, 1)
	if ip.ents[e].losable {
		ip.losable++
	}
	ip.net = append(ip.net, 0)
	copy(ip.net[pos+1:], ip.net[pos:])
	ip.net[pos] = e
}

func (ip *inPlace[P, M]) removeAt(pos int) {
	e := ip.net[pos]
	ip.ents[e].count--
	ip.account(e, -1)
	if ip.ents[e].count > 0 {
		return
	}
	if ip.ents[e].losable {
		ip.losable--
	}
	ip.net = append(ip.net[:pos], ip.net[pos+1:]...)
	ip.free = append(ip.free, e)
}

func (ip *inPlace[P, M]) Count() int {
	if ip.w.p.Guard != nil {
		return len(ip.list())
	}
	n := ip.actTotal + len(ip.net)
	if ip.faults < ip.w.p.Faults {
		n += ip.losable
	}
	return n
}

func (ip *inPlace[P, M]) At(k int) model.Transition {
	p := ip.w.p
	if p.Guard != nil {
		return ip.list()[k]
	}
	if k < ip.actTotal {
		for i, n := range ip.nacts {
			if k >= n {
				k -= n
				continue
			}
			ps := &ip.w.procs[i]
			switch ps.phase {
			case model.Idle:
				if p.Cyclic || ps.made < p.R {
					if k < p.Groups {
						return model.Transition{Kind: model.Request, Proc: i, Arg: k}
					}
					k -= p.Groups
				}
			case model.InCS:
				if k == 0 {
					return model.Transition{Kind: model.Exit, Proc: i}
				}
				k--
			}
			for t := range p.Timers {
				if p.TimerEnabled(i, ps.phase, &ip.w.view.locals[i], t) {
					if k == 0 {
						return model.Transition{Kind: model.Timer, Proc: i, Arg: t}
					}
					k--
				}
			}
		}
		panic("model: InPlace.At: inconsistent action counts")
	}
	k -= ip.actTotal
	if k < len(ip.net) {
		en := &ip.ents[ip.net[k]]
		return model.Transition{Kind: model.Deliver, Proc: en.to, Arg: k, Msg: en.b}
	}
	k -= len(ip.net)
	for pos, e := range ip.net {
		en := &ip.ents[e]
		if !en.losable {
			continue
		}
		if k == 0 {
			return model.Transition{Kind: model.Lose, Proc: en.to, Arg: pos, Msg: en.b}
		}
		k--
	}
	panic("model: InPlace.At: index out of range")
}

func (ip *inPlace[P, M]) Enabled(dst []model.Transition, _ bool) []model.Transition {
	if ip.w.p.Guard != nil {
		return append(dst, ip.list()...)
	}
	return ip.all(dst)
}

// list returns the enabled transitions of the current state with
// Protocol.Guard applied, computing them if the state changed.
func (ip *inPlace[P, M]) list() []model.Transition {
	if !ip.stale {
		return ip.guarded
	}
	w := ip.w
	all := ip.all(ip.guarded[:0])
	out := all[:0]
	for _, t := range all {
		var m *M
		if t.Kind == model.Deliver || t.Kind == model.Lose {
			m = &ip.ents[ip.net[t.Arg]].m
		}
		w.act = Action[M]{Kind: t.Kind, Proc: t.Proc, Arg: t.Arg, Msg: m}
		if w.p.Guard(&w.view, &w.act) {
			out = append(out, t)
		}
	}
	ip.guarded, ip.stale = out, false
	return out
}

// all appends the transitions the layer enables, before Protocol.Guard.
func (ip *inPlace[P, M]) all(dst []model.Transition) []model.Transition {
	p := ip.w.p
	for i, n := range ip.nacts {
		if n == 0 {
			continue
		}
		ps := &ip.w.procs[i]
		switch ps.phase {
		case model.Idle:
			if p.Cyclic || ps.made < p.R {
				for g := range p.Groups {
					dst = append(dst, model.Transition{Kind: model.Request, Proc: i, Arg: g})
				}
			}
		case model.InCS:
			dst = append(dst, model.Transition{Kind: model.Exit, Proc: i})
		}
		for t := range p.Timers {
			if p.TimerEnabled(i, ps.phase, &ip.w.view.locals[i], t) {
				dst = append(dst, model.Transition{Kind: model.Timer, Proc: i, Arg: t})
			}
		}
	}
	for pos, e := range ip.net {
		en := &ip.ents[e]
		dst = append(dst, model.Transition{Kind: model.Deliver, Proc: en.to, Arg: pos, Msg: en.b})
	}
	if ip.faults < p.Faults {
		for pos, e := range ip.net {
			if en := &ip.ents[e]; en.losable {
				dst = append(dst, model.Transition{Kind: model.Lose, Proc: en.to, Arg: pos, Msg: en.b})
			}
		}
	}
	return dst
}

func (ip *inPlace[P, M]) Fire(t *model.Transition) {
	w := ip.w
	p := w.p
	if t.Kind == model.Deliver || t.Kind == model.Lose {
		en := &ip.ents[ip.net[t.Arg]]
		t.Proc = en.to
		// the entry may be freed and reused below: t.Msg gets a copy
		ip.msgCopy = append(ip.msgCopy[:0], en.b...)
		t.Msg = ip.msgCopy
	}
	i := t.Proc
	ps := &w.procs[i]
	w.sendBuf.Reset()
	w.sends = w.sends[:0]
	c := &w.ctx
	c.ID, c.Self, c.flags, c.phase, c.group = i, &w.view.locals[i], 0, ps.phase, ps.group
	made := ps.made
	if t.Kind == model.Lose {
		ip.faults++
	} else {
		if t.Kind == model.Deliver {
			// a fresh copy: a handler that changed its message must not
			// change the copies left in transit
			w.dec.Reset(ip.ents[ip.net[t.Arg]].b)
			p.DecodeMsg(&w.dec, &w.msg)
		}
		made = p.act(c, t.Kind, t.Arg, &w.msg, made)
	}
	t.Flags = c.flags
	if t.Kind != model.Lose {
		ps.phase, ps.made, ps.group = c.phase, made, c.group
		ip.refreshProc(i, true)
	}
	if t.Kind == model.Deliver || t.Kind == model.Lose {
		ip.removeAt(t.Arg)
	}
	for _, s := range w.sends {
		ip.addMsg(w.sendBytes(s))
	}
	ip.stale = true
	if w.norm != nil {
		ip.normBuf = ip.Encode(ip.normBuf[:0])
		ip.Load(w.norm.apply(ip.normBuf))
	}
}

func (ip *inPlace[P, M]) Snapshot() model.Snapshot { return &ip.w.view }

func (ip *inPlace[P, M]) Encode(dst []byte) []byte {
	w := ip.w
	dst = appendUvarint(dst, uint64(ip.faults))
	for i := range w.procs {
		ps := &w.procs[i]
		dst = append(dst, byte(ps.phase))
		dst = appendUvarint(dst, uint64(ps.made))
		dst = appendUvarint(dst, uint64(ps.group))
		dst = appendUvarint(dst, uint64(len(ip.procEnc[i])))
		dst = append(dst, ip.procEnc[i]...)
	}
	dst = appendUvarint(dst, uint64(len(ip.net)))
	for _, e := range ip.net {
		en := &ip.ents[e]
		dst = appendUvarint(dst, uint64(en.count))
		dst = appendUvarint(dst, uint64(len(en.b)))
		dst = append(dst, en.b...)
	}
	return dst
}

func (ip *inPlace[P, M]) Hash() uint64 {
	return mix64(ip.procSum^mix64(ip.netSum, 0x3c6ef372fe94f82b), uint64(ip.faults)^0xbb67ae8584caa73b)
}

// messages calls f for each distinct message in transit, in canonical
// order, without decoding (View.Messages of an InPlace state).
func (ip *inPlace[P, M]) messages(f func(m *M, copies int)) {
	for _, e := range ip.net {
		en := &ip.ents[e]
		f(&en.m, en.count)
	}
}

// tokens is View.Tokens of an InPlace state.
func (ip *inPlace[P, M]) tokens() int {
	if ip.w.p.HoldsToken == nil {
		return -1
	}
	return ip.held + ip.tokMsgs
}

func mix64(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a^0xa0761d6478bd642f, b^0xe7037ed1a0b428db)
	return hi ^ lo
}

// hashBytes is a wyhash-style 64-bit hash of b.
func hashBytes(b []byte) uint64 {
	h := uint64(len(b)) * 0x8ebc6af09c88c6e3
	for len(b) >= 8 {
		h = mix64(h, binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	var t uint64
	for i := len(b) - 1; i >= 0; i-- {
		t = t<<8 | uint64(b[i])
	}
	return mix64(h^0x589965cc75374cc3, t)
}
