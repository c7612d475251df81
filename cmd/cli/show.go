package cli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/cmd/internal/outfile"
	"github.com/tokenmc/tokenmc/traces"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

const showSynopsis = `tokenmc show FILE [--format text|svg|html] [--out OUT] [--algo NAME] [--mapping FILE]

Renders a counterexample trace (from check, simulate or a liveness lasso) or
an event log (from run or another program) as a message sequence chart: a
lifeline per process, an arrow per message (the token's path in thick
orange), shaded CS intervals and the violating step marked. html gives a page
that steps through the trace with the state table after each step. An event
log is first validated against the model its header names (or --algo), so
its chart follows the interleaving found and marks the event that no
interleaving explains. --mapping reads a log written in a program's own
words (see docs/mapping.md).`

func init() {
	registerCommand("show", command{order: 13, synopsis: "show FILE [--format text|svg|html]", summary: "render a trace or event log as a message sequence chart", run: cmdShow})
}

func cmdShow(cat *catalog, args []string, stdout, _ io.Writer) (int, error) {
	fs := cat.newFlagSet("show", showSynopsis, stdout)
	format := fs.String("format", "text", "output `format`: text, svg or html")
	out := fs.String("out", "", "write to `OUT` instead of standard output (replacing it)")
	algo := fs.String("algo", "", "validate an event log against `NAME` instead of its header's algorithm")
	mapping := fs.String("mapping", "", "event logs: translate the log's own names with the mapping `FILE` (see docs/mapping.md)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, badInput("show needs exactly one trace or log FILE, got %d arguments", len(pos))
	}
	render := map[string]func(io.Writer, *chart.Chart) error{"text": chart.Text, "svg": chart.SVG, "html": chart.HTML}[*format]
	if render == nil {
		return 0, badInput("--format %q is unknown; valid: text, svg, html", *format)
	}
	file := pos[0]
	if err := checkOutDir("--out", *out); err != nil {
		return 0, err
	}
	var c *chart.Chart
	if isEventLog(file) {
		l, sys, err := loadMappedLog(cat, file, *algo, *mapping)
		if err != nil {
			return 0, err
		}
		res := eventlog.Validate(sys, l)
		c = chart.FromLog(l, &res)
	} else {
		if *mapping != "" {
			return 0, badInput("--mapping translates event logs; %s is a trace file", file)
		}
		tr, err := traces.ReadFile(file)
		if err != nil {
			return 0, badInput("%v", err)
		}
		c = chart.FromTrace(tr)
	}
	if *out == "" {
		if err := render(stdout, c); err != nil {
			return 0, err
		}
		return exitOK, nil
	}
	f, err := outfile.Create(*out, outfile.Through)
	if err != nil {
		return 0, badInput("--out: %v", err)
	}
	defer f.Abort()
	bw := bufio.NewWriter(f)
	if err := render(bw, c); err != nil {
		return 0, err
	}
	if err := bw.Flush(); err != nil {
		return 0, badInput("--out: cannot write %s: %v", *out, err)
	}
	if _, err := f.Commit(); err != nil {
		return 0, badInput("--out: %v", err)
	}
	fmt.Fprintf(stdout, "show: %d steps of %d processes written to %s\n", len(c.Rows), c.N, *out)
	return exitOK, nil
}
