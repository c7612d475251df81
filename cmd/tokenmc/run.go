package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/history"
	"github.com/tokenmc/tokenmc/traces/runtime"
)

const runSynopsis = `tokenmc run --algo NAME [--n N] [--r R] [--duration 5s] [--transport chan|tcp]
                   [--log FILE] [--history FILE] [--seed S] [--verify]

Runs the algorithm as N concurrent processes (one goroutine each) that
exchange messages over Go channels or over TCP on 127.0.0.1 (one listener per
process), with random message delays, CS durations and think times. Every
step runs the same handlers the checker explores. Each process makes R
requests; the run ends when all are served or after --duration. Every event
(request, enter, exit, send, receive, timer) is written to the log as a JSON
line with a vector timestamp, a Lamport timestamp and a wall-clock time;
'tokenmc validate' checks the log against the model and 'tokenmc history'
checks the client-visible lock history for linearizability.`

func init() {
	registerCommand("run", command{order: 10, synopsis: "run --algo NAME [flags]", summary: "run the algorithm as concurrent processes and log every event", run: cmdRun})
}

func cmdRun(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("run", runSynopsis, stdout)
	algo := fs.String("algo", "", "algorithm `NAME` or NAME/VARIANT (see tokenmc list)")
	pflags := addParamFlags(fs)
	duration := fs.Duration("duration", 5*time.Second, "stop after at most `D` (at most 10m)")
	transport := fs.String("transport", runtime.Chan, "`chan` (Go channels) or tcp (loopback TCP)")
	logFile := fs.String("log", "", "write the event log to `FILE` (default: ALGO.log.jsonl)")
	histFile := fs.String("history", "", "also write the client-visible lock history to `FILE`")
	seed := fs.Uint64("seed", 1, "seed `S` of every random choice")
	maxDelay := fs.Duration("max-delay", 2*time.Millisecond, "message delays are uniform in [0, `D`]")
	maxCS := fs.Duration("max-cs", 3*time.Millisecond, "CS durations are uniform in [D/4, `D`]")
	maxThink := fs.Duration("max-think", 2*time.Millisecond, "time between an exit and the next request, uniform in [0, `D`]")
	verify := fs.Bool("verify", false, "validate the log and check the history right away (exit 1 if either fails)")
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
	if *logFile == "" {
		*logFile = safeName(v.Name) + ".log.jsonl"
	}
	cfg := runtime.Config{Algorithm: v.Name, Params: params, System: sys, Transport: *transport, Duration: *duration,
		Seed: *seed, MaxDelay: *maxDelay, MaxCS: *maxCS, MaxThink: *maxThink}
	h, events, st, err := runtime.Run(context.Background(), cfg)
	if err != nil {
		return 0, err
	}
	f, err := os.Create(*logFile)
	if err != nil {
		return 0, badInput("cannot write the log: %v", err)
	}
	if err := eventlog.Write(f, h, events); err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	end := "stopped at the deadline"
	if st.Completed {
		end = "every request served"
	}
	fmt.Fprintf(stdout, "run: %s over %s, %s after %v: %d requests, %d entries, %d exits, %d messages sent, %d received; %d events written to %s\n",
		v.Name, *transport, end, st.Elapsed.Round(time.Millisecond), st.Requests, st.Entries, st.Exits, st.Sent, st.Received, len(events), *logFile)
	l := &eventlog.Log{Header: h, Events: events}
	for k := range l.Events {
		l.Events[k].Line = k + 2
	}
	hist := history.FromLog(l, history.KindFor(sys.Info()))
	if *histFile != "" {
		hf, err := os.Create(*histFile)
		if err != nil {
			return 0, badInput("cannot write the history: %v", err)
		}
		if err := history.Write(hf, hist); err != nil {
			hf.Close()
			return 0, err
		}
		if err := hf.Close(); err != nil {
			return 0, err
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
		fmt.Fprintf(stdout, "history: NOT linearizable (%s model, %d operations); see tokenmc history %s\n", hist.Header.Model, hr.Operations, *logFile)
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
