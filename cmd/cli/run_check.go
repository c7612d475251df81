package cli

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linked"
	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// This file holds what run does after the run: --history and --verify.

// check writes the history (--history) and, with --verify, validates the
// log against the model and checks the history for linearizability.
func (f *runFlags) check(rs *runSetup, logName string, stdout io.Writer) (int, error) {
	l, err := eventlog.ReadFile(logName)
	if err != nil {
		return 0, &internalError{value: fmt.Sprintf("the log just written does not read back: %v", err)}
	}
	hist := history.FromLog(l, history.KindFor(rs.sys.Info()))
	histErr := hist.Validate(logName)
	if *f.histFile != "" {
		var b bytes.Buffer
		if err := history.Write(&b, hist); err != nil {
			return 0, err
		}
		if _, err := outfile.WriteFile(*f.histFile, outfile.Through, b.Bytes()); err != nil {
			return 0, badInput("--history: %v", err)
		}
		fmt.Fprintf(stdout, "run: history of %d events written to %s\n", len(hist.Events), *f.histFile)
	}
	if !*f.verify {
		return exitOK, nil
	}
	code := exitOK
	res := eventlog.Validate(rs.sys, l)
	if res.OK {
		fmt.Fprintf(stdout, "validate: ok, %d events in %d steps are a behaviour of %s\n", res.Events, res.Steps, rs.v.Name)
	} else {
		fmt.Fprintf(stdout, "validate: NOT a behaviour of %s: %s: %s\n", rs.v.Name, res.Failed, res.Reason)
		code = exitViolation
	}
	if histErr != nil {
		fmt.Fprintf(stdout, "history: not a lock history: %v\n", histErr)
		return exitViolation, nil
	}
	if linked.Linearize == nil {
		fmt.Fprintf(stdout, "history: not checked for linearizability: %s\n", notLinked("the check (porcupine)", linked.HistoryPackage))
		return code, nil
	}
	hr := linked.Linearize(hist, time.Minute)
	switch {
	case hr.Linearizable:
		fmt.Fprintf(stdout, "history: linearizable (%s model, %d operations)\n", hist.Header.Model, hr.Operations)
	case hr.Unknown:
		fmt.Fprintf(stdout, "history: unknown, porcupine timed out (%d operations)\n", hr.Operations)
		if code == exitOK {
			code = exitIncomplete
		}
	default:
		fmt.Fprintf(stdout, "history: NOT linearizable (%s model, %d operations); see %s history %s\n", hist.Header.Model, hr.Operations, rs.prog, logName)
		code = exitViolation
	}
	return code, nil
}
