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
// diverges), 2 bad input, 3 stopped early by a bound or an interrupt.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Exit codes, a public contract.
const (
	exitOK         = 0
	exitViolation  = 1
	exitBadInput   = 2
	exitIncomplete = 3
)

// usageError is bad input: reported in one line, exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func badInput(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

const mainUsage = `tokenmc: a model checker for token-based distributed mutual exclusion

usage:
  tokenmc list [--json]                 list algorithms, variants and parameters
  tokenmc check --algo NAME [flags]     explore every reachable state and check properties
  tokenmc replay FILE [--json]          re-execute a counterexample trace

Run 'tokenmc COMMAND --help' for a command's flags.
Exit codes: 0 ok, 1 violation (or a trace that diverges), 2 bad input,
3 stopped early by --max-states, --max-depth or Ctrl-C.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage)
		return exitBadInput
	}
	var code int
	var err error
	switch args[0] {
	case "list":
		code, err = cmdList(args[1:], stdout)
	case "check":
		code, err = cmdCheck(args[1:], stdout, stderr)
	case "replay":
		code, err = cmdReplay(args[1:], stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, mainUsage)
		return exitOK
	default:
		err = badInput("unknown command %q; commands are list, check, replay (see tokenmc --help)", args[0])
	}
	if err != nil {
		var ue *usageError
		if errors.Is(err, errHelp) {
			return exitOK
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
