package eventlog_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// In a partial log seq may skip numbers (events not recorded) but must
// increase with each event of a process: a seq that goes backwards, or
// repeats, is refused with the line and both numbers.
func TestPartialSeqMustIncrease(t *testing.T) {
	header := `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":2,"r":2},"observed":{"kinds":["request","enter","exit"],"seq_counts_all":true}}` + "\n"
	ev := func(seq int, kind string, vc string) string {
		return `{"p":0,"seq":` + strconv.Itoa(seq) + `,"kind":"` + kind + `","vc":` + vc + `,"t_ns":` + strconv.Itoa(seq) + "}\n"
	}
	ok := header + ev(1, "request", "[1,0]") + ev(3, "enter", "[3,0]") + ev(5, "exit", "[5,0]")
	if _, err := eventlog.Read(strings.NewReader(ok), "ok.jsonl"); err != nil {
		t.Fatalf("a partial log with gaps in seq: %v; want it read", err)
	}
	for _, c := range []struct {
		name, log, want string
	}{
		{"backwards", header + ev(1, "request", "[1,0]") + ev(4, "enter", "[4,0]") + ev(3, "exit", "[3,0]"), "P0 seq is 3 after 4"},
		{"repeated", header + ev(1, "request", "[1,0]") + ev(2, "enter", "[2,0]") + ev(2, "exit", "[2,0]"), "P0 seq is 2 after 2"},
	} {
		_, err := eventlog.Read(strings.NewReader(c.log), c.name+".jsonl")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}
