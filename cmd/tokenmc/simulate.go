package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

const simulateSynopsis = `tokenmc simulate --algo NAME [--n N] [--r R] [--steps S] [--runs K] [--seed X]
                        [--workers W] [--strategy uniform|pct|swarm] [--depth D]
                        [--props P,...] [--no-shrink] [--trace-out FILE] [--json]

Random walks over the algorithm's transitions, checking every safety property
at each step: for process counts far beyond exhaustive search. The result is a
function of --seed (the same walks for any --workers). A violation is shrunk
(needless steps and loops dropped) and written as a trace that 'tokenmc
replay' re-executes. Exit codes: 0 no violation, 1 violation, 2 bad input,
3 interrupted.

Strategies: uniform (every enabled transition equally likely), pct (random
process priorities with D-1 change points per run), swarm (each run switches
off a random subset of action classes such as "Deliver TOKEN").`

// simulateReport is the --json output of simulate: a public contract.
type simulateReport struct {
	Algorithm   string           `json:"algorithm"`
	Params      map[string]int   `json:"params"`
	Properties  []string         `json:"properties"`
	Strategy    string           `json:"strategy"`
	Seed        uint64           `json:"seed"`
	Verdict     string           `json:"verdict"` // ok, violation or incomplete
	Runs        int              `json:"runs"`
	Terminal    int              `json:"terminal_runs"`
	Steps       int64            `json:"steps"`
	ElapsedS    float64          `json:"elapsed_s"`
	StepsPerS   float64          `json:"steps_per_s"`
	Distinct    int64            `json:"distinct_states_approx"`
	Fired       map[string]int64 `json:"fired"`
	LongestWait int              `json:"longest_wait_steps"`
	WaitProc    int              `json:"longest_wait_process"`
	Workers     int              `json:"workers"`
	Violation   *simViolation    `json:"violation,omitempty"`
}

type simViolation struct {
	Property  string `json:"property"`
	Run       int    `json:"run"`
	RunSeed   uint64 `json:"run_seed"`
	Found     int    `json:"found_length"`
	Length    int    `json:"length"`
	TraceFile string `json:"trace_file"`
}

func init() {
	registerCommand("simulate", command{order: 2, synopsis: "simulate --algo NAME [flags]", summary: "random walks (uniform, PCT, swarm) checking safety at large N", run: cmdSimulate})
}

func cmdSimulate(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("simulate", simulateSynopsis, stdout)
	algo := fs.String("algo", "", "algorithm `NAME` or NAME/VARIANT (see tokenmc list)")
	pflags := addParamFlags(fs)
	steps := fs.Int("steps", 10000, "steps per run at most `S` (a run also ends where nothing is enabled)")
	runs := fs.Int("runs", 100, "number of runs `K`")
	seed := fs.Uint64("seed", 1, "random seed `X`: the same seed gives the same walks")
	workers := fs.Int("workers", 1, "goroutines `W`")
	strategy := fs.String("strategy", "uniform", "scheduling `strategy`: uniform, pct or swarm")
	depth := fs.Int("depth", 3, "PCT bug depth `D` (D-1 priority change points per run)")
	props := fs.String("props", "", "comma-separated `properties` to check (default: all that apply)")
	noShrink := fs.Bool("no-shrink", false, "write the violating walk as found, without shrinking it")
	traceOut := fs.String("trace-out", "", "write a counterexample trace to `FILE` (default: ALGO.PROPERTY.sim.trace.json)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	progress := fs.Duration("progress", 5*time.Second, "report progress on stderr every `interval` (0: never)")
	quiet := fs.Bool("quiet", false, "print only the verdict (and where the trace was written); no progress")
	full := fs.Bool("full", false, "print every state of the counterexample in full, not only what each step changed")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("simulate takes no positional arguments, got %q (did you mean --algo %s?)", pos[0], pos[0])
	}
	if *algo == "" {
		return 0, badInput("simulate needs --algo NAME; 'tokenmc list' shows the algorithms")
	}
	switch {
	case *steps < 1:
		return 0, badInput("--steps must be at least 1, got %d", *steps)
	case *runs < 1:
		return 0, badInput("--runs must be at least 1, got %d", *runs)
	case *workers < 1:
		return 0, badInput("--workers must be at least 1, got %d", *workers)
	case *depth < 1:
		return 0, badInput("--depth must be at least 1, got %d", *depth)
	case *progress < 0:
		return 0, badInput("--progress must be >= 0")
	}
	strat := simulate.Strategy(*strategy)
	valid := false
	var names []string
	for _, s := range simulate.Strategies() {
		valid = valid || s == strat
		names = append(names, string(s))
	}
	if !valid {
		return 0, badInput("--strategy %q is not one of %s", *strategy, strings.Join(names, ", "))
	}
	a, v, err := algorithms.Lookup(*algo)
	if err != nil {
		return 0, badInput("%v", err)
	}
	params, err := pflags.resolve(fs, a)
	if err != nil {
		return 0, err
	}
	sys, extra, err := a.BuildSim(v.Name, params)
	if err != nil {
		return 0, badInput("%v", err)
	}
	selected, err := invariants.Select(allProps(extra), sys.Info(), *props)
	if err != nil {
		return 0, badInput("%v", err)
	}
	if len(selected) == 0 {
		return 0, badInput("no property to check")
	}
	if err := checkTraceOut(*traceOut); err != nil {
		return 0, err
	}

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	opts := simulate.Options{
		Properties: selected,
		Steps:      *steps,
		Runs:       *runs,
		Seed:       *seed,
		Workers:    *workers,
		Strategy:   strat,
		Depth:      *depth,
		NoShrink:   *noShrink,
	}
	if *quiet && *asJSON {
		return 0, badInput("--quiet and --json exclude each other: --json prints one JSON object and nothing else")
	}
	if *progress > 0 && !*quiet {
		opts.ProgressEvery = *progress
		opts.Progress = func(p simulate.Progress) {
			rate := float64(p.Steps) / p.Elapsed.Seconds()
			if *asJSON {
				// one JSON object per line on stderr, as check --json does
				b, _ := json.Marshal(simProgressJSON{Progress: true, Runs: p.Runs, Steps: p.Steps, StepsPerS: rate, ElapsedS: p.Elapsed.Seconds()})
				fmt.Fprintf(stderr, "%s\n", b)
				return
			}
			fmt.Fprintf(stderr, "progress: %d runs, %d steps (%.0f/s), %s\n",
				p.Runs, p.Steps, rate, p.Elapsed.Round(time.Second))
		}
	}
	res, err := simulate.Run(ctx, sys, opts)
	if err != nil {
		return 0, badInput("%v", err)
	}
	interrupted := ctx.Err() != nil && res.Violation == nil
	if interrupted {
		fmt.Fprintln(stderr, "tokenmc: interrupted; partial summary follows")
	}
	rep := simulateReport{
		Algorithm: v.Name, Params: params, Properties: []string{}, Strategy: string(strat), Seed: *seed,
		Verdict: "ok", Runs: res.Runs, Terminal: res.Terminal, Steps: res.Steps, ElapsedS: res.Elapsed.Seconds(),
		StepsPerS: res.StepsPerSecond(), Distinct: res.Distinct, Fired: res.Fired,
		LongestWait: res.LongestWait, WaitProc: res.LongestWaitProc, Workers: *workers,
	}
	for _, p := range selected {
		rep.Properties = append(rep.Properties, p.Name)
	}
	if interrupted {
		rep.Verdict = "incomplete"
	}
	var tr *traces.Trace
	if vi := res.Violation; vi != nil {
		rep.Verdict = "violation"
		path := *traceOut
		if path == "" {
			path = strings.ReplaceAll(v.Name, "/", "_") + "." + vi.Property.Name + ".sim.trace.json"
		}
		tr, err = traces.FromPath(sys.NewWorker(), traces.Meta{
			Algorithm: v.Name, Params: params, Property: vi.Property.Name, PropertyKind: vi.Property.Kind,
		}, vi.Path)
		if err != nil {
			return 0, fmt.Errorf("building the counterexample trace: %v", err)
		}
		path = saveTrace(stderr, path, tr)
		rep.Violation = &simViolation{Property: vi.Property.Name, Run: vi.Run, RunSeed: vi.RunSeed, Found: vi.Found, Length: vi.Len(), TraceFile: path}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return 0, err
		}
	} else if *quiet {
		printSimVerdict(stdout, &rep) // check_report.go
	} else {
		printSimReport(stdout, &rep, tr, traces.RenderOptions{Full: *full})
	}
	switch rep.Verdict {
	case "ok":
		return exitOK, nil
	case "violation":
		return exitViolation, nil
	}
	return exitIncomplete, nil
}

// simProgressJSON is one progress line of simulate --json, on stderr.
type simProgressJSON struct {
	Progress  bool    `json:"progress"`
	Runs      int64   `json:"runs"`
	Steps     int64   `json:"steps"`
	StepsPerS float64 `json:"steps_per_s"`
	ElapsedS  float64 `json:"elapsed_s"`
}

func printSimReport(w io.Writer, rep *simulateReport, tr *traces.Trace, ro traces.RenderOptions) {
	fmt.Fprintf(w, "%s %s (simulate, %s, seed %d, %d worker(s))\n", rep.Algorithm, paramString(rep.Params), rep.Strategy, rep.Seed, rep.Workers)
	fmt.Fprintf(w, "properties: %s\n", strings.Join(rep.Properties, ", "))
	fmt.Fprintf(w, "runs: %d (%d ended with nothing enabled)  steps: %d  time: %.3fs (%.0f steps/s)\n",
		rep.Runs, rep.Terminal, rep.Steps, rep.ElapsedS, rep.StepsPerS)
	kinds := make([]string, 0, len(rep.Fired))
	for k := range rep.Fired {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, rep.Fired[k]))
	}
	fmt.Fprintf(w, "distinct states: ~%d (approximate)  fired: %s\n", rep.Distinct, strings.Join(parts, ", "))
	if rep.WaitProc >= 0 {
		fmt.Fprintf(w, "longest wait: %d steps (P%d)\n", rep.LongestWait, rep.WaitProc)
	} else {
		fmt.Fprintln(w, "longest wait: 0 steps")
	}
	switch rep.Verdict {
	case "ok":
		fmt.Fprintf(w, "verdict: ok, no violation in %d runs (a sample, not a proof)\n", rep.Runs)
	case "incomplete":
		fmt.Fprintf(w, "verdict: incomplete (interrupted); no violation so far (%d runs completed; the steps count the runs cut short too)\n", rep.Runs)
	case "violation":
		vi := rep.Violation
		fmt.Fprintf(w, "verdict: VIOLATION of %s in run %d after %d steps, shrunk to %d steps\n\n", vi.Property, vi.Run, vi.Found, vi.Length)
		if tr != nil {
			_ = traces.RenderWith(w, tr, ro)
		}
		if vi.TraceFile == "" {
			fmt.Fprintln(w, "\nthe trace file could not be written (the error is above); the counterexample is printed here only")
			return
		}
		fmt.Fprintf(w, "\ntrace written to %s; replay it with: tokenmc replay %s\n", vi.TraceFile, vi.TraceFile)
	}
}

// checkTraceOut rejects, before the simulation starts, a --trace-out whose
// directory does not exist or that names a directory: otherwise the error
// would show only after a violation is found, maybe hours later.
func checkTraceOut(path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return badInput("--trace-out %s is a directory; give a file name", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return badInput("--trace-out %s: directory %s does not exist; create it or choose another path", path, dir)
	}
	if !fi.IsDir() {
		return badInput("--trace-out %s: %s is not a directory", path, dir)
	}
	return nil
}
