package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/linked"
	"github.com/tokenmc/tokenmc/explore/measure"
)

const measureSynopsis = `tokenmc measure --algo A,B --n N[,N...] --load light|heavy|LAMBDA[,...] [flags]
       tokenmc measure --out DIR

A discrete-event simulation of the registered models (the same step
functions the checker verifies): each message takes --t-msg (constant, or
exponential with --exp), each CS --t-exec, requests arrive at light load one
at a time, at heavy load at once after every exit, or at LAMBDA per Idle
process (Poisson). Prints messages per CS, delays and the published formula
beside the measured value with the relative difference; means over
--reps replications with 95% confidence intervals. Safety properties are
checked at every step. An algorithm's parameter flags (e.g. --tree for
raymond) apply to every algorithm of --algo, each of which must have the
parameter; n comes from --n and r is unbounded. --out DIR (--figures DIR) writes the paper figures (SVG and PNG)
and a markdown table. Exit codes: 0 ok, 1 a safety violation, 2 bad input,
3 interrupted.`

func init() {
	registerCommand("measure", command{order: 4, synopsis: "measure --algo A,B --n N --load L", summary: "message complexity and delays by discrete-event simulation, beside the published formulas", run: cmdMeasure})
}

// measureFlags are measure's flags.
type measureFlags struct {
	fs                           *flag.FlagSet
	params                       *paramFlags
	algos, ns, loads, timers     *string
	tmsg, texec                  *float64
	exp, asJSON, quiet           *bool
	entries, warmup, reps, works *int
	seed                         *uint64
	figDir                       *string
}

// maxReps bounds --reps: measure.Run takes at most 10,000 replications
// (it keeps every replication's summary until the figures are merged);
// TestMaxRepsIsMeasureBound pins the two bounds together.
const maxReps = 10_000

// measurePlan is a validated measure command line: the algorithms, sizes
// and loads to measure, and the configuration they share.
type measurePlan struct {
	algos []measureAlgo
	ns    []int
	loads []measure.Load
	base  measure.Config // Algo, Build, Facts, N, Load and Params unset
	prog  string         // the program name of the messages
}

// measureAlgo is one algorithm of --algos, resolved in the catalog, with
// the parameter flags given for it.
type measureAlgo struct {
	name    string
	alg     algorithms.Algorithm
	variant string // the variant's full name
	params  map[string]int
	// fromVariant: the variant's own parameters (Variant.Params) that
	// apply, as check's VariantParams; nil when none.
	fromVariant map[string]int
}

// withVariantParams adds to the parameters given as flags those of
// variant v (Variant.Params) that no flag set, as check does, except n and
// r, which measure sets itself. It returns the parameters and the ones
// taken from the variant (nil when none).
func withVariantParams(given map[string]int, v algorithms.Variant) (params, fromVariant map[string]int) {
	for k, x := range v.Params {
		if _, set := given[k]; set || k == "n" || k == "r" {
			continue
		}
		if params == nil {
			params = maps.Clone(given)
			if params == nil {
				params = map[string]int{}
			}
			fromVariant = map[string]int{}
		}
		params[k], fromVariant[k] = x, x
	}
	if params == nil {
		params = given
	}
	return params, fromVariant
}

func newMeasureFlags(cat *catalog, stdout io.Writer) *measureFlags {
	fs := cat.newFlagSet("measure", measureSynopsis, stdout)
	m := &measureFlags{fs: fs}
	m.algos = fs.String("algo", "", "comma-separated algorithm `NAMES` (see tokenmc list)")
	m.ns = fs.String("n", "", "comma-separated process counts `N`")
	m.loads = fs.String("load", "light,heavy", "comma-separated `loads`: light, heavy or an arrival rate per process")
	m.tmsg = fs.Float64("t-msg", 0.1, "message delay (mean with --exp)")
	m.exp = fs.Bool("exp", false, "exponential message delays")
	m.texec = fs.Float64("t-exec", 0.1, "CS duration")
	m.timers = fs.String("timers", "", "comma-separated timer durations by timer number (Banerjee-Chrysanthis: collection,forwarding; default 0.1,0.1)")
	m.entries = fs.Int("entries", 2000, "measured CS entries per replication")
	m.warmup = fs.Int("warmup", 200, "CS entries discarded at the start of each replication")
	m.reps = fs.Int("reps", 5, "independent replications")
	m.seed = fs.Uint64("seed", 1, "random seed")
	m.works = fs.Int("workers", 2, "goroutines running replications")
	m.asJSON = fs.Bool("json", false, "print one JSON array of rows")
	m.figDir = fs.String("out", "", "write the paper figures and table to `DIR` and exit")
	addAlias(fs, "algos", "algo")
	addAlias(fs, "figures", "out")
	m.quiet = fs.Bool("quiet", false, "with --out DIR: no progress lines on stderr")
	// --n is measure's own list of sizes; r is unbounded in the simulation.
	m.params = addParamFlags(fs, cat, "n", "r")
	return m
}

func cmdMeasure(cat *catalog, args []string, stdout, stderr io.Writer) (int, error) {
	m := newMeasureFlags(cat, stdout)
	pos, err := parseFlags(m.fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("measure takes no positional arguments, got %q", pos[0])
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if *m.figDir != "" {
		return measureFigures(ctx, cat.prog, m, stderr)
	}
	plan, err := m.plan(cat)
	if err != nil {
		return 0, err
	}
	rows, code, err := plan.run(ctx, *m.works, stderr)
	if err != nil {
		return 0, err
	}
	if *m.asJSON {
		if rows == nil {
			rows = []measureRow{}
		}
		return code, writeJSON(stdout, rows)
	}
	printMeasureTable(stdout, rows)
	return code, nil
}

// measureFigures is measure --figures DIR.
func measureFigures(ctx context.Context, prog string, m *measureFlags, stderr io.Writer) (int, error) {
	given := false
	m.fs.Visit(func(f *flag.Flag) {
		if f.Name == "algo" || f.Name == "n" || m.params.values[f.Name] != nil {
			given = true
		}
	})
	if given {
		return 0, badInput("measure: --out DIR (the figures) takes no --algo, --n or parameter flags; it runs the fixed set of the docs")
	}
	if linked.Figures == nil {
		return 0, badInput("measure --out DIR: %s", notLinked("the figures (gonum/plot)", linked.FiguresPackage))
	}
	if fi, err := os.Stat(*m.figDir); err == nil && !fi.IsDir() {
		return 0, badInput("--out %s is not a directory; give a directory to create or fill", *m.figDir)
	}
	progress := stderr
	if *m.quiet {
		progress = io.Discard
	}
	return writeFigures(ctx, prog, *m.figDir, progress, stderr)
}

// plan validates the flags and resolves the algorithms.
func (m *measureFlags) plan(cat *catalog) (*measurePlan, error) {
	if *m.algos == "" || *m.ns == "" {
		return nil, badInput("measure needs --algo A,B and --n N (e.g. --algo banerjee,torus --n 16 --load heavy)")
	}
	switch {
	case *m.reps < 1 || *m.reps > maxReps:
		return nil, badInput("--reps %d is out of range; give 1..%d", *m.reps, maxReps)
	case *m.entries < 1:
		return nil, badInput("--entries must be at least 1, got %d", *m.entries)
	case *m.warmup < 0:
		return nil, badInput("--warmup must be >= 0, got %d", *m.warmup)
	case *m.works < 1 || *m.works > maxWorkers():
		return nil, badInput("--workers %d is out of range; give 1..%d (4 per core, at least 64)", *m.works, maxWorkers())
	case !(*m.tmsg > 0) || math.IsInf(*m.tmsg, 0):
		return nil, badInput("--t-msg must be a positive number, got %g", *m.tmsg)
	case !(*m.texec > 0) || math.IsInf(*m.texec, 0):
		return nil, badInput("--t-exec must be a positive number, got %g", *m.texec)
	}
	p := &measurePlan{prog: cat.prog, base: measure.Config{TMsg: *m.tmsg, ExpMsg: *m.exp, TExec: *m.texec,
		Entries: *m.entries, Warmup: *m.warmup, Replications: *m.reps, Seed: *m.seed}}
	if *m.warmup == 0 {
		p.base.Warmup = -1 // explicit zero: Defaults must not replace it
	}
	for _, f := range strings.Split(*m.ns, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 2 {
			return nil, badInput("--n %q: give process counts >= 2, comma-separated (e.g. 16,64)", f)
		}
		p.ns = append(p.ns, v)
	}
	for _, f := range strings.Split(*m.loads, ",") {
		l, err := parseLoad(strings.TrimSpace(f))
		if err != nil {
			return nil, badInput("--load: %v", err)
		}
		p.loads = append(p.loads, l)
	}
	if *m.timers != "" {
		for _, f := range strings.Split(*m.timers, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || v < 0 || math.IsInf(v, 0) {
				return nil, badInput("--timers %q: give non-negative durations, comma-separated (e.g. 0.1,0.2)", f)
			}
			p.base.Timers = append(p.base.Timers, v)
		}
	}
	for _, name := range strings.Split(*m.algos, ",") {
		name = strings.TrimSpace(name)
		a, v, err := cat.lookup(name)
		if err != nil {
			return nil, badInput("%v", err)
		}
		params, err := m.params.given(m.fs, a)
		if err != nil {
			return nil, err
		}
		params, fromVariant := withVariantParams(params, v)
		p.algos = append(p.algos, measureAlgo{name: name, alg: a, variant: v.Name, params: params, fromVariant: fromVariant})
	}
	return p, nil
}

// run measures every algorithm, size and load of p in order. An interrupt
// stops it with the rows measured so far and exit code 3; a safety
// violation makes the exit code 1.
func (p *measurePlan) run(ctx context.Context, workers int, stderr io.Writer) ([]measureRow, int, error) {
	var rows []measureRow
	code := exitOK
	for _, a := range p.algos {
		for _, n := range p.ns {
			for _, l := range p.loads {
				cfg := p.base
				cfg.Algo, cfg.N, cfg.Load, cfg.Params = a.name, n, l, a.params
				cfg.Build, cfg.Facts = a.alg.MeasureBuild(a.variant), a.alg.Measure
				res, err := measure.Run(ctx, cfg, workers)
				var panicked *measure.PanicError
				if errors.As(err, &panicked) {
					return nil, 0, &internalError{value: fmt.Sprintf("measure %s n=%d: %v", a.name, n, panicked), stack: panicked.Stack}
				}
				if err != nil {
					if ctx.Err() != nil {
						fmt.Fprintln(stderr, p.prog+": interrupted; partial summary follows")
						return rows, exitIncomplete, nil
					}
					return nil, 0, badInput("measure %s n=%d: %v%s", a.name, n, err, variantParamsNote(a.fromVariant))
				}
				row := measureRowOf(res)
				row.VariantParams = a.fromVariant
				rows = append(rows, row)
				if res.Violation != "" {
					code = exitViolation
				}
				if res.Interrupted {
					fmt.Fprintln(stderr, p.prog+": interrupted; partial summary follows")
					return rows, exitIncomplete, nil
				}
			}
		}
	}
	return rows, code, nil
}

// parseLoad reads a --load value: "light", "heavy" or a positive arrival
// rate per process (measure.Load's String is its inverse).
func parseLoad(s string) (measure.Load, error) {
	switch s {
	case "light", "heavy":
		return measure.Load{Kind: s}, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return measure.Load{}, fmt.Errorf("load %q is not light, heavy or a positive arrival rate per process (e.g. 0.5)", s)
	}
	return measure.Load{Kind: "rate", Lambda: v}, nil
}
