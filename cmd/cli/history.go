package cli

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/traces/eventlog"
	"github.com/tokenmc/tokenmc/traces/history"
	"github.com/tokenmc/tokenmc/traces/outfile"

	"github.com/tokenmc/tokenmc/internal/safefile"
)

const historySynopsis = `tokenmc history FILE [--model lock|group-lock|locks] [--html OUT] [--timeout 1m] [--json]

Checks a client-visible lock history for linearizability with porcupine
(github.com/anishathalye/porcupine) against a sequential lock (the default),
a group lock (GME: holders may share the lock only within one group) or one
lock per resource. FILE is a history (JSON lines, see README "Trace
verification") or an event log of 'tokenmc run', whose requests, enters and
exits give the acquire and release calls and returns. On a violation it
writes porcupine's HTML visualisation to OUT (default: FILE's base name
with .porcupine.html, in the current directory).`

type historyReport struct {
	File         string `json:"file"`
	Model        string `json:"model"`
	Operations   int    `json:"operations"`
	Linearizable bool   `json:"linearizable"`
	Unknown      bool   `json:"unknown,omitempty"`
	HTML         string `json:"html,omitempty"`
}

func init() {
	registerCommand("history", command{order: 12, synopsis: "history FILE [--html OUT] [--json]", summary: "check a lock history for linearizability (porcupine)", run: cmdHistory})
}

// isEventLog reports whether file's first non-blank line is an event log header.
func isEventLog(file string) bool {
	f, err := safefile.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		return strings.Contains(s, `"`+eventlog.Format+`"`)
	}
	return false
}

func cmdHistory(cat *catalog, args []string, stdout, _ io.Writer) (int, error) {
	fs := cat.newFlagSet("history", historySynopsis, stdout)
	modelName := fs.String("model", "", "sequential `model`: lock, group-lock or locks (default: the header's, else lock)")
	htmlOut := fs.String("html", "", "write porcupine's visualisation to `OUT` on a violation, replacing it (default: FILE's base name + .porcupine.html in the current directory, numbered .1.porcupine.html, ... if it exists)")
	timeout := fs.Duration("timeout", time.Minute, "give up after `D` (exit 3; 0: no limit)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, badInput("history needs exactly one FILE, got %d arguments", len(pos))
	}
	file := pos[0]
	if err := nonNegative("timeout", *timeout); err != nil {
		return 0, err
	}
	if err := checkOutDir("--html", *htmlOut); err != nil {
		return 0, err
	}
	var h *history.History
	if isEventLog(file) {
		l, sys, _, err := loadLog(cat, file, "")
		if err != nil {
			return 0, err
		}
		h = history.FromLog(l, history.KindFor(sys.Info()))
		if err := h.Validate(file); err != nil {
			return 0, badInput("%v (the log's requests, enters and exits do not form a lock history)", err)
		}
	} else {
		h, err = history.ReadFile(file)
		if err != nil {
			return 0, badInput("%v", err)
		}
	}
	switch *modelName {
	case "":
	case history.ModelLock, history.ModelGroupLock, history.ModelLocks:
		h.Header.Model = *modelName
	default:
		return 0, badInput("--model %q is unknown; valid: lock, group-lock, locks", *modelName)
	}
	res := history.Check(h, *timeout)
	rep := historyReport{File: file, Model: h.Header.Model, Operations: res.Operations, Linearizable: res.Linearizable, Unknown: res.Unknown}
	if !res.Linearizable && !res.Unknown {
		out, policy := *htmlOut, outfile.Through
		if out == "" {
			out, policy = filepath.Base(file)+".porcupine.html", outfile.Numbered // in the current directory, not the input's
		}
		f, err := outfile.Create(out, policy)
		if err != nil {
			return 0, badInput("cannot write the visualisation: %v", err)
		}
		if err := res.Visualize(f); err != nil {
			f.Abort()
			return 0, badInput("cannot write the visualisation %s: %v", out, err)
		}
		if rep.HTML, err = f.Commit(); err != nil {
			return 0, badInput("cannot write the visualisation: %v", err)
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return 0, err
		}
	} else {
		switch {
		case res.Linearizable:
			fmt.Fprintf(stdout, "history: linearizable: %d operations against the %s model\n", res.Operations, h.Header.Model)
		case res.Unknown:
			fmt.Fprintf(stdout, "history: unknown: porcupine gave up after %v (%d operations)\n", *timeout, res.Operations)
		default:
			fmt.Fprintf(stdout, "history: NOT linearizable: %d operations against the %s model; porcupine's visualisation: %s\n", res.Operations, h.Header.Model, rep.HTML)
		}
	}
	switch {
	case res.Linearizable:
		return exitOK, nil
	case res.Unknown:
		return exitIncomplete, nil
	}
	return exitViolation, nil
}
