package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
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
                     [--channel-capacity K]
                     [--fairness weak|strong|none] [--out FILE] [--json]
                     [--quiet] [--full] [--coverage] [--report FILE.html]
                     [--memory SIZE] [--workdir DIR] [--spill-above SIZE] [--bitstate SIZE]
                     [--checkpoint DIR [--checkpoint-every 10m] [--checkpoint-replace]] | --resume DIR
                     [--swarm K [--swarm-index I] [--swarm-out DIR] [--swarm-depth D]]

Explores every reachable state of the algorithm (breadth first by default, so a
counterexample is a shortest one) and checks the properties. On a violation it
writes a trace file that 'tokenmc replay' re-executes. Progress goes to stderr
every few seconds; Ctrl-C stops with a partial summary (exit 3).

With --swarm K the search is one shard of a swarm of K diversified searches
(hash seed, successor order, breadth or depth first, depth bound, chosen by
the shard index: --swarm-index, or JOB_COMPLETION_INDEX or
SLURM_ARRAY_TASK_ID from the scheduler); 'tokenmc swarm' plans and merges
them (docs/distributed.md).

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

// checkSetup is what check builds from its flags before searching: the
// algorithm, its parameters, the system and the properties.
type checkSetup struct {
	a           algorithms.Algorithm
	v           algorithms.Variant
	params      map[string]int
	fromVariant map[string]int // the parameters the variant chose (VariantParams)
	sys         model.System   // the system as built
	searchSys   model.System   // sys, or its quotient under --symmetry
	sym         *model.Symmetry
	extra       []model.Property // the algorithm's own properties
	selected    []model.Property // the safety properties to check
	prog        string           // the program name of the messages
	liveness    []string         // the liveness properties to check
	capacity    int              // --channel-capacity (0: unbounded)
	swarm       *swarmShard      // --swarm: the shard this process runs (nil: none)
}

func cmdCheck(cat *catalog, args []string, stdout, stderr io.Writer) (int, error) {
	fs := cat.newFlagSet("check", checkSynopsis, stdout)
	algo := fs.String("algo", "", "algorithm `NAME` or NAME/VARIANT (see tokenmc list)")
	pflags := addParamFlags(fs, cat)
	props := fs.String("props", "", "comma-separated `properties` to check (default: all that apply)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "worker goroutines `K` for breadth-first search")
	maxStates := fs.Int64("max-states", 0, "stop after `X` distinct states (0: no bound; exit 3 if reached)")
	maxDepth := fs.Int("max-depth", 0, "do not go deeper than `D` steps (0: no bound; exit 3 if reached)")
	exact := fs.Bool("exact", false, "store full states instead of 64-bit fingerprints (no collisions, more memory)")
	dfs := fs.Bool("dfs", false, "search depth first (single worker; counterexamples need not be shortest)")
	traceOut := fs.String("out", "", "write a counterexample trace to `FILE` (default: ALGO.PROPERTY.trace.json in the current directory, with _ for / in ALGO)")
	addAlias(fs, "trace-out", "out")
	view := addViewFlags(fs) // --verbose, --graph (check_view.go)
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	progress := fs.Duration("progress", 5*time.Second, "report progress on stderr every `interval` (0: never)")
	fairness := fs.String("fairness", "weak", "fairness of message delivery for starvation-freedom: `weak`, strong or none")
	memFlags := addMemoryFlags(fs) // --memory, --workdir, --spill-above (check_memory.go)
	symFlag := fs.Bool("symmetry", false, "search one state per orbit of the algorithm's symmetry group (safety only; counts are orbits, traces concrete)")
	ui := addReportFlags(fs) // --report, --coverage, --quiet, --full (check_report.go)
	// --channel-capacity (check_capacity.go)
	capacity := addCapacityFlag(fs)
	swarmF := addSwarmFlags(fs, true) // --swarm, --swarm-index, --swarm-out, --swarm-depth (swarm.go)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if err := memFlags.resumeDefaults(fs); err != nil { // --resume DIR alone
		return 0, err
	}
	if code, done, err := ui.intercept(cat, fs, stdout, stderr); done {
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
	if err := checkOutDir("--out", *traceOut); err != nil {
		return 0, err
	}
	if *maxStates < 0 || *maxDepth < 0 {
		return 0, badInput("--max-states and --max-depth must be >= 0")
	}
	if *progress < 0 {
		return 0, badInput("--progress must be >= 0")
	}
	shard, err := swarmF.resolve(fs)
	if err != nil {
		return 0, err
	}
	if err := refuseWithSwarm(fs, shard, checkRefusals); err != nil {
		return 0, err
	}
	fair, err := model.ParseFairness(*fairness)
	if err != nil {
		return 0, badInput("--fairness: %v", err)
	}
	cs, err := buildCheck(cat, fs, pflags, *algo, *props, *symFlag, *capacity)
	if err != nil {
		return 0, err
	}
	if err := memFlags.refuseLiveness(cs.liveness, len(cs.selected) > 0); err != nil {
		return 0, err
	}

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	opts := explore.Options{
		Properties: cs.selected,
		Workers:    *workers,
		MaxStates:  *maxStates,
		MaxDepth:   *maxDepth,
		Exact:      *exact,
		DFS:        *dfs,
	}
	if err := memFlags.apply(&opts); err != nil {
		return 0, err
	}
	if err := shard.prepareCheck(cs, &opts, traceOut); err != nil {
		return 0, err
	}
	cs.swarm = shard
	if err := view.writeGraph(ctx, cs, opts.MemoryBudget, stderr); err != nil {
		return 0, err
	}
	opts.CheckpointID = checkpointID(cs.v.Name, cs.params, propNames(cs.selected), &opts, *symFlag, cs.capacity)
	if *progress > 0 {
		opts.ProgressEvery = *progress
		opts.Progress = progressPrinter(stderr, *asJSON)
	}
	lr := livenessRun{prog: cat.prog, sys: cs.sys, name: cs.v.Name, params: cs.params, fromVariant: cs.fromVariant, liveness: cs.liveness, fairness: fair,
		opts: opts, traceOut: *traceOut, asJSON: *asJSON, verbose: *view.verbose}
	if len(cs.selected) == 0 {
		return runLiveness(ctx, lr, nil, stdout, stderr)
	}
	return runSafety(ctx, cs, lr, stdout, stderr)
}

// buildCheck resolves the algorithm and its parameters, builds the system,
// selects the properties and applies --symmetry.
func buildCheck(cat *catalog, fs *flag.FlagSet, pflags *paramFlags, algo, props string, symmetry bool, capacity int) (*checkSetup, error) {
	a, v, err := cat.lookup(algo)
	if err != nil {
		return nil, badInput("%v", err)
	}
	cs := &checkSetup{a: a, v: v, prog: cat.prog, capacity: capacity}
	cs.params, cs.fromVariant, err = pflags.resolve(fs, a, v)
	if err != nil {
		return nil, err
	}
	cs.sys, cs.extra, err = a.Build(v.Name, cs.params)
	if err != nil {
		return nil, badInput("%v", err)
	}
	safetyNames, liveness, err := splitLiveness(props, cs.sys.Info())
	if err != nil {
		return nil, err
	}
	cs.liveness = liveness
	if err := refuseCapacityLiveness(capacity, liveness); err != nil {
		return nil, err
	}
	if err := refuseCapacitySymmetry(capacity, symmetry); err != nil {
		return nil, err
	}
	if cs.sys, err = applyCapacity(cs.sys, v.Name, capacity); err != nil {
		return nil, err
	}
	if len(liveness) == 0 || safetyNames != "" {
		cs.selected, err = invariants.Select(allProps(cs.extra), cs.sys.Info(), safetyNames)
		if err != nil {
			return nil, badInput("%v", err)
		}
	}
	if len(cs.selected) == 0 && len(liveness) == 0 {
		return nil, badInput("no property to check")
	}
	cs.searchSys, cs.sym, err = reduceBySymmetry(cat, symmetry, a, v.Name, cs.params, cs.sys, cs.selected, cs.extra, liveness)
	if err != nil {
		return nil, err
	}
	return cs, nil
}

// runSafety runs the safety search of check, writes the counterexample's
// trace, goes on to the liveness properties when the search ended ok, and
// prints the report.
func runSafety(ctx context.Context, cs *checkSetup, lr livenessRun, stdout, stderr io.Writer) (int, error) {
	opts := lr.opts
	res, err := explore.Check(ctx, cs.searchSys, opts)
	if err != nil {
		return 0, badInput("%v", err)
	}
	if err := concretizeViolation(cs.sys, cs.sym, res); err != nil {
		return 0, err
	}
	if err := concretizeModelError(cs.sys, cs.sym, res.ModelError); err != nil {
		return 0, err
	}
	if res.StopReason == stopInterrupted {
		fmt.Fprintf(stderr, "%s: interrupted; partial summary follows\n", cs.prog)
	}
	if res.StopReason == stopMemory || res.StopReason == stopDisk {
		fmt.Fprintf(stderr, "%s: stopped (%s): %s; partial summary follows\n", cs.prog, res.StopReason, res.StopDetail)
	}
	rep := safetyReport(cs, res, opts)
	rep.verbose = lr.verbose
	var tr *traces.Trace
	if res.Violation != nil {
		if tr, err = writeViolation(cs, res.Violation, lr.traceOut, &rep, stderr); err != nil {
			return 0, err
		}
	}
	if res.ModelError != nil {
		rep.ModelError, tr = writeModelError(cs.prog, cs.sys, cs.traceMeta(), res.ModelError, lr.traceOut, false, stderr)
	}
	if len(cs.liveness) > 0 && res.Verdict == explore.OK {
		return runLiveness(ctx, lr, &rep, stdout, stderr)
	}
	if len(cs.liveness) > 0 {
		rep.Fairness = lr.fairness.String()
		rep.Liveness = &livenessJSON{Properties: cs.liveness, Verdict: "skipped",
			Skipped: "the safety search did not end with ok (" + string(res.Verdict) + "), so the liveness properties were not checked"}
	}
	if err := cs.swarm.finishCheck(&rep, res, opts); err != nil {
		return 0, err
	}
	if lr.asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return 0, err
		}
	} else {
		printSwarmShard(stdout, rep.Swarm)
		printReport(stdout, &rep, tr)
		if rep.Liveness != nil {
			fmt.Fprintf(stdout, "liveness (%s): not checked: %s\n", strings.Join(cs.liveness, ", "), rep.Liveness.Skipped)
		}
	}
	noteIncomplete(stderr, &rep)
	switch res.Verdict {
	case explore.OK, explore.OKPartial:
		return exitOK, nil
	case explore.Violated:
		return cs.swarm.exitCode(exitViolation), nil
	case explore.ModelFailed:
		return cs.swarm.exitCode(exitModelError), nil
	}
	return cs.swarm.exitCode(exitIncomplete), nil
}

// traceMeta is the metadata of the traces of the search (the property is
// the caller's to fill).
func (cs *checkSetup) traceMeta() traces.Meta {
	return traces.Meta{Algorithm: cs.v.Name, Params: cs.params, Options: capacityOptions(nil, cs.capacity)}
}

// safetyReport is the JSON report of a safety search.
func safetyReport(cs *checkSetup, res *explore.Result, opts explore.Options) checkReport {
	rep := checkReport{
		prog:                 cs.prog,
		Algorithm:            cs.v.Name,
		Params:               cs.params,
		VariantParams:        cs.fromVariant,
		Verdict:              string(res.Verdict),
		States:               res.States,
		Transitions:          res.Transitions,
		Depth:                res.Depth,
		ElapsedS:             res.Elapsed.Seconds(),
		StatesPerS:           res.StatesPerSecond(),
		BytesPerState:        res.BytesPerState(),
		CollisionProbability: res.CollisionEstimate(),
		Search:               "bfs",
		Mode:                 "fingerprint",
		Workers:              opts.Workers,
		StopReason:           res.StopReason,
		Properties:           []string{},
		Symmetry:             symmetryReport(cs.sym),
		ChannelCapacity:      cs.capacity,
	}
	if cs.capacity > 0 {
		blocked := res.CapacityBlocked
		rep.CapacityBlocked = &blocked
	}
	memoryReport(&rep, res)
	if res.States > 0 {
		rep.LinkBytesPerState = float64(res.LinkBytes) / float64(res.States)
	}
	if opts.DFS {
		rep.Search, rep.Workers = "dfs", 1
	}
	if opts.Exact {
		rep.Mode = "exact"
	}
	for _, p := range cs.selected {
		rep.Properties = append(rep.Properties, p.Name)
	}
	return rep
}

// writeViolation writes the trace of a safety violation to traceOut (or
// the default name) and records it in rep.
func writeViolation(cs *checkSetup, vi *explore.Violation, traceOut string, rep *checkReport, stderr io.Writer) (*traces.Trace, error) {
	path := traceOut
	if path == "" {
		path = defaultTracePath(cs.v.Name, vi.Property.Name)
	}
	tr, err := traces.FromSteps(cs.sys.NewWorker(), traces.Meta{
		Algorithm:    cs.v.Name,
		Params:       cs.params,
		Property:     vi.Property.Name,
		PropertyKind: vi.Property.Kind,
		Options:      capacityOptions(nil, cs.capacity),
	}, vi.Path, vi.Actions)
	if err != nil {
		return nil, fmt.Errorf("building the counterexample trace: %v", err)
	}
	path = saveTrace(cs.prog, stderr, path, path == traceOut, tr)
	rep.Violation = &violationJSON{Property: vi.Property.Name, Length: vi.Len(), TraceFile: path}
	return tr, nil
}
