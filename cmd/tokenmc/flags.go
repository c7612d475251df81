package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

var errHelp = errors.New("help shown")

// newFlagSet returns a flag set that reports errors in one line instead of
// printing its usage, and prints usage to out on --help.
func newFlagSet(name, synopsis string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: %s\n\nflags:\n", synopsis)
		fs.SetOutput(out)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parseFlags parses args, allowing positional arguments between flags
// ("replay FILE --json"), and returns the positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	// The flag package calls Usage itself on every error; print usage only
	// for --help, once.
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, errHelp
			}
			return nil, badInput("%s: %v (see tokenmc %s --help)", fs.Name(), strings.TrimSpace(err.Error()), fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
