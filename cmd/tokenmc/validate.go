package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces/chart"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

const validateSynopsis = `tokenmc validate FILE [--algo NAME] [--json]

Checks that an event log (JSON lines: a header, then one event per line; see
README "Trace verification") is a behaviour of the model: it searches for an
interleaving consistent with the recorded happens-before order (the vector
timestamps) in which every step is an enabled transition of the model that
sends exactly the recorded messages and enters the CS exactly when recorded.
Otherwise it names the first event no interleaving explains and prints the
state reached. The model is the one the header names, with its parameters;
--algo checks the log against another variant (e.g. a mutant's log against
the correct algorithm).`

type validateReport struct {
	File      string   `json:"file"`
	Algorithm string   `json:"algorithm"`
	OK        bool     `json:"ok"`
	Events    int      `json:"events"`
	Explained int      `json:"explained"`
	Steps     int      `json:"steps"`
	InTransit int      `json:"in_transit"`
	Line      int      `json:"line,omitempty"`
	Event     string   `json:"event,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	Pending   []string `json:"pending,omitempty"`
}

func init() {
	registerCommand("validate", command{order: 11, synopsis: "validate FILE [--algo NAME] [--json]", summary: "check that an event log is a behaviour of the model", run: cmdValidate})
}

// loadLog reads an event log and builds the model it names (or algo).
func loadLog(file, algo string) (*eventlog.Log, model.System, string, error) {
	l, err := eventlog.ReadFile(file)
	if err != nil {
		var le *eventlog.LineError
		if errors.As(err, &le) {
			return nil, nil, "", badInput("%v", err)
		}
		return nil, nil, "", badInput("%v", err)
	}
	name := l.Header.Algorithm
	if algo != "" {
		name = algo
	}
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		return nil, nil, "", badInput("%s: %v", file, err)
	}
	sys, _, err := a.Build(v.Name, l.Header.Params)
	if err != nil {
		return nil, nil, "", badInput("%s: %v", file, err)
	}
	return l, sys, v.Name, nil
}

func cmdValidate(args []string, stdout, _ io.Writer) (int, error) {
	fs := newFlagSet("validate", validateSynopsis, stdout)
	algo := fs.String("algo", "", "check against algorithm `NAME` or NAME/VARIANT instead of the header's")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, badInput("validate needs exactly one log FILE, got %d arguments", len(pos))
	}
	l, sys, name, err := loadLog(pos[0], *algo)
	if err != nil {
		return 0, err
	}
	res := eventlog.Validate(sys, l)
	rep := validateReport{File: pos[0], Algorithm: name, OK: res.OK, Events: len(l.Events), Explained: res.Events, Steps: res.Steps,
		InTransit: res.Messages, Reason: res.Reason, Pending: res.Pending}
	if res.Failed != nil {
		rep.Line, rep.Event = res.Failed.Line, res.Failed.String()
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return 0, err
		}
	} else if res.OK {
		fmt.Fprintf(stdout, "validate: ok, %d events in %d steps of %d processes are a behaviour of %s (%d messages still in transit)\n",
			res.Events, res.Steps, l.N(), name, res.Messages)
	} else {
		if res.Failed != nil {
			fmt.Fprintf(stdout, "validate: NOT a behaviour of %s: %s cannot be explained: %s\n", name, res.Failed, res.Reason)
		} else {
			fmt.Fprintf(stdout, "validate: NOT a behaviour of %s: %s\n", name, res.Reason)
		}
		fmt.Fprintf(stdout, "%d of %d events explained; state reached:\n%s", res.Events, len(l.Events), chart.StateTable(&res.Reached))
		if len(res.Pending) > 1 {
			fmt.Fprintf(stdout, "steps waiting at that point:\n")
			for _, p := range res.Pending {
				fmt.Fprintf(stdout, "  %s\n", p)
			}
		}
	}
	if res.OK {
		return exitOK, nil
	}
	return exitViolation, nil
}
