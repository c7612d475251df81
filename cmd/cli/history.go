package cli

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linked"
	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces/eventlog"

	"github.com/tokenmc/tokenmc/model/safefile"
)

const historySynopsis = `tokenmc history FILE [--model lock|group-lock|locks] [--mapping FILE] [--out OUT] [--timeout 1m] [--json]

Checks a client-visible lock history for linearizability with porcupine
(github.com/anishathalye/porcupine) against a sequential lock (the default),
a group lock (GME: holders may share the lock only within one group) or one
lock per resource. FILE is a history (JSON lines, see README "Trace
verification") or an event log of 'tokenmc run', whose requests, enters and
exits give the acquire and release calls and returns (--mapping reads a log
written in a program's own words, see docs/mapping.md). On a violation it
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
	registerCommand("history", command{order: 12, synopsis: "history FILE [--out OUT] [--json]", summary: "check a lock history for linearizability (porcupine)", run: cmdHistory,
		missing: func() string {
			if linked.Linearize != nil {
				return ""
			}
			return notLinked("the history command (porcupine)", linked.HistoryPackage)
		}})
}

// eventLogFormat is the format an event log's header names (its
// "format" member, which eventlog.Write fills in); TestEventLogFormat
// pins it to what Write writes.
const eventLogFormat = "tokenmc-eventlog"

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
		return strings.Contains(s, `"`+eventLogFormat+`"`)
	}
	return false
}

func cmdHistory(cat *catalog, args []string, stdout, stderr io.Writer) (int, error) {
	fs := cat.newFlagSet("history", historySynopsis, stdout)
	modelName := fs.String("model", "", "sequential `model`: lock, group-lock or locks (default: the header's, else lock)")
	htmlOut := fs.String("out", "", "write porcupine's visualisation, in a page that says how to read it, to `OUT` (replaced); without --out it is written on a violation only, to FILE's base name + .porcupine.html in the current directory (replaced)")
	addAlias(fs, "html", "out")
	timeout := fs.Duration("timeout", time.Minute, "give up after `D` (exit 3; 0: no limit)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	mapping := fs.String("mapping", "", "event logs: translate the log's own names with the mapping `FILE` (see docs/mapping.md)")
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
	if err := checkOutDir("--out", *htmlOut); err != nil {
		return 0, err
	}
	var h *history.History
	if isEventLog(file) {
		l, sys, err := loadMappedLog(cat, file, "", *mapping)
		if err != nil {
			return 0, err
		}
		h = history.FromLog(l, history.KindFor(sys.Info()))
		if err := h.Validate(file); err != nil {
			return 0, badInput("%v (the log's requests, enters and exits do not form a lock history)", err)
		}
	} else {
		if *mapping != "" {
			return 0, badInput("--mapping translates event logs; %s is a history file, which has no names to translate", file)
		}
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
	res := linked.Linearize(h, *timeout)
	rep := historyReport{File: file, Model: h.Header.Model, Operations: res.Operations, Linearizable: res.Linearizable, Unknown: res.Unknown}
	// The page: with --out always (replaced), else on a violation only,
	// to FILE's base name + .porcupine.html in the current directory
	// (replaced too: one file per input, not one more per run).
	if out := *htmlOut; out != "" || (!res.Linearizable && !res.Unknown) {
		if out == "" {
			out = filepath.Base(file) + ".porcupine.html" // in the current directory, not the input's
		}
		f, err := outfile.Create(out, outfile.Through)
		if err != nil {
			return 0, badInput("cannot write the visualisation: %v", err)
		}
		if err := writeHistoryPage(f, file, h.Header.Model, rep, res.Visualize); err != nil {
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
			if rep.HTML != "" {
				fmt.Fprintf(stdout, "porcupine's visualisation: %s\n", rep.HTML)
			}
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
		fmt.Fprintf(stderr, "%s: history: undecided (exit 3): porcupine gave up after %v; raise --timeout (0: no limit)\n", cat.prog, *timeout)
		return exitIncomplete, nil
	}
	return exitViolation, nil
}

// loadMappedLog reads an event log through the mapping file mapping (none
// if empty), builds the model it names (or algo) and checks the mapping's
// message patterns against the model.
func loadMappedLog(cat *catalog, file, algo, mapping string) (*eventlog.Log, model.System, error) {
	var m *eventlog.Mapping
	if mapping != "" {
		var err error
		if m, err = eventlog.ReadMapping(mapping); err != nil {
			return nil, nil, badInput("%v", err)
		}
	}
	l, sys, _, err := loadLogMapped(cat, file, algo, m)
	if err != nil {
		return nil, nil, err
	}
	if m != nil {
		if err := m.CheckModel(sys); err != nil {
			return nil, nil, badInput("%s: %v", mapping, err)
		}
	}
	return l, sys, nil
}

// notLinked is the message of a program that lacks what a command needs
// (package linked): what is missing, and the import that adds it.
func notLinked(what, pkg string) string {
	return fmt.Sprintf("%s: not linked into this program; add to its main package: import _ %q", what, pkg)
}
