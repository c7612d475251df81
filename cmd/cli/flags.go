package cli

import (
	"errors"
	"flag"
	"io"
	"strings"
	"time"
)

var errHelp = errors.New("help shown")

// newFlagSet returns a flag set that reports errors in one line instead of
// printing its usage, and prints usage to out on --help, naming the program
// c.prog.
func (c *catalog) newFlagSet(name, synopsis string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	h := &helpInfo{cat: c, long: synopsis, out: out}
	fs.SetOutput(h) // discards the flag package's messages; parseFlags finds h there
	fs.Usage = func() { h.print(fs, helpRequest{}) }
	return fs
}

// parseFlags parses args, allowing positional arguments between flags
// ("replay FILE --json"), and returns the positional arguments. A flag
// given twice is an error ("--n given twice"), not a silent last-wins.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	args = rewriteAliases(fs, args)
	whole := args
	// The flag package calls Usage itself on every error; print usage only
	// for --help, once.
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	// Count the settings of each flag while parsing; restore the values
	// afterwards, as PrintDefaults inspects their types.
	seen := map[string]bool{}
	dup := ""
	var wrapped []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		wrapped = append(wrapped, f)
		f.Value = &onceValue{Value: f.Value, name: f.Name, seen: seen, dup: &dup}
	})
	defer func() {
		for _, f := range wrapped {
			f.Value = f.Value.(*onceValue).Value
		}
	}()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				for _, f := range wrapped {
					f.Value = f.Value.(*onceValue).Value
				}
				wrapped = nil
				if h, ok := fs.Output().(*helpInfo); ok {
					if err := h.print(fs, scanHelpRequest(fs, whole)); err != nil {
						return nil, err
					}
				} else {
					usage()
				}
				return nil, errHelp
			}
			if dup != "" {
				return nil, badInput("%s: --%s given twice; give each flag once (see tokenmc %s --help)", fs.Name(), dup, fs.Name())
			}
			return nil, badInput("%s: %v%s (see tokenmc %s --help)", fs.Name(), strings.TrimSpace(err.Error()), unknownFlagHint(fs, err), fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			// after "--" every argument is an operand, also one that
			// looks like a flag
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// errTwice is returned by onceValue.Set for a flag already set.
var errTwice = errors.New("given twice")

// onceValue wraps a flag's value to refuse a second setting.
type onceValue struct {
	flag.Value
	name string
	seen map[string]bool
	dup  *string
}

func (v *onceValue) Set(s string) error {
	if v.seen[v.name] {
		*v.dup = v.name
		return errTwice
	}
	v.seen[v.name] = true
	return v.Value.Set(s)
}

// IsBoolFlag keeps --json working without a value.
func (v *onceValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// nonNegative returns a bad-input error naming flag when d < 0.
func nonNegative(flag string, d time.Duration) error {
	if d < 0 {
		return badInput("--%s %v is negative; give a duration >= 0, e.g. 2ms", flag, d)
	}
	return nil
}
