package eventlog

import "testing"

// The happens-before checks at their boundaries. e is P1's second event,
// which happens after P0's first three (vc [3, 2, 0]): it is ready when
// P0's events up to #3 and P1's event #1 (no more) have been executed;
// one event fewer of P0 is not enough.
func TestHappensBeforeBoundaries(t *testing.T) {
	e := &Event{P: 1, Seq: 2, VC: []int{3, 2, 0}}
	for _, c := range []struct {
		done  []int
		ready bool
	}{
		{[]int{3, 1, 0}, true},
		{[]int{4, 1, 2}, true},  // more of the others is fine
		{[]int{2, 1, 0}, false}, // P0's #3 not executed
		{[]int{3, 0, 0}, false}, // P1's #1 not executed
		{[]int{3, 2, 0}, false}, // P1's #2 (e itself) already executed
	} {
		if got := hbReady(e, c.done); got != c.ready {
			t.Errorf("full log, executed %v: ready %v, want %v", c.done, got, c.ready)
		}
	}

	// A counted partial log: pos counts the events executed per process.
	s := &partialSearch{n: 3}
	for _, c := range []struct {
		pos   []int32
		ready bool
	}{
		{[]int32{3, 1, 0}, true},
		{[]int32{2, 1, 0}, false},
	} {
		if got := s.readyCounted(&pnode{pos: c.pos}, e, false); got != c.ready {
			t.Errorf("counted partial log, executed %v: ready %v, want %v", c.pos, got, c.ready)
		}
	}

	// A partial log records P0's events #1, #3 and #5: e waits until every
	// recorded event of P0 up to #3 is explained (cut: recorded events
	// explained).
	s = &partialSearch{n: 3, ev: [][]*Event{{{P: 0, Seq: 1}, {P: 0, Seq: 3}, {P: 0, Seq: 5}}, {e}, nil}}
	for _, c := range []struct {
		cut   []int32
		ready bool
	}{
		{[]int32{0, 0, 0}, false}, // P0's #1 unexplained
		{[]int32{1, 0, 0}, false}, // P0's #3 unexplained
		{[]int32{2, 0, 0}, true},  // next is P0's #5, after e
		{[]int32{3, 0, 0}, true},
	} {
		if got := s.ready(&pnode{cut: c.cut}, e, false); got != c.ready {
			t.Errorf("partial log, explained %v: ready %v, want %v", c.cut, got, c.ready)
		}
	}
}
