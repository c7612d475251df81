package proptest

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tokenmc/tokenmc/explore/internal/capability"
	"github.com/tokenmc/tokenmc/explore/internal/propsplit"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// Fuzz makes f a native Go fuzz target (go test -fuzz) over schedules of
// sys: the input bytes are the choices of a walk. Where two or more
// transitions are enabled, the next byte picks one, byte % n in
// Worker.Successors order (two bytes, little endian, when n > 256); where
// one is enabled it fires without using a byte; the walk ends when the
// bytes do, where nothing is enabled, after opts.Steps steps (default 200)
// or at the first violation of props (invariants on every state,
// transition invariants on every step, terminal properties where nothing
// is enabled). The first byte picks the initial state when there are
// several.
//
// Call it from a fuzz target:
//
//	func FuzzMyAlgorithm(f *testing.F) {
//		proptest.Fuzz(f, sys, props)
//	}
//
// and run `go test -run '^$' -fuzz '^FuzzMyAlgorithm$' -fuzztime 30s`.
// Under a plain `go test` the seed corpus runs (a few fixed schedules
// added here, plus testdata/fuzz/FuzzMyAlgorithm). A violating input is
// shrunk (simulate.Shrink), its trace written to opts.TraceFile (default
// tokenmc-fuzz-NAME.trace.json in os.TempDir()) and the test fails with
// the story, the file and how to replay it; Go saves the input under
// testdata/fuzz, where every later `go test` runs it again.
//
// Models built with protocol.Protocol walk in place (their state kept
// decoded, as explore/simulate's walks do): a step costs one handler call, and the walk allocates nothing; the path is
// rebuilt only for a violating input. At most one opts is used.
func Fuzz(f *testing.F, sys model.System, props []model.Property, opts ...Options) {
	f.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	for _, seed := range fuzzSeeds() {
		f.Add(seed)
	}
	fz := &fuzzer{sys: sys, props: splitProps(props), all: props, steps: o.steps()}
	f.Fuzz(func(t *testing.T, data []byte) {
		w := fz.get()
		bad, choices := w.run(data)
		fz.put(w)
		if bad == nil {
			return
		}
		fz.fail(t, o, data, bad, choices)
	})
}

// fuzzSeeds are the seed corpus: no choice, always the first choice,
// counting bytes, and two fixed pseudo-random schedules.
func fuzzSeeds() [][]byte {
	zeros := make([]byte, 64)
	count := make([]byte, 128)
	for k := range count {
		count[k] = byte(k)
	}
	seeds := [][]byte{{}, zeros, count}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2 {
		b := make([]byte, 160)
		for k := range b {
			b[k] = byte(r.Uint32())
		}
		seeds = append(seeds, b)
	}
	return seeds
}

// fuzzer holds what the executions share; walkers are pooled, since the
// fuzzing engine may call the target from several goroutines.
type fuzzer struct {
	sys   model.System
	props props
	all   []model.Property
	steps int
	pool  sync.Pool
}

func (fz *fuzzer) get() *fuzzWalker {
	if w, ok := fz.pool.Get().(*fuzzWalker); ok {
		return w
	}
	return newFuzzWalker(fz)
}

func (fz *fuzzer) put(w *fuzzWalker) { fz.pool.Put(w) }

// fail rebuilds the violating walk from its choices, shrinks it, writes
// its trace and fails t.
func (fz *fuzzer) fail(t *testing.T, o Options, data []byte, bad *model.Property, choices []int) {
	t.Helper()
	k := 0
	path, again := simulate.Walk(fz.sys, fz.all, len(choices), func(n int, _ []model.Transition) int {
		if k >= len(choices) {
			return -1
		}
		c := choices[k]
		k++
		return c
	})
	if again == nil || again.Name != bad.Name {
		t.Fatalf("proptest: the input violates %s in place but not when replayed (%v): a bug in the model's InPlace or Sampler (input %x)", bad.Name, again, data)
	}
	if len(path) < 2 {
		t.Fatalf("the initial state violates %s", bad.Name)
	}
	found := len(path) - 1
	path = simulate.Shrink(fz.sys, fz.all, bad.Name, path, 200_000)
	tr, err := traces.FromSteps(fz.sys.NewWorker(), o.meta(fz.sys, bad), path, nil)
	if err != nil {
		t.Fatalf("%s violated after %d steps, but the trace cannot be built: %v", bad.Name, found, err)
	}
	file := o.TraceFile
	if file == "" {
		file = defaultFile("fuzz", t.Name())
	}
	where := "the trace could not be written: "
	if err := traces.WriteFile(file, tr); err != nil {
		where += err.Error()
	} else {
		where = "trace written to " + file + "; " + o.replayHint(file)
	}
	t.Fatalf("%s violated after %d steps of the fuzz input (shrunk to %d):\n\n%s\n\n%s", bad.Name, found, len(tr.Steps), story(tr), where)
}

// fuzzWalker runs the walk of one input.
type fuzzWalker struct {
	fz      *fuzzer
	initial [][]byte
	ip      capability.InPlace // nil: walk with simulate.Walk
	choices []int
	data    []byte
	pos     int
	t       model.Transition // a field: passed to interface methods, a local would escape
}

func newFuzzWalker(fz *fuzzer) *fuzzWalker {
	w := fz.sys.NewWorker()
	fw := &fuzzWalker{fz: fz}
	w.Initial(func(s []byte) bool {
		fw.initial = append(fw.initial, append([]byte(nil), s...))
		return true
	})
	if ipw, ok := w.(capability.InPlaceWorker); ok {
		fw.ip = ipw.NewInPlace()
	}
	return fw
}

// choose returns the choice among n options that the next input bytes
// make, or -1 when the input is used up.
func (fw *fuzzWalker) choose(n int) int {
	if n == 1 {
		return 0
	}
	d := fw.data[fw.pos:]
	switch {
	case n <= 256 && len(d) >= 1:
		fw.pos++
		return int(d[0]) % n
	case n > 256 && len(d) >= 2:
		fw.pos += 2
		return (int(d[0]) | int(d[1])<<8) % n
	}
	return -1
}

// run walks data and returns the violated property, nil if none, and the
// choices made (the initial state's first), as simulate.Walk takes them.
func (fw *fuzzWalker) run(data []byte) (*model.Property, []int) {
	fw.data, fw.pos = data, 0
	fw.choices = fw.choices[:0]
	if fw.ip == nil {
		_, bad := simulate.Walk(fw.fz.sys, fw.fz.all, fw.fz.steps, func(n int, _ []model.Transition) int {
			c := fw.choose(n)
			fw.choices = append(fw.choices, c)
			return c
		})
		return bad, fw.choices
	}
	k := fw.choose(len(fw.initial))
	if k < 0 {
		return nil, nil
	}
	fw.choices = append(fw.choices, k)
	ip, ps := fw.ip, &fw.fz.props
	ip.Load(fw.initial[k])
	snap := ip.Snapshot()
	if p := ps.Invariant(snap); p != nil {
		return p, fw.choices
	}
	t := &fw.t
	for range fw.fz.steps {
		n := ip.Count()
		if n == 0 {
			return ps.Terminal(snap), fw.choices
		}
		c := fw.choose(n)
		if c < 0 {
			return nil, nil
		}
		fw.choices = append(fw.choices, c)
		*t = ip.At(c)
		ip.Fire(t)
		if p := ps.Transition(t); p != nil {
			return p, fw.choices
		}
		if p := ps.Invariant(snap); p != nil {
			return p, fw.choices
		}
	}
	return nil, nil
}

// props is a property list split by kind.
// props are the fuzzed system's properties, sorted by kind.
type props = propsplit.Split

func splitProps(ps []model.Property) props { return propsplit.ByKind(ps) }
