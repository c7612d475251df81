package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

const reportSynopsis = `tokenmc report [--out FILE] [--max-states X] [--only NAMES] [--workers K] [--json]

Checks every variant of every registered algorithm (defaults, literal readings
and mutants) at its default parameters and prints a Markdown table: states,
transitions, the verdict of every property (ok, VIOLATED (length of the
shortest counterexample), n/a, or incomplete), and the time taken. Safety
properties are checked breadth first, one violated property at a time, so
every length is the shortest for that property; starvation-freedom and
concurrent-occupancy use the liveness search with weak fairness.

Exit codes: 0 every row complete and as expected (every property the
variant's Breaks lists is violated, and a default or repaired variant
violates nothing else), 1 some row differs from its expectation, 3 otherwise some row incomplete (the bound,
an error or Ctrl-C). The table is written in every case.

Regenerate the repository's table with:
  go run ./cmd/tokenmc report --out docs/results.md`

// defaultReportMaxStates bounds each search of the report so that the whole
// table takes a few minutes on two cores.
const defaultReportMaxStates = 300000

func init() {
	registerCommand("report", command{order: 3, synopsis: "report [--out FILE] [--json]",
		summary: "check every algorithm variant at its defaults; Markdown table", run: cmdReport})
}

// reportOptions configure buildReport.
type reportOptions struct {
	MaxStates int64 // per search (0: no bound)
	Workers   int
}

// propResult is the verdict of one property in one row.
type propResult struct {
	Property string `json:"property"`
	// Verdict is "ok", "violated", "incomplete" or "n/a".
	Verdict string `json:"verdict"`
	// Length is the number of steps of the counterexample: the shortest one
	// for a safety property, prefix plus one cycle for a starvation lasso.
	Length int `json:"length,omitempty"`
}

// reportRow is one variant checked at its default parameters.
type reportRow struct {
	Algorithm   string         `json:"algorithm"`
	Variant     string         `json:"variant"`
	Kind        string         `json:"kind"`
	Params      map[string]int `json:"params"`
	States      int64          `json:"states"`
	Transitions int64          `json:"transitions"`
	Complete    bool           `json:"complete"` // the state space was covered
	Properties  []propResult   `json:"properties"`
	Breaks      []string       `json:"breaks"` // what the registry expects to fail
	// Unexpected lists the differences from Breaks that matter: a property
	// in Breaks that holds, or a violation by a default or repaired variant.
	Unexpected []string `json:"unexpected"`
	// Also lists the properties a mutant or literal reading violates beyond
	// its Breaks (informational).
	Also     []string `json:"also_violates"`
	ElapsedS float64  `json:"elapsed_s"`
	Error    string   `json:"error,omitempty"`
	claim    string   // the claim of an extra row (reportExtras); "" for a variant's own
}

// reportJSON is the --json output of report: a public contract.
type reportJSON struct {
	MaxStates int64  `json:"max_states"` // bound of every search (0: none)
	Fairness  string `json:"fairness"`   // message fairness of the liveness searches
	// Interrupted is true when Ctrl-C stopped the report: Rows holds the
	// rows checked so far.
	Interrupted bool        `json:"interrupted"`
	Rows        []reportRow `json:"rows"`
}

// reportColumns are the property columns of the table, in order; any other
// (algorithm-specific) property goes to the "other" column.
var reportColumns = []string{
	invariants.NameMutex, invariants.NameGMESafety, invariants.NameSingleToken,
	invariants.NameNoUnrequestedEntry, invariants.NameNoDeadlock,
	invariants.NameStarvationFreedom, invariants.NameConcurrentOccupancy,
}

func cmdReport(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("report", reportSynopsis, stdout)
	out := fs.String("out", "", "write the table to `FILE` instead of stdout")
	maxStates := fs.Int64("max-states", defaultReportMaxStates, "bound every search to `X` states (0: no bound); rows that reach it say incomplete")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "worker goroutines `K` for breadth-first search")
	asJSON := fs.Bool("json", false, "print the rows as one JSON object instead of Markdown")
	only := fs.String("only", "", "comma-separated algorithm `NAMES` to report on (default: every registered algorithm)")
	quiet := fs.Bool("quiet", false, "no progress line per row on stderr")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("report takes no positional arguments, got %q", pos[0])
	}
	if *maxStates < 0 {
		return 0, badInput("--max-states must be >= 0 (0: no bound), got %d", *maxStates)
	}
	if *workers < 1 {
		return 0, badInput("--workers must be at least 1, got %d", *workers)
	}
	algs, err := selectAlgorithms(*only)
	if err != nil {
		return 0, err
	}
	// With --out, write to FILE.tmp (created now, so that a bad path fails
	// before minutes of checking) and rename it at the end.
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out + ".tmp"); err != nil {
			return 0, badInput("--out: %v", err)
		}
		defer os.Remove(f.Name()) // a no-op after the rename
		defer f.Close()
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	opts := reportOptions{MaxStates: *maxStates, Workers: *workers}
	rows := buildReport(ctx, algs, opts, func(r reportRow) {
		if !*quiet {
			fmt.Fprintf(stderr, "report: %-40s %8d states %6.1fs\n", r.Variant, r.States, r.ElapsedS)
		}
	})
	interrupted := ctx.Err() != nil
	w := stdout
	if f != nil {
		w = f
	}
	if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(reportJSON{MaxStates: opts.MaxStates, Fairness: invariants.WeakFairness.String(), Interrupted: interrupted, Rows: rows}); err != nil {
			return 0, err
		}
	} else {
		if err := writeReportMarkdown(w, rows, opts); err != nil {
			return 0, err
		}
		if interrupted {
			fmt.Fprintln(w, "\n**Interrupted: only the rows above were checked.**")
		}
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return 0, fmt.Errorf("writing %s: %v", *out, err)
		}
		if err := os.Rename(f.Name(), *out); err != nil {
			return 0, fmt.Errorf("writing %s: %v", *out, err)
		}
		fmt.Fprintf(stderr, "report: %d rows written to %s\n", len(rows), *out)
	}
	if interrupted {
		fmt.Fprintln(stderr, "tokenmc: interrupted; the table holds the rows checked so far")
	}
	return reportExitCode(rows, interrupted), nil
}

// selectAlgorithms returns the registered algorithms named in the
// comma-separated list only (all of them if it is empty), in registry order.
func selectAlgorithms(only string) ([]algorithms.Algorithm, error) {
	all := algorithms.All()
	if strings.TrimSpace(only) == "" {
		return all, nil
	}
	var names []string
	for _, a := range all {
		names = append(names, a.Name)
	}
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(names, n) {
			return nil, badInput("--only: unknown algorithm %q; valid: %s", n, strings.Join(names, ", "))
		}
		want[n] = true
	}
	var out []algorithms.Algorithm
	for _, a := range all {
		if want[a.Name] {
			out = append(out, a)
		}
	}
	return out, nil
}

// reportExitCode is 1 if some row differs from its expectation, else 3 if
// some row is incomplete (a bound, an error or an interrupt), else 0.
func reportExitCode(rows []reportRow, interrupted bool) int {
	code := exitOK
	if interrupted {
		code = exitIncomplete
	}
	for _, r := range rows {
		if len(r.Unexpected) > 0 {
			return exitViolation
		}
		if !r.Complete || r.Error != "" {
			code = exitIncomplete
		}
	}
	return code
}

// buildReport checks every variant of every algorithm in algs at its
// default parameters, in order; done (may be nil) is called after each row.
// An interrupted context leaves the remaining rows out.
func buildReport(ctx context.Context, algs []algorithms.Algorithm, opts reportOptions, done func(reportRow)) []reportRow {
	var rows []reportRow
	for _, a := range algs {
		for _, v := range a.Variants {
			if ctx.Err() != nil {
				return rows
			}
			r := checkRow(ctx, a, v, opts)
			rows = append(rows, r)
			if done != nil {
				done(r)
			}
		}
		for _, e := range reportExtras {
			v, ok := variantOf(a, e.variant)
			if !ok {
				continue
			}
			if ctx.Err() != nil {
				return rows
			}
			v.Params = maps.Clone(v.Params)
			if v.Params == nil {
				v.Params = map[string]int{}
			}
			maps.Copy(v.Params, e.params)
			o := opts
			if o.MaxStates > 0 && e.maxStates > o.MaxStates {
				o.MaxStates = e.maxStates
			}
			r := checkRow(ctx, a, v, o)
			r.claim = e.claim
			rows = append(rows, r)
			if done != nil {
				done(r)
			}
		}
	}
	return rows
}

// variantOf returns a's variant called name.
func variantOf(a algorithms.Algorithm, name string) (algorithms.Variant, bool) {
	for _, v := range a.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return algorithms.Variant{}, false
}

// checkRow checks one variant. Safety properties are checked breadth first
// with all remaining properties at once; each violation found removes its
// property and the search is repeated, so every reported length is the
// shortest counterexample of that property, and the last search (without
// the violated ones) gives the state and transition counts.
func checkRow(ctx context.Context, a algorithms.Algorithm, v algorithms.Variant, opts reportOptions) (row reportRow) {
	start := time.Now()
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
	}
	for k, val := range v.Params {
		params[k] = val
	}
	row = reportRow{Algorithm: a.Name, Variant: v.Name, Kind: v.Kind, Params: params,
		Breaks: append([]string{}, v.Breaks...), Properties: []propResult{}, Unexpected: []string{}, Also: []string{}}
	defer func() {
		// A model under construction may panic; one row must not take the
		// whole table down (panics inside search goroutines still do).
		if p := recover(); p != nil {
			row.Error = fmt.Sprintf("panic: %v", p)
			row.Complete = false
		}
		row.ElapsedS = time.Since(start).Seconds()
	}()
	sys, extra, err := a.Build(v.Name, params)
	if err != nil {
		row.Error = err.Error()
		return row
	}
	info := sys.Info()
	all := invariants.With(extra...)
	verdict := map[string]propResult{}
	remaining := invariants.Applicable(all, info)
	for {
		res, err := explore.Check(ctx, sys, explore.Options{Properties: remaining, Workers: opts.Workers, MaxStates: opts.MaxStates})
		if err != nil {
			row.Error = err.Error()
			return row
		}
		if res.Verdict == explore.Violated {
			name := res.Violation.Property.Name
			verdict[name] = propResult{Property: name, Verdict: "violated", Length: res.Violation.Len()}
			remaining = slices.DeleteFunc(remaining, func(p model.Property) bool { return p.Name == name })
			if len(remaining) > 0 {
				continue
			}
			// Every property is violated: one more search for the counts.
			res, err = explore.Check(ctx, sys, explore.Options{Workers: opts.Workers, MaxStates: opts.MaxStates})
			if err != nil {
				row.Error = err.Error()
				return row
			}
		}
		row.States, row.Transitions = res.States, res.Transitions
		row.Complete = res.Verdict == explore.OK
		for _, p := range remaining {
			if row.Complete {
				verdict[p.Name] = propResult{Property: p.Name, Verdict: "ok"}
			} else {
				verdict[p.Name] = propResult{Property: p.Name, Verdict: "incomplete"}
			}
		}
		break
	}
	for _, l := range invariants.LivenessProperties() {
		if !l.AppliesTo(info) {
			continue
		}
		lres, err := explore.CheckLiveness(ctx, sys, explore.LivenessOptions{
			Starvation: l.Name == invariants.NameStarvationFreedom,
			Occupancy:  l.Name == invariants.NameConcurrentOccupancy,
			Fairness:   invariants.WeakFairness,
			MaxStates:  opts.MaxStates,
		})
		if err != nil {
			row.Error = err.Error()
			return row
		}
		pr := propResult{Property: l.Name, Verdict: "ok"}
		switch {
		case l.Name == invariants.NameStarvationFreedom && len(lres.Starving) > 0:
			pr.Verdict, pr.Length = "violated", lres.Starving[0].Len()
			for _, s := range lres.Starving[1:] {
				pr.Length = min(pr.Length, s.Len())
			}
		case l.Name == invariants.NameConcurrentOccupancy && lres.Occupancy != nil:
			pr.Verdict, pr.Length = "violated", lres.Occupancy.Len()
		case lres.Verdict == explore.Incomplete:
			pr.Verdict = "incomplete"
		}
		verdict[l.Name] = pr
	}
	// Columns first, then algorithm-specific properties in their order.
	var names []string
	for _, c := range reportColumns {
		names = append(names, c)
	}
	for _, p := range all {
		if !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	for _, n := range names {
		pr, ok := verdict[n]
		if !ok {
			pr = propResult{Property: n, Verdict: "n/a"}
		}
		row.Properties = append(row.Properties, pr)
		expected := slices.Contains(v.Breaks, n)
		switch {
		case pr.Verdict == "violated" && !expected && (v.Kind == algorithms.KindMutant || v.Kind == algorithms.KindLiteral):
			// A broken variant often breaks more than its purpose.
			row.Also = append(row.Also, n)
		case pr.Verdict == "violated" && !expected:
			row.Unexpected = append(row.Unexpected, "violates "+n)
		case pr.Verdict == "ok" && expected:
			row.Unexpected = append(row.Unexpected, n+" holds")
		}
	}
	return row
}

func (p propResult) cell() string {
	switch p.Verdict {
	case "violated":
		return fmt.Sprintf("VIOLATED (%d)", p.Length)
	case "n/a", "ok", "incomplete":
		return p.Verdict
	}
	return p.Verdict
}

// writeReportMarkdown prints the rows as a Markdown document.
func writeReportMarkdown(w io.Writer, rows []reportRow, opts reportOptions) error {
	var b strings.Builder
	b.WriteString("# Results: every algorithm variant at its default parameters\n\n")
	b.WriteString("Generated by `tokenmc report`. Regenerate with:\n\n")
	b.WriteString("    go run ./cmd/tokenmc report --out docs/results.md\n\n")
	bound := "no bound"
	if opts.MaxStates > 0 {
		bound = fmt.Sprintf("at most %d states per search", opts.MaxStates)
	}
	fmt.Fprintf(&b, "Each row checks one variant (`tokenmc check --algo VARIANT` with the parameters shown), %s. ", bound)
	b.WriteString("Cells: `ok` (holds on every reachable state), `VIOLATED (k)` (a counterexample of k steps: ")
	b.WriteString("the shortest one for safety properties, found breadth first; prefix plus one cycle of a lasso for starvation-freedom, under weak fairness), ")
	b.WriteString("`n/a` (the property does not apply, e.g. single-token to a permission-based algorithm, mutex to group mutual exclusion), ")
	b.WriteString("`incomplete` (the bound was reached first). Starvation in a finite run with R requests shows up as a no-deadlock violation (semantics.md §1). ")
	b.WriteString("*Expected* lists the properties the registry says the variant breaks (mutants, literal readings); *notes* flag as UNEXPECTED an expected violation that was not found or any violation by a default or repaired variant (these make the command exit 1), and list the further properties a mutant or literal reading also violates. ")
	b.WriteString("*Claim confirmed* names the published claim (seed, section, a short statement) or the expectation of the design notes (`docs/notes/algorithms.md` §9: 9.1 published errors, 9.2 mutants, 9.3 repaired defaults) that the row confirms. ")
	b.WriteString("After an algorithm's variants come its extra rows: a variant with the options a claim needs (e.g. the torus at d = 3 with `--requesters`), checked the same way with the bound raised to at most the row's own (2000000 states for the torus rows). ")
	b.WriteString("Times are wall-clock for all searches of the row and vary between runs.\n\n")
	b.WriteString("| algorithm | variant | kind | parameters | states | transitions |")
	for _, c := range reportColumns {
		b.WriteString(" " + c + " |")
	}
	b.WriteString(" other | expected | notes | claim confirmed | time |\n|")
	for range 6 + len(reportColumns) + 5 {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		variant := "(default)"
		if _, rest, ok := strings.Cut(r.Variant, "/"); ok {
			variant = rest
		}
		states := fmt.Sprint(r.States)
		if !r.Complete {
			states += " (incomplete)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d |", r.Algorithm, variant, r.Kind, paramString(r.Params), states, r.Transitions)
		if r.Error != "" {
			for range reportColumns {
				b.WriteString(" error |")
			}
			fmt.Fprintf(&b, " %s | | | %s | %.1fs |\n", strings.ReplaceAll(r.Error, "|", "/"), r.claimText(), r.ElapsedS)
			continue
		}
		var other []string
		for _, p := range r.Properties {
			if slices.Contains(reportColumns, p.Property) {
				b.WriteString(" " + p.cell() + " |")
			} else {
				other = append(other, p.Property+": "+p.cell())
			}
		}
		var notes []string
		if len(r.Unexpected) > 0 {
			notes = append(notes, "**UNEXPECTED: "+strings.Join(r.Unexpected, "; ")+"**")
		}
		if len(r.Also) > 0 {
			notes = append(notes, "also violates "+strings.Join(r.Also, ", "))
		}
		unexpected := strings.Join(notes, "; ")
		if unexpected == "" {
			unexpected = "-"
		}
		expected := strings.Join(r.Breaks, ", ")
		if expected == "" {
			expected = "-"
		}
		if len(other) == 0 {
			other = []string{"-"}
		}
		fmt.Fprintf(&b, " %s | %s | %s | %s | %.2fs |\n", strings.Join(other, "; "), expected, unexpected, r.claimText(), r.ElapsedS)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// claimText is the claim the row confirms: an extra row's own, else its
// variant's (claimOf).
func (r reportRow) claimText() string {
	if r.claim != "" {
		return strings.ReplaceAll(r.claim, "|", "/")
	}
	return claimOf(r.Variant)
}

// claimOf returns the claim a variant's row confirms ("-" if none is
// recorded), with table pipes escaped.
func claimOf(variant string) string {
	c, ok := reportClaims[variant]
	if !ok {
		return "-"
	}
	return strings.ReplaceAll(c, "|", "/")
}
