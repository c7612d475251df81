package protocol

import (
	"errors"
	"fmt"

	"github.com/tokenmc/tokenmc/model"
)

// errNoAlternative is the error the local worker's Step wraps for a
// LocalEvent whose Choice is beyond the alternatives its handler has in
// that local state.
var errNoAlternative = errors.New("no such alternative")

// Choose returns one of n alternatives, 0..n-1, of a choice the
// algorithm leaves open; the protocol must be Nondeterministic. The layer
// runs the handler once per combination of its choices, from scratch each
// time (the local state decoded again, nothing sent), so an action has
// one successor per combination: the checker explores all of them,
// Transition.Choice numbers them in the order Successors yields them
// (depth first: the first choice varies slowest), and labels end with
// "(alternative k of K)". Apart from Choose a handler must stay
// deterministic: the same choices must lead to the same calls of Choose
// with the same n (the layer panics otherwise).
func (c *Ctx[P, M]) Choose(n int) int {
	w := c.w
	if !w.p.Nondeterministic {
		panic(fmt.Sprintf("model: %s: a handler called Ctx.Choose, but the protocol is not Nondeterministic (set Protocol.Nondeterministic)", w.p.Name))
	}
	if n < 1 {
		panic(fmt.Sprintf("model: %s: Ctx.Choose(%d): a choice needs at least one alternative", w.p.Name, n))
	}
	ch := &w.choice
	if ch.at < len(ch.points) {
		pt := ch.points[ch.at]
		if pt.n != n {
			panic(fmt.Sprintf("model: %s: a handler is not deterministic apart from Ctx.Choose: choice %d had %d alternatives in one run and %d in another", w.p.Name, ch.at+1, pt.n, n))
		}
		ch.at++
		return pt.val
	}
	ch.points = append(ch.points, choicePoint{n: n})
	ch.at++
	return 0
}

// choicePoint is one call of Ctx.Choose in a run of a handler: the
// alternative taken and how many there are.
type choicePoint struct{ val, n int }

// chooser enumerates the combinations of a handler's choices: points
// holds the choices of the current run (replayed from the previous run up
// to the one being advanced, extended with 0 beyond it), at the next one.
type chooser struct {
	points []choicePoint
	at     int
}

// reset starts the first run of a handler.
func (ch *chooser) reset() { ch.points, ch.at = ch.points[:0], 0 }

// next prepares the next combination after a run and reports whether
// there is one. It panics if the run made fewer choices than the one
// before it with the same prefix (a handler that is not deterministic).
func (ch *chooser) next(name string) bool {
	if ch.at != len(ch.points) {
		panic(fmt.Sprintf("model: %s: a handler is not deterministic apart from Ctx.Choose: it made %d choices in one run and %d in another with the same first choices", name, len(ch.points), ch.at))
	}
	pts := ch.points
	for len(pts) > 0 && pts[len(pts)-1].val+1 == pts[len(pts)-1].n {
		pts = pts[:len(pts)-1]
	}
	ch.points, ch.at = pts, 0
	if len(pts) == 0 {
		return false
	}
	pts[len(pts)-1].val++
	return true
}

// stepChoices runs t once per combination of its handler's choices and
// yields each successor with t.Choice numbering it.
func (w *protocolWorker[P, M]) stepChoices(t *model.Transition, yield func(*model.Transition, []byte) bool) bool {
	ch := &w.choice
	ch.reset()
	for k := 0; ; k++ {
		if k > 0 && (t.Kind == model.Deliver || t.Kind == model.Lose) {
			w.decodeMsg(t.Arg) // the handler may have changed its copy
		}
		t.Choice = k
		if !w.stepOnce(t, yield) {
			return false
		}
		if !ch.next(w.p.Name) {
			return true
		}
	}
}

// alternatives returns how many alternatives action t has in state: one
// more than the largest Transition.Choice of a successor of state with
// t's kind, process and argument. It steps a worker of its own, so it may
// be called while Successors is yielding.
func (w *protocolWorker[P, M]) alternatives(state []byte, t *model.Transition) int {
	if state == nil {
		return 0 // no state to count in: the label says nothing of alternatives
	}
	if w.aux == nil {
		w.aux = newProtocolWorker(w.p)
	}
	k := 0
	w.aux.Successors(state, func(u *model.Transition, _ []byte) bool {
		if u.Kind == t.Kind && u.Proc == t.Proc && u.Arg == t.Arg {
			k = max(k, u.Choice+1)
		}
		return true
	})
	return k
}

// plainWorker offers a protocol worker's model.Worker methods and the
// explorer's capabilities, but not the in-place and sampling interfaces
// of explore/simulate, so that walks step through Successors: the Worker
// of a Nondeterministic protocol (the in-place path runs a handler once
// per step; Successors yields every alternative), and the base of
// cappedWorker (the in-place path does not apply a channel capacity).
type plainWorker[P, M any] struct {
	w *protocolWorker[P, M]
}

func (c *plainWorker[P, M]) Initial(yield func([]byte) bool) { c.w.Initial(yield) }

func (c *plainWorker[P, M]) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	c.w.Successors(state, yield)
}

func (c *plainWorker[P, M]) Snapshot(state []byte) model.Snapshot { return c.w.Snapshot(state) }

func (c *plainWorker[P, M]) Label(state []byte, t *model.Transition) string {
	return c.w.Label(state, t)
}

func (c *plainWorker[P, M]) Describe(state []byte) model.StateDescription {
	return c.w.Describe(state)
}

// LastSnapshot is the explorer's optional capability (see view.go).
func (c *plainWorker[P, M]) LastSnapshot() model.Snapshot { return c.w.LastSnapshot() }
