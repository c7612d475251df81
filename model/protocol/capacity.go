package protocol

import (
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// capacityState is what a worker keeps for Protocol.Capacity: the number
// of copies in transit per channel in the state Successors parsed, and
// whether a transition of that state was disabled by the bound.
type capacityState[M any] struct {
	count   []int32 // per channel from*N+to: copies in transit in the parsed state
	touched []int32 // the channels of count that are not zero
	msgCh   []int32 // per distinct message of the parsed state: its channel
	sendCh  []int32 // the channels of the sends of the current step
	msg     M       // decoding scratch
	dropped bool    // the last Successors call disabled a transition
}

// channel returns the channel index of m (sender*N + receiver).
func (w *protocolWorker[P, M]) channel(m *M) int32 {
	from, to := w.p.From(m), w.p.To(m)
	n := w.p.N
	if from < 0 || from >= n {
		panic(fmt.Sprintf("model: %s: From returned P%d, outside 0..%d", w.p.Name, from, n-1))
	}
	return int32(from*n + to)
}

// countChannels fills w.cap.count and w.cap.msgCh for the parsed state.
func (w *protocolWorker[P, M]) countChannels() {
	c := &w.cap
	n := w.p.N
	if c.count == nil {
		c.count = make([]int32, n*n)
	}
	for _, ch := range c.touched {
		c.count[ch] = 0
	}
	c.touched = c.touched[:0]
	c.msgCh = c.msgCh[:0]
	for k := range w.msgs {
		w.dec.Reset(w.bytesOf(w.msgs[k].b))
		w.p.DecodeMsg(&w.dec, &c.msg)
		ch := w.channel(&c.msg)
		c.msgCh = append(c.msgCh, ch)
		if c.count[ch] == 0 {
			c.touched = append(c.touched, ch)
		}
		c.count[ch] += int32(w.msgs[k].count)
	}
}

// overCapacity reports whether the sends of the current step (w.sends)
// by process self would leave more than Capacity copies on one channel,
// once one copy of message index removed (if >= 0) has left the network.
// It checks that From names self for every send: a From that is right on
// every send is right on every message in transit (but the initial ones).
func (w *protocolWorker[P, M]) overCapacity(self, removed int) bool {
	c := &w.cap
	c.sendCh = c.sendCh[:0]
	for _, s := range w.sends {
		w.dec.Reset(w.sendBytes(s))
		w.p.DecodeMsg(&w.dec, &c.msg)
		if from := w.p.From(&c.msg); from != self {
			panic(fmt.Sprintf("model: %s: From says P%d sent %s, but P%d did: From must return the sender", w.p.Name, from, w.p.formatMsg(&c.msg), self))
		}
		c.sendCh = append(c.sendCh, w.channel(&c.msg))
	}
	limit := int32(w.p.Capacity)
	for a, ch := range c.sendCh {
		total := c.count[ch]
		if removed >= 0 && c.msgCh[removed] == ch {
			total--
		}
		for _, other := range c.sendCh[:a+1] {
			if other == ch {
				total++
			}
		}
		if total > limit {
			return true
		}
	}
	return false
}

// WithCapacity returns the system of the same protocol with every channel
// bounded to k messages (Protocol.Capacity; 0: unbounded). It returns an
// error when k < 0 or when k > 0 and the protocol does not say the sender
// of its messages (Protocol.From). Info is unchanged: the bound is a
// search option, recorded by a trace's options ("channel-capacity"), not a
// parameter of the algorithm.
func (s *protocolSystem[P, M]) WithCapacity(k int) (model.System, error) {
	if k < 0 {
		return nil, fmt.Errorf("channel capacity %d is negative; give 0 (unbounded) or a bound >= 1", k)
	}
	if k > 0 && s.p.From == nil {
		return nil, fmt.Errorf("%s does not support a channel capacity: its protocol does not say who sent a message (Protocol.From)", s.p.Name)
	}
	cp := *s.p
	cp.Capacity = k
	return &protocolSystem[P, M]{p: &cp}, nil
}

// cappedWorker is the Worker of a protocol with Capacity > 0: a
// plainWorker (Successors leaves out the transitions the bound disables;
// no in-place or sampling interfaces, which do not apply the bound:
// callers that want them fall back to Successors) that reports the
// disabled transitions.
type cappedWorker[P, M any] struct {
	plainWorker[P, M]
}

// CapacityBlocked implements explore.CapacityBlocker: it reports whether
// the last Successors call left out a transition because its sends would
// exceed Protocol.Capacity. Only the workers of a bounded protocol have
// it, so liveness checks can refuse them.
func (c *cappedWorker[P, M]) CapacityBlocked() bool { return c.w.cap.dropped }
