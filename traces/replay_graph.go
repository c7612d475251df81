package traces

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// kindLiveness and kindPossibility are the property kinds recorded in
// trace files for the two graph properties: a starvation-freedom
// counterexample is a lasso (kind "liveness"), a concurrent-occupancy
// counterexample is a path to a state from which an entry is impossible
// (kind "possibility").
const (
	kindLiveness    = "liveness"
	kindPossibility = "possibility"
)

// replayGraph replays a liveness or possibility trace.
func replayGraph(sys model.System, t *Trace) (Result, error) {
	want := invariants.NameStarvationFreedom
	if t.PropertyKind == kindPossibility {
		want = invariants.NameConcurrentOccupancy
	}
	if t.Property != want {
		return Result{}, fmt.Errorf("traces: a %s trace must be of property %q, not %q", t.PropertyKind, want, t.Property)
	}
	fair := model.WeakFairness
	if f, ok := t.Options["fairness"]; ok {
		var err error
		if fair, err = model.ParseFairness(f); err != nil {
			return Result{}, fmt.Errorf("traces: options: %v", err)
		}
	}
	w := sys.NewWorker()
	state, why := matchInitial(w, &t.Initial)
	if state == nil {
		return Result{Reason: fmt.Sprintf("the trace's initial state is not an initial state of %s: %s", sys.Info().Name, why)}, nil
	}
	path, taken, diverged := replaySteps(w, state, t)
	if diverged != nil {
		return *diverged, nil
	}
	if t.IsLasso() {
		return checkLasso(w, t, path, taken, fair), nil
	}
	return checkPossibility(w, t, path), nil
}

// checkLasso checks the cycle of a replayed lasso: it returns to its
// start, the waiting process is Waiting in every state of it, and it is
// fair: every weak family enabled in all its states, and every strong one
// enabled in some, is taken by one of its steps.
func checkLasso(w model.Worker, t *Trace, path [][]byte, taken []model.Transition, fair model.Fairness) Result {
	n, l, p := len(t.Steps), *t.Loop, *t.WaitingProcess
	res := Result{Steps: n}
	if !bytes.Equal(path[n], path[l-1]) {
		res.Reason = fmt.Sprintf("all %d steps replay, but the last state is not the state before step %d, where the cycle starts: %s",
			n, l, stateDiff(t.state(l), t.final()))
		return res
	}
	cycle := path[l-1 : n]
	for k, s := range cycle {
		if ph := w.Snapshot(s).Phase(p); ph != model.Waiting {
			res.Reason = fmt.Sprintf("all %d steps replay, but P%d is %s before step %d, inside the cycle: it does not wait throughout", n, p, ph, l+k)
			return res
		}
	}
	type fam struct {
		class model.FairnessClass
		label string
		count int
	}
	fams := map[string]*fam{}
	var key []byte
	for _, s := range cycle {
		here := map[string]bool{}
		w.Successors(s, func(tr *model.Transition, _ []byte) bool {
			var c model.FairnessClass
			key, c = model.AppendFamily(key[:0], tr, fair)
			if c == model.Unfair || here[string(key)] {
				return true
			}
			here[string(key)] = true
			f := fams[string(key)]
			if f == nil {
				f = &fam{class: c, label: w.Label(s, tr)}
				fams[string(key)] = f
			}
			f.count++
			return true
		})
	}
	tookKey := map[string]bool{}
	for _, tr := range taken[l-1:] {
		key, _ = model.AppendFamily(key[:0], &tr, fair)
		tookKey[string(key)] = true
	}
	keys := make([]string, 0, len(fams))
	for k := range fams {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		f := fams[k]
		if tookKey[k] {
			continue
		}
		if f.class == model.WeaklyFair && f.count == len(cycle) {
			res.Reason = fmt.Sprintf("all %d steps replay and return to the cycle's start, but the cycle is not fair: %s is enabled throughout it and never taken (%s fairness)", n, f.label, fair)
			return res
		}
		if f.class == model.StronglyFair {
			res.Reason = fmt.Sprintf("all %d steps replay and return to the cycle's start, but the cycle is not fair: %s is enabled in it and never taken (strong fairness)", n, f.label)
			return res
		}
	}
	res.OK = true
	res.Reason = fmt.Sprintf("the trace replays: a prefix of %d steps, then a cycle of %d steps (%d..%d) that returns to the state before step %d; "+
		"P%d is Waiting throughout and the cycle is fair (%s fairness on message delivery), so P%d can starve: %s is violated",
		l-1, n-l+1, l, n, l, p, fair, p, t.Property)
	return res
}

// checkPossibility checks a concurrent-occupancy trace: in its final state
// the waiting process requests group X, nobody is InCS with or Waiting for
// another group, and no state reachable without an Exit or a request for
// another group has the process InCS (it explores them all).
func checkPossibility(w model.Worker, t *Trace, path [][]byte) Result {
	n, p := len(t.Steps), *t.WaitingProcess
	res := Result{Steps: n}
	final := path[n]
	snap := w.Snapshot(final)
	if snap.Phase(p) != model.Waiting {
		res.Reason = fmt.Sprintf("all %d steps replay, but P%d is %s at the end, not Waiting", n, p, snap.Phase(p))
		return res
	}
	x := snap.Group(p)
	for q := range snap.Processes() {
		if ph := snap.Phase(q); ph != model.Idle && snap.Group(q) != x {
			res.Reason = fmt.Sprintf("all %d steps replay, but at the end P%d is %s with group %d, another group than P%d's %d", n, q, ph, snap.Group(q), p, x)
			return res
		}
	}
	seen := map[string]bool{string(final): true}
	queue := [][]byte{final}
	var edges int
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if w.Snapshot(s).Phase(p) == model.InCS {
			res.Reason = fmt.Sprintf("all %d steps replay, but from the final state P%d can enter its CS without an Exit or a request for another group", n, p)
			return res
		}
		var next [][]byte
		w.Successors(s, func(tr *model.Transition, succ []byte) bool {
			if tr.Kind == model.Exit || (tr.Kind == model.Request && tr.Arg != x) {
				return true
			}
			edges++
			if !seen[string(succ)] {
				seen[string(succ)] = true
				next = append(next, bytes.Clone(succ))
			}
			return true
		})
		queue = append(queue, next...)
	}
	res.OK = true
	res.Reason = fmt.Sprintf("the trace replays: after step %d P%d requests group %d and nobody is InCS with or Waiting for another group, "+
		"yet none of the %d states reachable without an Exit or a request for another group (%d transitions) has P%d InCS: %s is violated",
		n, p, x, len(seen), edges, p, t.Property)
	return res
}
