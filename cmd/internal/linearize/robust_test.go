package linearize_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linearize"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// The shipped edited log has an enter of P1 (line 18) with no request
// pending: FromLog's history must be rejected at that line, and Check must
// not panic on it either (issue 12: nil pointer in Operations).
func TestFromLogEnterWithoutRequest(t *testing.T) {
	l, err := eventlog.ReadFile("../../../traces/eventlog/testdata/edited-enter-without-token.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	h := history.FromLog(l, history.ModelLock)
	err = h.Validate("x.jsonl")
	var le *history.LineError
	if !errors.As(err, &le) || le.Line != 18 || !strings.Contains(le.Msg, "unmatched return: process 1") {
		t.Fatalf("Validate = %v; want x.jsonl:18: unmatched return: process 1 ...", err)
	}
	linearize.Check(h, 10*time.Second) // must not panic
}

// logOf builds an event log of n processes from "p seq kind t_ns" lines.
func logOf(t *testing.T, n int, lines ...string) *eventlog.Log {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `{"format":"tokenmc-eventlog","version":1,"algorithm":"suzuki-kasami","params":{"n":%d,"r":1}}`+"\n", n)
	for _, s := range lines {
		var p, seq int
		var kind string
		var tns int64
		if _, err := fmt.Sscan(s, &p, &seq, &kind, &tns); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, `{"p":%d,"seq":%d,"kind":%q,"t_ns":%d}`+"\n", p, seq, kind, tns)
	}
	l, err := eventlog.Read(strings.NewReader(b.String()), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A process whose times go back is reported at the line where they do,
// however the processes' events interleave in time.
func TestFromLogTimeGoesBack(t *testing.T) {
	l := logOf(t, 2,
		"0 1 request 100",
		"0 2 enter 200",
		"1 1 request 150",
		"0 3 exit 50", // line 5: P0's time goes back
	)
	err := history.FromLog(l, history.ModelLock).Validate("t.jsonl")
	var le *history.LineError
	if !errors.As(err, &le) || le.Line != 5 || !strings.Contains(le.Msg, "process 0's time goes back from 200 to 50") {
		t.Fatalf("Validate = %v; want t.jsonl:5: process 0's time goes back from 200 to 50", err)
	}
}

// FromLog merges the processes by time but keeps each process's order;
// the lines it records are the log's.
func TestFromLogOrderAndLines(t *testing.T) {
	l := logOf(t, 2,
		"1 1 request 10",
		"0 1 request 20",
		"1 2 enter 30",
		"1 3 exit 40",
		"0 2 enter 50",
	)
	h := history.FromLog(l, history.ModelLock)
	if err := h.Validate("t"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Events {
		got = append(got, fmt.Sprintf("%d %s %s %d L%d", e.P, e.Op, e.Ev, e.TNs, e.Line))
	}
	want := []string{
		"1 acquire call 10 L2", "0 acquire call 20 L3", "1 acquire return 30 L4",
		"1 release call 40 L5", "1 release return 40 L5", "0 acquire return 50 L6",
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !check(t, h) {
		t.Fatal("a history of disjoint CS stays is not linearizable")
	}
}

// An open release at a time at or above 2^62 made porcupine panic (its
// return was fixed at 2^62, before its call). It may take effect at any
// later time, so the history stays linearizable; and a second process that
// acquires after it is fine too.
func TestOpenReleaseAtHugeTime(t *testing.T) {
	big := int64(1) << 62
	h := hist(history.ModelLock,
		"0 acquire call 1",
		"0 acquire return 2",
		fmt.Sprintf("0 release call %d", big+5),
		fmt.Sprintf("1 acquire call %d", big+6),
		fmt.Sprintf("1 acquire return %d", big+7),
	)
	if !check(t, h) {
		t.Fatal("not linearizable; the open release can take effect at 2^62+6")
	}
	// Overlapping CS stays are still caught at such times.
	h = hist(history.ModelLock,
		fmt.Sprintf("0 acquire call %d", big),
		fmt.Sprintf("0 acquire return %d", big+1),
		fmt.Sprintf("1 acquire call %d", big+2),
		fmt.Sprintf("1 acquire return %d", big+3),
		fmt.Sprintf("0 release call %d", big+4),
	)
	if check(t, h) {
		t.Fatal("two holders at once judged linearizable")
	}
}

// Times out of range are bad input naming the line.
func TestTimeOutOfRange(t *testing.T) {
	for _, tns := range []string{"-1", fmt.Sprint(int64(math.MaxInt64))} {
		in := `{"p":0,"op":"acquire","ev":"call","t_ns":` + tns + "}\n"
		_, err := history.Read(strings.NewReader(in), "h.jsonl")
		if err == nil || !strings.HasPrefix(err.Error(), "h.jsonl:1: t_ns "+tns+" is out of range") {
			t.Errorf("t_ns %s: err = %v; want h.jsonl:1: t_ns %s is out of range ...", tns, err, tns)
		}
	}
}

// A hand-built history with a return and no call: Check does not panic,
// Validate names it.
func TestCheckIllFormedDoesNotPanic(t *testing.T) {
	h := &history.History{Header: history.Header{Model: history.ModelLock}, Events: []history.Event{
		{P: 0, Op: "acquire", Ev: "return", TNs: 5, Line: 7},
		{P: 0, Op: "release", Ev: "return", TNs: 6, Line: 8},
	}}
	linearize.Check(h, time.Second)
	if err := h.Validate("m"); err == nil || err.Error() != "m:7: unmatched return: process 0 has no pending call of acquire" {
		t.Fatalf("Validate = %v", err)
	}
}

// A line over the limit is reported with its line number.
func TestLongLine(t *testing.T) {
	in := `{"p":0,"op":"acquire","ev":"call","t_ns":1}` + "\n" + strings.Repeat(" ", 2<<20) + "x\n"
	_, err := history.Read(strings.NewReader(in), "h.jsonl")
	if err == nil || !strings.HasPrefix(err.Error(), "h.jsonl:2: the line is longer than") {
		t.Fatalf("err = %v; want h.jsonl:2: the line is longer than ...", err)
	}
}
