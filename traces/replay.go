package traces

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// Result is the verdict of Replay.
type Result struct {
	// OK: every step replays, with the recorded action and state, and the
	// trace ends in a violation of its property.
	OK bool
	// Steps is the number of steps that replayed as recorded.
	Steps int
	// DivergedAt is the 1-based index of the first step that did not
	// replay as recorded, or 0 if none did (the trace is OK, its initial
	// state is not one of the system's, or its end violates nothing).
	DivergedAt int
	// Reason says what happened, in one line: the violation when OK, else
	// where and how the replay left the trace.
	Reason string
	// ModelError is set when the model failed (panicked) during the
	// replay: at the final state of a model-error trace ("model-error";
	// OK says whether on the recorded action), or, diverging, at an
	// earlier state of any trace.
	ModelError *ModelFailure
}

// String returns r.Reason.
func (r Result) String() string { return r.Reason }

// Replay re-executes t on sys and reports whether it is still a
// counterexample: its initial state must be an initial state of sys, each
// recorded action must be enabled and lead to the recorded state (with the
// recorded delivered and sent messages), and the end must violate the
// trace's property, looked up by name in props:
//
//   - an Invariant must be false in the final state;
//   - a TransitionInvariant must be false on the last step's transition;
//   - a Terminal property must be false in the final state, and no
//     transition may be enabled there.
//
// Replay compares states through Worker.Describe, so a trace read from a
// file replays exactly as the one FromSteps built. The verdict is the
// Result; the error is for input that cannot be replayed at all: a
// malformed trace, a trace of another algorithm, or a property that is not
// in props or has another kind.
//
// A witness (property_kind "witness", Trace.IsWitness) replays when its
// initial state and every step do; it claims no violation.
//
// A liveness trace (a lasso, property_kind "liveness") and a possibility
// trace (concurrent-occupancy, property_kind "possibility") are checked by
// their own rules, without props; see ReplayLasso in the package
// documentation.
func Replay(sys model.System, props []model.Property, t *Trace) (Result, error) {
	if err := validate(t); err != nil {
		return Result{}, err
	}
	info := sys.Info()
	if t.Algorithm != info.Name {
		return Result{}, fmt.Errorf("traces: the trace is of algorithm %q, but the system is %q", t.Algorithm, info.Name)
	}
	if graphKind(t.PropertyKind) {
		return replayGraph(sys, t)
	}
	if t.IsWitness() {
		return replayWitness(sys, t), nil
	}
	if t.PropertyKind == kindModelError {
		return replayModelError(sys, t), nil
	}
	prop, err := findProperty(props, t.Property, info.Name)
	if err != nil {
		return Result{}, err
	}
	if prop.Kind.String() != t.PropertyKind {
		return Result{}, fmt.Errorf("traces: the trace gives property %q the kind %s, but its kind is %s", prop.Name, t.PropertyKind, prop.Kind)
	}

	w := sys.NewWorker()
	state, why := matchInitial(w, &t.Initial)
	if state == nil {
		return Result{Reason: fmt.Sprintf("the trace's initial state is not an initial state of %s: %s", info.Name, why)}, nil
	}
	path, taken, diverged := replaySteps(w, state, t)
	if diverged != nil {
		return *diverged, nil
	}
	state = path[len(path)-1]
	last := taken[len(taken)-1]
	n := len(t.Steps)
	res := Result{Steps: n}
	switch prop.Kind {
	case model.Invariant:
		if prop.Holds(w.Snapshot(state)) {
			res.Reason = fmt.Sprintf("all %d steps replay, but the final state does not violate %s", n, prop.Name)
			return res, nil
		}
	case model.TransitionInvariant:
		if prop.HoldsOn(&last) {
			res.Reason = fmt.Sprintf("all %d steps replay, but the last step (%s) does not violate %s", n, t.Steps[n-1].Action, prop.Name)
			return res, nil
		}
	case model.Terminal:
		var enabled string
		w.Successors(state, func(tr *model.Transition, _ []byte) bool {
			enabled = w.Label(state, tr)
			return false
		})
		if enabled != "" {
			res.Reason = fmt.Sprintf("all %d steps replay, but the final state is not terminal (%s is enabled), so it cannot violate %s", n, enabled, prop.Name)
			return res, nil
		}
		if prop.Holds(w.Snapshot(state)) {
			res.Reason = fmt.Sprintf("all %d steps replay to a terminal state, but it does not violate %s", n, prop.Name)
			return res, nil
		}
	}
	res.OK = true
	res.Reason = fmt.Sprintf("the trace replays: after step %d, %s is violated: %s", n, prop.Name, violation(t))
	return res, nil
}

// replayWitness checks a witness: its initial state is one of sys's and
// every step replays as recorded. It claims no violation.
func replayWitness(sys model.System, t *Trace) Result {
	w := sys.NewWorker()
	state, why := matchInitial(w, &t.Initial)
	if state == nil {
		return Result{Reason: fmt.Sprintf("the trace's initial state is not an initial state of %s: %s", sys.Info().Name, why)}
	}
	if _, _, diverged := replaySteps(w, state, t); diverged != nil {
		return *diverged
	}
	n := len(t.Steps)
	return Result{OK: true, Steps: n, Reason: fmt.Sprintf("the witness replays: all %d steps are transitions of %s (it %s; it claims no violation)", n, sys.Info().Name, t.Property)}
}

// findProperty returns the property called name, checking that it can be
// evaluated.
func findProperty(props []model.Property, name, system string) (model.Property, error) {
	var names []string
	for _, p := range props {
		if p.Name != name {
			names = append(names, p.Name)
			continue
		}
		if p.Kind == model.TransitionInvariant && p.HoldsOn == nil {
			panic(fmt.Sprintf("traces: transition invariant %q has no HoldsOn; set it in its model.Property", p.Name))
		}
		if p.Kind != model.TransitionInvariant && p.Holds == nil {
			panic(fmt.Sprintf("traces: %s property %q has no Holds; set it in its model.Property", p.Kind, p.Name))
		}
		return p, nil
	}
	return model.Property{}, fmt.Errorf("traces: the trace violates property %q, which is not among the properties given for %s (%s)", name, system, strings.Join(names, ", "))
}

// matchInitial returns the initial state of w's system that Describe
// renders as want. When there is none it returns nil and how want differs
// from the first initial state.
func matchInitial(w model.Worker, want *model.StateDescription) ([]byte, string) {
	var initial [][]byte
	w.Initial(func(s []byte) bool {
		initial = append(initial, bytes.Clone(s))
		return true
	})
	if len(initial) == 0 {
		return nil, "the system has no initial state"
	}
	for _, s := range initial {
		d := w.Describe(s)
		if sameState(want, &d) {
			return s, ""
		}
	}
	d := w.Describe(initial[0])
	return nil, stateDiff(want, &d)
}

// replaySteps re-executes the steps of t from state, the system's state
// matching t.Initial. It returns the states (the initial one first) and the
// transitions taken, or, if a step does not replay as recorded, the Result
// that says where and how.
func replaySteps(w model.Worker, state []byte, t *Trace) ([][]byte, []model.Transition, *Result) {
	path := [][]byte{state}
	var taken []model.Transition
	before := t.Initial
	for i := range t.Steps {
		s := &t.Steps[i]
		diverged := func(format string, args ...any) ([][]byte, []model.Transition, *Result) {
			return nil, nil, &Result{Steps: i, DivergedAt: s.Index, Reason: fmt.Sprintf("diverged at step %d: ", s.Index) + fmt.Sprintf(format, args...)}
		}
		tk, enabled, failed := StepLabel(w, state, s.Action)
		if failed != nil && tk == nil {
			_, _, r := diverged("the model fails: %s", failed.Error())
			r.ModelError = failureOf(failed)
			return nil, nil, r
		}
		if tk == nil {
			if len(enabled) == 0 {
				return diverged("action %q is not enabled; no action is enabled", s.Action)
			}
			return diverged("action %q is not enabled; enabled: %s", s.Action, strings.Join(enabled, ", "))
		}
		next, last := tk.Next, tk.Transition
		if last.Kind.String() != s.Kind || last.Proc != s.Process {
			return diverged("%s is a %s by P%d, but the trace records a %s by P%d", s.Action, last.Kind, last.Proc, s.Kind, s.Process)
		}
		after := w.Describe(next)
		if !sameState(&s.State, &after) {
			return diverged("%s leads to another state than recorded: %s", s.Action, stateDiff(&s.State, &after))
		}
		delivered := ""
		if last.Kind == model.Deliver || last.Kind == model.Lose {
			delivered = deliveredOf(s.Action, last.Kind)
		}
		if delivered != s.Delivered {
			verb := "delivers"
			if last.Kind == model.Lose {
				verb = "loses"
			}
			return diverged("%s %s %q, but the trace records %q", s.Action, verb, delivered, s.Delivered)
		}
		// Traces written before sends were taken from the step recorded the
		// difference of the networks, which a normal form can make larger:
		// both readings are accepted.
		if sent := stepSent(w, state, &last, &before, &after, delivered); !slices.Equal(sent, s.Sent) && !slices.Equal(sentMessages(&before, &after, delivered), s.Sent) {
			return diverged("%s sends [%s], but the trace records [%s]", s.Action, strings.Join(sent, ", "), strings.Join(s.Sent, ", "))
		}
		state, before = next, after
		path = append(path, next)
		taken = append(taken, last)
	}
	return path, taken, nil
}
