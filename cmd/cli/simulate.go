package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

const simulateSynopsis = `tokenmc simulate --algo NAME [--n N] [--r R] [--steps S] [--runs K] [--seed X]
                        [--workers W] [--strategy uniform|pct|swarm] [--depth D]
                        [--props P,...] [--no-shrink] [--out FILE] [--json]
                        [--channel-capacity K]
                        [--swarm K [--swarm-index I] [--swarm-out DIR]]

Random walks over the algorithm's transitions, checking every safety property
at each step: for process counts far beyond exhaustive search. The result is a
function of --seed (the same walks for any --workers). A violation is shrunk
(needless steps and loops dropped) and written as a trace that 'tokenmc
replay' re-executes. Exit codes: 0 no violation, 1 violation, 2 bad input,
3 interrupted.

Strategies: uniform (every enabled transition equally likely), pct (random
process priorities with D-1 change points per run), swarm (each run switches
off a random subset of action classes such as "Deliver TOKEN").

With --channel-capacity K a walk never takes a step that would put more
than K messages on one channel; a walk that reaches a state where the bound
disables every step ends there as capacity-blocked (counted, not a
deadlock).

With --swarm K the simulation is shard I of K (I from --swarm-index,
JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID) and runs with seed --seed + I;
'tokenmc swarm merge' merges the shards (docs/distributed.md). Not to be
confused with --strategy swarm, which switches off action classes per run.`

// simulateReport is the --json output of simulate: a public contract.
type simulateReport struct {
	Algorithm string         `json:"algorithm"`
	Params    map[string]int `json:"params"`
	// VariantParams: the parameters the variant chose and no flag overrode.
	VariantParams map[string]int   `json:"variant_params,omitempty"`
	Properties    []string         `json:"properties"`
	Strategy      string           `json:"strategy"`
	Seed          uint64           `json:"seed"`
	Verdict       string           `json:"verdict"` // ok, violation or incomplete
	Runs          int              `json:"runs"`
	Terminal      int              `json:"terminal_runs"`
	Steps         int64            `json:"steps"`
	ElapsedS      float64          `json:"elapsed_s"`
	StepsPerS     float64          `json:"steps_per_s"`
	Distinct      int64            `json:"distinct_states_approx"`
	Fired         map[string]int64 `json:"fired"`
	LongestWait   int              `json:"longest_wait_steps"`
	WaitProc      int              `json:"longest_wait_process"`
	Workers       int              `json:"workers"`
	// ChannelCapacity is --channel-capacity (absent: unbounded), and
	// CapacityBlocked the runs that ended in a capacity-blocked state
	// (present with a capacity); they are not among Terminal.
	ChannelCapacity int           `json:"channel_capacity,omitempty"`
	CapacityBlocked *int          `json:"capacity_blocked_runs,omitempty"`
	Violation       *simViolation `json:"violation,omitempty"`
	// Swarm: this simulation was one shard of a swarm (simulate --swarm).
	Swarm *swarmJSON `json:"swarm,omitempty"`
	// ModelError: a walk made the model fail (panic); verdict
	// "model-error", exit 5.
	ModelError *modelErrorJSON `json:"model_error,omitempty"`
	prog       string          // the program name of the text report ("": tokenmc)
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

// simFlags are simulate's flags.
type simFlags struct {
	fs                          *flag.FlagSet
	params                      *paramFlags
	algo, strategy, props       *string
	traceOut                    *string
	steps, runs, workers, depth *int
	capacity                    *int
	seed                        *uint64
	noShrink, asJSON, quiet     *bool
	full                        *bool
	progress                    *time.Duration
	swarm                       *swarmFlags // --swarm (swarm.go)
}

func newSimFlags(cat *catalog, stdout io.Writer) *simFlags {
	fs := cat.newFlagSet("simulate", simulateSynopsis, stdout)
	f := &simFlags{fs: fs}
	f.algo = fs.String("algo", "", "algorithm `NAME` or NAME/VARIANT (see tokenmc list)")
	f.params = addParamFlags(fs, cat)
	f.steps = fs.Int("steps", 10000, "steps per run at most `S` (a run also ends where nothing is enabled)")
	f.runs = fs.Int("runs", 100, "number of runs `K`")
	f.seed = fs.Uint64("seed", 1, "random seed `X`: the same seed gives the same walks")
	f.workers = fs.Int("workers", runtime.GOMAXPROCS(0), "goroutines `W` running walks (default: one per core; the walks depend on --seed only)")
	f.strategy = fs.String("strategy", "uniform", "scheduling `strategy`: uniform, pct or swarm")
	f.depth = fs.Int("depth", 3, "PCT bug depth `D` (D-1 priority change points per run)")
	f.props = fs.String("props", "", "comma-separated `properties` to check (default: all that apply)")
	f.noShrink = fs.Bool("no-shrink", false, "write the violating walk as found, without shrinking it")
	f.traceOut = fs.String("out", "", "write a counterexample trace to `FILE` (default: ALGO.PROPERTY.sim.trace.json)")
	addAlias(fs, "trace-out", "out")
	f.asJSON = fs.Bool("json", false, "print the result as one JSON object")
	f.progress = fs.Duration("progress", 5*time.Second, "report progress on stderr every `interval` (0: never)")
	f.quiet = fs.Bool("quiet", false, "print only the verdict (and where the trace was written); no progress")
	f.full = fs.Bool("full", false, "print every state of the counterexample in full, not only what each step changed")
	f.capacity = addCapacityFlag(fs) // check_capacity.go
	f.swarm = addSwarmFlags(fs, false)
	return f
}

// simSetup is a validated simulate command line: the variant, its
// parameters and system, and the properties to check.
type simSetup struct {
	v           algorithms.Variant
	params      map[string]int
	fromVariant map[string]int // the parameters the variant chose
	sys         model.System
	selected    []model.Property
	strategy    simulate.Strategy
	capacity    int // --channel-capacity (0: unbounded)
}

func cmdSimulate(cat *catalog, args []string, stdout, stderr io.Writer) (int, error) {
	f := newSimFlags(cat, stdout)
	pos, err := parseFlags(f.fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("simulate takes no positional arguments, got %q (did you mean --algo %s?)", pos[0], pos[0])
	}
	shard, err := f.swarm.resolve(f.fs)
	if err != nil {
		return 0, err
	}
	ss, err := f.setup(cat)
	if err != nil {
		return 0, err
	}
	if err := f.prepareSwarm(shard, ss); err != nil {
		return 0, err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	res, err := simulate.Run(ctx, ss.sys, f.options(ss, stderr))
	if err != nil {
		return 0, badInput("%v", err)
	}
	interrupted := ctx.Err() != nil && res.Violation == nil
	if interrupted {
		fmt.Fprintln(stderr, cat.prog+": interrupted; partial summary follows")
	}
	rep := f.report(ss, res, interrupted)
	rep.prog = cat.prog
	var tr *traces.Trace
	if vi := res.Violation; vi != nil {
		if tr, err = f.writeTrace(ss, vi, &rep, stderr); err != nil {
			return 0, err
		}
	}
	if me := res.ModelError; me != nil {
		rep.Verdict = verdictModelError
		meta := traces.Meta{Algorithm: ss.v.Name, Params: ss.params, Options: capacityOptions(nil, ss.capacity)}
		rep.ModelError, tr = writeModelError(cat.prog, ss.sys, meta, &explore.ModelError{Panic: me.Panic, Path: me.Path}, *f.traceOut, true, stderr)
	}
	if shard != nil {
		rep.Swarm = shard.simulateJSON(*f.seed)
		if err := shard.save(rep); err != nil {
			return 0, err
		}
	}
	if *f.asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return 0, err
		}
	} else if *f.quiet {
		printSimVerdict(stdout, &rep) // check_report.go
	} else {
		printSimReport(stdout, &rep, tr, traces.RenderOptions{Full: *f.full})
	}
	switch rep.Verdict {
	case verdictOK:
		return exitOK, nil
	case verdictViolation:
		return shard.exitCode(exitViolation), nil
	case verdictModelError:
		return shard.exitCode(exitModelError), nil
	}
	return shard.exitCode(exitIncomplete), nil
}

// The bounds simulate.Run puts on Options.Workers and Depth (its doc
// says them), for --workers and --depth to refuse as bad input what Run
// would refuse; TestSimBoundsAreRunBounds pins them to Run's.
const (
	maxSimWorkers = 4096
	maxSimDepth   = 1 << 16
)

// setup checks the flags, resolves the algorithm, builds its system and
// selects the properties.
func (f *simFlags) setup(cat *catalog) (*simSetup, error) {
	if *f.algo == "" {
		return nil, badInput("simulate needs --algo NAME; 'tokenmc list' shows the algorithms")
	}
	switch {
	case *f.steps < 1:
		return nil, badInput("--steps must be at least 1, got %d", *f.steps)
	case *f.runs < 1:
		return nil, badInput("--runs must be at least 1, got %d", *f.runs)
	case *f.workers < 1 || *f.workers > min(maxWorkers(), maxSimWorkers):
		return nil, badInput("--workers %d is out of range; give 1..%d (4 per core, at least 64)", *f.workers, min(maxWorkers(), maxSimWorkers))
	case *f.depth < 1 || *f.depth > maxSimDepth:
		return nil, badInput("--depth %d is out of range; give 1..%d", *f.depth, maxSimDepth)
	case *f.progress < 0:
		return nil, badInput("--progress must be >= 0")
	}
	ss := &simSetup{strategy: simulate.Strategy(*f.strategy)}
	valid := false
	var names []string
	for _, s := range []simulate.Strategy{simulate.Uniform, simulate.PCT, simulate.Swarm} {
		valid = valid || s == ss.strategy
		names = append(names, string(s))
	}
	if !valid {
		return nil, badInput("--strategy %q is not one of %s", *f.strategy, strings.Join(names, ", "))
	}
	a, v, err := cat.lookup(*f.algo)
	if err != nil {
		return nil, badInput("%v", err)
	}
	ss.v = v
	if ss.params, ss.fromVariant, err = f.params.resolve(f.fs, a, v); err != nil {
		return nil, err
	}
	sys, extra, err := a.BuildSim(v.Name, ss.params)
	if err != nil {
		return nil, badInput("%v", err)
	}
	if sys, err = applyCapacity(sys, v.Name, *f.capacity); err != nil {
		return nil, err
	}
	ss.sys, ss.capacity = sys, *f.capacity
	if ss.selected, err = invariants.Select(allProps(extra), sys.Info(), *f.props); err != nil {
		return nil, badInput("%v", err)
	}
	if len(ss.selected) == 0 {
		return nil, badInput("no property to check")
	}
	if err := checkTraceOut(*f.traceOut); err != nil {
		return nil, err
	}
	if *f.quiet && *f.asJSON {
		return nil, badInput("--quiet and --json exclude each other: --json prints one JSON object and nothing else")
	}
	return ss, nil
}

// options are the simulator's options, with a progress printer on stderr
// (JSON lines with --json).
func (f *simFlags) options(ss *simSetup, stderr io.Writer) simulate.Options {
	opts := simulate.Options{
		Properties: ss.selected,
		Steps:      *f.steps,
		Runs:       *f.runs,
		Seed:       *f.seed,
		Workers:    *f.workers,
		Strategy:   ss.strategy,
		Depth:      *f.depth,
		NoShrink:   *f.noShrink,
	}
	if *f.progress > 0 && !*f.quiet {
		asJSON := *f.asJSON
		opts.ProgressEvery = *f.progress
		opts.Progress = func(p simulate.Progress) {
			rate := float64(p.Steps) / p.Elapsed.Seconds()
			if asJSON {
				// one JSON object per line on stderr, as check --json does
				b, _ := json.Marshal(simProgressJSON{Progress: true, Runs: p.Runs, Steps: p.Steps, StepsPerS: rate, ElapsedS: p.Elapsed.Seconds()})
				fmt.Fprintf(stderr, "%s\n", b)
				return
			}
			fmt.Fprintf(stderr, "progress: %d runs, %d steps (%.0f/s), %s\n",
				p.Runs, p.Steps, rate, p.Elapsed.Round(time.Second))
		}
	}
	return opts
}

// report is the report of res, without the violation's trace.
func (f *simFlags) report(ss *simSetup, res *simulate.Result, interrupted bool) simulateReport {
	rep := simulateReport{
		Algorithm: ss.v.Name, Params: ss.params, VariantParams: ss.fromVariant, Properties: []string{}, Strategy: string(ss.strategy), Seed: *f.seed,
		Verdict: verdictOK, Runs: res.Runs, Terminal: res.Terminal, Steps: res.Steps, ElapsedS: res.Elapsed.Seconds(),
		StepsPerS: res.StepsPerSecond(), Distinct: res.Distinct, Fired: res.Fired,
		LongestWait: res.LongestWait, WaitProc: res.LongestWaitProc, Workers: *f.workers,
	}
	if ss.capacity > 0 {
		blocked := res.CapacityBlocked
		rep.ChannelCapacity, rep.CapacityBlocked = ss.capacity, &blocked
	}
	for _, p := range ss.selected {
		rep.Properties = append(rep.Properties, p.Name)
	}
	if interrupted {
		rep.Verdict = verdictIncomplete
	}
	return rep
}

// writeTrace writes the violation's trace to --trace-out or the default
// name and records it in rep.
func (f *simFlags) writeTrace(ss *simSetup, vi *simulate.Violation, rep *simulateReport, stderr io.Writer) (*traces.Trace, error) {
	rep.Verdict = verdictViolation
	path := *f.traceOut
	if path == "" {
		path = defaultFile(ss.v.Name, vi.Property.Name, true)
	}
	tr, err := traces.FromSteps(ss.sys.NewWorker(), traces.Meta{
		Algorithm: ss.v.Name, Params: ss.params, Property: vi.Property.Name, PropertyKind: vi.Property.Kind,
		Options: capacityOptions(nil, ss.capacity),
	}, vi.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("building the counterexample trace: %v", err)
	}
	path = saveTrace(rep.prog, stderr, path, path == *f.traceOut, tr)
	rep.Violation = &simViolation{Property: vi.Property.Name, Run: vi.Run, RunSeed: vi.RunSeed, Found: vi.Found, Length: vi.Len(), TraceFile: path}
	return tr, nil
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
	fmt.Fprintf(w, "%s %s (simulate, %s, seed %d, %d worker(s)%s)\n", rep.Algorithm, paramString(rep.Params), rep.Strategy, rep.Seed, rep.Workers, variantParamsNote(rep.VariantParams))
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
	if rep.ChannelCapacity > 0 {
		fmt.Fprintf(w, "channel capacity %d: under-approximation (a step that would put more than %d messages on one channel is never taken); %d runs ended capacity-blocked (not deadlocks)\n",
			rep.ChannelCapacity, rep.ChannelCapacity, *rep.CapacityBlocked)
	}
	switch rep.Verdict {
	case verdictOK:
		fmt.Fprintf(w, "verdict: ok, no violation in %d runs (a sample, not a proof)\n", rep.Runs)
	case verdictIncomplete:
		fmt.Fprintf(w, "verdict: incomplete (interrupted); no violation so far (%d runs completed; the steps count the runs cut short too)\n", rep.Runs)
	case verdictViolation:
		vi := rep.Violation
		fmt.Fprintf(w, "verdict: VIOLATION of %s in run %d after %d steps, shrunk to %d steps\n\n", vi.Property, vi.Run, vi.Found, vi.Length)
		if tr != nil {
			_ = traces.Render(w, tr, ro)
		}
		if vi.TraceFile == "" {
			fmt.Fprintln(w, "\nthe trace file could not be written (the error is above); the counterexample is printed here only")
			return
		}
		fmt.Fprintf(w, "\ntrace written to %s; replay it with: %s replay %s\n", vi.TraceFile, progOr(rep.prog), vi.TraceFile)
		fmt.Fprintln(w, viewHint(rep.prog, vi.TraceFile))
	case verdictModelError:
		fmt.Fprintln(w, modelErrorLine(rep.ModelError))
		printModelError(w, rep.prog, rep.ModelError, tr)
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
		return badInput("--out %s is a directory; give a file name", path)
	}
	if err := checkRegular("--out", path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return badInput("--out %s: directory %s does not exist; create it or choose another path", path, dir)
	}
	if !fi.IsDir() {
		return badInput("--out %s: %s is not a directory", path, dir)
	}
	return nil
}
