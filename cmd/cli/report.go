package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/traces/outfile"

	"github.com/tokenmc/tokenmc/model/safefile"
)

const reportSynopsis = `tokenmc report [--out FILE] [--max-states X] [--algo NAMES] [--workers K] [--json]

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

With --out FILE (Markdown), the hand-written part of an existing FILE is
kept: everything from its first second-level heading (a line starting with
"## ", which the generated table never writes) to its end follows the new
table; other text above that heading is replaced, and stderr says how many
lines. --json --out refuses a FILE holding such hand-written text.

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
	Prog      string // the program name the Markdown gives ("": tokenmc)
	Only      string // --algo: the algorithms reported on ("": all)
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

func cmdReport(cat *catalog, args []string, stdout, stderr io.Writer) (int, error) {
	fs := cat.newFlagSet("report", reportSynopsis, stdout)
	out := fs.String("out", "", "write the table to `FILE` instead of stdout")
	maxStates := fs.Int64("max-states", defaultReportMaxStates, "bound every search to `X` states (0: no bound); rows that reach it say incomplete")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "worker goroutines `K` for breadth-first search")
	asJSON := fs.Bool("json", false, "print the rows as one JSON object instead of Markdown")
	only := fs.String("algo", "", "comma-separated algorithm `NAMES` to report on (default: every registered algorithm)")
	quiet := fs.Bool("quiet", false, "no progress line per row on stderr")
	addAlias(fs, "only", "algo")
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
	algs, err := selectAlgorithms(cat, *only)
	if err != nil {
		return 0, err
	}
	// With --out, write to FILE.tmp (created now, so that a bad path fails
	// before minutes of checking) and rename it at the end. The
	// hand-written sections of the existing Markdown file are read now and
	// kept. A symbolic link at FILE is followed: the file it points to is
	// replaced and the link stays.
	var f *os.File
	var kept, target string
	if *out != "" {
		if err := checkRegular("--out", *out); err != nil {
			return 0, err
		}
		var dropped int
		var isJSON bool
		kept, dropped, isJSON, err = handWritten(*out)
		if err != nil {
			return 0, badInput("--out: %v", err)
		}
		switch {
		case *asJSON && !isJSON && (kept != "" || dropped > 0):
			return 0, badInput("--out %s holds hand-written text that the JSON report would replace; give --json another file (or move the text away)", *out)
		case *asJSON:
			kept = ""
		case dropped > 0:
			fmt.Fprintf(stderr, "report: %d line(s) of %s above its first \"## \" heading are not the generated table and are replaced (hand-written text survives under a \"## \" heading)\n", dropped, *out)
		}
		target = outfile.Target(*out)
		if f, err = os.Create(target + ".tmp"); err != nil {
			return 0, badInput("--out: %v", err)
		}
		defer os.Remove(f.Name()) // a no-op after the rename
		defer f.Close()
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	opts := reportOptions{MaxStates: *maxStates, Workers: *workers, Prog: cat.prog, Only: *only}
	progressOut := stderr
	if *quiet {
		progressOut = io.Discard
	}
	started := time.Now()
	progress := startReportProgress(progressOut, algs, *maxStates, reportProgressEvery)
	rows := buildReport(ctx, algs, opts, progress.row)
	progress.stop()
	interrupted := ctx.Err() != nil
	w := stdout
	if f != nil {
		w = f
	}
	if *asJSON {
		if err := writeJSON(w, reportJSON{MaxStates: opts.MaxStates, Fairness: explore.WeakFairness.String(), Interrupted: interrupted, Rows: rows}); err != nil {
			return 0, err
		}
	} else {
		if err := writeReportMarkdown(w, rows, opts); err != nil {
			return 0, err
		}
		if interrupted {
			fmt.Fprintln(w, "\n**Interrupted: only the rows above were checked.**")
		}
		if kept != "" {
			if _, err := io.WriteString(w, "\n"+kept); err != nil {
				return 0, err
			}
		}
	}
	if f != nil {
		if err := f.Close(); err != nil {
			return 0, fmt.Errorf("writing %s: %v", *out, err)
		}
		if err := os.Rename(f.Name(), target); err != nil {
			return 0, fmt.Errorf("writing %s: %v", *out, err)
		}
		fmt.Fprintf(stderr, "report: %d rows written to %s\n", len(rows), *out)
	}
	if interrupted {
		fmt.Fprintln(stderr, cat.prog+": interrupted; the table holds the rows checked so far")
	}
	code := reportExitCode(rows, interrupted)
	if code != exitOK || !*quiet {
		fmt.Fprintln(stderr, reportOutcome(rows, *maxStates, time.Since(started)))
	}
	return code, nil
}

// handWritten returns the hand-written part of the existing Markdown file
// path: everything from its first line starting with "## " (the generated
// document has no second-level heading) to its end; "" when the file does
// not exist or has no such line. dropped counts the lines above that
// heading (all lines without one) that the generated document does not
// write: text a rerun replaces. isJSON reports a file that is a JSON
// document (a JSON report).
// maxReportBytes bounds the existing report handWritten reads.
const maxReportBytes = 256 << 20

func handWritten(path string) (kept string, dropped int, isJSON bool, err error) {
	b, err := safefile.ReadFile(path, maxReportBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, err
	}
	if json.Valid(b) {
		return "", 0, true, nil
	}
	text := string(b)
	k := -1
	if strings.HasPrefix(text, "## ") {
		k = 0
	} else if i := strings.Index(text, "\n## "); i >= 0 {
		k = i + 1
	}
	above := text
	if k >= 0 {
		above, kept = text[:k], text[k:]
	}
	for _, line := range strings.Split(above, "\n") {
		if !generatedLine(line) {
			dropped++
		}
	}
	if kept != "" && !strings.HasSuffix(kept, "\n") {
		kept += "\n"
	}
	return kept, dropped, false, nil
}

// generatedLine reports whether line is of the kind writeReportMarkdown
// writes above the hand-written sections: blank, the title, the
// regenerate instructions, the explanation paragraph, a table line, the
// interrupted notice.
func generatedLine(line string) bool {
	line = strings.TrimRight(line, "\r")
	for _, p := range []string{"# Results: ", "Generated by `", "    ", "Each row checks one variant", "|", "**Interrupted: "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return strings.TrimSpace(line) == ""
}

// selectAlgorithms returns the registered algorithms named in the
// comma-separated list only (all of them if it is empty), in registry order.
func selectAlgorithms(cat *catalog, only string) ([]algorithms.Algorithm, error) {
	all := cat.all()
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
			return nil, badInput("--algo: unknown algorithm %q; valid: %s", n, strings.Join(names, ", "))
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
