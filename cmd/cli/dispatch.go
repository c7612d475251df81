// This file holds the command table and the dispatch of a command line to
// its command: help, version, unknown commands, and the exit code of a
// command's error.

package cli

import (
	"errors"
	"fmt"
	"github.com/tokenmc/tokenmc/model/protocol"
	"io"
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
	run      func(cat *catalog, args []string, stdout, stderr io.Writer) (int, error)
	// missing, when not nil, says why the program lacks the command: a
	// command whose code links a large dependency that a package of its
	// own adds (package linked). A missing command is not listed, and
	// running it (or asking for its help) is bad input that says what to
	// import.
	missing func() string
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
	for n, c := range commands {
		if c.missing == nil || c.missing() == "" {
			names = append(names, n)
		}
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

func usageText(prog string) string {
	var b strings.Builder
	b.WriteString(prog + ": a model checker for token-based distributed mutual exclusion\n\nusage:\n")
	for _, n := range commandNames() {
		c := commands[n]
		fmt.Fprintf(&b, "  %s %-34s %s\n", prog, c.synopsis, c.summary)
	}
	b.WriteString(`
Run 'tokenmc help COMMAND' (or 'tokenmc COMMAND --help') for a command's flags
and examples, 'tokenmc help COMMAND --algo NAME' for an algorithm's parameters
too, 'tokenmc --version' for the version.
Exit codes: 0 ok, 1 violation (or a trace that diverges), 2 bad input,
3 stopped early by a bound or Ctrl-C, 4 internal error (a bug in tokenmc:
please report the lines it prints), 5 the model under check failed (panicked)
at a reachable state (its trace replays to the same failure).
`)
	return named(prog, b.String())
}

func init() {
	registerCommand("list", command{order: 0, synopsis: "list [NAME] [--brief] [--json]", summary: "list algorithms, variants and parameters",
		run: func(cat *catalog, args []string, stdout, _ io.Writer) (int, error) { return cmdList(cat, args, stdout) }})
	registerCommand("check", command{order: 1, synopsis: "check --algo NAME [flags]", summary: "explore every reachable state and check properties", run: cmdCheck})
	registerCommand("replay", command{order: 2, synopsis: "replay FILE [--json]", summary: "re-execute a counterexample trace",
		run: func(cat *catalog, args []string, stdout, _ io.Writer) (int, error) {
			return cmdReplay(cat, args, stdout)
		}})
}

// run runs the command args names. A panic anywhere under the command is
// caught here and reported as an internal error (exit 4), except a
// failure of the model's own code (a *protocol.ModelPanic that a command
// did not turn into its own report, e.g. while validate steps a log),
// which is the model's error (exit 5).
func run(cat *catalog, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			if mp, ok := p.(*protocol.ModelPanic); ok {
				reportModelPanic(stderr, cat.prog, mp)
				code = exitModelError
				return
			}
			reportInternal(stderr, cat.prog, args, p, debug.Stack())
			code = exitInternal
		}
	}()
	return dispatch(cat, args, stdout, stderr)
}

func dispatch(cat *catalog, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText(cat.prog))
		return exitBadInput
	}
	if h := args[0]; h == "help" || h == "-h" || h == "-help" || h == "--help" {
		if h == "help" && len(args) > 1 { // tokenmc help CMD [--all] [--algo NAME]: CMD's own help
			return dispatch(cat, append([]string{args[1], "--help"}, args[2:]...), stdout, stderr)
		}
		fmt.Fprint(stdout, usageText(cat.prog))
		return exitOK
	}
	if h := args[0]; h == "--version" || h == "-version" || h == "version" {
		fmt.Fprintln(stdout, versionText(cat.prog))
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "%s: %s\n", cat.prog, namedInError(cat.prog, unknownCommandText(args[0])))
		return exitBadInput
	}
	if cmd.missing != nil {
		if why := cmd.missing(); why != "" {
			fmt.Fprintf(stderr, "%s: %s\n", cat.prog, why)
			return exitBadInput
		}
	}
	tracked := &trackedWriter{w: stderr}
	code, err := cmd.run(cat, args[1:], stdout, tracked)
	if err == nil && code == exitIncomplete && !tracked.wrote.Load() {
		// Every exit 3 gives its reason on stderr (issue 25): the
		// commands that do not give their own get this one.
		fmt.Fprintf(stderr, "%s: %s ended without a verdict (exit 3): a bound or time limit was reached, it was interrupted, or the input does not decide; its output says which and how far it got\n", cat.prog, args[0])
	}
	if err != nil {
		var ue *usageError
		if errors.Is(err, errHelp) {
			return exitOK
		}
		var ie *internalError
		if errors.As(err, &ie) {
			reportInternal(stderr, cat.prog, args, ie.value, ie.stack)
			return exitInternal
		}
		if !errors.As(err, &ue) {
			fmt.Fprintf(stderr, "%s: %s\n", cat.prog, namedInError(cat.prog, err.Error()))
			return exitBadInput
		}
		fmt.Fprintf(stderr, "%s: %s\n", cat.prog, namedInError(cat.prog, ue.msg))
		return exitBadInput
	}
	return code
}
