package modeltest

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Args are the key=value arguments of a scenario's build command, e.g.
// "build variant=suzuki-kasami/keep-copy n=3 r=1". RunDir's build
// function reads them with Int and String; the runner then rejects any argument it did
// not read, and any value that did not parse.
type Args struct {
	keys []string
	vals map[string]string
	read map[string]bool
	err  error
}

// parseArgs splits "k=v k=v" into Args.
func parseArgs(s string) (*Args, error) {
	a := &Args{vals: map[string]string{}, read: map[string]bool{}}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("argument %q is not key=value, e.g. n=3", f)
		}
		if _, dup := a.vals[k]; dup {
			return nil, fmt.Errorf("argument %s given twice", k)
		}
		a.keys = append(a.keys, k)
		a.vals[k] = v
	}
	return a, nil
}

// String returns the value of key, or def when the command does not give it.
func (a *Args) String(key, def string) string {
	a.read[key] = true
	if v, ok := a.vals[key]; ok {
		return v
	}
	return def
}

// Int returns the integer value of key, or def when the command does not
// give it. A value that is not an integer is reported by the runner.
func (a *Args) Int(key string, def int) int {
	a.read[key] = true
	v, ok := a.vals[key]
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil && a.err == nil {
		a.err = fmt.Errorf("argument %s=%s is not an integer", key, v)
	}
	return n
}

// check reports a malformed value or an argument the build did not read.
func (a *Args) check() error {
	if a.err != nil {
		return a.err
	}
	for _, k := range a.keys {
		if !a.read[k] {
			if len(a.read) == 0 {
				return fmt.Errorf("unknown argument %s; this build takes no argument", k)
			}
			known := slices.Sorted(maps.Keys(a.read))
			return fmt.Errorf("unknown argument %s; this build reads: %s", k, strings.Join(known, ", "))
		}
	}
	return nil
}
