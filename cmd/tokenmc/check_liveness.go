package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// splitLiveness separates the liveness property names of a --props list
// from the safety ones, which it returns as a list for invariants.Select.
// A liveness property that does not apply to the system is bad input.
func splitLiveness(props string, info model.Info) (string, []string, error) {
	var safety, live []string
	known := map[string]invariants.Liveness{}
	for _, l := range invariants.LivenessProperties() {
		known[l.Name] = l
	}
	seen := map[string]bool{}
	for _, n := range strings.Split(props, ",") {
		n = strings.TrimSpace(n)
		l, ok := known[n]
		if !ok {
			safety = append(safety, n)
			continue
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		if !l.AppliesTo(info) {
			return "", nil, badInput("property %q does not apply to %s: %s", n, info.Name, l.NotApplicable)
		}
		live = append(live, n)
	}
	if len(live) == 0 {
		return props, nil, nil // exactly as before liveness existed
	}
	s := strings.Join(safety, ",")
	if strings.Trim(s, ", ") == "" {
		s = ""
	}
	return s, live, nil
}

// livenessRun is what runLiveness needs from cmdCheck.
type livenessRun struct {
	sys      model.System
	name     string
	params   map[string]int
	liveness []string
	fairness invariants.Fairness
	opts     explore.Options
	traceOut string
	asJSON   bool
}

// runLiveness checks the liveness properties after the safety search (rep
// holds its report; nil if no safety property was selected), writes a
// trace for every counterexample and prints the combined report.
func runLiveness(ctx context.Context, lr livenessRun, rep *checkReport, stdout, stderr io.Writer) (int, error) {
	lopts := explore.LivenessOptions{
		Starvation:    contains(lr.liveness, invariants.NameStarvationFreedom),
		Occupancy:     contains(lr.liveness, invariants.NameConcurrentOccupancy),
		Fairness:      lr.fairness,
		MaxStates:     lr.opts.MaxStates,
		MaxDepth:      lr.opts.MaxDepth,
		Exact:         lr.opts.Exact,
		MemoryBudget:  lr.opts.MemoryBudget,
		Progress:      lr.opts.Progress,
		ProgressEvery: lr.opts.ProgressEvery,
	}
	if lr.opts.Progress != nil {
		lopts.AnalysisProgress = analysisProgress(stderr)
	}
	res, err := explore.CheckLiveness(ctx, lr.sys, lopts)
	if err != nil {
		return 0, badInput("%v", err)
	}
	if res.StopReason == "interrupted" {
		fmt.Fprintln(stderr, "tokenmc: interrupted; partial summary follows")
	}
	mode := "fingerprint"
	if lr.opts.Exact {
		mode = "exact"
	}
	if rep == nil {
		rep = &checkReport{
			Algorithm: lr.name, Params: lr.params, Properties: []string{},
			States: res.States, Transitions: res.Transitions, Depth: res.Depth,
			ElapsedS: res.Elapsed.Seconds(), Search: "bfs", Mode: mode, Workers: 1,
			StopReason: res.StopReason, livenessOnly: true,
		}
		if s := res.Elapsed.Seconds(); s > 0 {
			rep.StatesPerS = float64(res.States) / s
		}
		if res.States > 0 {
			rep.BytesPerState = float64(res.GraphBytes) / float64(res.States)
		}
		if !lr.opts.Exact {
			r := explore.Result{States: res.States, Transitions: res.Transitions}
			rep.CollisionProbability = r.CollisionProbability(false)
		}
	} else if res.StopReason != "" && rep.StopReason == "" {
		rep.StopReason = res.StopReason
	}
	rep.Properties = append(rep.Properties, lr.liveness...)
	rep.Fairness = lr.fairness.String()
	rep.Liveness = &livenessJSON{
		Properties: lr.liveness, Verdict: string(res.Verdict), States: res.States, Transitions: res.Transitions,
		Depth: res.Depth, Families: res.Families, FairComponents: res.FairComponents,
		ElapsedS: res.Elapsed.Seconds(), GraphBytes: res.GraphBytes, StopReason: res.StopReason,
	}
	switch {
	case res.Verdict == explore.Violated:
		rep.Verdict = string(explore.Violated)
	case res.Verdict == explore.Incomplete || rep.Verdict == string(explore.Incomplete):
		rep.Verdict = string(explore.Incomplete)
	default:
		rep.Verdict = string(explore.OK)
	}

	// Traces: the primary counterexample (a deadlock, else the shortest
	// lasso, else the occupancy violation) goes to --trace-out or the
	// default name; the others to names derived from it.
	meta := func(prop string, kind model.PropertyKind) traces.Meta {
		m := traces.Meta{Algorithm: lr.name, Params: lr.params, Property: prop, PropertyKind: kind}
		if prop == invariants.NameStarvationFreedom {
			m.Options = map[string]string{"fairness": lr.fairness.String()}
		}
		return m
	}
	primary := ""
	switch {
	case res.Deadlock != nil:
		primary = "deadlock"
	case len(res.Starving) > 0:
		best := 0
		for i, l := range res.Starving {
			if l.Len() < res.Starving[best].Len() {
				best = i
			}
		}
		primary = fmt.Sprintf("P%d", res.Starving[best].Process)
	case res.Occupancy != nil:
		primary = "occupancy"
	}
	pathFor := func(tag, prop string) string {
		if tag == primary {
			if lr.traceOut != "" {
				return lr.traceOut
			}
			return defaultTracePath(lr.name, prop)
		}
		if lr.traceOut != "" {
			return derivedPath(lr.traceOut, tag)
		}
		return derivedPath(defaultTracePath(lr.name, prop), tag)
	}
	write := func(tr *traces.Trace, path string) string { return saveTrace(stderr, path, tr) }
	var primaryTrace *traces.Trace
	w := lr.sys.NewWorker()
	if d := res.Deadlock; d != nil {
		tr, err := traces.FromPath(w, meta(d.Property.Name, d.Property.Kind), d.Path)
		if err != nil {
			return 0, fmt.Errorf("building the counterexample trace: %v", err)
		}
		file := write(tr, pathFor("deadlock", d.Property.Name))
		primaryTrace = tr
		rep.Violation = &violationJSON{Property: d.Property.Name, Length: d.Len(), TraceFile: file}
	}
	for _, l := range res.Starving {
		tr, err := traces.FromLasso(w, meta(invariants.NameStarvationFreedom, 0), l.Path, l.Actions, l.Loop, l.Process)
		if err != nil {
			return 0, fmt.Errorf("building the lasso trace: %v", err)
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
		tr, err := traces.FromPossibility(w, meta(invariants.NameConcurrentOccupancy, 0), o.Path, o.Actions, o.Process)
		switch {
		case err == nil:
			file = write(tr, pathFor("occupancy", invariants.NameConcurrentOccupancy))
		case o.Len() > 0:
			return 0, fmt.Errorf("building the occupancy trace: %v", err)
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
	if lr.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return 0, err
		}
	} else {
		printReport(stdout, rep, primaryTrace)
	}
	switch rep.Verdict {
	case string(explore.OK):
		return exitOK, nil
	case string(explore.Violated):
		return exitViolation, nil
	}
	return exitIncomplete, nil
}

// analysisProgress returns the printer of the progress reports of the
// liveness analysis (after the graph is built), one line each on stderr.
func analysisProgress(stderr io.Writer) func(explore.AnalysisProgress) {
	return func(p explore.AnalysisProgress) {
		step := "process"
		if p.Phase == "occupancy" {
			step = "process and group"
		}
		fmt.Fprintf(stderr, "progress: liveness analysis (%s): %s %d of %d, %d of %d states visited in it, %d fair component(s) so far, %s\n",
			p.Phase, step, p.Step+1, p.Steps, p.Visited, p.States, p.FairComponents, p.Elapsed.Round(time.Millisecond))
	}
}

// printLiveness writes the liveness part of a text report.
func printLiveness(w io.Writer, rep *checkReport) {
	l := rep.Liveness
	fmt.Fprintf(w, "liveness: %s, %s fairness on message delivery\n", strings.Join(l.Properties, ", "), rep.Fairness)
	fmt.Fprintf(w, "  graph: %d states, %d transitions, %d transition families, %.1f MiB; %.3fs\n",
		l.States, l.Transitions, l.Families, float64(l.GraphBytes)/(1<<20), l.ElapsedS)
	if contains(l.Properties, invariants.NameStarvationFreedom) {
		switch {
		case len(rep.Starving) > 0:
		case l.StopReason == "interrupted":
			fmt.Fprintf(w, "  starvation-freedom: no fair starving cycle found before the interrupt (incomplete)\n")
		case l.Verdict == "incomplete":
			fmt.Fprintf(w, "  starvation-freedom: no fair starving cycle among the states explored (incomplete)\n")
		default:
			fmt.Fprintf(w, "  starvation-freedom: no fair cycle along which a process waits forever\n")
		}
		for _, s := range rep.Starving {
			fmt.Fprintf(w, "  P%d can starve: lasso of %d steps (prefix %d, cycle %d), trace %s\n", s.Process, s.Length, s.Prefix, s.Cycle, s.TraceFile)
		}
	}
	if o := rep.Occupancy; o != nil {
		fmt.Fprintf(w, "  concurrent-occupancy: P%d requesting group %d cannot enter after %d steps (%d states, %d transitions reachable without Exit), trace %s\n",
			o.Process, o.Group, o.Length, o.ExploredStates, o.ExploredTransitions, o.TraceFile)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
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
