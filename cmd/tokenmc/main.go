// Command tokenmc is a model checker and trace verifier for token-based
// distributed mutual exclusion.
//
//	tokenmc list [--json]
//	tokenmc check --algo NAME [--n N] [--r R] [--props P,...] [--workers K]
//	              [--max-states X] [--max-depth D] [--exact] [--dfs]
//	              [--trace-out FILE] [--json]
//	tokenmc replay FILE [--json]
//
// Exit codes: 0 every checked property holds (or the trace replays and
// reproduces its violation), 1 a property is violated (or the trace
// diverges), 2 bad input, 3 stopped early by a bound or an interrupt,
// 4 internal error: a bug in tokenmc (a panic), reported as
// "tokenmc: internal error: ..." with the command line and the top stack
// frames. Output that cannot be written (a full disk, a closed pipe) is an
// error too: exit 2 with a one-line message, never a silent 0.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
)

// Exit codes, a public contract.
const (
	exitOK         = 0
	exitViolation  = 1
	exitBadInput   = 2
	exitIncomplete = 3
	exitInternal   = 4
)

// usageError is bad input: reported in one line, exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badInput(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// command is one subcommand. Each lives in its own file and registers
// itself from init, so commands can be added without touching this file.
type command struct {
	order    int    // position in the usage text
	synopsis string // one line, e.g. "check --algo NAME [flags]"
	summary  string
	run      func(args []string, stdout, stderr io.Writer) (int, error)
}

var commands = map[string]command{}

func registerCommand(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("tokenmc: command " + name + " registered twice")
	}
	commands[name] = c
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := commands[names[i]], commands[names[j]]
		if a.order != b.order {
			return a.order < b.order
		}
		return names[i] < names[j]
	})
	return names
}

func usageText() string {
	var b strings.Builder
	b.WriteString("tokenmc: a model checker for token-based distributed mutual exclusion\n\nusage:\n")
	for _, n := range commandNames() {
		c := commands[n]
		fmt.Fprintf(&b, "  tokenmc %-34s %s\n", c.synopsis, c.summary)
	}
	b.WriteString(`
Run 'tokenmc help COMMAND' (or 'tokenmc COMMAND --help') for a command's flags,
'tokenmc --version' for the version.
Exit codes: 0 ok, 1 violation (or a trace that diverges), 2 bad input,
3 stopped early by a bound or Ctrl-C, 4 internal error (a bug in tokenmc:
please report the lines it prints).
`)
	return b.String()
}

func init() {
	registerCommand("list", command{order: 0, synopsis: "list [--json]", summary: "list algorithms, variants and parameters",
		run: func(args []string, stdout, _ io.Writer) (int, error) { return cmdList(args, stdout) }})
	registerCommand("check", command{order: 1, synopsis: "check --algo NAME [flags]", summary: "explore every reachable state and check properties", run: cmdCheck})
	registerCommand("replay", command{order: 2, synopsis: "replay FILE [--json]", summary: "re-execute a counterexample trace",
		run: func(args []string, stdout, _ io.Writer) (int, error) { return cmdReplay(args, stdout) }})
}

func main() {
	out := &checkedWriter{w: os.Stdout}
	code := run(os.Args[1:], out, os.Stderr)
	if out.err != nil {
		fmt.Fprintf(os.Stderr, "tokenmc: cannot write the output: %v\n", out.err)
		if code == exitOK || code == exitIncomplete {
			code = exitBadInput
		}
	}
	os.Exit(code)
}

// run runs the command args names. A panic anywhere under the command is
// caught here and reported as an internal error (exit 4).
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			reportInternal(stderr, args, p, debug.Stack())
			code = exitInternal
		}
	}()
	return dispatch(args, stdout, stderr)
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText())
		return exitBadInput
	}
	if h := args[0]; h == "help" || h == "-h" || h == "-help" || h == "--help" {
		if h == "help" && len(args) > 1 { // tokenmc help CMD: CMD's own help
			return dispatch([]string{args[1], "--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usageText())
		return exitOK
	}
	if h := args[0]; h == "--version" || h == "-version" || h == "version" {
		fmt.Fprintln(stdout, versionText())
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tokenmc: %s\n", unknownCommandText(args[0]))
		return exitBadInput
	}
	code, err := cmd.run(args[1:], stdout, stderr)
	if err != nil {
		var ue *usageError
		if errors.Is(err, errHelp) {
			return exitOK
		}
		var ie *internalError
		if errors.As(err, &ie) {
			reportInternal(stderr, args, ie.value, ie.stack)
			return exitInternal
		}
		if !errors.As(err, &ue) {
			fmt.Fprintf(stderr, "tokenmc: %v\n", err)
			return exitBadInput
		}
		fmt.Fprintf(stderr, "tokenmc: %s\n", ue.msg)
		return exitBadInput
	}
	return code
}
