package algorithms_test

import (
	"flag"
	"os"
	"testing"
)

// heavy reports whether the heavy tests run (TOKENMC_HEAVY=1, as CI sets
// it): the default `go test ./...` stays within its time budget with
// lighter versions of the same checks (fewer rapid checks, smaller
// budgets, the cheap configurations).
func heavy() bool { return os.Getenv("TOKENMC_HEAVY") != "" && !testing.Short() }

// TestMain runs the rapid properties with 20 checks each unless the tests
// are heavy or -rapid.checks is given (rapid's default is 100).
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.checks" })
	if !heavy() && !given {
		if err := flag.Set("rapid.checks", "20"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
