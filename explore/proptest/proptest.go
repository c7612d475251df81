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
	// tokenmc-proptest-NAME.trace.json in os.TempDir(), NAME being the
	// test's name with "/" replaced.
	TraceFile string
	// Algorithm and Params name the system in the trace (default: the
	// system's Info().Name and its n and r). `tokenmc replay` rebuilds the
	// system from them, so for a registered algorithm give its registry
	// parameters.
	Algorithm string
	Params    map[string]int
}

func (o Options) meta(sys model.System) traces.Meta {
	info := sys.Info()
	m := traces.Meta{Algorithm: o.Algorithm, Params: o.Params}
	if m.Algorithm == "" {
		m.Algorithm = info.Name
	}
	if m.Params == nil {
		m.Params = map[string]int{"n": info.Processes, "r": info.Requests}
	}
	return m
}

// Failure is a violation found by a schedule.
type Failure struct {
	Property string
	Trace    *traces.Trace // nil when the initial state itself violates the property
	File     string        // where the trace was written ("" if it could not be)
}

// Property returns the rapid property that draws a schedule of at most
// opts.Steps steps and fails when it violates one of props. Each failure
// is written to the trace file (rapid runs the minimal failing case last,
// so the file ends up holding it) and, if onFail is not nil, passed to it.
func Property(sys model.System, props []model.Property, opts Options, onFail func(Failure)) func(*rapid.T) {
	steps := opts.Steps
	if steps <= 0 {
		steps = 200
	}
	gens := map[int]*rapid.Generator[int]{}
	return func(rt *rapid.T) {
		var order []int
		path, bad := simulate.Walk(sys, props, steps, func(n int, en []model.Transition) int {
			if n <= 1 {
				return n - 1
			}
			g, ok := gens[n]
			if !ok {
				g = rapid.IntRange(0, n-1)
				gens[n] = g
			}
			c := g.Draw(rt, "choice")
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
		meta := opts.meta(sys)
		meta.Property, meta.PropertyKind = bad.Name, bad.Kind
		tr, err := traces.FromPath(sys.NewWorker(), meta, path)
		if err != nil {
			rt.Fatalf("%s violated after %d steps, but the trace cannot be built: %v", bad.Name, len(path)-1, err)
			return
		}
		f.Trace = tr
		file := opts.TraceFile
		if file == "" {
			file = filepath.Join(os.TempDir(), "tokenmc-proptest-"+safeName(rt.Name())+".trace.json")
		}
		if err := traces.WriteFile(file, tr); err == nil {
			f.File = file
		}
		if onFail != nil {
			onFail(f)
		}
		var story bytes.Buffer
		_ = traces.Render(&story, tr)
		rt.Fatalf("%s violated after %d steps; trace written to %s (tokenmc replay %s)\n%s", bad.Name, len(tr.Steps), f.File, f.File, story.String())
	}
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

// Check runs rapid over schedules of sys and fails t with the minimal
// failing schedule's story and trace file when one violates props.
func Check(t rapid.TB, sys model.System, props []model.Property, opts Options) {
	t.Helper()
	if opts.TraceFile == "" {
		opts.TraceFile = filepath.Join(os.TempDir(), "tokenmc-proptest-"+safeName(t.Name())+".trace.json")
	}
	rapid.Check(t, Property(sys, props, opts, nil))
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
		opts.TraceFile = filepath.Join(os.TempDir(), "tokenmc-proptest-"+safeName(sys.Info().Name)+".trace.json")
	}
	var last *Failure
	rec := &recorder{name: "proptest.Find"}
	rapid.Check(rec, Property(sys, props, opts, func(f Failure) { last = &f }))
	if !rec.failed {
		return nil, nil
	}
	if last == nil {
		return nil, fmt.Errorf("proptest: rapid failed without a property violation: %s", strings.TrimSpace(rec.log.String()))
	}
	return last, nil
}

// recorder is a rapid.TB that records instead of failing a test.
type recorder struct {
	name   string
	failed bool
	log    strings.Builder
}

func (r *recorder) Helper()                       {}
func (r *recorder) Name() string                  { return r.name }
func (r *recorder) Logf(format string, a ...any)  { fmt.Fprintf(&r.log, format+"\n", a...) }
func (r *recorder) Log(a ...any)                  { fmt.Fprintln(&r.log, a...) }
func (r *recorder) Skipf(format string, a ...any) {}
func (r *recorder) Skip(a ...any)                 {}
func (r *recorder) SkipNow()                      {}
func (r *recorder) Errorf(format string, a ...any) {
	r.failed = true
	r.Logf(format, a...)
}
func (r *recorder) Error(a ...any) { r.failed = true; r.Log(a...) }
func (r *recorder) Fatalf(format string, a ...any) {
	r.failed = true
	r.Logf(format, a...)
}
func (r *recorder) Fatal(a ...any) { r.failed = true; r.Log(a...) }
func (r *recorder) FailNow()       { r.failed = true }
func (r *recorder) Fail()          { r.failed = true }
func (r *recorder) Failed() bool   { return r.failed }
