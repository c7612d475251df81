package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
)

// Every extra row names a registered variant whose parameters, with the
// extra's overrides, build; and its claim is said.
func TestReportExtrasBuild(t *testing.T) {
	for _, e := range reportExtras {
		a, v, err := algorithms.Lookup(e.variant)
		if err != nil {
			t.Fatalf("extra %s: %v", e.variant, err)
		}
		params := map[string]int{}
		for k, x := range v.Params {
			params[k] = x
		}
		for k, x := range e.params {
			params[k] = x
		}
		if _, _, err := a.Build(v.Name, params); err != nil {
			t.Errorf("extra %s %v: %v", e.variant, params, err)
		}
		if e.claim == "" {
			t.Errorf("extra %s %v: no claim", e.variant, e.params)
		}
	}
}

// An extra row comes after its algorithm's variants, with its parameters
// and its own claim, and is checked like any row: the Le Lann ring at
// n=2 has 24 states (`tokenmc check --algo lelann --n 2`; default n=3: 108).
func TestReportExtraRow(t *testing.T) {
	saved := reportExtras
	defer func() { reportExtras = saved }()
	reportExtras = []reportExtra{{variant: "lelann", params: map[string]int{"n": 2}, claim: "a test claim | with a pipe"}}
	a, _, err := algorithms.Lookup("lelann")
	if err != nil {
		t.Fatal(err)
	}
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
