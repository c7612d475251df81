package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/tokenmc/tokenmc/algorithms"
)

// Main runs the command line in os.Args[1:] over algs and returns the exit
// code. Its messages name the program as it was invoked: the base name of
// os.Args[0] ("my-tool: unknown algorithm ...; 'my-tool list' shows ...";
// "tokenmc" for the built-in binary). Output that cannot be written to
// stdout (a full disk, a closed pipe) turns an exit 0 or 3 into 2 with a
// one-line message.
func Main(algs ...algorithms.Algorithm) int {
	prog := programName(os.Args[0])
	out := &checkedWriter{w: os.Stdout}
	code := runAs(prog, os.Args[1:], out, os.Stderr, algs...)
	if out.err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot write the output: %v\n", prog, out.err)
		if code == exitOK || code == exitIncomplete {
			code = exitBadInput
		}
	}
	return code
}

// Run is Main with explicit arguments and streams (for tests and
// embedding). It returns the exit code: 0 ok, 1 violation, 2 bad input, 3
// stopped early, 4 internal error, 5 the model under check failed
// (panicked) at a reachable state. Its messages name the program
// "tokenmc", whatever os.Args[0] is.
//
// Every command works over algs only: --algo names, a trace's or event
// log's algorithm, list, report and the did-you-mean hints resolve there,
// not in the built-in registry (pass algorithms.All() for the built-in
// algorithms, alone or beside your own). Each algorithm is checked and
// prepared by spec.Prepare; no algorithm, a description Prepare
// refuses, or two algorithms with the same name, is reported in one line
// with exit 2.
func Run(args []string, stdout, stderr io.Writer, algs ...algorithms.Algorithm) int {
	return runAs(defaultProgram, args, stdout, stderr, algs...)
}

// runAs is Run with messages that name the program prog.
func runAs(prog string, args []string, stdout, stderr io.Writer, algs ...algorithms.Algorithm) int {
	cat, err := newCatalog(algs)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", prog, namedInError(prog, err.Error()))
		return exitBadInput
	}
	cat.prog = prog
	return run(cat, args, stdout, stderr)
}
