package modeltest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"

	"github.com/tokenmc/tokenmc/model/safefile"
	"github.com/tokenmc/tokenmc/traces"
)

var update = flag.Bool("modeltest.update", false, "modeltest: rewrite the expected outputs of scenario files (review the diff)")

// buildFunc builds the system a scenario's build command asks for (see
// RunDir).
type buildFunc = func(args *Args) (model.System, []model.Property, error)

// RunDir runs every file of dir whose name ends in ".txt" as a scenario
// script, in a subtest named after the file: each command's output is
// compared with the expected one, and every difference is reported with
// its line. A malformed script, an unknown command or a step that is not
// enabled fails the subtest at once; a directory without scripts fails
// the test. With -modeltest.update, the files' expected outputs are
// rewritten instead.
//
// build builds the system a scenario's build command asks for, with the
// properties its check command may name besides the generic ones of
// package invariants (a property with a generic name replaces it, as
// invariants.With does); for scenarios of one system, whose build command
// takes no argument, it returns that system whatever args says.
func RunDir(t *testing.T, dir string, build func(args *Args) (model.System, []model.Property, error)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenario files (*.txt) in %s", dir)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runFile(t, f, build) })
	}
}

// runFile runs the scenario script in file (see RunDir).
func runFile(t *testing.T, file string, build buildFunc) {
	t.Helper()
	text, err := safefile.ReadFile(file, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	lines, blocks, got, err := runScript(file, string(text), build)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(file, []byte(rewrite(lines, blocks, got)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for k, b := range blocks {
		if !slices.Equal(got[k], b.want) {
			t.Errorf("%s:%d: %s: output differs (go test -run '%s' -modeltest.update rewrites it; review the diff)\ngot:\n%s\nwant:\n%s",
				file, b.line, strings.TrimSpace(b.cmd+" "+b.args), t.Name(), strings.Join(got[k], "\n"), strings.Join(b.want, "\n"))
		}
	}
}

// runScript parses and runs a script, returning its lines, its blocks and
// each block's output. A malformed script, an unknown command or a step
// that is not enabled is an error naming file:line.
func runScript(file, text string, build buildFunc) (lines []string, blocks []block, got [][]string, err error) {
	lines, blocks, err = parseScript(file, text)
	if err != nil {
		return nil, nil, nil, err
	}
	s := &session{build: build, saved: map[string]savedState{}}
	got = make([][]string, len(blocks))
	for k, b := range blocks {
		out, err := s.run(&b)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s:%d: %s: %v", file, b.line, b.cmd, err)
		}
		got[k] = out
	}
	return lines, blocks, got, nil
}

// session is the state of a running script.
type session struct {
	build buildFunc
	sys   model.System
	info  model.Info
	props []model.Property // generic and the build's own, applicable ones
	w     model.Worker
	state []byte
	last  *model.Transition // the last step taken, nil after build or restore
	saved map[string]savedState
}

// savedState is a state remembered by save, with the system it belongs to.
type savedState struct {
	state []byte
	of    string // the name and size of its system
}

func (s *session) of() string { return fmt.Sprintf("%s n=%d", s.info.Name, s.info.Processes) }

// run executes one command and returns its output lines.
func (s *session) run(b *block) ([]string, error) {
	if b.cmd != "build" && s.w == nil {
		return nil, fmt.Errorf("no system yet; start the script with build")
	}
	switch b.cmd {
	case "build":
		return s.doBuild(b.args)
	case "step":
		return s.doSteps(labelsOf(b))
	case "show":
		return s.show(), nil
	case "enabled":
		var out []string
		for _, l := range s.enabled() {
			out = append(out, l)
		}
		if len(out) == 0 {
			out = []string{"none"}
		}
		return out, nil
	case "disabled":
		var out []string
		en := s.enabled()
		for _, l := range labelsOf(b) {
			if slices.Contains(en, l) {
				out = append(out, l+": ENABLED")
			} else {
				out = append(out, l+": disabled")
			}
		}
		return out, nil
	case "check":
		return s.check(strings.Fields(b.args))
	case "tokens":
		return []string{fmt.Sprintf("tokens: %d", s.w.Snapshot(s.state).Tokens())}, nil
	case "save", "compare", "restore":
		return s.named(b.cmd, b.args)
	}
	return nil, fmt.Errorf("unknown command; valid: build, step, show, enabled, disabled, check, tokens, save, compare, restore")
}

// labelsOf returns the labels a command names: its argument, or its input
// lines.
func labelsOf(b *block) []string {
	if b.args != "" {
		return append([]string{b.args}, b.input...)
	}
	return b.input
}

func (s *session) doBuild(argText string) ([]string, error) {
	args, err := parseArgs(argText)
	if err != nil {
		return nil, err
	}
	sys, props, err := s.build(args)
	if args.err != nil { // a malformed value explains a build error
		return nil, args.err
	}
	if err != nil {
		return nil, err
	}
	if err := args.check(); err != nil {
		return nil, err
	}
	s.sys, s.info, s.w, s.last = sys, sys.Info(), sys.NewWorker(), nil
	s.props = invariants.Applicable(invariants.With(props...), s.info)
	s.state = nil
	n := 0
	s.w.Initial(func(b []byte) bool {
		if n == 0 {
			s.state = bytes.Clone(b)
		}
		n++
		return true
	})
	if s.state == nil {
		return nil, fmt.Errorf("%s has no initial state", s.info.Name)
	}
	out := s.show()
	if n > 1 {
		out = append(out, fmt.Sprintf("(the first of %d initial states)", n))
	}
	return out, nil
}

func (s *session) show() []string {
	sd := s.w.Describe(s.state)
	return renderState(s.info, &sd)
}

// enabled lists the labels of the transitions enabled in the current state.
func (s *session) enabled() []string {
	var out []string
	s.w.Successors(s.state, func(tr *model.Transition, _ []byte) bool {
		out = append(out, s.w.Label(s.state, tr))
		return true
	})
	return out
}

func (s *session) doSteps(labels []string) ([]string, error) {
	if len(labels) == 0 {
		return nil, fmt.Errorf("no label; give one after step or one per line below it")
	}
	var out []string
	for _, label := range labels {
		tk, enabled, failed := traces.StepLabel(s.w, s.state, label)
		if tk == nil && failed != nil {
			return nil, fmt.Errorf("the model fails looking for %q: %s", label, failed.Error())
		}
		if tk == nil {
			return nil, fmt.Errorf("%q is not enabled; enabled: %s", label, orNone(enabled))
		}
		before, after := s.w.Describe(s.state), s.w.Describe(tk.Next)
		out = append(out, renderStep(label, &before, &after, tk.Transition.Flags)...)
		s.state, s.last = tk.Next, &tk.Transition
	}
	return out, nil
}

func orNone(labels []string) string {
	if len(labels) == 0 {
		return "none"
	}
	return strings.Join(labels, "; ")
}

// check evaluates the named properties (all applicable ones if none is
// named) on the current state and the last step.
func (s *session) check(names []string) ([]string, error) {
	props := s.props
	if len(names) > 0 {
		props = nil
		for _, n := range names {
			i := slices.IndexFunc(s.props, func(p model.Property) bool { return p.Name == n })
			if i < 0 {
				var known []string
				for _, p := range s.props {
					known = append(known, p.Name)
				}
				return nil, fmt.Errorf("no property %q applies to %s; valid: %s", n, s.info.Name, strings.Join(known, ", "))
			}
			props = append(props, s.props[i])
		}
	}
	terminal := len(s.enabled()) == 0
	var out []string
	for _, p := range props {
		var holds bool
		switch p.Kind {
		case model.TransitionInvariant:
			if s.last == nil {
				out = append(out, p.Name+": n/a (no step taken)")
				continue
			}
			holds = p.HoldsOn(s.last)
		case model.Terminal:
			if !terminal {
				out = append(out, p.Name+": n/a (the state has successors)")
				continue
			}
			holds = p.Holds(s.w.Snapshot(s.state))
		default:
			holds = p.Holds(s.w.Snapshot(s.state))
		}
		if holds {
			out = append(out, p.Name+": holds")
		} else {
			out = append(out, p.Name+": VIOLATED")
		}
	}
	if len(out) == 0 {
		out = []string{"no property applies"}
	}
	return out, nil
}

// named runs save, compare and restore.
func (s *session) named(cmd, name string) ([]string, error) {
	if name == "" || strings.ContainsAny(name, " \t") {
		return nil, fmt.Errorf("needs one name, e.g. %s a", cmd)
	}
	if cmd == "save" {
		s.saved[name] = savedState{s.state, s.of()}
		return []string{"saved " + name}, nil
	}
	st, ok := s.saved[name]
	if !ok {
		return nil, fmt.Errorf("no state saved as %q; save it first", name)
	}
	if cmd == "compare" {
		if bytes.Equal(st.state, s.state) {
			return []string{"same state as " + name}, nil
		}
		return []string{"differs from " + name}, nil
	}
	if st.of != s.of() {
		return nil, fmt.Errorf("%q is a state of %s, not of %s", name, st.of, s.of())
	}
	s.state, s.last = st.state, nil
	return s.show(), nil
}
