package proptest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/simulate"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// The in-place walk of Fuzz takes the same choices and finds the same
// violations as simulate.Walk over encoded states with the same bytes
// (the fallback for systems without an in-place walk), on 3000 random inputs
// of a correct and a broken model; the broken one must fail on some.
func TestFuzzWalkMatchesWalk(t *testing.T) {
	for _, v := range []string{suzukikasami.Default, suzukikasami.SendInCS} {
		p, err := suzukikasami.New(v, 3, 2)
		if err != nil {
			t.Fatal(err)
		}
		sys := p.System()
		props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
		fz := &fuzzer{sys: sys, props: splitProps(props), all: props, steps: 200}
		fast := newFuzzWalker(fz)
		slow := newFuzzWalker(fz)
		if fast.ip == nil {
			t.Fatal("a Protocol worker without InPlace")
		}
		slow.ip = nil
		r := rand.New(rand.NewPCG(7, 8))
		violations := 0
		for range 3000 {
			data := make([]byte, r.IntN(120))
			for k := range data {
				data[k] = byte(r.Uint32())
			}
			b1, c1 := fast.run(data)
			c1 = slices.Clone(c1)
			b2, c2 := slow.run(data)
			if (b1 == nil) != (b2 == nil) || (b1 != nil && (b1.Name != b2.Name || !slices.Equal(c1, c2))) {
				t.Fatalf("%s, input %x: in place %v %v, Walk %v %v", v, data, b1, c1, b2, c2)
			}
			if b1 != nil {
				violations++
				// the choices replay to the violation
				k := 0
				_, again := simulate.Walk(sys, props, len(c1), func(n int, _ []model.Transition) int { k++; return c1[k-1] })
				if again == nil || again.Name != b1.Name {
					t.Fatalf("%s: the choices %v do not replay to %s", v, c1, b1.Name)
				}
			}
		}
		if broken := v == suzukikasami.SendInCS; broken != (violations > 0) {
			t.Errorf("%s: %d of 3000 inputs violate a property", v, violations)
		}
		t.Logf("%s: %d of 3000 inputs violate a property", v, violations)
	}
}

// A walk of the in-place fuzzer allocates nothing.
func TestFuzzWalkAllocs(t *testing.T) {
	p, _ := suzukikasami.New(suzukikasami.Default, 3, 2)
	sys := p.System()
	props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
	fz := &fuzzer{sys: sys, props: splitProps(props), all: props, steps: 200}
	w := newFuzzWalker(fz)
	data := make([]byte, 100)
	for k := range data {
		data[k] = byte(k * 7)
	}
	w.run(data)
	if a := testing.AllocsPerRun(100, func() { w.run(data) }); a != 0 {
		t.Errorf("%v allocations per walk", a)
	}
}

// BenchmarkFuzzWalk measures one execution of Fuzz's walk (a random
// 128-byte input) on Suzuki-Kasami N=3 R=2, without the fuzzing engine.
func BenchmarkFuzzWalk(b *testing.B) {
	p, _ := suzukikasami.New(suzukikasami.Default, 3, 2)
	sys := p.System()
	props := invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info())
	fz := &fuzzer{sys: sys, props: splitProps(props), all: props, steps: 200}
	w := newFuzzWalker(fz)
	r := rand.New(rand.NewPCG(1, 1))
	inputs := make([][]byte, 64)
	for k := range inputs {
		inputs[k] = make([]byte, 128)
		for j := range inputs[k] {
			inputs[k][j] = byte(r.Uint32())
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w.run(inputs[i%len(inputs)])
	}
}
