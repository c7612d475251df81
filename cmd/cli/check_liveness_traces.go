package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// This file writes the trace files of a liveness check.

// writeTraces writes a trace for every counterexample of res and records
// the files in rep. It returns the primary counterexample's trace (nil if
// none).
func (lr *livenessRun) writeTraces(res *explore.LivenessResult, rep *checkReport, stderr io.Writer) (*traces.Trace, error) {

	// Traces: the primary counterexample (a deadlock, else the shortest
	// lasso, else the occupancy violation) goes to --out or the default
	// name; the others to names derived from it. Without --out every
	// lasso's file names its process (ALGO.starvation-freedom.P1.trace.json),
	// the primary one's too.
	meta := func(prop string, kind model.PropertyKind) traces.Meta {
		m := traces.Meta{Algorithm: lr.name, Params: lr.params, Property: prop, PropertyKind: kind}
		if prop == invariants.NameStarvationFreedom {
			m.Options = map[string]string{"fairness": lr.fairness.String()}
		}
		return m
	}
	primary := primaryTag(res)
	pathFor := func(tag, prop string) string {
		lasso := strings.HasPrefix(tag, "P")
		if tag == primary {
			if lr.traceOut != "" {
				return lr.traceOut
			}
			if !lasso { // every lasso's default name gives its process, the primary's too
				return defaultTracePath(lr.name, prop)
			}
		}
		if lr.traceOut != "" {
			return derivedPath(lr.traceOut, tag)
		}
		return derivedPath(defaultTracePath(lr.name, prop), tag)
	}
	write := func(tr *traces.Trace, path string) string {
		return saveTrace(lr.prog, stderr, path, path == lr.traceOut, tr)
	}
	var primaryTrace *traces.Trace
	w := lr.sys.NewWorker()
	if d := res.Deadlock; d != nil {
		tr, err := traces.FromSteps(w, meta(d.Property.Name, d.Property.Kind), d.Path, d.Actions)
		if err != nil {
			return nil, fmt.Errorf("building the counterexample trace: %v", err)
		}
		file := write(tr, pathFor("deadlock", d.Property.Name))
		primaryTrace = tr
		rep.Violation = &violationJSON{Property: d.Property.Name, Length: d.Len(), TraceFile: file}
	}
	for _, l := range res.Starving {
		m := meta(invariants.NameStarvationFreedom, 0)
		m.Loop, m.WaitingProcess = &l.Loop, &l.Process
		tr, err := traces.FromSteps(w, m, l.Path, l.Actions)
		if err != nil {
			return nil, fmt.Errorf("building the lasso trace: %v", err)
		}
		tag := fmt.Sprintf("P%d", l.Process)
		file := write(tr, pathFor(tag, invariants.NameStarvationFreedom))
		rep.Starving = append(rep.Starving, starvingJSON{Process: l.Process, Length: l.Len(), Prefix: l.Loop, Cycle: l.CycleLen(), TraceFile: file})
		if tag == primary {
			primaryTrace = tr
			rep.Violation = &violationJSON{Property: invariants.NameStarvationFreedom, Length: l.Len(), TraceFile: file, Loop: l.Loop + 1}
		}
	}
	if o := res.Occupancy; o != nil {
		file := ""
		m := meta(invariants.NameConcurrentOccupancy, 0)
		m.WaitingProcess = &o.Process
		tr, err := traces.FromSteps(w, m, o.Path, o.Actions)
		switch {
		case err == nil:
			file = write(tr, pathFor("occupancy", invariants.NameConcurrentOccupancy))
		case o.Len() > 0:
			return nil, fmt.Errorf("building the occupancy trace: %v", err)
		default:
			tr = nil // the initial state itself violates it: no step to record
		}
		rep.Occupancy = &occupancyJSON{Process: o.Process, Group: o.Group, Length: o.Len(),
			ExploredStates: o.Explored, ExploredTransitions: o.ExploredTransitions, TraceFile: file}
		if primary == "occupancy" {
			primaryTrace = tr
			rep.Violation = &violationJSON{Property: invariants.NameConcurrentOccupancy, Length: o.Len(), TraceFile: file}
		}
	}
	return primaryTrace, nil
}

// primaryTag names the primary counterexample of res, whose trace goes to
// --trace-out: "deadlock", else the shortest lasso's "P<i>", else
// "occupancy"; "" if there is none.
func primaryTag(res *explore.LivenessResult) string {
	switch {
	case res.Deadlock != nil:
		return "deadlock"
	case len(res.Starving) > 0:
		best := 0
		for i, l := range res.Starving {
			if l.Len() < res.Starving[best].Len() {
				best = i
			}
		}
		return fmt.Sprintf("P%d", res.Starving[best].Process)
	case res.Occupancy != nil:
		return "occupancy"
	}
	return ""
}

// derivedPath inserts ".TAG" before the ".trace.json" (or ".json") suffix
// of path, or appends it.
func derivedPath(path, tag string) string {
	for _, suf := range []string{".trace.json", ".json"} {
		if strings.HasSuffix(path, suf) {
			return strings.TrimSuffix(path, suf) + "." + tag + suf
		}
	}
	return path + "." + tag
}
