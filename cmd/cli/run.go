package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/live"
	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

const runSynopsis = `tokenmc run --algo NAME [--n N] [--r R] [--duration 5s] [--transport chan|tcp]
                   [--out FILE] [--history FILE] [--seed S] [--verify] [--progress 5s]

Runs the algorithm as N concurrent processes (one goroutine each) that
exchange messages over Go channels or over TCP on 127.0.0.1 (one listener per
process), with random message delays, CS durations and think times. Every
step runs the same handlers the checker explores. Each process makes R
requests; the run ends when all are served or after --duration. Every event
(request, enter, exit, send, receive, timer) is written to the log as a JSON
line with a vector timestamp, a Lamport timestamp and a wall-clock time;
'tokenmc validate' checks the log against the model and 'tokenmc history'
checks the client-visible lock history for linearizability.

The log is streamed to a temporary file next to --out as the run goes
(memory stays bounded) and renamed into place when the run ends, so a run
killed outright (SIGKILL) leaves no cut log, only its hidden temporary file
.FILE.tmp-*. An explicit --out or --history file is replaced; the default
log name is never replaced: ALGO.1.log.jsonl, ... is used instead. Ctrl-C or
SIGTERM stops the processes, writes the log up to that point and prints the
summary (exit 3). Over TCP, malformed or unexpected packets are reported and
dropped, and a broken connection between two processes stops the run at
once, with the log up to that point (exit 3).`

func init() {
	registerCommand("run", command{order: 10, synopsis: "run --algo NAME [flags]", summary: "run the algorithm as concurrent processes and log every event", run: cmdRun})
}

// runFlags are run's flags.
type runFlags struct {
	fs                        *flag.FlagSet
	params                    *paramFlags
	algo, transport           *string
	logFile, histFile         *string
	duration, progress        *time.Duration
	maxDelay, maxCS, maxThink *time.Duration
	seed                      *uint64
	verify, quiet             *bool
}

func newRunFlags(cat *catalog, stdout io.Writer) *runFlags {
	fs := cat.newFlagSet("run", runSynopsis, stdout)
	f := &runFlags{fs: fs}
	f.algo = fs.String("algo", "", "algorithm `NAME` or NAME/VARIANT (see tokenmc list)")
	f.params = addParamFlags(fs, cat)
	f.duration = fs.Duration("duration", 5*time.Second, "stop after at most `D` (at most 10m)")
	f.transport = fs.String("transport", live.Chan, "`chan` (Go channels) or tcp (loopback TCP)")
	f.logFile = fs.String("out", "", "write the event log to `FILE`, replacing it (default: ALGO.log.jsonl, numbered ALGO.1.log.jsonl, ... if it exists)")
	addAlias(fs, "log", "out")
	f.histFile = fs.String("history", "", "also write the client-visible lock history to `FILE`, replacing it")
	f.seed = fs.Uint64("seed", 1, "seed `S` of every random choice")
	f.maxDelay = fs.Duration("max-delay", 2*time.Millisecond, "message delays are uniform in [0, `D`] (0: none)")
	f.maxCS = fs.Duration("max-cs", 3*time.Millisecond, "CS durations are uniform in [D/4, `D`] (0: none)")
	f.maxThink = fs.Duration("max-think", 2*time.Millisecond, "time between an exit and the next request, uniform in [0, `D`] (0: none)")
	f.verify = fs.Bool("verify", false, "validate the log and check the history right away (exit 1 if either fails, or if a request was never served)")
	f.progress = fs.Duration("progress", 5*time.Second, "report progress on stderr every `interval` (0: never)")
	f.quiet = fs.Bool("quiet", false, "no progress on stderr (the same as --progress 0)")
	return f
}

// runSetup is a validated run command line: the variant, its parameters
// and system, and the log file being written.
type runSetup struct {
	v           algorithms.Variant
	params      map[string]int
	fromVariant map[string]int // the parameters the variant chose
	sys         model.System
	lf          *outfile.File
	prog        string // the program name of the messages
	unserved    int    // requests made and never served (entered) when the run ended
}

func cmdRun(cat *catalog, args []string, stdout, stderr io.Writer) (int, error) {
	f := newRunFlags(cat, stdout)
	pos, err := parseFlags(f.fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("run takes no positional arguments, got %q", pos[0])
	}
	if err := f.validate(); err != nil {
		return 0, err
	}
	rs, err := f.setup(cat)
	if err != nil {
		return 0, err
	}
	defer rs.lf.Abort()
	if *f.quiet {
		*f.progress = 0
	}
	logName, code, err := f.run(rs, stdout, stderr)
	if err != nil || logName == "" || (*f.histFile == "" && !*f.verify) {
		return code, err
	}
	code, err = f.check(rs, logName, stdout)
	if err == nil && *f.verify && rs.unserved > 0 {
		// A request never served is not a behaviour the log can refute (the
		// run may just have been too short), but --verify promises that
		// every request was served: the run fails.
		fmt.Fprintf(stdout, "run: FAILED: %s never served before the run ended\n", plural(rs.unserved, "request", "requests"))
		code = exitViolation
	}
	return code, err
}

// validate checks the flags that need no algorithm.
func (f *runFlags) validate() error {
	if *f.algo == "" {
		return badInput("run needs --algo NAME; see tokenmc list")
	}
	if *f.duration <= 0 || *f.duration > 10*time.Minute {
		return badInput("--duration %v is out of range; give a duration in (0, 10m], e.g. 5s", *f.duration)
	}
	for _, d := range []struct {
		name string
		v    *time.Duration
	}{{"max-delay", f.maxDelay}, {"max-cs", f.maxCS}, {"max-think", f.maxThink}} {
		if err := nonNegative(d.name, *d.v); err != nil {
			return err
		}
		if *d.v > *f.duration {
			return badInput("--%s %v is longer than --duration %v; give at most the duration", d.name, *d.v, *f.duration)
		}
		if *d.v == 0 {
			*d.v = time.Nanosecond // live.Config takes 0 for its default
		}
	}
	if err := nonNegative("progress", *f.progress); err != nil {
		return err
	}
	if *f.transport != live.Chan && *f.transport != live.TCP {
		return badInput("--transport %q is unknown; valid: chan, tcp", *f.transport)
	}
	return nil
}

// setup resolves the algorithm, builds its system and creates the log
// file: the outputs are checked before the run, not after it.
func (f *runFlags) setup(cat *catalog) (*runSetup, error) {
	a, v, err := cat.lookup(*f.algo)
	if err != nil {
		return nil, badInput("%v", err)
	}
	rs := &runSetup{v: v, prog: cat.prog}
	if rs.params, rs.fromVariant, err = f.params.resolve(f.fs, a, v); err != nil {
		return nil, err
	}
	if rs.sys, _, err = a.BuildSim(v.Name, rs.params); err != nil {
		return nil, badInput("%v", err)
	}
	policy := outfile.Through
	if *f.logFile == "" {
		*f.logFile = safeName(v.Name) + ".log.jsonl"
		policy = outfile.Numbered
	}
	if err := checkRegular("--out", *f.logFile); err != nil {
		return nil, err
	}
	if rs.lf, err = outfile.Create(*f.logFile, policy); err != nil {
		return nil, badInput("--out: %v", err)
	}
	if err := checkOutDir("--history", *f.histFile); err != nil {
		rs.lf.Abort()
		return nil, err
	}
	return rs, nil
}

// run runs the processes, puts the log in place and prints the summary.
// It returns the log's name, or "" with the exit code when the command
// ends here (an interrupt, a lost peer).
func (f *runFlags) run(rs *runSetup, stdout, stderr io.Writer) (logName string, code int, err error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop() // not before the log is in place: a second Ctrl-C meanwhile does not cut it
	cfg := live.Config{Algorithm: rs.v.Name, Params: rs.params, System: rs.sys, Transport: *f.transport, Duration: *f.duration,
		Seed: *f.seed, MaxDelay: *f.maxDelay, MaxCS: *f.maxCS, MaxThink: *f.maxThink, Log: rs.lf,
		Warn: func(msg string) { fmt.Fprintf(stderr, "run: warning: %s\n", msg) }, ProgressEvery: *f.progress,
		Progress: func(st live.Stats) {
			fmt.Fprintf(stderr, "progress: %d events (%.0f/s), %d requests, %d entries, %d messages sent, %s\n",
				st.Events, float64(st.Events)/st.Elapsed.Seconds(), st.Requests, st.Entries, st.Sent, st.Elapsed.Round(time.Second))
		}}
	_, _, st, runErr := live.Run(ctx, cfg)
	if runErr != nil && st.Elapsed == 0 {
		return "", 0, runErr // the run did not start
	}
	if st.Dropped > 0 {
		fmt.Fprintf(stderr, "run: warning: %d malformed or unexpected packets dropped\n", st.Dropped)
	}
	if errors.Is(runErr, live.ErrLog) {
		return "", 0, badInput("--out: %s: %v", *f.logFile, runErr)
	}
	var panicked *live.PanicError
	if errors.As(runErr, &panicked) {
		name, _ := rs.lf.Commit()
		if mp, ok := panicked.Value.(*protocol.ModelPanic); ok {
			// The model's own failure, not tokenmc's: exit 5.
			fmt.Fprintf(stderr, "%s: the model failed at P%d: %s\n", rs.prog, panicked.Process, mp.Error())
			fmt.Fprintf(stderr, "run: the log up to the failure is in %s\n", name)
			return "", exitModelError, nil
		}
		// Keep the log for the bug report, then report the panic.
		fmt.Fprintf(stderr, "run: the log up to the panic is in %s\n", name)
		return "", 0, &internalError{value: panicked.Error(), stack: panicked.Stack}
	}
	logName, err = rs.lf.Commit()
	if err != nil {
		return "", 0, badInput("--out: %v", err)
	}
	stop() // the log is in place: Ctrl-C may end --verify as usual
	if logName != *f.logFile {
		fmt.Fprintf(stdout, "run: %s exists and is kept; the log goes to %s\n", *f.logFile, logName)
	}
	rs.unserved = max(0, st.Requests-st.Entries)
	printRunSummary(stdout, rs, *f.transport, st, runErr, logName)
	if runErr != nil {
		fmt.Fprintf(stderr, "%s: run stopped: %v; the log up to that point is complete in %s\n", rs.prog, runErr, logName)
		if errors.Is(runErr, live.ErrPeerLost) {
			return "", exitIncomplete, nil
		}
		return "", 0, &internalError{value: runErr}
	}
	if st.Interrupted {
		fmt.Fprintf(stderr, "%s: interrupted; the log up to that point is complete in %s\n", rs.prog, logName)
		return "", exitIncomplete, nil
	}
	return logName, exitOK, nil
}

// printRunSummary prints the line that ends a run. The parameters the
// variant chose (and no flag overrode) follow its name, as in check's
// header line.
func printRunSummary(w io.Writer, rs *runSetup, transport string, st live.Stats, runErr error, logName string) {
	end := "stopped at the deadline"
	switch {
	case runErr != nil:
		end = "STOPPED EARLY"
	case st.Interrupted:
		end = "interrupted"
	case st.Completed && st.Refused > 0:
		end = fmt.Sprintf("every request served (the guard lets %d process(es) never request)", st.Refused)
	case st.Completed:
		end = "every request served"
	}
	name := rs.v.Name
	if len(rs.fromVariant) > 0 {
		name += " (parameters of the variant: " + paramString(rs.fromVariant) + ")"
	}
	unserved := ""
	if n := max(0, st.Requests-st.Entries); n > 0 {
		unserved = fmt.Sprintf(" (%s NEVER SERVED)", plural(n, "request", "requests"))
	}
	fmt.Fprintf(w, "run: %s over %s, %s after %v: %d requests, %d entries%s, %d exits, %d messages sent, %d received; %d events written to %s\n",
		name, transport, end, st.Elapsed.Round(time.Millisecond), st.Requests, st.Entries, unserved, st.Exits, st.Sent, st.Received, st.Events, logName)
}

// safeName turns an algorithm name into a file name.
func safeName(s string) string {
	b := []byte(s)
	for k, c := range b {
		if c == '/' || c == ' ' {
			b[k] = '_'
		}
	}
	return string(b)
}

// plural returns "1 request" or "N requests".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
