package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

const checkSynopsis = `tokenmc check --algo NAME [--n N] [--r R] [--props P,...] [--workers K]
                     [--max-states X] [--max-depth D] [--exact] [--dfs] [--symmetry]
                     [--fairness weak|strong|none] [--trace-out FILE] [--json]
                     [--quiet] [--full] [--coverage] [--report FILE.html]
                     [--memory SIZE] [--workdir DIR] [--spill-above SIZE] [--bitstate SIZE]
                     [--checkpoint DIR [--checkpoint-every 10m]] | --resume DIR

Explores every reachable state of the algorithm (breadth first by default, so a
counterexample is a shortest one) and checks the properties. On a violation it
writes a trace file that 'tokenmc replay' re-executes. Progress goes to stderr
every few seconds; Ctrl-C stops with a partial summary (exit 3).

Properties: mutex, single-token, no-unrequested-entry, no-deadlock (and any
algorithm-specific ones 'tokenmc list' shows). Without --props every safety
property that applies to the algorithm is checked.

Liveness (only when named in --props; they keep the whole state graph in
memory, about 50 bytes per state plus 8 per transition):
  starvation-freedom    every Waiting process eventually enters its CS on every
                        fair infinite behaviour. A counterexample is a lasso (a
                        prefix and a fair cycle along which a process waits
                        forever), reported for every process that can starve.
                        Terminal states with a Waiting process are reported as
                        no-deadlock violations.
  concurrent-occupancy  (group mutual exclusion) a request for group X, when
                        nobody is InCS with or Waiting for another group, can
                        be granted without any Exit or request for another group.
Fairness: Exit and timers are weakly fair, Request and faults are not; message
delivery follows --fairness: weak (a message continuously in transit is
eventually delivered), strong (a message in transit infinitely often is
delivered infinitely often) or none.`

// checkReport is the --json output of check: a public contract.
type checkReport struct {
	Algorithm            string         `json:"algorithm"`
	Params               map[string]int `json:"params"`
	Properties           []string       `json:"properties"`
	Verdict              string         `json:"verdict"`
	States               int64          `json:"states"`
	Transitions          int64          `json:"transitions"`
	Depth                int            `json:"depth"`
	ElapsedS             float64        `json:"elapsed_s"`
	StatesPerS           float64        `json:"states_per_s"`
	BytesPerState        float64        `json:"bytes_per_state"`
	LinkBytesPerState    float64        `json:"link_bytes_per_state"`
	CollisionProbability float64        `json:"collision_probability"`
	Search               string         `json:"search"`
	Mode                 string         `json:"mode"`
	Workers              int            `json:"workers"`
	StopReason           string         `json:"stop_reason,omitempty"`
	StopDetail           string         `json:"stop_detail,omitempty"`
	Bitstate             *bitstateJSON  `json:"bitstate,omitempty"`
	// Measured memory (check_memory.go): peak resident set of the process.
	PeakRSSBytes      int64          `json:"peak_rss_bytes,omitempty"`
	RSSBytesPerState  float64        `json:"rss_bytes_per_state,omitempty"`
	MemoryBudgetBytes int64          `json:"memory_budget_bytes,omitempty"`
	SpilledBytes      int64          `json:"spilled_bytes,omitempty"`
	Violation         *violationJSON `json:"violation,omitempty"`
	// Symmetry: the search was reduced by this group (check --symmetry).
	Symmetry *symmetryJSON `json:"symmetry,omitempty"`
	// Liveness checks (starvation-freedom, concurrent-occupancy) only.
	Fairness  string         `json:"fairness,omitempty"`
	Liveness  *livenessJSON  `json:"liveness,omitempty"`
	Starving  []starvingJSON `json:"starving,omitempty"`
	Occupancy *occupancyJSON `json:"occupancy,omitempty"`

	// livenessOnly: no safety search ran; the counts and bytes_per_state
	// are those of the liveness state graph.
	livenessOnly bool
}

type violationJSON struct {
	Property  string `json:"property"`
	Length    int    `json:"length"`
	TraceFile string `json:"trace_file"`
	// Loop is the step at which a lasso's cycle starts (liveness only).
	Loop int `json:"loop,omitempty"`
}

// livenessJSON describes the liveness search: its own graph and verdict.
type livenessJSON struct {
	Properties     []string `json:"properties"`
	Verdict        string   `json:"verdict"`
	States         int64    `json:"states"`
	Transitions    int64    `json:"transitions"`
	Depth          int      `json:"depth"`
	Families       int      `json:"families"`
	FairComponents int      `json:"fair_components"`
	ElapsedS       float64  `json:"elapsed_s"`
	GraphBytes     int64    `json:"graph_bytes"`
	StopReason     string   `json:"stop_reason,omitempty"`
	Skipped        string   `json:"skipped,omitempty"`
}

// starvingJSON is one process that can starve and its lasso.
type starvingJSON struct {
	Process   int    `json:"process"`
	Length    int    `json:"length"`
	Prefix    int    `json:"prefix"`
	Cycle     int    `json:"cycle"`
	TraceFile string `json:"trace_file"`
}

// occupancyJSON is a concurrent-occupancy violation.
type occupancyJSON struct {
	Process             int    `json:"process"`
	Group               int    `json:"group"`
	Length              int    `json:"length"`
	ExploredStates      int64  `json:"explored_states"`
	ExploredTransitions int64  `json:"explored_transitions"`
	TraceFile           string `json:"trace_file"`
}

func cmdCheck(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("check", checkSynopsis, stdout)
	algo := fs.String("algo", "", "algorithm `NAME` or NAME/VARIANT (see tokenmc list)")
	pflags := addParamFlags(fs)
	props := fs.String("props", "", "comma-separated `properties` to check (default: all that apply)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "worker goroutines `K` for breadth-first search")
	maxStates := fs.Int64("max-states", 0, "stop after `X` distinct states (0: no bound; exit 3 if reached)")
	maxDepth := fs.Int("max-depth", 0, "do not go deeper than `D` steps (0: no bound; exit 3 if reached)")
	exact := fs.Bool("exact", false, "store full states instead of 64-bit fingerprints (no collisions, more memory)")
	dfs := fs.Bool("dfs", false, "search depth first (single worker; counterexamples need not be shortest)")
	traceOut := fs.String("trace-out", "", "write a counterexample trace to `FILE` (default: ALGO.PROPERTY.trace.json in the current directory, with _ for / in ALGO)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	progress := fs.Duration("progress", 5*time.Second, "report progress on stderr every `interval` (0: never)")
	fairness := fs.String("fairness", "weak", "fairness of message delivery for starvation-freedom: `weak`, strong or none")
	memFlags := addMemoryFlags(fs) // --memory, --workdir, --spill-above (check_memory.go)
	symFlag := fs.Bool("symmetry", false, "search one state per orbit of the algorithm's symmetry group (safety only; counts are orbits, traces concrete)")
	ui := addReportFlags(fs) // --report, --coverage, --quiet, --full (check_report.go)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if err := memFlags.resumeDefaults(fs); err != nil { // --resume DIR alone
		return 0, err
	}
	if code, done, err := ui.intercept(fs, stdout, stderr); done {
		return code, err
	}
	if len(pos) > 0 {
		return 0, badInput("check takes no positional arguments, got %q (did you mean --algo %s?)", pos[0], pos[0])
	}
	if *algo == "" {
		return 0, badInput("check needs --algo NAME; 'tokenmc list' shows the algorithms")
	}
	if *workers < 1 || *workers > maxWorkers() {
		return 0, badInput("--workers %d is out of range; give 1..%d (4 per core, at least 64)", *workers, maxWorkers())
	}
	if err := checkOutDir("--trace-out", *traceOut); err != nil {
		return 0, err
	}
	if *maxStates < 0 || *maxDepth < 0 {
		return 0, badInput("--max-states and --max-depth must be >= 0")
	}
	if *progress < 0 {
		return 0, badInput("--progress must be >= 0")
	}
	fair, err := invariants.ParseFairness(*fairness)
	if err != nil {
		return 0, badInput("--fairness: %v", err)
	}

	a, v, err := algorithms.Lookup(*algo)
	if err != nil {
		return 0, badInput("%v", err)
	}
	params, err := pflags.resolve(fs, a)
	if err != nil {
		return 0, err
	}
	sys, extra, err := a.Build(v.Name, params)
	if err != nil {
		return 0, badInput("%v", err)
	}
	safetyNames, liveness, err := splitLiveness(*props, sys.Info())
	if err != nil {
		return 0, err
	}
	var selected []model.Property
	if len(liveness) == 0 || safetyNames != "" {
		selected, err = invariants.Select(allProps(extra), sys.Info(), safetyNames)
		if err != nil {
			return 0, badInput("%v", err)
		}
	}
	if len(selected) == 0 && len(liveness) == 0 {
		return 0, badInput("no property to check")
	}
	searchSys, sym, err := reduceBySymmetry(*symFlag, a, v.Name, params, sys, selected, extra, liveness)
	if err != nil {
		return 0, err
	}

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	opts := explore.Options{
		Properties: selected,
		Workers:    *workers,
		MaxStates:  *maxStates,
		MaxDepth:   *maxDepth,
		Exact:      *exact,
		DFS:        *dfs,
	}
	if err := memFlags.apply(&opts); err != nil {
		return 0, err
	}
	opts.CheckpointID = checkpointID(v.Name, params, propNames(selected), &opts, *symFlag)
	if *progress > 0 {
		opts.ProgressEvery = *progress
		opts.Progress = progressPrinter(stderr, *asJSON)
	}
	if len(selected) == 0 {
		return runLiveness(ctx, livenessRun{sys: sys, name: v.Name, params: params, liveness: liveness, fairness: fair,
			opts: opts, traceOut: *traceOut, asJSON: *asJSON}, nil, stdout, stderr)
	}
	res, err := explore.Check(ctx, searchSys, opts)
	if err != nil {
		return 0, badInput("%v", err)
	}
	if err := concretizeViolation(sys, sym, res); err != nil {
		return 0, err
	}
	if res.StopReason == "interrupted" {
		fmt.Fprintln(stderr, "tokenmc: interrupted; partial summary follows")
	}
	if res.StopReason == "memory" || res.StopReason == "disk" {
		fmt.Fprintf(stderr, "tokenmc: stopped (%s): %s; partial summary follows\n", res.StopReason, res.StopDetail)
	}

	rep := checkReport{
		Algorithm:            v.Name,
		Params:               params,
		Verdict:              string(res.Verdict),
		States:               res.States,
		Transitions:          res.Transitions,
		Depth:                res.Depth,
		ElapsedS:             res.Elapsed.Seconds(),
		StatesPerS:           res.StatesPerSecond(),
		BytesPerState:        res.BytesPerState(),
		CollisionProbability: res.CollisionProbability(*exact),
		Search:               "bfs",
		Mode:                 "fingerprint",
		Workers:              *workers,
		StopReason:           res.StopReason,
		Properties:           []string{},
		Symmetry:             symmetryReport(sym),
	}
	memoryReport(&rep, res)
	if res.States > 0 {
		rep.LinkBytesPerState = float64(res.LinkBytes) / float64(res.States)
	}
	if *dfs {
		rep.Search, rep.Workers = "dfs", 1
	}
	if *exact {
		rep.Mode = "exact"
	}
	for _, p := range selected {
		rep.Properties = append(rep.Properties, p.Name)
	}
	var tr *traces.Trace
	if res.Violation != nil {
		path := *traceOut
		if path == "" {
			path = defaultTracePath(v.Name, res.Violation.Property.Name)
		}
		tr, err = traces.FromPath(sys.NewWorker(), traces.Meta{
			Algorithm:    v.Name,
			Params:       params,
			Property:     res.Violation.Property.Name,
			PropertyKind: res.Violation.Property.Kind,
		}, res.Violation.Path)
		if err != nil {
			return 0, fmt.Errorf("building the counterexample trace: %v", err)
		}
		path = saveTrace(stderr, path, tr)
		rep.Violation = &violationJSON{Property: res.Violation.Property.Name, Length: res.Violation.Len(), TraceFile: path}
	}
	if len(liveness) > 0 && res.Verdict == explore.OK {
		return runLiveness(ctx, livenessRun{sys: sys, name: v.Name, params: params, liveness: liveness, fairness: fair,
			opts: opts, traceOut: *traceOut, asJSON: *asJSON}, &rep, stdout, stderr)
	}
	if len(liveness) > 0 {
		rep.Fairness = fair.String()
		rep.Liveness = &livenessJSON{Properties: liveness, Verdict: "skipped",
			Skipped: "the safety search did not end with ok (" + string(res.Verdict) + "), so the liveness properties were not checked"}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return 0, err
		}
	} else {
		printReport(stdout, &rep, tr)
		if rep.Liveness != nil {
			fmt.Fprintf(stdout, "liveness (%s): not checked: %s\n", strings.Join(liveness, ", "), rep.Liveness.Skipped)
		}
	}
	switch res.Verdict {
	case explore.OK, explore.OKPartial:
		return exitOK, nil
	case explore.Violated:
		return exitViolation, nil
	}
	return exitIncomplete, nil
}

func defaultTracePath(algo, prop string) string {
	return strings.ReplaceAll(algo, "/", "_") + "." + prop + ".trace.json"
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
	fmt.Fprintf(w, "%s %s (%s, %s, %d worker(s))\n", rep.Algorithm, paramString(rep.Params), rep.Search, rep.Mode, rep.Workers)
	fmt.Fprintf(w, "properties: %s\n", strings.Join(rep.Properties, ", "))
	if rep.Symmetry != nil {
		fmt.Fprintln(w, symmetryLine(rep.Symmetry))
	}
	fmt.Fprintf(w, "states: %d  transitions: %d  depth: %d\n", rep.States, rep.Transitions, rep.Depth)
	if rep.livenessOnly {
		fmt.Fprintf(w, "time: %.3fs  (%.0f states/s)  state graph: %.1f bytes/state (states, transitions, links)\n",
			rep.ElapsedS, rep.StatesPerS, rep.BytesPerState)
	} else {
		fmt.Fprintf(w, "time: %.3fs  (%.0f states/s)  seen set: %.1f bytes/state (+%.1f for predecessor links in memory)\n",
			rep.ElapsedS, rep.StatesPerS, rep.BytesPerState, rep.LinkBytesPerState)
		if rep.PeakRSSBytes > 0 {
			fmt.Fprintf(w, "memory: peak RSS %.1f MiB, %.1f bytes/state (whole process)%s\n",
				float64(rep.PeakRSSBytes)/(1<<20), rep.RSSBytesPerState, spillNote(rep))
		}
		printBitstate(w, rep)
	}
	if rep.Mode == "fingerprint" {
		fmt.Fprintf(w, "fingerprint collision probability: %.2g (optimistic estimate, as TLC; use --exact to rule it out)\n", rep.CollisionProbability)
	}
	if rep.Liveness != nil && rep.Liveness.Skipped == "" {
		printLiveness(w, rep)
	}
	fmt.Fprintln(w, verdictLine(rep))
	if rep.Verdict == "violation" {
		fmt.Fprintln(w)
		if tr != nil {
			_ = traces.Render(w, tr)
		}
		if rep.Violation.TraceFile != "" {
			fmt.Fprintf(w, "\ntrace written to %s; replay it with: tokenmc replay %s\n", rep.Violation.TraceFile, rep.Violation.TraceFile)
		}
	}
}
