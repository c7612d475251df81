package protocol

import (
	"bytes"
	"slices"

	"github.com/tokenmc/tokenmc/model"
)

// Sends returns the messages transition t of state sends, one entry per
// copy, each rendered as the successor's description renders it (after
// Normalize), in the order of the successor's network; ok is false if t is
// not a transition of state. It is for a protocol with Normalize only (ok
// is false otherwise, and the caller compares the two states' networks):
// there the networks of two states differ also by the messages that the
// normal form renamed, which no step sent.
func (w *protocolWorker[P, M]) Sends(state []byte, t *model.Transition) (sent []string, ok bool) {
	if w.norm == nil {
		return nil, false
	}
	w.Successors(state, func(u *model.Transition, _ []byte) bool {
		if u.Kind != t.Kind || u.Proc != t.Proc || u.Arg != t.Arg || u.Choice != t.Choice || !bytes.Equal(u.Msg, t.Msg) {
			return true
		}
		sent, ok = w.normalSends(), true
		return false
	})
	return sent, ok
}

// Sends is protocolWorker.Sends.
func (c *plainWorker[P, M]) Sends(state []byte, t *model.Transition) ([]string, bool) {
	return c.w.Sends(state, t)
}

// normalSends renders the sends of the step just yielded (w.sends, in the
// raw successor w.out) in their normal form: the normalizer's net holds
// the normalized copies of the raw successor's messages in raw order.
func (w *protocolWorker[P, M]) normalSends() []string {
	n := w.norm
	type out struct {
		b []byte
		s string
	}
	var outs []out
	used := map[int]int{} // raw record -> copies taken
	for _, sp := range w.sends {
		b := w.sendBytes(sp)
		at := 0
		for r, m := range n.msgs {
			if bytes.Equal(w.out[m.b.start:m.b.end], b) {
				k := at + used[r]
				used[r]++
				var e model.Encoder
				w.p.EncodeMsg(&e, &n.net[k])
				outs = append(outs, out{e.Bytes(), w.p.FormatMsg(&n.net[k])})
				break
			}
			at += m.count
		}
	}
	if len(outs) == 0 {
		return nil // as the difference of the networks: nothing sent
	}
	slices.SortStableFunc(outs, func(x, y out) int { return bytes.Compare(x.b, y.b) })
	sent := make([]string, len(outs))
	for i, o := range outs {
		sent[i] = o.s
	}
	return sent
}
