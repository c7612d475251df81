package linearize_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linearize"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

func check(t *testing.T, h *history.History) bool {
	t.Helper()
	r := linearize.Check(h, 10*time.Second)
	if r.Unknown {
		t.Fatal("porcupine timed out")
	}
	return r.Linearizable
}

func TestShippedHistories(t *testing.T) {
	for file, want := range map[string]bool{"../history/testdata/linearizable.jsonl": true, "../history/testdata/not-linearizable.jsonl": false} {
		h, err := history.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if got := check(t, h); got != want {
			t.Errorf("%s: linearizable = %v, want %v", file, got, want)
		}
	}
}

// hist builds a history from "p op ev t [group]" lines.
func hist(model string, lines ...string) *history.History {
	var b strings.Builder
	fmt.Fprintf(&b, `{"format":"tokenmc-history","version":1,"model":%q}`+"\n", model)
	for _, l := range lines {
		var p, t, g int
		var op, ev string
		n, _ := fmt.Sscan(l, &p, &op, &ev, &t, &g)
		extra := ""
		if n == 5 {
			key := "group"
			if model == history.ModelLocks {
				key = "resource"
			}
			extra = fmt.Sprintf(`,%q:%d`, key, g)
		}
		fmt.Fprintf(&b, `{"p":%d,"op":%q,"ev":%q,"t_ns":%d%s}`+"\n", p, op, ev, t, extra)
	}
	h, err := history.Read(strings.NewReader(b.String()), "h")
	if err != nil {
		panic(err)
	}
	return h
}

func TestModels(t *testing.T) {
	// P0 holds [10, 20], P1 holds [15, 30]: overlapping stays.
	overlap := func(g0, g1 int) []string {
		return []string{
			fmt.Sprintf("0 acquire call 0 %d", g0), fmt.Sprintf("1 acquire call 1 %d", g1),
			"0 acquire return 10", "1 acquire return 15",
			"0 release call 20", "0 release return 21", "1 release call 30", "1 release return 31",
		}
	}
	cases := []struct {
		name string
		h    *history.History
		want bool
	}{
		{"lock, overlap", hist(history.ModelLock, overlap(0, 0)...), false},
		{"group-lock, same group", hist(history.ModelGroupLock, overlap(1, 1)...), true},
		{"group-lock, different groups", hist(history.ModelGroupLock, overlap(0, 1)...), false},
		{"locks, different resources", hist(history.ModelLocks, overlap(0, 1)...), true},
		{"locks, same resource", hist(history.ModelLocks, overlap(1, 1)...), false},
		// a release by a process that does not hold the lock
		{"lock, foreign release", hist(history.ModelLock, "0 acquire call 0", "0 acquire return 1", "1 release call 2", "1 release return 3"), false},
		// an acquire that never returns is dropped: it may not have taken effect
		{"lock, pending acquire", hist(history.ModelLock, "0 acquire call 0", "1 acquire call 1", "1 acquire return 2", "1 release call 3", "1 release return 4"), true},
	}
	for _, c := range cases {
		if got := check(t, c.h); got != c.want {
			t.Errorf("%s: linearizable = %v, want %v", c.name, got, c.want)
		}
	}
}

// The recorded run of suzuki-kasami/send-in-cs (see traces/eventlog)
// overlaps two CS stays; its history is not linearizable and porcupine's
// visualisation is written.
func TestFromLogAndVisualize(t *testing.T) {
	for file, want := range map[string]bool{"../../../traces/eventlog/testdata/suzuki-kasami.jsonl": true, "../../../traces/eventlog/testdata/send-in-cs.jsonl": false} {
		l, err := eventlog.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		h := history.FromLog(l, history.ModelLock)
		// 2 events per acquire and per release; every enter and exit of the log is one.
		enters, exits := 0, 0
		for _, e := range l.Events {
			switch e.Kind {
			case eventlog.KindEnter:
				enters++
			case eventlog.KindExit:
				exits++
			}
		}
		r := linearize.Check(h, 10*time.Second)
		if r.Linearizable != want || r.Operations != enters+exits {
			t.Fatalf("%s: linearizable=%v ops=%d, want %v and %d", file, r.Linearizable, r.Operations, want, enters+exits)
		}
		if !want {
			var buf bytes.Buffer
			if err := r.Visualize(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "<html") || !strings.Contains(buf.String(), "acquire") {
				t.Fatal("the visualisation is not an HTML page naming the operations")
			}
		}
		// round trip through the file format
		var buf bytes.Buffer
		if err := history.Write(&buf, h); err != nil {
			t.Fatal(err)
		}
		h2, err := history.Read(&buf, "rt")
		if err != nil || len(h2.Events) != len(h.Events) || h2.Header != h.Header {
			t.Fatalf("round trip: %v", err)
		}
	}
}

func TestReadRejectsBadLines(t *testing.T) {
	header := `{"format":"tokenmc-history","version":1,"model":"lock","processes":2}` + "\n"
	cases := []struct{ name, text, want string }{
		{"not JSON", header + "acquire!\n", "h:2: not a JSON history event"},
		{"unknown process", header + `{"p":3,"op":"acquire","ev":"call","t_ns":0}` + "\n", "h:2: unknown process 3; the header says processes 0..1"},
		{"unmatched return", header + `{"p":0,"op":"acquire","ev":"return","t_ns":0}` + "\n", "h:2: unmatched return: process 0 has no pending call of acquire"},
		{"return of the wrong op", header + `{"p":0,"op":"acquire","ev":"call","t_ns":0}` + "\n" + `{"p":0,"op":"release","ev":"return","t_ns":1}` + "\n", "h:3: unmatched return: process 0 returns from release but its pending call (line 2) is acquire"},
		{"two calls", header + `{"p":0,"op":"acquire","ev":"call","t_ns":0}` + "\n" + `{"p":0,"op":"acquire","ev":"call","t_ns":1}` + "\n", "h:3: process 0 calls acquire while its acquire of line 2 has not returned"},
		{"unknown op", header + `{"p":0,"op":"lock","ev":"call","t_ns":0}` + "\n", `h:2: unknown op "lock"`},
		{"unknown model", `{"format":"tokenmc-history","version":1,"model":"queue"}` + "\n", `h:1: unknown model "queue"`},
		{"time goes back", header + `{"p":0,"op":"acquire","ev":"call","t_ns":5}` + "\n" + `{"p":0,"op":"acquire","ev":"return","t_ns":4}` + "\n", "h:3: process 0's time goes back"},
		{"empty", "", "h:1: empty history"},
	}
	for _, c := range cases {
		_, err := history.Read(strings.NewReader(c.text), "h")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	if _, err := os.Stat("../history/testdata/linearizable.jsonl"); err != nil {
		t.Fatal(err)
	}
}
