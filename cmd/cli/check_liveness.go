package cli

import (
	"context"
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
	known := map[string]livenessProp{}
	for _, l := range livenessProps() {
		known[l.name] = l
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
		if !l.appliesTo(info) {
			return "", nil, badInput("property %q does not apply to %s: %s", n, info.Name, l.notApplicable)
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
	prog   string // the program name of the messages
	sys    model.System
	name   string
	params map[string]int
	// fromVariant: the parameters the variant chose (checkReport.VariantParams).
	fromVariant map[string]int
	liveness    []string
	fairness    model.Fairness
	opts        explore.Options
	traceOut    string
	asJSON      bool
	verbose     bool // check --verbose
}

// runLiveness checks the liveness properties after the safety search (rep
// holds its report; nil if no safety property was selected), writes a
// trace for every counterexample and prints the combined report.
func runLiveness(ctx context.Context, lr livenessRun, rep *checkReport, stdout, stderr io.Writer) (int, error) {
	res, err := lr.search(ctx, stderr)
	if err != nil {
		return 0, err
	}
	rep = lr.report(res, rep)
	rep.prog = lr.prog
	rep.verbose = lr.verbose
	primaryTrace, err := lr.writeTraces(res, rep, stderr)
	if err != nil {
		return 0, err
	}
	if res.ModelError != nil {
		rep.ModelError, primaryTrace = writeModelError(lr.prog, lr.sys, traces.Meta{Algorithm: lr.name, Params: lr.params}, res.ModelError, lr.traceOut, false, stderr)
	}
	if lr.asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return 0, err
		}
	} else {
		printReport(stdout, rep, primaryTrace)
	}
	noteIncomplete(stderr, rep)
	switch rep.Verdict {
	case string(explore.OK):
		return exitOK, nil
	case string(explore.Violated):
		return exitViolation, nil
	case verdictModelError:
		return exitModelError, nil
	}
	return exitIncomplete, nil
}

// search runs the liveness search with the bounds of the safety search.
func (lr *livenessRun) search(ctx context.Context, stderr io.Writer) (*explore.LivenessResult, error) {
	lopts := explore.LivenessOptions{
		Starvation: contains(lr.liveness, invariants.NameStarvationFreedom),
		Occupancy:  contains(lr.liveness, invariants.NameConcurrentOccupancy),
		Fairness:   lr.fairness,
		Options:    lr.opts, // its bounds, work directory and spill size
	}
	if lr.opts.Progress != nil {
		lopts.AnalysisProgress = analysisProgress(stderr)
	}
	res, err := explore.CheckLiveness(ctx, lr.sys, lopts)
	if err != nil {
		return nil, badInput("%v", err)
	}
	if res.StopReason == stopInterrupted {
		fmt.Fprintf(stderr, "%s: interrupted; partial summary follows\n", lr.prog)
	}
	return res, nil
}

// report adds the liveness result to rep (the safety search's report), or
// makes the report when there was no safety search (rep nil), and sets the
// verdict.
func (lr *livenessRun) report(res *explore.LivenessResult, rep *checkReport) *checkReport {
	mode := "fingerprint"
	if lr.opts.Exact {
		mode = "exact"
	}
	if rep == nil {
		rep = &checkReport{
			Algorithm: lr.name, Params: lr.params, VariantParams: lr.fromVariant, Properties: []string{},
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
			rep.CollisionProbability = r.CollisionEstimate()
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
	case res.Verdict == explore.ModelFailed:
		rep.Verdict = verdictModelError
	case res.Verdict == explore.Violated:
		rep.Verdict = string(explore.Violated)
	case res.Verdict == explore.Incomplete || rep.Verdict == string(explore.Incomplete):
		rep.Verdict = string(explore.Incomplete)
	default:
		rep.Verdict = string(explore.OK)
	}
	return rep
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
	if rep.verbose {
		fmt.Fprintf(w, "  graph: %d states, %d transitions, %d transition families, %.1f MiB; %.3fs\n",
			l.States, l.Transitions, l.Families, float64(l.GraphBytes)/(1<<20), l.ElapsedS)
	}
	if contains(l.Properties, invariants.NameStarvationFreedom) {
		switch {
		case len(rep.Starving) > 0:
		case l.StopReason == stopInterrupted:
			fmt.Fprintf(w, "  starvation-freedom: no fair starving cycle found before the interrupt (incomplete)\n")
		case l.Verdict == verdictIncomplete:
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
