package measure

import (
	"bytes"
	"errors"

	"github.com/tokenmc/tokenmc/model"
)

// layout indexes a state encoded by the protocol layer (protocol.Protocol):
//
//	faults-used uvarint
//	per process: phase byte, made uvarint, group uvarint, len uvarint, bytes
//	distinct messages uvarint
//	per distinct message, in bytes.Compare order: count uvarint, len uvarint, bytes
//
// The simulator needs each message's copies to time them separately, which
// the model.Snapshot interface does not give; newSim checks this reading
// against the worker's Snapshot on the initial state and refuses a system
// that is encoded otherwise.
type layout struct {
	phases []model.Phase
	msgs   []msgRef
	state  []byte
}

type msgRef struct {
	count int
	a, b  int // message bytes state[a:b]
}

var errLayout = errors.New("state is not in the protocol layer's encoding")

func (l *layout) bytesOf(m msgRef) []byte { return l.state[m.a:m.b] }

func uvarint(b []byte, pos int) (uint64, int, bool) {
	var v uint64
	var shift uint
	for {
		if pos >= len(b) || shift > 63 {
			return 0, pos, false
		}
		c := b[pos]
		pos++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, pos, true
		}
		shift += 7
	}
}

// parse indexes state for n processes, reusing l's slices.
func (l *layout) parse(state []byte, n int) error {
	l.state = state
	l.phases = l.phases[:0]
	l.msgs = l.msgs[:0]
	_, pos, ok := uvarint(state, 0)
	if !ok {
		return errLayout
	}
	for range n {
		if pos >= len(state) {
			return errLayout
		}
		l.phases = append(l.phases, model.Phase(state[pos]))
		pos++
		for range 2 { // made, group
			if _, pos, ok = uvarint(state, pos); !ok {
				return errLayout
			}
		}
		var ln uint64
		if ln, pos, ok = uvarint(state, pos); !ok || pos+int(ln) > len(state) {
			return errLayout
		}
		pos += int(ln)
	}
	nd, pos, ok := uvarint(state, pos)
	if !ok {
		return errLayout
	}
	for range nd {
		var c, ln uint64
		if c, pos, ok = uvarint(state, pos); !ok {
			return errLayout
		}
		if ln, pos, ok = uvarint(state, pos); !ok || pos+int(ln) > len(state) {
			return errLayout
		}
		l.msgs = append(l.msgs, msgRef{int(c), pos, pos + int(ln)})
		pos += int(ln)
	}
	if pos != len(state) {
		return errLayout
	}
	return nil
}

// find returns the index of message m in l, or -1.
func (l *layout) find(m []byte) int {
	lo, hi := 0, len(l.msgs)
	for lo < hi {
		mid := (lo + hi) / 2
		if bytes.Compare(l.bytesOf(l.msgs[mid]), m) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(l.msgs) && bytes.Equal(l.bytesOf(l.msgs[lo]), m) {
		return lo
	}
	return -1
}

// sent calls f(m, k) for every message of next that is not in prev minus
// one copy of prev's message index removed (-1: none): the messages a step
// sent, k copies of m each.
func sent(prev *layout, removed int, next *layout, f func(m []byte, k int)) {
	i := 0
	for _, nm := range next.msgs {
		b := next.bytesOf(nm)
		old := 0
		for i < len(prev.msgs) {
			c := bytes.Compare(prev.bytesOf(prev.msgs[i]), b)
			if c > 0 {
				break
			}
			if c == 0 {
				old = prev.msgs[i].count
				if i == removed {
					old--
				}
				i++
				break
			}
			i++
		}
		if nm.count > old {
			f(b, nm.count-old)
		}
	}
}
