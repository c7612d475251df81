package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/traces"
)

// This file holds check's text output: the summary printReport prints
// when --json is not given.

// defaultTracePath is check's default trace file name (defaultFile).
func defaultTracePath(algo, prop string) string {
	return defaultFile(algo, prop, false)
}

// defaultFile is the file name check gives a counterexample of property
// by default, ALGO.PROPERTY.trace.json ("/" in the algorithm's name
// becomes "_"); simulation traces get ALGO.PROPERTY.sim.trace.json.
func defaultFile(algorithm, property string, simulation bool) string {
	base := strings.ReplaceAll(algorithm, "/", "_") + "." + property
	if simulation {
		return base + ".sim.trace.json"
	}
	return base + ".trace.json"
}

func paramString(params map[string]int) string {
	var keys []string
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, params[k]))
	}
	return strings.Join(parts, " ")
}

func printReport(w io.Writer, rep *checkReport, tr *traces.Trace) {
	fmt.Fprintf(w, "%s %s (%s, %s, %d worker(s)%s)\n", rep.Algorithm, paramString(rep.Params), rep.Search, rep.Mode, rep.Workers, variantParamsNote(rep.VariantParams))
	fmt.Fprintf(w, "properties: %s\n", strings.Join(rep.Properties, ", "))
	if rep.Symmetry != nil {
		fmt.Fprintln(w, symmetryLine(rep.Symmetry))
	}
	// The counts, the time and the chance that fingerprints hid a state on
	// one line; the memory figures with --verbose only (issue 25).
	collision := ""
	if rep.Mode == "fingerprint" {
		collision = fmt.Sprintf("  fingerprint collision probability %.2g", rep.CollisionProbability)
	}
	fmt.Fprintf(w, "states: %d  transitions: %d  depth: %d  time: %.3fs%s\n", rep.States, rep.Transitions, rep.Depth, rep.ElapsedS, collision)
	switch {
	case !rep.verbose:
	case rep.livenessOnly:
		fmt.Fprintf(w, "time: %.3fs  (%.0f states/s)  state graph: %.1f bytes/state (states, transitions, links)\n",
			rep.ElapsedS, rep.StatesPerS, rep.BytesPerState)
	default:
		fmt.Fprintf(w, "time: %.3fs  (%.0f states/s)  seen set: %.1f bytes/state (+%.1f for predecessor links in memory)\n",
			rep.ElapsedS, rep.StatesPerS, rep.BytesPerState, rep.LinkBytesPerState)
		if rep.PeakRSSBytes > 0 {
			fmt.Fprintf(w, "memory: peak RSS %.1f MiB, %.1f bytes/state (whole process)%s\n",
				float64(rep.PeakRSSBytes)/(1<<20), rep.RSSBytesPerState, spillNote(rep))
		}
	}
	printBitstate(w, rep)
	if line := capacityLine(rep); line != "" {
		fmt.Fprintln(w, line)
	}
	if rep.Mode == "fingerprint" && rep.verbose {
		fmt.Fprintf(w, "fingerprint collision probability: %.2g (optimistic estimate, as TLC; use --exact to rule it out)\n", rep.CollisionProbability)
	}
	if rep.Liveness != nil && rep.Liveness.Skipped == "" {
		printLiveness(w, rep)
	}
	fmt.Fprintln(w, verdictLine(rep))
	if rep.Verdict == verdictModelError && rep.ModelError != nil {
		printModelError(w, rep.prog, rep.ModelError, tr)
	}
	if rep.Verdict == verdictViolation {
		fmt.Fprintln(w)
		if tr != nil {
			_ = traces.Render(w, tr)
		}
		if rep.Violation.TraceFile != "" {
			fmt.Fprintf(w, "\ntrace written to %s; replay it with: %s replay %s\n", rep.Violation.TraceFile, progOr(rep.prog), rep.Violation.TraceFile)
			fmt.Fprintln(w, viewHint(rep.prog, rep.Violation.TraceFile))
		}
	}
}
