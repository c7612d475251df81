package suggest

import (
	"slices"
	"testing"
)

// naiveDistance is the textbook recursive definition, exponential but
// independent of the table in Distance.
func naiveDistance(a, b string) int {
	if a == "" {
		return len(b)
	}
	if b == "" {
		return len(a)
	}
	cost := 1
	if a[len(a)-1] == b[len(b)-1] {
		cost = 0
	}
	d := min(naiveDistance(a[:len(a)-1], b)+1, naiveDistance(a, b[:len(b)-1])+1, naiveDistance(a[:len(a)-1], b[:len(b)-1])+cost)
	if len(a) > 1 && len(b) > 1 && a[len(a)-1] == b[len(b)-2] && a[len(a)-2] == b[len(b)-1] {
		d = min(d, naiveDistance(a[:len(a)-2], b[:len(b)-2])+1)
	}
	return d
}

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"chek", "check", 1}, {"chekc", "check", 1},
		{"suzuki-kasmi", "suzuki-kasami", 1}, {"kitten", "sitting", 3}, {"CHECK", "check", 0},
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	words := []string{"", "a", "ab", "ba", "abc", "acb", "torus", "tours", "check", "chek", "replay"}
	for _, a := range words {
		for _, b := range words {
			if got, want := Distance(a, b), naiveDistance(a, b); got != want {
				t.Errorf("Distance(%q, %q) = %d, the recursive definition gives %d", a, b, got, want)
			}
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"suzuki-kasami", "suzuki-kasami/keep-copy", "suzuki-kasami/send-in-cs", "torus", "torus/literal", "raymond"}
	cases := []struct {
		in   string
		want []string
	}{
		{"suzuki-kasmi", []string{"suzuki-kasami"}},
		{"suzuki-kasami/keepcopy", []string{"suzuki-kasami/keep-copy"}},
		{"tours", []string{"torus"}},
		{"kasami", []string{"suzuki-kasami", "suzuki-kasami/keep-copy", "suzuki-kasami/send-in-cs"}},
		{"lamport", nil},
		{"", nil},
	}
	for _, c := range cases {
		if got := Closest(c.in, names); !slices.Equal(got, c.want) {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	cmds := []string{"list", "check", "simulate", "replay", "show", "explore"}
	if got := DidYouMean("chek", cmds); got != "; did you mean check?" {
		t.Errorf("DidYouMean(chek) = %q", got)
	}
	if got := DidYouMean("zzzzzz", cmds); got != "" {
		t.Errorf("DidYouMean(zzzzzz) = %q, want nothing", got)
	}
}
