package traces

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tokenmc/tokenmc/model"
)

// validate checks what the JSON decoder cannot: required fields, the
// numbering of steps, known kinds and phases, process ids in range, and
// that every state has the same processes. Read, Write and Render all call
// it, so a trace that one accepts the others accept too. The error is a
// *FormatError whose Field names the offending value.
func validate(t *Trace) error {
	bad := func(field, format string, args ...any) error {
		return &FormatError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if t.Format != traceFormat {
		return bad("format", "format is %q; want %q", t.Format, traceFormat)
	}
	if t.Version != traceVersion {
		return bad("version", "version %d is not supported; this tokenmc reads %s version %d", t.Version, traceFormat, traceVersion)
	}
	if t.Algorithm == "" {
		return bad("algorithm", `"algorithm" is missing or empty; want the algorithm's name, e.g. "suzuki-kasami"`)
	}
	if t.Property == "" {
		return bad("property", `"property" is missing or empty; want the violated property's name, e.g. "mutex"`)
	}
	if _, ok := parsePropertyKind(t.PropertyKind); !ok && !graphKind(t.PropertyKind) && t.PropertyKind != kindWitness && t.PropertyKind != kindModelError {
		return bad("property_kind", "property kind %q is unknown; want %s", t.PropertyKind, propertyKindNames())
	}
	for k := range t.Params {
		if k == "" {
			return bad("params", "a parameter has an empty name")
		}
	}
	n := len(t.Initial.Processes)
	if n == 0 {
		return bad("initial.processes", "the initial state has no processes; want one entry per process, ids 0..N-1")
	}
	if err := validateState(&t.Initial, "initial", n); err != nil {
		return err
	}
	if len(t.Steps) == 0 && t.PropertyKind != kindModelError {
		return bad("steps", "the trace has no steps; want at least one step from the initial state")
	}
	switch {
	case t.PropertyKind == kindModelError && (t.ModelError == nil || t.ModelError.Message == ""):
		return bad("model_error", `a model-error trace needs "model_error" with its "message": how the model failed`)
	case t.PropertyKind != kindModelError && t.ModelError != nil:
		return bad("model_error", "a trace of kind %s has no model_error; only model-error traces do", t.PropertyKind)
	}
	for i := range t.Steps {
		s := &t.Steps[i]
		at := fmt.Sprintf("steps[%d]", i)
		if s.Index != i+1 {
			return bad(at+".index", "step index is %d; want %d (steps are numbered 1, 2, ... in order)", s.Index, i+1)
		}
		if s.Action == "" {
			return bad(at+".action", "the action is empty; want its label, e.g. \"Request(P0)\"")
		}
		kind, ok := parseActionKind(s.Kind)
		if !ok {
			return bad(at+".kind", "action kind %q is unknown; want %s", s.Kind, actionKindNames())
		}
		if s.Process < 0 || s.Process >= n {
			return bad(at+".process", "process %d is out of range; want 0..%d", s.Process, n-1)
		}
		takesMsg := kind == model.Deliver || kind == model.Lose
		if takesMsg && s.Delivered == "" {
			return bad(at+".delivered", "step %d is a %s but names no message; want \"delivered\": the message", i+1, kind)
		}
		if !takesMsg && s.Delivered != "" {
			return bad(at+".delivered", "step %d is a %s, which delivers no message; remove \"delivered\"", i+1, kind)
		}
		for j, m := range s.Sent {
			if m == "" {
				return bad(fmt.Sprintf("%s.sent[%d]", at, j), "a sent message is empty")
			}
		}
		if err := validateState(&s.State, at+".state", n); err != nil {
			return err
		}
	}
	lasso := t.PropertyKind == kindLiveness
	switch {
	case t.Loop != nil && !lasso:
		return bad("loop", "a trace of kind %s has no loop; only liveness traces (lassos) do", t.PropertyKind)
	case t.Loop == nil && lasso:
		return bad("loop", `a liveness trace needs "loop": the index of the step that starts the cycle`)
	case t.Loop != nil && (*t.Loop < 1 || *t.Loop > len(t.Steps)):
		return bad("loop", "loop is %d; want the index of a step, 1..%d", *t.Loop, len(t.Steps))
	}
	switch {
	case t.WaitingProcess != nil && !graphKind(t.PropertyKind):
		return bad("waiting_process", "a trace of kind %s has no waiting_process; only liveness and possibility traces do", t.PropertyKind)
	case t.WaitingProcess == nil && graphKind(t.PropertyKind):
		return bad("waiting_process", `a %s trace needs "waiting_process": the id of the process that waits`, t.PropertyKind)
	case t.WaitingProcess != nil && (*t.WaitingProcess < 0 || *t.WaitingProcess >= n):
		return bad("waiting_process", "waiting_process %d is out of range; want 0..%d", *t.WaitingProcess, n-1)
	}
	return nil
}

// graphKind reports whether kind is that of a graph property (a lasso or
// a possibility counterexample) rather than of a model.Property.
func graphKind(kind string) bool {
	return kind == kindLiveness || kind == kindPossibility
}

// validateState checks one state description of a trace with n processes.
func validateState(sd *model.StateDescription, at string, n int) error {
	bad := func(field, format string, args ...any) error {
		return &FormatError{Field: at + field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(sd.Processes) != n {
		return bad(".processes", "%d processes; want %d, as in the initial state", len(sd.Processes), n)
	}
	if sd.FaultsUsed < 0 {
		return bad(".faults_used", "faults_used is %d; want 0 or more", sd.FaultsUsed)
	}
	for i, p := range sd.Processes {
		pa := fmt.Sprintf(".processes[%d]", i)
		if p.ID != i {
			return bad(pa+".id", "process id is %d; want %d (processes are listed by id, from 0)", p.ID, i)
		}
		if _, ok := model.ParsePhase(p.Phase); !ok {
			return bad(pa+".phase", "phase %q is unknown; want Idle, Waiting or InCS", p.Phase)
		}
		if len(p.Vars) > 0 && !json.Valid(p.Vars) {
			return bad(pa+".vars", "vars is not valid JSON: %s", p.Vars)
		}
		if p.Made < 0 || p.Group < 0 {
			return bad(pa, "made and group must not be negative")
		}
	}
	for i, m := range sd.Network {
		ma := fmt.Sprintf(".network[%d]", i)
		if m.Message == "" {
			return bad(ma+".message", "a message in transit has no text")
		}
		if m.To < 0 || m.To >= n {
			return bad(ma+".to", "%s: receiver %d is out of range; want 0..%d", m.Message, m.To, n-1)
		}
		if m.Count < 1 {
			return bad(ma+".count", "%s: count is %d; want 1 or more copies", m.Message, m.Count)
		}
	}
	return nil
}

var actionKinds = []model.ActionKind{model.Request, model.Exit, model.Deliver, model.Timer, model.Lose}

var propertyKinds = []model.PropertyKind{model.Invariant, model.TransitionInvariant, model.Terminal}

func parseActionKind(s string) (model.ActionKind, bool) {
	for _, k := range actionKinds {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

func parsePropertyKind(s string) (model.PropertyKind, bool) {
	for _, k := range propertyKinds {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

func actionKindNames() string {
	var names []string
	for _, k := range actionKinds {
		names = append(names, k.String())
	}
	return oneOf(names)
}

func propertyKindNames() string {
	var names []string
	for _, k := range propertyKinds {
		names = append(names, fmt.Sprintf("%q", k.String()))
	}
	names = append(names, fmt.Sprintf("%q", kindLiveness), fmt.Sprintf("%q", kindPossibility), fmt.Sprintf("%q", kindWitness), fmt.Sprintf("%q", kindModelError))
	return oneOf(names)
}

// oneOf joins names as "a, b or c".
func oneOf(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
