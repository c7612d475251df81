package proptest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// Options configure the checks. The zero value is usable.
type Options struct {
	// Steps bounds the length of a schedule (default 200).
	Steps int
	// TraceFile is where the failing trace is written. Default:
	// tokenmc-proptest-NAME.trace.json (tokenmc-fuzz-NAME for Fuzz) in
	// os.TempDir(), NAME being the test's name with "/" replaced.
	TraceFile string
	// Algorithm and Params name the system in the trace. Default: the
	// system's own, model.Info.Name and model.Info.Params (see
	// traces.MetaOf). A replay rebuilds the system from them, so they must
	// be the name and parameters that the replaying program's algorithm
	// (its algorithms.Algorithm.Build) accepts.
	Algorithm string
	Params    map[string]int
	// Replay is the command that replays the trace file, for the failure
	// message: the user's own program built on cli.Main, e.g.
	// "go run ./cmd/mytool" (the message adds "replay FILE"). Default: a
	// hint that names both that and tokenmc for built-in algorithms.
	Replay string
}

func (o Options) meta(sys model.System, prop *model.Property) traces.Meta {
	m := traces.MetaOf(sys, *prop)
	if o.Algorithm != "" {
		m.Algorithm = o.Algorithm
	}
	if o.Params != nil {
		m.Params = o.Params
	}
	return m
}

func (o Options) steps() int {
	if o.Steps <= 0 {
		return 200
	}
	return o.Steps
}

// replayHint says how to replay file, for failure messages.
func (o Options) replayHint(file string) string {
	if o.Replay != "" {
		return fmt.Sprintf("replay it with: %s replay %s", o.Replay, file)
	}
	return fmt.Sprintf("replay it with your own program (a main that calls cli.Main with your algorithm):\n  go run ./path/to/your/main replay %s\nor, for a built-in algorithm: tokenmc replay %s", file, file)
}

// Failure is a violation found by a schedule.
type Failure struct {
	Property string
	Trace    *traces.Trace // nil when the initial state itself violates the property
	File     string        // where the trace was written ("" if it could not be)
}

// schedule is one drawn walk. rapid logs each top-level draw with %#v:
// GoString keeps that to one short line, where a draw per choice would
// log one line per step.
type schedule struct {
	path [][]byte
	bad  *model.Property
}

func (s schedule) GoString() string {
	return fmt.Sprintf("a schedule of %d steps", max(len(s.path)-1, 0))
}

// scheduleGen draws a walk of at most steps steps. Its inner draws (one per
// choice among two or more enabled transitions) happen inside
// rapid.Custom, which does not log them; rapid still shrinks each one.
func scheduleGen(sys model.System, props []model.Property, steps int) *rapid.Generator[schedule] {
	gens := map[int]*rapid.Generator[int]{}
	var order []int
	return rapid.Custom(func(rt *rapid.T) schedule {
		path, bad := simulate.Walk(sys, props, steps, func(n int, en []model.Transition) int {
			if n <= 1 {
				return n - 1
			}
			g, ok := gens[n]
			if !ok {
				g = rapid.IntRange(0, n-1)
				gens[n] = g
			}
			c := g.Draw(rt, "")
			if en == nil {
				return c
			}
			// rapid shrinks choices towards 0: make 0 the delivery that
			// lets the run progress, not another request
			order = order[:0]
			for k := range en {
				order = append(order, k)
			}
			slices.SortStableFunc(order, func(a, b int) int { return kindRank[en[a].Kind] - kindRank[en[b].Kind] })
			return order[c]
		})
		return schedule{path, bad}
	})
}

// property returns the rapid property that draws a schedule of at most
// opts.Steps steps and fails when it violates one of props. Each failure
// is written to the trace file (rapid runs the minimal failing case last,
// so the file ends up holding it) and, if onFail is not nil, passed to it.
// The story of the failing schedule is logged (rapid shows the log of the
// minimal case only) and the failure itself is one line.
func property(sys model.System, props []model.Property, opts Options, onFail func(Failure)) func(*rapid.T) {
	gen := scheduleGen(sys, props, opts.steps())
	return func(rt *rapid.T) {
		s := gen.Draw(rt, "schedule")
		path, bad := s.path, s.bad
		if bad == nil {
			return
		}
		f := Failure{Property: bad.Name}
		if len(path) < 2 {
			if onFail != nil {
				onFail(f)
			}
			rt.Fatalf("the initial state violates %s", bad.Name)
			return
		}
		// rapid's shrinking deletes and lowers choices; simulate.Shrink then
		// drops the steps and loops that are still not needed
		path = simulate.Shrink(sys, props, bad.Name, path, 200_000)
		tr, err := traces.FromSteps(sys.NewWorker(), opts.meta(sys, bad), path, nil)
		if err != nil {
			rt.Fatalf("%s violated after %d steps, but the trace cannot be built: %v", bad.Name, len(path)-1, err)
			return
		}
		f.Trace = tr
		file := opts.TraceFile
		if file == "" {
			file = defaultFile("proptest", rt.Name())
		}
		written := "the trace could not be written to " + file
		if err := traces.WriteFile(file, tr); err == nil {
			f.File = file
			written = "trace written to " + file
		} else {
			written += ": " + err.Error()
		}
		if onFail != nil {
			onFail(f)
		}
		rt.Log(story(tr))
		rt.Fatalf("%s violated after %d steps; %s", bad.Name, len(tr.Steps), written)
	}
}

// story renders tr for a failure message.
func story(tr *traces.Trace) string {
	var b bytes.Buffer
	_ = traces.Render(&b, tr)
	return strings.TrimRight(b.String(), "\n")
}

func defaultFile(kind, name string) string {
	return filepath.Join(os.TempDir(), "tokenmc-"+kind+"-"+safeName(name)+".trace.json")
}

// kindRank orders the enabled transitions for rapid's choices: choice 0
// (where shrinking goes) is a delivery, then exits, timers, requests and
// last message losses.
var kindRank = [...]int{model.Deliver: 0, model.Exit: 1, model.Timer: 2, model.Request: 3, model.Lose: 4}

func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ' ' || r == ':' {
			return '_'
		}
		return r
	}, s)
	if s == "" {
		s = "check"
	}
	return s
}

// Check runs rapid over schedules of sys and, when one violates props,
// fails t with one message: the minimal failing schedule's story, the
// command that reproduces it (go test -run ... -rapid.seed=N), the trace
// file and the command that replays it (Options.Replay). A failure that is
// not a property violation (a panic in the model, say) is reported as
// rapid reports it.
func Check(t rapid.TB, sys model.System, props []model.Property, opts Options) {
	t.Helper()
	if opts.TraceFile == "" {
		opts.TraceFile = defaultFile("proptest", t.Name())
	}
	var last *Failure
	rec := &recorder{name: t.Name()}
	rapid.Check(rec, property(sys, props, opts, func(f Failure) { last = &f }))
	if !rec.failed {
		for _, l := range rec.logs {
			t.Log(l)
		}
		return
	}
	if last == nil || last.Trace == nil || len(rec.errs) == 0 || !strings.HasPrefix(rec.errs[0], "[rapid] failed after") {
		// not a violation with a trace: rapid's own report, as it made it
		for _, l := range rec.logs {
			t.Log(l)
		}
		t.Fatal(strings.Join(rec.errs, "\n"))
		return
	}
	t.Fatal(failureMessage(t.Name(), rec.errs[0], last, opts))
}

// failureMessage composes Check's report from rapid's failure line (for
// its seed or fail file) and the minimal failure.
func failureMessage(test, rapidErr string, f *Failure, opts Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s violated after %d steps (the schedule rapid found, shrunk):\n\n%s\n\n", f.Property, len(f.Trace.Steps), story(f.Trace))
	run := runPattern(test)
	switch seed, file := rapidRepro(rapidErr); {
	case seed != "":
		fmt.Fprintf(&b, "reproduce it with: go test -run '%s' -rapid.seed=%s\n", run, seed)
	case file != "":
		fmt.Fprintf(&b, "reproduce it with: go test -run '%s' -rapid.failfile=%s\n", run, file)
	default:
		fmt.Fprintf(&b, "reproduce it with: go test -run '%s'\n", run)
	}
	if f.File == "" {
		b.WriteString("the trace could not be written (see Options.TraceFile)")
		return b.String()
	}
	fmt.Fprintf(&b, "trace written to %s; %s", f.File, opts.replayHint(f.File))
	return b.String()
}

// runPattern is the -run pattern that selects exactly test (and its
// parents, for a subtest).
func runPattern(test string) string {
	parts := strings.Split(test, "/")
	for i, p := range parts {
		parts[i] = "^" + regexpQuote(p) + "$"
	}
	return strings.Join(parts, "/")
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// rapidRepro extracts the seed (-rapid.seed=N) or fail file
// (-rapid.failfile="F") from rapid's failure report.
func rapidRepro(s string) (seed, file string) {
	if k := strings.Index(s, "-rapid.seed="); k >= 0 {
		rest := s[k+len("-rapid.seed="):]
		end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
		if end < 0 {
			end = len(rest)
		}
		seed = rest[:end]
	}
	if k := strings.Index(s, `-rapid.failfile="`); k >= 0 {
		rest := s[k+len(`-rapid.failfile="`):]
		if end := strings.IndexByte(rest, '"'); end >= 0 {
			file = rest[:end]
		}
	}
	return seed, file
}

// Find runs the same checks as Check outside a test (rapid's flags still
// apply) and returns the minimal failing schedule rapid found, or nil when
// every check passed. The error reports a failure that is not a property
// violation (a panic in the model, say). Find does not write rapid's fail
// files, and it is not safe to call from parallel tests (it toggles the
// -rapid.nofailfile flag).
func Find(sys model.System, props []model.Property, opts Options) (*Failure, error) {
	if f := flag.Lookup("rapid.nofailfile"); f != nil {
		old := f.Value.String()
		_ = f.Value.Set("true")
		defer func() { _ = f.Value.Set(old) }()
	}
	if opts.TraceFile == "" {
		opts.TraceFile = defaultFile("proptest", sys.Info().Name)
	}
	var last *Failure
	rec := &recorder{name: "proptest.Find"}
	rapid.Check(rec, property(sys, props, opts, func(f Failure) { last = &f }))
	if !rec.failed {
		return nil, nil
	}
	if last == nil {
		return nil, fmt.Errorf("proptest: rapid failed without a property violation: %s", strings.TrimSpace(strings.Join(append(rec.errs, rec.logs...), "\n")))
	}
	return last, nil
}

// recorder is a rapid.TB that records instead of failing a test: rapid's
// errors (its failure report) and its log (the minimal case's draws and
// story) are kept apart.
type recorder struct {
	name   string
	failed bool
	logs   []string
	errs   []string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Name() string                 { return r.name }
func (r *recorder) Logf(format string, a ...any) { r.logs = append(r.logs, fmt.Sprintf(format, a...)) }
func (r *recorder) Log(a ...any) {
	r.logs = append(r.logs, strings.TrimSuffix(fmt.Sprintln(a...), "\n"))
}
func (r *recorder) Skipf(format string, a ...any) {}
func (r *recorder) Skip(a ...any)                 {}
func (r *recorder) SkipNow()                      {}
func (r *recorder) Errorf(format string, a ...any) {
	r.failed = true
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}
func (r *recorder) Error(a ...any) {
	r.failed = true
	r.errs = append(r.errs, strings.TrimSuffix(fmt.Sprintln(a...), "\n"))
}
func (r *recorder) Fatalf(format string, a ...any) { r.Errorf(format, a...) }
func (r *recorder) Fatal(a ...any)                 { r.Error(a...) }
func (r *recorder) FailNow()                       { r.failed = true }
func (r *recorder) Fail()                          { r.failed = true }
func (r *recorder) Failed() bool                   { return r.failed }
