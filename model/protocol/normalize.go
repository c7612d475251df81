package protocol

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// normalizer applies Protocol.Normalize to encoded states (hooks.go). It
// owns its buffers, so it never disturbs the parse of the state its worker
// is stepping; once they have grown it allocates nothing per state (the
// hook itself aside).
type normalizer[P, M any] struct {
	p      *Protocol[P, M]
	procs  []procSeg
	msgs   []msgSeg
	dec    model.Decoder
	phases []model.Phase
	locals []P
	net    []M
	enc    model.Encoder
	msgBuf model.Encoder
	spans  []renamedMsg
	out    []byte
}

func newNormalizer[P, M any](p *Protocol[P, M]) *normalizer[P, M] {
	return &normalizer[P, M]{p: p, procs: make([]procSeg, p.N), phases: make([]model.Phase, p.N), locals: make([]P, p.N)}
}

// apply returns the normal form of state, in the normalizer's memory
// (valid until the next call). state is not modified.
func (n *normalizer[P, M]) apply(state []byte) []byte {
	p := n.p
	faults, msgs := parseLayout(state, n.procs, n.msgs, p.Name)
	n.msgs = msgs
	for i := range n.procs {
		ps := &n.procs[i]
		n.phases[i] = ps.phase
		n.dec.Reset(state[ps.local.start:ps.local.end])
		p.DecodeProc(&n.dec, &n.locals[i])
	}
	total := 0
	for _, m := range msgs {
		total += m.count
	}
	n.net = slices.Grow(n.net[:0], total)[:total]
	k := 0
	for _, m := range msgs {
		for range m.count {
			n.dec.Reset(state[m.b.start:m.b.end])
			p.DecodeMsg(&n.dec, &n.net[k])
			k++
		}
	}
	p.Normalize(n.phases, n.locals, n.net)
	if len(n.net) != total {
		panic(fmt.Sprintf("model: %s: Normalize changed the number of messages", p.Name))
	}
	out := appendUvarint(n.out[:0], uint64(faults))
	for i := range n.procs {
		ps := &n.procs[i]
		n.enc.Reset()
		p.EncodeProc(&n.enc, &n.locals[i])
		out = append(out, byte(ps.phase))
		out = appendUvarint(out, uint64(ps.made))
		out = appendUvarint(out, uint64(ps.group))
		out = appendUvarint(out, uint64(n.enc.Len()))
		out = append(out, n.enc.Bytes()...)
	}
	n.msgBuf.Reset()
	n.spans = n.spans[:0]
	for k := range n.net {
		start := n.msgBuf.Len()
		p.EncodeMsg(&n.msgBuf, &n.net[k])
		n.spans = append(n.spans, renamedMsg{span{start, n.msgBuf.Len()}, 1})
	}
	sortRenamedMsgs(n.msgBuf.Bytes(), n.spans)
	// merge equal messages into copies
	merged := n.spans[:0]
	for _, m := range n.spans {
		if c := len(merged); c > 0 {
			last := merged[c-1].b
			if bytes.Equal(n.msgBuf.Bytes()[last.start:last.end], n.msgBuf.Bytes()[m.b.start:m.b.end]) {
				merged[c-1].count++
				continue
			}
		}
		merged = append(merged, m)
	}
	out = appendUvarint(out, uint64(len(merged)))
	for _, m := range merged {
		out = appendUvarint(out, uint64(m.count))
		out = appendUvarint(out, uint64(m.b.end-m.b.start))
		out = append(out, n.msgBuf.Bytes()[m.b.start:m.b.end]...)
	}
	n.out = out
	return out
}
