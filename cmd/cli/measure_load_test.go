package cli

import "testing"

// parseLoad reads what measure.Load's String writes, and refuses what is
// not light, heavy or a positive finite rate.
func TestParseLoad(t *testing.T) {
	for _, s := range []string{"light", "heavy", "0.5", "2", "0.001"} {
		l, err := parseLoad(s)
		if err != nil || l.String() != s {
			t.Errorf("parseLoad(%q) = %v, %v; want a load whose String is %q", s, l, err, s)
		}
	}
	if l, _ := parseLoad("0.5"); l.Kind != "rate" || l.Lambda != 0.5 {
		t.Errorf("parseLoad(0.5) = %+v, want rate 0.5", l)
	}
	for _, s := range []string{"medium", "0", "-2", "inf", "NaN", ""} {
		if _, err := parseLoad(s); err == nil {
			t.Errorf("parseLoad(%q) accepted", s)
		}
	}
}
