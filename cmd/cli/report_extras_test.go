package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
)

// Every extra row names a registered variant whose parameters, with the
// extra's overrides, build; and its claim is said.
func TestReportExtrasBuild(t *testing.T) {
	var runs []spec.ClaimRun
	for _, a := range algorithms.All() {
		runs = append(runs, a.ClaimRuns...)
	}
	if len(runs) == 0 {
		t.Fatal("no algorithm has extra rows; the torus has four")
	}
	for _, e := range runs {
		a, v, err := algorithms.Lookup(e.Variant)
		if err != nil {
			t.Fatalf("extra %s: %v", e.Variant, err)
		}
		params := map[string]int{}
		for k, x := range v.Params {
			params[k] = x
		}
		for k, x := range e.Params {
			params[k] = x
		}
		if _, _, err := a.Build(v.Name, params); err != nil {
			t.Errorf("extra %s %v: %v", e.Variant, params, err)
		}
		if e.Claim == "" {
			t.Errorf("extra %s %v: no claim", e.Variant, e.Params)
		}
	}
}

// An extra row comes after its algorithm's variants, with its parameters
// and its own claim, and is checked like any row: the Le Lann ring at
// n=2 has 24 states (`tokenmc check --algo lelann --n 2`; default n=3: 108).
func TestReportExtraRow(t *testing.T) {
	a, _, err := algorithms.Lookup("lelann")
	if err != nil {
		t.Fatal(err)
	}
	a.ClaimRuns = []spec.ClaimRun{{Variant: "lelann", Params: map[string]int{"n": 2}, Claim: "a test claim | with a pipe"}}
	rows := buildReport(context.Background(), []algorithms.Algorithm{a}, reportOptions{Workers: 1}, nil)
	last := rows[len(rows)-1]
	if len(rows) != len(a.Variants)+1 || last.Variant != "lelann" || last.Params["n"] != 2 || !last.Complete {
		t.Fatalf("%d rows, last %+v; want the variants then lelann at n=2", len(rows), last)
	}
	if last.States != 24 || rows[0].States != 108 || len(last.Unexpected) != 0 {
		t.Errorf("extra row: %d states (default row %d), unexpected %v", last.States, rows[0].States, last.Unexpected)
	}
	if got := last.claimText(); got != "a test claim / with a pipe" || strings.Contains(rows[0].claimText(), "test claim") {
		t.Errorf("claims %q and %q", got, rows[0].claimText())
	}
}
