package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/traces"
	"github.com/tokenmc/tokenmc/traces/chart"
	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/outfile"

	"github.com/tokenmc/tokenmc/model/safefile"
)

const validateSynopsis = `tokenmc validate FILE|- [--algo NAME] [--mapping FILE] [--follow [--idle D]]
                         [--all] [--complete] [--atomic] [--max-states X] [--out FILE] [--json]

Checks that an event log (JSON lines: a header, then one event per line; see
docs/eventlog.md) is a behaviour of the model. The model is the one the
header names, with its parameters taken as they are (the request bound r has
no upper limit here, as in run and simulate); --algo checks the log against
another variant (e.g. a mutant's log against the correct algorithm).

A full log (every event of every process) is replayed step by step in an
order consistent with its happens-before order (the vector timestamps): every
step must be an enabled transition that sends exactly the logged messages
and enters the CS exactly when logged. A step's sends and enter may be
logged after its trigger, interleaved with events of the process's other
steps (a concurrent program's receiver thread and CS loop log that way; the
optional event fields "cause" and "thread" say which step an effect
belongs to); --atomic requires each step's effects right after its
trigger. Otherwise validate names the first event no interleaving explains,
what the model's steps could have done there, and the state reached; --all
goes on after each divergence and reports every one. A log that ends in the
middle of a step is a prefix of a behaviour (ok); --complete says the run
ended cleanly: then a step whose effects the log never shows, and a request
never served that the model would have served, are divergences. It streams:
a log of millions of events takes memory for the events not yet explained
and the messages in transit only.

A partial log (its header lists the "observed" kinds or processes) is
checked by a search of the model for a behaviour whose observable events are
the log's: consistent (exit 0; --out FILE writes that behaviour as a
trace), inconsistent at an event (exit 1) or undecided within --max-states
(exit 3). In a log whose seq counts every event ("seq_counts_all"), a
step's effects may be logged after later triggers of its process, as in a
full log; --atomic requires them right after the trigger there too.

--follow reads a log while it is being written and reports the first
divergence at once (FILE - reads standard input). It stops at Ctrl-C, or
when the file has not grown for --idle.

Exit codes: 0 consistent, 1 not a behaviour of the model, 2 bad input,
3 undecided (budget) or stopped before the end of the log.`

type validateReport struct {
	File      string   `json:"file"`
	Algorithm string   `json:"algorithm"`
	OK        bool     `json:"ok"`
	Verdict   string   `json:"verdict"` // ok, violation, undecided, stopped
	Partial   bool     `json:"partial,omitempty"`
	Events    int      `json:"events"`
	Explained int      `json:"explained"`
	Steps     int      `json:"steps"`
	States    int      `json:"states,omitempty"`
	InTransit int      `json:"in_transit"`
	Line      int      `json:"line,omitempty"`
	Event     string   `json:"event,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	Pending   []string `json:"pending,omitempty"`
	Witness   string   `json:"witness,omitempty"`
	// Divergences: with --all (or --complete), every divergence found.
	Divergences []divergenceJSON `json:"divergences,omitempty"`
	// Unserved: with --complete, the requests the log never shows served.
	Unserved []string `json:"unserved,omitempty"`
	// Notes: remarks that do not change the verdict (processes that
	// never requested, ...).
	Notes []string `json:"notes,omitempty"`
}

type divergenceJSON struct {
	Line   int    `json:"line,omitempty"`
	Event  string `json:"event,omitempty"`
	Reason string `json:"reason"`
}

// fillResult copies a result's lists into the report.
func (rep *validateReport) fillResult(res *eventlog.Result) {
	for _, d := range res.Divergences {
		j := divergenceJSON{Reason: d.Reason}
		if d.Event != nil {
			j.Line, j.Event = d.Event.Line, d.Event.String()
		}
		rep.Divergences = append(rep.Divergences, j)
	}
	rep.Unserved, rep.Notes = res.Unserved, res.Notes
}

func init() {
	registerCommand("validate", command{order: 11, synopsis: "validate FILE [--algo NAME] [--follow] [--json]", summary: "check that an event log is a behaviour of the model", run: cmdValidate})
}

// buildFor builds the model a log header names (or algo), with the
// simulation ranges: r has no upper bound for logs of runs.
func buildFor(cat *catalog, file string, h eventlog.Header, algo string) (model.System, string, error) {
	name := h.Algorithm
	if algo != "" {
		name = algo
	}
	a, v, err := cat.lookup(name)
	if err != nil {
		return nil, "", badInput("%s: %v", file, err)
	}
	sys, _, err := a.BuildSim(v.Name, h.Params)
	if err != nil {
		return nil, "", badInput("%s: %v", file, err)
	}
	return sys, v.Name, nil
}

// loadLogMapped reads an event log (translated by the mapping m, when not
// nil) and builds the model it names (or algo).
func loadLogMapped(cat *catalog, file, algo string, m *eventlog.Mapping) (*eventlog.Log, model.System, string, error) {
	f, err := safefile.Open(file)
	if err != nil {
		return nil, nil, "", badInput("%v", err)
	}
	defer f.Close()
	l, err := eventlog.ReadWith(f, file, m)
	if err != nil {
		return nil, nil, "", badInput("%v", err)
	}
	sys, name, err := buildFor(cat, file, l.Header, algo)
	if err != nil {
		return nil, nil, "", err
	}
	return l, sys, name, nil
}

type validateFlags struct {
	algo, mapping, witness string
	follow, asJSON, quiet  bool
	all, complete, atomic  bool
	idle                   time.Duration
	maxStates              int
}

func cmdValidate(cat *catalog, args []string, stdout, stderr io.Writer) (int, error) {
	fs := cat.newFlagSet("validate", validateSynopsis, stdout)
	var vf validateFlags
	fs.StringVar(&vf.algo, "algo", "", "check against algorithm `NAME` or NAME/VARIANT instead of the header's")
	fs.StringVar(&vf.mapping, "mapping", "", "translate the log's own names with the mapping `FILE` (see docs/eventlog.md)")
	fs.BoolVar(&vf.follow, "follow", false, "follow a log while it is written; report the first divergence at once")
	fs.DurationVar(&vf.idle, "idle", 0, "with --follow: stop when the file has not grown for `D` (0: only at Ctrl-C)")
	fs.IntVar(&vf.maxStates, "max-states", eventlog.DefaultMaxStates, "partial logs: give up (undecided, exit 3) after visiting `X` model states")
	fs.StringVar(&vf.witness, "out", "", "partial logs: write the model behaviour that explains the log to `FILE` as a trace (replaced if it exists)")
	addAlias(fs, "witness", "out")
	fs.BoolVar(&vf.all, "all", false, "full logs: report every divergence (going on after each), not only the first")
	fs.BoolVar(&vf.complete, "complete", false, "the run ended cleanly: every step's effects must be logged, and a request never served that the model would serve is a divergence")
	fs.BoolVar(&vf.atomic, "atomic", false, "each step's sends and enter follow its trigger directly (no effect logged late; full logs and counted partial logs)")
	fs.BoolVar(&vf.asJSON, "json", false, "print the result as one JSON object")
	fs.BoolVar(&vf.quiet, "quiet", false, "print only the verdict line: no progress, no state table")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, badInput("validate needs exactly one log FILE (or - for standard input), got %d arguments", len(pos))
	}
	if vf.maxStates < 1 {
		return 0, badInput("--max-states must be at least 1, got %d", vf.maxStates)
	}
	if vf.idle < 0 {
		return 0, badInput("--idle must be >= 0, got %v", vf.idle)
	}
	if vf.idle > 0 && !vf.follow {
		return 0, badInput("--idle needs --follow")
	}
	var m *eventlog.Mapping
	if vf.mapping != "" {
		if m, err = eventlog.ReadMapping(vf.mapping); err != nil {
			return 0, badInput("%v", err)
		}
	}
	file := pos[0]
	var in io.Reader
	var watch *followWatch // --follow: notices the file truncated or replaced
	if file == "-" {
		in = os.Stdin
		file = "stdin"
	} else {
		f, err := safefile.Open(file)
		if err != nil {
			return 0, badInput("%v (give - to read standard input)", err)
		}
		defer f.Close()
		in = f
		if vf.follow {
			if watch, err = newFollowWatch(f, file); err != nil {
				return 0, badInput("%v", err)
			}
			in = watch
		}
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	rd := eventlog.NewReader(in, file)
	rd.Mapping = m
	rd.Follow = vf.follow && pos[0] != "-"
	h, err := headerOf(ctx, rd, &vf)
	if err != nil {
		return 0, err
	}
	sys, name, err := buildFor(cat, file, h, vf.algo)
	if err != nil {
		return 0, err
	}
	if m != nil {
		if err := m.CheckModel(sys); err != nil {
			return 0, badInput("%s: %v", vf.mapping, err)
		}
	}
	rep := validateReport{File: file, Algorithm: name, Partial: h.Observed != nil}
	if h.Observed != nil {
		if vf.follow {
			return 0, badInput("%s: --follow checks full logs; this log is partial (its header has \"observed\"), so validate it once it is written", file)
		}
		if _, ok := sys.(protocol.LocalSystem); !ok {
			return 0, badInput("%s: %s cannot validate a partial log: its system is not compiled from a protocol.Protocol", file, name)
		}
		return validatePartial(ctx, rd, h, sys, &rep, &vf, stdout, stderr)
	}
	if vf.witness != "" {
		return 0, badInput("--out is for partial logs; a full log is its own witness")
	}
	if vf.all && vf.follow {
		return 0, badInput("--all reports every divergence of a whole log; --follow stops at the first: use one of them")
	}
	c, err := eventlog.NewChecker(sys, h, eventlog.Options{All: vf.all, Complete: vf.complete, Atomic: vf.atomic})
	if err != nil {
		return 0, badInput("%s: %v", file, err)
	}
	c.StopEarly = vf.follow
	stopped := ""
	lastGrowth, lastProgress := time.Now(), time.Now()
	for first := true; ; {
		e, err := rd.Next()
		if err == io.EOF {
			if !rd.Follow {
				break
			}
			if ctx.Err() != nil {
				stopped = stopInterrupted
				break
			}
			if watch != nil {
				if err := watch.check(); err != nil {
					return 0, badInput("%v", err)
				}
			}
			if vf.idle > 0 && time.Since(lastGrowth) >= vf.idle {
				break
			}
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if err != nil {
			return 0, badInput("%v", err)
		}
		lastGrowth = time.Now()
		if first {
			c.VCGiven, first = rd.VCGiven(), false
		}
		rep.Events++
		if c.Add(e) {
			break
		}
		if vf.follow || rep.Events%4096 == 0 {
			if ctx.Err() != nil {
				stopped = stopInterrupted
				break
			}
			if !vf.asJSON && !vf.quiet && time.Since(lastProgress) >= 5*time.Second {
				lastProgress = time.Now()
				ex, _ := c.Progress()
				fmt.Fprintf(stderr, "validate: %d events read, %d explained\n", rep.Events, ex)
			}
		}
	}
	if stopped != "" {
		rep.Verdict = "stopped"
		rep.Explained, rep.Steps = c.Progress()
		rep.Reason = fmt.Sprintf("%s after %d events (%d explained so far): no divergence found so far", stopped, rep.Events, rep.Explained)
		return reportValidate(stdout, stderr, &rep, nil, &vf, exitIncomplete)
	}
	res := c.Finish()
	return reportFull(stdout, stderr, &rep, &res, &vf)
}

// headerOf reads the header, waiting for it when following a file.
func headerOf(ctx context.Context, rd *eventlog.Reader, vf *validateFlags) (eventlog.Header, error) {
	start := time.Now()
	for {
		h, err := rd.Header()
		if err == io.EOF && rd.Follow && ctx.Err() == nil && (vf.idle == 0 || time.Since(start) < vf.idle) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if err == io.EOF {
			return h, badInput("the log has no header line yet")
		}
		if err != nil {
			var le *eventlog.LineError
			if errors.As(err, &le) {
				return h, badInput("%v", err)
			}
			return h, badInput("%v", err)
		}
		return h, nil
	}
}

func reportFull(stdout, stderr io.Writer, rep *validateReport, res *eventlog.Result, vf *validateFlags) (int, error) {
	rep.OK, rep.Explained, rep.Steps, rep.InTransit, rep.Reason, rep.Pending = res.OK, res.Events, res.Steps, res.Messages, res.Reason, res.Pending
	rep.fillResult(res)
	if res.Failed != nil {
		rep.Line, rep.Event = res.Failed.Line, res.Failed.String()
	}
	code := exitOK
	rep.Verdict = verdictOK
	switch {
	case res.Undecided:
		// e.g. several of a step's alternatives explain the logged
		// effects but lead to different states: no verdict
		rep.Verdict, code = "undecided", exitIncomplete
	case !res.OK:
		rep.Verdict, code = verdictViolation, exitViolation
	}
	return reportValidate(stdout, stderr, rep, res, vf, code)
}

func reportValidate(stdout, _ io.Writer, rep *validateReport, res *eventlog.Result, vf *validateFlags, code int) (int, error) {
	if vf.asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return 0, err
		}
		return code, nil
	}
	w := &errWriter{w: stdout}
	switch rep.Verdict {
	case verdictOK:
		if rep.Partial {
			fmt.Fprintf(w, "validate: ok, the %d events of the partial log are observations of a behaviour of %s (%d model states searched)\n",
				rep.Events, rep.Algorithm, rep.States)
			if rep.Witness != "" {
				fmt.Fprintf(w, "the behaviour, %d steps, written to %s\n", rep.Steps, rep.Witness)
			}
		} else {
			fmt.Fprintf(w, "validate: ok, %d events in %d steps are a behaviour of %s (%d messages still in transit)\n",
				rep.Explained, rep.Steps, rep.Algorithm, rep.InTransit)
		}
	case "stopped", "undecided":
		fmt.Fprintf(w, "validate: %s: %s\n", rep.Verdict, rep.Reason)
	default:
		if rep.Event != "" {
			fmt.Fprintf(w, "validate: NOT a behaviour of %s: %s cannot be explained: %s\n", rep.Algorithm, rep.Event, rep.Reason)
		} else {
			fmt.Fprintf(w, "validate: NOT a behaviour of %s: %s\n", rep.Algorithm, rep.Reason)
		}
		if vf.quiet {
			break
		}
		if res != nil && res.Reached.Processes != nil {
			fmt.Fprintf(w, "%d of %d events explained; state reached:\n%s", rep.Explained, rep.Events, chart.StateTable(&res.Reached))
		}
		if len(rep.Pending) > 1 {
			fmt.Fprintf(w, "steps waiting at that point:\n")
			for _, p := range rep.Pending {
				fmt.Fprintf(w, "  %s\n", p)
			}
		}
	}
	if !vf.quiet && (len(rep.Divergences) > 1 || len(rep.Divergences) == 1 && rep.Verdict != verdictViolation) {
		fmt.Fprintf(w, "%d divergences:\n", len(rep.Divergences))
		for _, d := range rep.Divergences {
			if d.Event != "" {
				fmt.Fprintf(w, "  %s: %s\n", d.Event, d.Reason)
			} else {
				fmt.Fprintf(w, "  %s\n", d.Reason)
			}
		}
	}
	for _, n := range rep.Notes {
		if !vf.quiet {
			fmt.Fprintf(w, "note: %s\n", n)
		}
	}
	if w.err != nil {
		return 0, w.err
	}
	return code, nil
}

// errWriter remembers the first write error (e.g. a full device).
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

func validatePartial(ctx context.Context, rd *eventlog.Reader, h eventlog.Header, sys model.System, rep *validateReport, vf *validateFlags, stdout, stderr io.Writer) (int, error) {
	l := &eventlog.Log{Header: h}
	for {
		e, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, badInput("%v", err)
		}
		l.Events = append(l.Events, *e)
	}
	l.VCGiven = rd.VCGiven()
	rep.Events = len(l.Events)
	lastProgress := time.Now()
	opts := eventlog.Options{MaxStates: vf.maxStates, Witness: vf.witness != "", Stop: ctx.Done(), Complete: vf.complete, Atomic: vf.atomic,
		Progress: func(explained, events, states int) {
			if !vf.quiet && time.Since(lastProgress) >= 5*time.Second {
				lastProgress = time.Now()
				fmt.Fprintf(stderr, "validate: searching: %d of %d events explained, %d model states\n", explained, events, states)
			}
		}}
	res := eventlog.ValidateWith(sys, l, opts)
	rep.OK, rep.Explained, rep.Steps, rep.States, rep.Reason, rep.Pending = res.OK, res.Events, res.Steps, res.States, res.Reason, res.Pending
	rep.fillResult(&res)
	if res.Failed != nil {
		rep.Line, rep.Event = res.Failed.Line, res.Failed.String()
	}
	code := exitOK
	switch {
	case res.OK:
		rep.Verdict = verdictOK
		if vf.witness != "" {
			if err := writeWitness(vf.witness, sys, h, rep.Algorithm, res.Path); err != nil {
				return 0, err
			}
			rep.Witness = vf.witness
		}
	case res.Undecided && ctx.Err() != nil:
		rep.Verdict, code = "stopped", exitIncomplete
	case res.Undecided:
		rep.Verdict, code = "undecided", exitIncomplete
	default:
		rep.Verdict, code = verdictViolation, exitViolation
	}
	return reportValidate(stdout, nil, rep, &res, vf, code)
}

// WitnessProperty names the "property" of a witness trace: the behaviour
// explains the log.
const witnessProperty = "explains-log"

// writeWitness writes the model behaviour that explains a partial log as
// a trace file, atomically; a symbolic link at file (an explicit path) is
// written through: the file it points to is replaced, the link stays.
func writeWitness(file string, sys model.System, h eventlog.Header, name string, path [][]byte) error {
	if len(path) < 2 {
		return badInput("the log is explained by the initial state alone; there is no step to write to %s", file)
	}
	t, err := traces.FromPath(sys.NewWorker(), traces.Meta{Algorithm: name, Params: h.Params, Property: witnessProperty, PropertyKind: model.Invariant}, path)
	if err != nil {
		return err
	}
	t.PropertyKind = traces.KindWitness
	if err := writeTraceFile(file, outfile.Through, t); err != nil {
		return badInput("cannot write the witness: %v", err)
	}
	return nil
}
