package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/tokenmc/tokenmc/cmd/internal/memsize"
	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
	"github.com/tokenmc/tokenmc/explore"

	"github.com/tokenmc/tokenmc/traces"
)

// This file adds to check the flags that shape its output: --report
// (a self-contained HTML report of the run), --coverage (the action
// coverage as text), --quiet (the verdict line only) and --full (the
// counterexample with every state in full). With any of them, check runs
// itself once more with --json into a buffer and builds its output from
// that report, so that these flags see exactly what --json gives, for
// safety and liveness runs alike.

// reportFlags are the output flags of check.
type reportFlags struct {
	report   *string
	coverage *bool
	quiet    *bool
	full     *bool
}

func addReportFlags(fs *flag.FlagSet) *reportFlags {
	return &reportFlags{
		report:   fs.String("report", "", "also write a self-contained HTML report of the run to `FILE`: parameters, verdicts, states per level, action coverage, time and memory, the counterexample's chart"),
		coverage: fs.Bool("coverage", false, "also print how often each action fired at each process, and what never fired (a second breadth-first walk)"),
		quiet:    fs.Bool("quiet", false, "print only the verdict (and where the trace was written); no progress"),
		full:     fs.Bool("full", false, "print every state of the counterexample in full, not only what each step changed"),
	}
}

// innerStderr marks the stderr of check's run inside intercept, so that
// notes are not printed twice.
type innerStderr struct{ io.Writer }

// intercept runs check for the output flags, when one is set (done); it is
// called once the flags are parsed. It also says when a flag combination
// is ignored.
func (rf *reportFlags) intercept(cat *catalog, fs *flag.FlagSet, stdout, stderr io.Writer) (code int, done bool, err error) {
	if _, inner := stderr.(*innerStderr); inner {
		return 0, false, nil
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	liveness := hasLiveness(fs.Lookup("props").Value.String())
	if set["dfs"] && liveness {
		fmt.Fprintln(stderr, cat.prog+": note: --dfs applies to the safety search only; the liveness properties build their state graph breadth first")
	}
	if set["dfs"] && set["workers"] {
		fmt.Fprintln(stderr, cat.prog+": note: --workers applies to breadth-first search; depth-first search (--dfs) uses one worker")
	}
	if set["fairness"] && !liveness {
		fmt.Fprintln(stderr, cat.prog+": note: --fairness applies to starvation-freedom only, which is not among the properties checked (add it with --props)")
	}
	if *rf.quiet && set["json"] {
		return 0, true, badInput("--quiet and --json exclude each other: --json prints one JSON object and nothing else")
	}
	if *rf.report == "" && !*rf.coverage && !*rf.quiet && !*rf.full {
		return 0, false, nil
	}
	if *rf.report != "" {
		if err := checkWritable(*rf.report); err != nil {
			return 0, true, err
		}
	}
	// the same check, as JSON
	var inner []string
	skip := map[string]bool{"report": true, "coverage": true, "quiet": true, "full": true}
	fs.Visit(func(f *flag.Flag) {
		if !skip[f.Name] {
			inner = append(inner, "--"+f.Name+"="+f.Value.String())
		}
	})
	if !set["json"] {
		inner = append(inner, "--json")
	}
	if *rf.quiet && !set["progress"] {
		inner = append(inner, "--progress=0")
	}
	var buf bytes.Buffer
	code, err = cmdCheck(cat, inner, &buf, &innerStderr{stderr})
	if err != nil {
		return code, true, err
	}
	var rep checkReport
	if err := json.Unmarshal(buf.Bytes(), &rep); err != nil {
		return 0, true, fmt.Errorf("reading check's own JSON report: %v", err)
	}
	rep.livenessOnly = rep.Liveness != nil && len(rep.Properties) == len(rep.Liveness.Properties)
	rep.prog = cat.prog
	var tr *traces.Trace
	if rep.Violation != nil && rep.Violation.TraceFile != "" {
		if tr, err = traces.ReadFile(rep.Violation.TraceFile); err != nil {
			return 0, true, fmt.Errorf("reading back the trace just written: %v", err)
		}
	}
	switch {
	case set["json"] && *rf.coverage:
		// printed below, with the coverage
	case set["json"]:
		_, _ = stdout.Write(buf.Bytes())
	case *rf.quiet:
		printVerdict(stdout, &rep)
	case *rf.full && tr != nil:
		printReport(stdout, &rep, nil)
		fmt.Fprintln(stdout)
		_ = traces.Render(stdout, tr, traces.RenderOptions{Full: true})
	default:
		printReport(stdout, &rep, tr)
	}
	if !*rf.coverage && *rf.report == "" {
		return code, true, nil
	}
	if rep.StopReason == stopInterrupted {
		fmt.Fprintln(stderr, cat.prog+": interrupted: no coverage and no report")
		return code, true, nil
	}
	if !*rf.quiet {
		fmt.Fprintln(stderr, cat.prog+": walking the reachable graph once more for the coverage (Ctrl-C stops it)")
	}
	cov, err := rf.walk(cat, fs, &rep)
	if err != nil {
		return 0, true, err
	}
	switch {
	case *rf.coverage && set["json"]:
		out, err := withCoverageJSON(buf.Bytes(), cov)
		if err != nil {
			return 0, true, err
		}
		_, _ = stdout.Write(out)
	case *rf.coverage:
		fmt.Fprintln(stdout)
		printCoverage(stdout, cov)
	}
	if *rf.report != "" {
		if err := writeRunReport(*rf.report, &rep, cov, tr); err != nil {
			return 0, true, badInput("cannot write the report: %v", err)
		}
		if !set["json"] {
			fmt.Fprintf(stdout, "report written to %s\n", *rf.report)
		} else {
			fmt.Fprintf(stderr, "report written to %s\n", *rf.report)
		}
	}
	return code, true, nil
}

// walk builds the checked system again and walks it for the coverage,
// with check's bounds, workers, work directory and memory budget.
func (rf *reportFlags) walk(cat *catalog, fs *flag.FlagSet, rep *checkReport) (*coverage, error) {
	a, v, err := cat.lookup(rep.Algorithm)
	if err != nil {
		return nil, badInput("%v", err)
	}
	sys, _, err := a.Build(v.Name, rep.Params)
	if err != nil {
		return nil, badInput("%v", err)
	}
	opts := explore.Options{MemoryBudget: rep.MemoryBudgetBytes}
	flagValue := func(name string, v any) {
		if f := fs.Lookup(name); f != nil {
			fmt.Sscan(f.Value.String(), v)
		}
	}
	flagValue("max-states", &opts.MaxStates)
	flagValue("max-depth", &opts.MaxDepth)
	flagValue("workers", &opts.Workers)
	if f := fs.Lookup("workdir"); f != nil {
		opts.WorkDir = f.Value.String()
	}
	if opts.MemoryBudget == 0 {
		opts.MemoryBudget = memsize.DefaultBudget()
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cov, err := walkCoverage(ctx, sys, opts)
	if err != nil {
		return nil, badInput("the coverage walk: %v", err)
	}
	return cov, nil
}

// hasLiveness reports whether a --props list names a liveness property.
func hasLiveness(props string) bool {
	for _, l := range livenessProps() {
		for _, n := range strings.Split(props, ",") {
			if strings.TrimSpace(n) == l.name {
				return true
			}
		}
	}
	return false
}

// checkWritable refuses a report path that cannot be created, before the
// search runs, without creating anything: the report is written at the
// end, atomically, through a symbolic link (outfile.Through), so what
// must be writable is the directory of the file the path leads to.
func checkWritable(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return badInput("--report %s is a directory; give a file name, e.g. run.html", path)
	}
	if err := checkRegular("--report", path); err != nil {
		return err
	}
	if err := checkCreate(path, outfile.Through); err != nil {
		return badInput("--report %s cannot be written: %v", path, err)
	}
	return nil
}

// printVerdict is the output of --quiet: the verdict line and where the
// trace was written.
func printVerdict(w io.Writer, rep *checkReport) {
	fmt.Fprintln(w, verdictLine(rep))
	if rep.Verdict == verdictViolation && rep.Violation.TraceFile != "" {
		fmt.Fprintf(w, "trace written to %s\n", rep.Violation.TraceFile)
	}
}

// verdictLine is the summary's last line, "verdict: ...".
func verdictLine(rep *checkReport) string {
	switch rep.Verdict {
	case verdictOK:
		if rep.ChannelCapacity > 0 {
			return fmt.Sprintf("verdict: ok, every property holds on all %d states reachable with channel capacity %d (an under-approximation)", rep.States, rep.ChannelCapacity)
		}
		return fmt.Sprintf("verdict: ok, every property holds on all %d reachable states", rep.States)
	case verdictOKPartial:
		return fmt.Sprintf("verdict: ok-partial, every property holds on the %d states visited; bitstate search may have missed states", rep.States)
	case verdictIncomplete:
		return fmt.Sprintf("verdict: incomplete (stopped: %s); no violation among the states explored", rep.StopReason)
	case verdictViolation:
		if rep.Violation.Loop > 0 {
			return fmt.Sprintf("verdict: VIOLATION of %s: a lasso of %d steps, the cycle starting at step %d", rep.Violation.Property, rep.Violation.Length, rep.Violation.Loop)
		}
		return fmt.Sprintf("verdict: VIOLATION of %s after %d steps", rep.Violation.Property, rep.Violation.Length)
	case verdictModelError:
		if rep.ModelError != nil {
			return modelErrorLine(rep.ModelError)
		}
	}
	return "verdict: " + rep.Verdict
}

// memNow reports the Go heap now and the memory the runtime holds from
// the operating system.
func memNow() (heap, sys uint64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.Sys
}

// printSimVerdict is the output of simulate --quiet: the verdict line and
// where the trace was written.
func printSimVerdict(w io.Writer, rep *simulateReport) {
	switch rep.Verdict {
	case verdictOK:
		fmt.Fprintf(w, "verdict: ok, no violation in %d runs (a sample, not a proof)\n", rep.Runs)
	case verdictModelError:
		fmt.Fprintln(w, modelErrorLine(rep.ModelError))
	case verdictViolation:
		vi := rep.Violation
		fmt.Fprintf(w, "verdict: VIOLATION of %s in run %d after %d steps, shrunk to %d steps\n", vi.Property, vi.Run, vi.Found, vi.Length)
		if vi.TraceFile != "" {
			fmt.Fprintf(w, "trace written to %s\n", vi.TraceFile)
		}
	default:
		fmt.Fprintf(w, "verdict: %s (interrupted after %d runs); no violation so far\n", rep.Verdict, rep.Runs)
	}
}

// coverageJSON is the "coverage" member check --json --coverage adds.
type coverageJSON struct {
	// Walk says that the counts are those of a walk of their own, not
	// of the search.
	Walk        string       `json:"walk"`
	States      int64        `json:"states"`
	Transitions int64        `json:"transitions"`
	Complete    bool         `json:"complete"`
	StopReason  string       `json:"stop_reason,omitempty"`
	StopDetail  string       `json:"stop_detail,omitempty"`
	Levels      []levelJSON  `json:"levels"`
	Actions     []actionJSON `json:"actions"`
	NeverFired  []string     `json:"never_fired"`
}

type levelJSON struct {
	States      int64 `json:"states"`
	Transitions int64 `json:"transitions"`
}

type actionJSON struct {
	Name  string  `json:"name"`
	Kind  string  `json:"kind"`
	Total int64   `json:"total"`
	Fired []int64 `json:"fired"` // per process
}

// withCoverageJSON adds "coverage" as the last member of check's JSON
// object, keeping the other members as they are.
func withCoverageJSON(obj []byte, cov *coverage) ([]byte, error) {
	cj := coverageJSON{Walk: "a second breadth-first walk, separate from the search", States: cov.States, Transitions: cov.Trans,
		Complete: cov.Complete, StopReason: cov.Stopped, StopDetail: cov.StopDetail,
		Levels: []levelJSON{}, Actions: []actionJSON{}, NeverFired: []string{}}
	for _, l := range cov.Levels {
		cj.Levels = append(cj.Levels, levelJSON(l))
	}
	for _, f := range cov.Families {
		cj.Actions = append(cj.Actions, actionJSON{Name: f.Name, Kind: f.Kind.String(), Total: f.Total(), Fired: f.Fired})
	}
	pairs, fams := cov.neverFired()
	cj.NeverFired = append(append(cj.NeverFired, fams...), pairs...)
	member, err := json.MarshalIndent(cj, "  ", "  ")
	if err != nil {
		return nil, err
	}
	body := bytes.TrimRight(obj, " \n")
	if !bytes.HasSuffix(body, []byte("}")) {
		return nil, fmt.Errorf("check's JSON report does not end its object")
	}
	body = bytes.TrimRight(body[:len(body)-1], " \n")
	out := append(append([]byte{}, body...), []byte(",\n  \"coverage\": ")...)
	out = append(out, member...)
	return append(out, []byte("\n}\n")...), nil
}
