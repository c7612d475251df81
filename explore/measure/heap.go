package measure

// Event kinds.
const (
	evRequest = iota // a process requests its CS
	evExit           // a process leaves its CS
	evDeliver        // one copy of a message is delivered
	evTimer          // a timer fires (if still armed with the same generation)
	evLight          // light load: the next isolated request
)

type event struct {
	t    float64
	seq  uint64
	kind uint8
	proc int32
	arg  int32
	gen  uint32
	msg  []byte
}

// queue is a binary min-heap of events by (time, sequence number).
type queue struct {
	ev  []event
	seq uint64
}

func (q *queue) less(a, b int) bool {
	x, y := &q.ev[a], &q.ev[b]
	return x.t < y.t || (x.t == y.t && x.seq < y.seq)
}

func (q *queue) push(e event) {
	e.seq = q.seq
	q.seq++
	q.ev = append(q.ev, e)
	k := len(q.ev) - 1
	for k > 0 {
		p := (k - 1) / 2
		if !q.less(k, p) {
			break
		}
		q.ev[k], q.ev[p] = q.ev[p], q.ev[k]
		k = p
	}
}

func (q *queue) pop() event {
	top := q.ev[0]
	last := len(q.ev) - 1
	q.ev[0] = q.ev[last]
	q.ev[last] = event{}
	q.ev = q.ev[:last]
	k := 0
	for {
		l, r, m := 2*k+1, 2*k+2, k
		if l < last && q.less(l, m) {
			m = l
		}
		if r < last && q.less(r, m) {
			m = r
		}
		if m == k {
			break
		}
		q.ev[k], q.ev[m] = q.ev[m], q.ev[k]
		k = m
	}
	return top
}
