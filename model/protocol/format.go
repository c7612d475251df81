package protocol

import (
	"strconv"
	"strings"
)

// FormatInts renders a list of ids or counters the way the built-in
// models' FormatMsg and labels write them: "[1,0,2]", "[]" when empty.
func FormatInts(v []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for k, x := range v {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
	return b.String()
}
