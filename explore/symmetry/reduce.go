package symmetry

import (
	"github.com/tokenmc/tokenmc/model"
)

// Reduce returns the quotient of sys by sym: a System whose initial states
// and successors are the canonical representatives (canonicalizer) of the
// original ones. Transitions keep their kind, flags and labels as
// computed on the representative the explorer expands. Searching it with
// package explore visits one state per reachable orbit; its counts are
// those of the quotient graph, and its counterexample paths hold canonical
// states: ConcretizeSteps turns them into paths of sys.
//
// props are the properties the reduced search will check, and specific
// the algorithm's own properties (see below): Reduce refuses, with an
// error naming it, the first property of props not known to be invariant
// under sym, for which a reduced search would be unsound. The generic
// properties (mutex, gme-safety, single-token, no-unrequested-entry,
// no-deadlock) are invariant: they count phases, groups and tokens over
// all processes, and look at transition flags. An algorithm-specific
// property is invariant when sym names it in Properties; one of specific
// that replaces a generic property under the same name must be named in
// sym.Properties too.
//
// sym must be a symmetry of sys (see Verify); otherwise the search is
// wrong.
func Reduce(sys model.System, sym *model.Symmetry, props, specific []model.Property) (model.System, error) {
	if err := checkProperties(sym, props, specific); err != nil {
		return nil, err
	}
	return &reduced{sys: sys, sym: sym}, nil
}

type reduced struct {
	sys model.System
	sym *model.Symmetry
}

func (r *reduced) Info() model.Info { return r.sys.Info() }

func (r *reduced) NewWorker() model.Worker {
	inner := r.sys.NewWorker()
	w := &worker{Worker: inner, canon: newCanonicalizer(r.sym)}
	w.yieldState = func(s []byte) bool { return w.outerInit(w.canon.Canonical(s)) }
	w.yieldNext = func(t *model.Transition, next []byte) bool { return w.outerNext(t, w.canon.Canonical(next)) }
	if last, ok := inner.(lastSnapshotter); ok {
		// Successors passes the representative itself to the inner
		// worker, and the canonicalizer parses states on its own, so
		// the inner worker's last parse is still the expanded state.
		return &lastWorker{worker: w, last: last}
	}
	return w
}

// worker canonicalises the inner worker's states; Snapshot, Label and
// Describe are the inner worker's, applied to representatives.
type worker struct {
	model.Worker
	canon *canonicalizer

	// the callbacks are built once, so that Successors does not allocate
	yieldState func([]byte) bool
	yieldNext  func(*model.Transition, []byte) bool
	outerInit  func([]byte) bool
	outerNext  func(*model.Transition, []byte) bool
}

func (w *worker) Initial(yield func([]byte) bool) {
	w.outerInit = yield
	w.Worker.Initial(w.yieldState)
	w.outerInit = nil
}

func (w *worker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	w.outerNext = yield
	w.Worker.Successors(state, w.yieldNext)
	w.outerNext = nil
}

// lastSnapshotter is the explorer's optional worker capability of the
// same method (LastSnapshot: the Snapshot of the state most recently
// passed to Successors, from the parse Successors made); a quotient over
// a worker that has it has it too.
type lastSnapshotter interface {
	LastSnapshot() model.Snapshot
}

type lastWorker struct {
	*worker
	last lastSnapshotter
}

func (w *lastWorker) LastSnapshot() model.Snapshot { return w.last.LastSnapshot() }
