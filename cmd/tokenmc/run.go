package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/history"
	"github.com/tokenmc/tokenmc/traces/outfile"
	"github.com/tokenmc/tokenmc/traces/runtime"
)

const runSynopsis = `tokenmc run --algo NAME [--n N] [--r R] [--duration 5s] [--transport chan|tcp]
                   [--log FILE] [--history FILE] [--seed S] [--verify] [--progress 5s]

Runs the algorithm as N concurrent processes (one goroutine each) that
exchange messages over Go channels or over TCP on 127.0.0.1 (one listener per
process), with random message delays, CS durations and think times. Every
step runs the same handlers the checker explores. Each process makes R
requests; the run ends when all are served or after --duration. Every event
(request, enter, exit, send, receive, timer) is written to the log as a JSON
line with a vector timestamp, a Lamport timestamp and a wall-clock time;
'tokenmc validate' checks the log against the model and 'tokenmc history'
checks the client-visible lock history for linearizability.

The log is streamed to a temporary file next to --log as the run goes
(memory stays bounded) and renamed into place when the run ends, so a run
killed outright (SIGKILL) leaves no cut log, only its hidden temporary file
.FILE.tmp-*. An explicit --log or --history file is replaced; the default
log name is never replaced: ALGO.1.log.jsonl, ... is used instead. Ctrl-C or
SIGTERM stops the processes, writes the log up to that point and prints the
summary (exit 3). Over TCP, malformed or unexpected packets are reported and
dropped, and a broken connection between two processes stops the run at
once, with the log up to that point (exit 3).`

func init() {
	registerCommand("run", command{order: 10, synopsis: "run --algo NAME [flags]", summary: "run the algorithm as concurrent processes and log every event", run: cmdRun})
}

func cmdRun(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("run", runSynopsis, stdout)
	algo := fs.String("algo", "", "algorithm `NAME` or NAME/VARIANT (see tokenmc list)")
	pflags := addParamFlags(fs)
	duration := fs.Duration("duration", 5*time.Second, "stop after at most `D` (at most 10m)")
	transport := fs.String("transport", runtime.Chan, "`chan` (Go channels) or tcp (loopback TCP)")
	logFile := fs.String("log", "", "write the event log to `FILE`, replacing it (default: ALGO.log.jsonl, numbered ALGO.1.log.jsonl, ... if it exists)")
	histFile := fs.String("history", "", "also write the client-visible lock history to `FILE`, replacing it")
	seed := fs.Uint64("seed", 1, "seed `S` of every random choice")
	maxDelay := fs.Duration("max-delay", 2*time.Millisecond, "message delays are uniform in [0, `D`] (0: none)")
	maxCS := fs.Duration("max-cs", 3*time.Millisecond, "CS durations are uniform in [D/4, `D`] (0: none)")
	maxThink := fs.Duration("max-think", 2*time.Millisecond, "time between an exit and the next request, uniform in [0, `D`] (0: none)")
	verify := fs.Bool("verify", false, "validate the log and check the history right away (exit 1 if either fails)")
	progress := fs.Duration("progress", 5*time.Second, "report progress on stderr every `interval` (0: never)")
	quiet := fs.Bool("quiet", false, "no progress on stderr (the same as --progress 0)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("run takes no positional arguments, got %q", pos[0])
	}
	if *algo == "" {
		return 0, badInput("run needs --algo NAME; see tokenmc list")
	}
	if *duration <= 0 || *duration > 10*time.Minute {
		return 0, badInput("--duration %v is out of range; give a duration in (0, 10m], e.g. 5s", *duration)
	}
	for _, d := range []struct {
		name string
		v    *time.Duration
	}{{"max-delay", maxDelay}, {"max-cs", maxCS}, {"max-think", maxThink}} {
		if err := nonNegative(d.name, *d.v); err != nil {
			return 0, err
		}
		if *d.v > *duration {
			return 0, badInput("--%s %v is longer than --duration %v; give at most the duration", d.name, *d.v, *duration)
		}
		if *d.v == 0 {
			*d.v = time.Nanosecond // runtime.Config takes 0 for its default
		}
	}
	if err := nonNegative("progress", *progress); err != nil {
		return 0, err
	}
	if *transport != runtime.Chan && *transport != runtime.TCP {
		return 0, badInput("--transport %q is unknown; valid: chan, tcp", *transport)
	}
	a, v, err := algorithms.Lookup(*algo)
	if err != nil {
		return 0, badInput("%v", err)
	}
	params, err := pflags.resolve(fs, a)
	if err != nil {
		return 0, err
	}
	sys, _, err := a.BuildSim(v.Name, params)
	if err != nil {
		return 0, badInput("%v", err)
	}
	// The outputs are checked before the run, not after it.
	policy := outfile.Replace
	if *logFile == "" {
		*logFile = safeName(v.Name) + ".log.jsonl"
		policy = outfile.Numbered
	}
	lf, err := outfile.Create(*logFile, policy)
	if err != nil {
		return 0, badInput("--log: %v", err)
	}
	defer lf.Abort()
	if err := checkOutDir("--history", *histFile); err != nil {
		return 0, err
	}

	if *quiet {
		*progress = 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop() // not before the log is in place: a second Ctrl-C meanwhile does not cut it
	cfg := runtime.Config{Algorithm: v.Name, Params: params, System: sys, Transport: *transport, Duration: *duration,
		Seed: *seed, MaxDelay: *maxDelay, MaxCS: *maxCS, MaxThink: *maxThink, Log: lf,
		Warn: func(msg string) { fmt.Fprintf(stderr, "run: warning: %s\n", msg) }, ProgressEvery: *progress,
		Progress: func(st runtime.Stats) {
			fmt.Fprintf(stderr, "progress: %d events (%.0f/s), %d requests, %d entries, %d messages sent, %s\n",
				st.Events, float64(st.Events)/st.Elapsed.Seconds(), st.Requests, st.Entries, st.Sent, st.Elapsed.Round(time.Second))
		}}
	_, _, st, runErr := runtime.Run(ctx, cfg)
	if runErr != nil && st.Elapsed == 0 {
		return 0, runErr // the run did not start
	}
	if st.Dropped > 0 {
		fmt.Fprintf(stderr, "run: warning: %d malformed or unexpected packets dropped\n", st.Dropped)
	}
	if errors.Is(runErr, runtime.ErrLog) {
		return 0, badInput("--log: %s: %v", *logFile, runErr)
	}
	var panicked *runtime.PanicError
	if errors.As(runErr, &panicked) {
		// Keep the log for the bug report, then report the panic.
		name, _ := lf.Commit()
		fmt.Fprintf(stderr, "run: the log up to the panic is in %s\n", name)
		return 0, &internalError{value: panicked.Error(), stack: panicked.Stack}
	}
	logName, err := lf.Commit()
	if err != nil {
		return 0, badInput("--log: %v", err)
	}
	stop() // the log is in place: Ctrl-C may end --verify as usual
	if logName != *logFile {
		fmt.Fprintf(stdout, "run: %s exists and is kept; the log goes to %s\n", *logFile, logName)
	}
	end := "stopped at the deadline"
	switch {
	case runErr != nil:
		end = "STOPPED EARLY"
	case st.Interrupted:
		end = "interrupted"
	case st.Completed:
		end = "every request served"
	}
	fmt.Fprintf(stdout, "run: %s over %s, %s after %v: %d requests, %d entries, %d exits, %d messages sent, %d received; %d events written to %s\n",
		v.Name, *transport, end, st.Elapsed.Round(time.Millisecond), st.Requests, st.Entries, st.Exits, st.Sent, st.Received, st.Events, logName)
	if runErr != nil {
		fmt.Fprintf(stderr, "tokenmc: run stopped: %v; the log up to that point is complete in %s\n", runErr, logName)
		if errors.Is(runErr, runtime.ErrPeerLost) {
			return exitIncomplete, nil
		}
		return 0, &internalError{value: runErr}
	}
	if st.Interrupted {
		fmt.Fprintf(stderr, "tokenmc: interrupted; the log up to that point is complete in %s\n", logName)
		return exitIncomplete, nil
	}
	if *histFile == "" && !*verify {
		return exitOK, nil
	}
	l, err := eventlog.ReadFile(logName)
	if err != nil {
		return 0, &internalError{value: fmt.Sprintf("the log just written does not read back: %v", err)}
	}
	hist := history.FromLog(l, history.KindFor(sys.Info()))
	histErr := hist.Validate(logName)
	if *histFile != "" {
		var b bytes.Buffer
		if err := history.Write(&b, hist); err != nil {
			return 0, err
		}
		if _, err := outfile.WriteFile(*histFile, outfile.Replace, b.Bytes()); err != nil {
			return 0, badInput("--history: %v", err)
		}
		fmt.Fprintf(stdout, "run: history of %d events written to %s\n", len(hist.Events), *histFile)
	}
	if !*verify {
		return exitOK, nil
	}
	code := exitOK
	res := eventlog.Validate(sys, l)
	if res.OK {
		fmt.Fprintf(stdout, "validate: ok, %d events in %d steps are a behaviour of %s\n", res.Events, res.Steps, v.Name)
	} else {
		fmt.Fprintf(stdout, "validate: NOT a behaviour of %s: %s: %s\n", v.Name, res.Failed, res.Reason)
		code = exitViolation
	}
	if histErr != nil {
		fmt.Fprintf(stdout, "history: not a lock history: %v\n", histErr)
		return exitViolation, nil
	}
	hr := history.Check(hist, time.Minute)
	switch {
	case hr.Linearizable:
		fmt.Fprintf(stdout, "history: linearizable (%s model, %d operations)\n", hist.Header.Model, hr.Operations)
	case hr.Unknown:
		fmt.Fprintf(stdout, "history: unknown, porcupine timed out (%d operations)\n", hr.Operations)
		if code == exitOK {
			code = exitIncomplete
		}
	default:
		fmt.Fprintf(stdout, "history: NOT linearizable (%s model, %d operations); see tokenmc history %s\n", hist.Header.Model, hr.Operations, logName)
		code = exitViolation
	}
	return code, nil
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
