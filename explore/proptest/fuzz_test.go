package proptest_test

import (
	"os"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/explore/proptest"
	"github.com/tokenmc/tokenmc/invariants"
)

// FuzzSuzukiKasami fuzzes the schedules of Suzuki-Kasami (N=3, R=2):
// under go test its seed corpus runs (and must pass); run it with
// go test ./explore/proptest -run '^$' -fuzz '^FuzzSuzukiKasami$' -fuzztime 30s.
func FuzzSuzukiKasami(f *testing.F) {
	p, err := suzukikasami.New(suzukikasami.Default, 3, 2)
	if err != nil {
		f.Fatal(err)
	}
	sys := p.System()
	proptest.Fuzz(f, sys, invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info()))
}

// FuzzSendInCS fuzzes the mutant suzuki-kasami/send-in-cs, which a
// fuzzer finds at once; it runs only with TOKENMC_FUZZ_MUTANT=1 (the
// tests run it so, to see the failure proptest.Fuzz reports).
func FuzzSendInCS(f *testing.F) {
	if os.Getenv("TOKENMC_FUZZ_MUTANT") == "" {
		f.Skip("a deliberately failing target: set TOKENMC_FUZZ_MUTANT=1")
	}
	p, err := suzukikasami.New(suzukikasami.SendInCS, 3, 1)
	if err != nil {
		f.Fatal(err)
	}
	sys := p.System()
	opts := proptest.Options{TraceFile: os.Getenv("TOKENMC_FUZZ_TRACE")}
	proptest.Fuzz(f, sys, invariants.Applicable(invariants.With(suzukikasami.Properties()...), sys.Info()), opts)
}
