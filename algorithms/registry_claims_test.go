package algorithms

import (
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/spec"
)

// Every registered variant names the claim its verdicts confirm, no claim
// is recorded for a variant that does not exist, and every extra report
// row names a variant of its own algorithm.
func TestClaimsCoverEveryVariant(t *testing.T) {
	names := map[string]bool{}
	for _, a := range All() {
		for _, v := range a.Variants {
			names[v.Name] = true
			if v.Claim == "" {
				t.Errorf("%s: no claim (registry_claims.go)", v.Name)
			}
		}
		for _, e := range a.ClaimRuns {
			if _, v, err := spec.LookupIn([]Algorithm{a}, e.Variant); err != nil || v.Name != e.Variant {
				t.Errorf("%s: extra row of variant %s, which is not one of its variants", a.Name, e.Variant)
			}
		}
	}
	for v := range claims {
		if !names[v] {
			t.Errorf("claims names %s, which is not registered", v)
		}
	}
	for name := range claimRuns {
		if _, _, err := Lookup(name); err != nil {
			t.Errorf("claimRuns names %s: %v", name, err)
		}
	}
}
