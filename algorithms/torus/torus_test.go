package torus

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

// The scripted scenarios of semantics.md §3 and docs/notes/torus.md are
// data files under testdata/scenarios, run by TestScenarios.

func TestSideErrors(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{5, "torus needs N = d*d with d >= 2; N=5 is not a square (try 4 or 9)"},
		{3, "torus needs N = d*d with d >= 2; N=3 is not a square (try 4 or 9)"},
		{10, "torus needs N = d*d with d >= 2; N=10 is not a square (try 9 or 16)"},
		{1, "torus needs N = d*d with d >= 2; N=1 gives d=1 (try 4 or 9)"},
	} {
		_, err := Side(c.n)
		if err == nil || err.Error() != c.want {
			t.Errorf("Side(%d) = %v, want %q", c.n, err, c.want)
		}
	}
	for n, d := range map[int]int{4: 2, 9: 3, 16: 4, 25: 5} {
		if got, err := Side(n); got != d || err != nil {
			t.Errorf("Side(%d) = %d, %v", n, got, err)
		}
	}
	if _, err := New("torus/bogus", 4, 1); err == nil || !strings.Contains(err.Error(), "torus/literal") {
		t.Errorf("unknown variant: %v", err)
	}
	if _, err := New(Repaired, 4, 0); err == nil {
		t.Error("r = 0 accepted")
	}
	for _, v := range Variants() {
		if p, err := New(v, 9, 1); err != nil || p.Name != v {
			t.Errorf("New(%q) = %v, %v", v, p, err)
		}
	}
}

// semantics.md §1 "State identity": a non-holder's stale token fields are
// not encoded. (Commuting requests giving equal bytes is in
// testdata/scenarios/initial.txt.)
func TestCanonicalEncoding(t *testing.T) {
	var e1, e2 model.Encoder
	encodeProc(&e1, &Proc{Waiting: []int{}, RC: 3, CC: 2, Ch: true})
	encodeProc(&e2, &Proc{})
	if !bytes.Equal(e1.Bytes(), e2.Bytes()) {
		t.Error("stale token fields of a non-holder are encoded")
	}
}
