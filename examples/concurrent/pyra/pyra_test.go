// Package pyra holds a second implementation, in Python (ra.py): Ricart
// and Agrawala's algorithm with threads and TCP sockets on 127.0.0.1,
// writing tokenmc's event log itself. The tests run it and validate its
// logs.
package pyra

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// runPython runs ra.py with args and reads its log and the model it names.
func runPython(t *testing.T, args ...string) (*eventlog.Log, model.System, string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is not installed: CI must run the Python implementation ra.py (.ci/run installs python3)")
		}
		t.Skip("python3 is not installed: the Python implementation ra.py is not run (CI runs it)")
	}
	path := filepath.Join(t.TempDir(), "ra.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, append([]string{"ra.py", "--log", path}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ra.py %v: %v\n%s", args, err, out)
	}
	l, err := eventlog.ReadFile(path)
	if err != nil {
		t.Fatalf("ra.py %v: its log does not read: %v", args, err)
	}
	a, v, err := algorithms.Lookup(l.Header.Algorithm)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := a.BuildSim(v.Name, l.Header.Params)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	return l, sys, string(data)
}

func TestPythonRunsValidate(t *testing.T) {
	nonAtomic := 0
	for seed := 1; seed <= 3; seed++ {
		l, sys, text := runPython(t, "--n", "3", "--rounds", "6", "--seed", strconv.Itoa(seed))
		res := eventlog.Validate(sys, l, eventlog.Options{Complete: true}) // the run ended cleanly
		if !eventlog.Validate(sys, l, eventlog.Options{Atomic: true}).OK {
			nonAtomic++
		}
		enters := 0
		for _, e := range l.Events {
			if e.Kind == eventlog.KindEnter {
				enters++
			}
		}
		if !res.OK || res.Events != len(l.Events) || enters != 18 {
			t.Fatalf("seed %d: ok=%v at %v: %s; %d of %d events explained, %d enters (want 18)\n%s", seed, res.OK, res.Failed, res.Reason, res.Events, len(l.Events), enters, text)
		}
	}
	// Its threads log where they act, so steps are not logged atomically.
	if nonAtomic == 0 {
		t.Fatal("all 3 logs are also logged atomically: the test does not exercise late effects")
	}
}

var requestSN = regexp.MustCompile(`^REQUEST\(P\d+->P\d+, sn=(\d+)\)$`)

// firstMisnumbered is, from the log alone, the first REQUEST sent with
// another number than the algorithm's rule 1 gives: one more than the
// highest number of the REQUESTs its sender received before it asked.
func firstMisnumbered(l *eventlog.Log) *eventlog.Event {
	highest := map[int]int{}
	asked := map[int]int{} // the number of the current request
	for k := range l.Events {
		e := &l.Events[k]
		m := requestSN.FindStringSubmatch(e.Msg)
		switch {
		case e.Kind == eventlog.KindRequest:
			asked[e.P] = highest[e.P] + 1
		case e.Kind == eventlog.KindReceive && m != nil:
			sn, _ := strconv.Atoi(m[1])
			highest[e.P] = max(highest[e.P], sn)
		case e.Kind == eventlog.KindSend && m != nil:
			if sn, _ := strconv.Atoi(m[1]); sn != asked[e.P] {
				return e
			}
		}
	}
	return nil
}

// The planted bug is rejected at its first misnumbered request.
func TestPythonBugIsRejectedWhereItActs(t *testing.T) {
	for seed := 1; seed <= 5; seed++ {
		l, sys, text := runPython(t, "--n", "3", "--rounds", "6", "--seed", strconv.Itoa(seed), "--bug", "nomax")
		want := firstMisnumbered(l)
		if want == nil {
			continue // no node asked after hearing another's request
		}
		res := eventlog.Validate(sys, l, eventlog.Options{})
		if res.OK || res.Failed == nil || res.Failed.Line != want.Line {
			t.Fatalf("seed %d: ok=%v, rejected at %v: %s; want the send at line %d\n%s", seed, res.OK, res.Failed, res.Reason, want.Line, text)
		}
		return
	}
	t.Fatal("the bug never showed in 5 runs")
}
