package algorithms_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// Native fuzz targets over schedules: the fuzzer's bytes are the choices
// of a walk (byte k picks transition byte%n among the n enabled at step k;
// the walk ends when the bytes do). Each target checks two things that can
// break:
//
//   - safety: a variant that is not expected to break a safety property
//     (its Breaks lists none) violates none along the walk;
//   - the fast path: at every step the Sampler enumeration
//     (Enabled/Apply, used by simulate) lists exactly the transitions
//     Successors yields, in the same order, with the same successors.
//
// The seed corpus is in testdata/fuzz/FuzzNAME. Run one with, e.g.,
// go test ./algorithms -run '^$' -fuzz FuzzSuzukiKasami -fuzztime 30s.

// walkSampler is the random walks' Sampler capability (declared in
// explore/internal/capability, which this package cannot import).
type walkSampler interface {
	Enabled(dst []model.Transition, state []byte) []model.Transition
	Apply(state []byte, t *model.Transition) []byte
}

// fzCheck walks sys along data and fails t as described above.
func fzCheck(t *testing.T, sys model.System, props []model.Property, data []byte) {
	t.Helper()
	w := sys.NewWorker()
	sampler, ok := w.(walkSampler)
	if !ok {
		t.Fatalf("%s: the worker has no Sampler", sys.Info().Name)
	}
	ref := sys.NewWorker()
	pos := 0
	path, bad := simulate.Walk(sys, props, len(data), func(n int, _ []model.Transition) int {
		if pos >= len(data) {
			return -1
		}
		c := int(data[pos]) % n
		pos++
		return c
	})
	if bad != nil {
		t.Fatalf("%s violates %s after %d steps (schedule %x)", sys.Info().Name, bad.Name, len(path)-1, data[:pos])
	}
	// differential check of the Sampler along the same path
	var en []model.Transition
	for k, s := range path {
		type succ struct {
			t    model.Transition
			next []byte
		}
		var want []succ
		ref.Successors(s, func(tr *model.Transition, next []byte) bool {
			c := *tr
			c.Msg = append([]byte(nil), tr.Msg...)
			want = append(want, succ{c, append([]byte(nil), next...)})
			return true
		})
		en = sampler.Enabled(en[:0], s)
		if len(en) != len(want) {
			t.Fatalf("state %d: Enabled lists %d transitions, Successors %d", k, len(en), len(want))
		}
		for i := range en {
			tr := en[i]
			next := sampler.Apply(s, &tr)
			wt := want[i].t
			if tr.Kind != wt.Kind || tr.Proc != wt.Proc || tr.Arg != wt.Arg || tr.Flags != wt.Flags || !bytes.Equal(tr.Msg, wt.Msg) {
				t.Fatalf("state %d, transition %d: Sampler %+v, Successors %+v", k, i, tr, wt)
			}
			if !bytes.Equal(next, want[i].next) {
				t.Fatalf("state %d, transition %d (%s): the successors differ", k, i, ref.Label(s, &wt))
			}
			// Apply must not have disturbed the enumeration of s
			en = sampler.Enabled(en[:0], s)
		}
	}
}

func fzProps(sys model.System, extra []model.Property) []model.Property {
	return invariants.Applicable(invariants.With(extra...), sys.Info())
}

// FuzzSuzukiKasami fuzzes the default Suzuki-Kasami model: data[0] picks
// N in 2..7, data[1] R in 1..3, the rest is the schedule.
func FuzzSuzukiKasami(f *testing.F) {
	f.Add([]byte{1, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		p, err := suzukikasami.New(suzukikasami.Default, 2+int(data[0])%6, 1+int(data[1])%3)
		if err != nil {
			t.Fatal(err)
		}
		sys := p.System()
		fzCheck(t, sys, fzProps(sys, suzukikasami.Properties()), data[2:])
	})
}

// FuzzTorus fuzzes the repaired and the literal torus (the literal one
// breaks only starvation-freedom): data[0] picks the variant and N in
// {4, 9, 16}, data[1] R in 1..2.
func FuzzTorus(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		variant := []string{torus.Repaired, torus.Literal}[data[0]&1]
		d := 2 + int(data[0]>>1)%3
		p, err := torus.New(variant, d*d, 1+int(data[1])%2)
		if err != nil {
			t.Fatal(err)
		}
		sys := p.System()
		fzCheck(t, sys, fzProps(sys, torus.Properties()), data[2:])
	})
}

// fzSafeVariants lists, in registry order, every variant that is not a
// mutant and is not expected to break a safety property, so algorithms registered later are fuzzed too.
func fzSafeVariants() []string {
	var out []string
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			if v.Kind == spec.KindMutant {
				continue // deliberately broken, and Breaks need not list all
			}
			breaks := false
			for _, b := range v.Breaks {
				// anything but starvation-freedom (liveness, which a walk
				// does not check) counts
				breaks = breaks || b != "starvation-freedom"
			}
			if !breaks {
				out = append(out, v.Name)
			}
		}
	}
	return out
}

var (
	fzMu      sync.Mutex
	fzVerdict = map[string]string{}
)

// fzUnsafe returns why a variant's default-size model is not known to be
// safe ("" when BFS proves it safe within 300,000 states), once per
// variant: a walk of a model that BFS already shows unsafe finds nothing
// new, and a model still being written must not fail the fuzz seeds.
func fzUnsafe(name string, sys model.System, props []model.Property) string {
	fzMu.Lock()
	defer fzMu.Unlock()
	if why, ok := fzVerdict[name]; ok {
		return why
	}
	why := ""
	bound := 300_000 // fuzzing, or TOKENMC_HEAVY=1
	if !heavy() && !fuzzing() {
		bound = 30_000 // the seed corpus in the default `go test`
	}
	res, err := explore.Check(context.Background(), sys, explore.Options{Properties: props, Workers: 1, MaxStates: int64(bound)})
	switch {
	case err != nil:
		why = err.Error()
	case res.Violation != nil:
		why = "BFS finds a violation of " + res.Violation.Property.Name + " at the default size"
	case res.Verdict != explore.OK:
		why = fmt.Sprintf("BFS does not complete within %d states", bound)
	}
	fzVerdict[name] = why
	return why
}

// fuzzing reports whether the test binary fuzzes (-test.fuzz given), as
// opposed to running the seed corpus.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// FuzzRegistry fuzzes every registered variant that is expected to be
// safe (see fzSafeVariants) and that BFS proves safe at its default
// parameters (see fzUnsafe), at those parameters: data[0] picks the
// variant, the rest is the schedule. Variants registered later join
// automatically; the seeds added here give each one a first schedule.
func FuzzRegistry(f *testing.F) {
	names := fzSafeVariants()
	for k := range names {
		f.Add(append([]byte{byte(k)}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 || len(names) == 0 {
			return
		}
		name := names[int(data[0])%len(names)]
		a, v, err := algorithms.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		sys, extra, err := a.Build(v.Name, nil)
		if err != nil {
			t.Fatal(fmt.Errorf("%s: %w", name, err))
		}
		if _, ok := sys.NewWorker().(walkSampler); !ok {
			t.Skipf("%s: worker without Sampler", name)
		}
		props := fzProps(sys, extra)
		if why := fzUnsafe(name, sys, props); why != "" {
			t.Skipf("%s: %s; the exhaustive checks report it", name, why)
		}
		fzCheck(t, sys, props, data[1:])
	})
}
