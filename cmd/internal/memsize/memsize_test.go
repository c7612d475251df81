package memsize

import "testing"

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"1048576", 1 << 20},
		{"16GiB", 16 << 30},
		{"1500MiB", 1500 << 20},
		{"512M", 512 << 20},
		{"2g", 2 << 30},
		{" 1.5GiB ", 3 << 29},
		{"4 kb", 4 << 10},
		{"1TiB", 1 << 40},
		{"0", 0},
	} {
		if got, err := Parse(c.in); err != nil || got != c.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "GiB", "-1GiB", "12XB", "1.2.3M", "9999999TiB"} {
		if got, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %d, want an error", bad, got)
		}
	}
}
