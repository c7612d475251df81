// Package pyra holds a second implementation, in Python (ra.py): Ricart
// and Agrawala's algorithm with threads and TCP sockets on 127.0.0.1,
// writing tokenmc's event log itself. The test runs it and validates its
// logs.
package pyra

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

func TestPythonRunsValidate(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the Python implementation ra.py is not run (CI has python3)")
	}
	nonAtomic := 0
	for seed := 1; seed <= 3; seed++ {
		path := filepath.Join(t.TempDir(), "ra.jsonl")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		out, err := exec.CommandContext(ctx, python, "ra.py", "--n", "3", "--rounds", "6", "--seed", strconv.Itoa(seed), "--log", path).CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("seed %d: ra.py: %v\n%s", seed, err, out)
		}
		l, err := eventlog.ReadFile(path)
		if err != nil {
			t.Fatalf("seed %d: the log of ra.py does not read: %v", seed, err)
		}
		a, v, err := algorithms.Lookup(l.Header.Algorithm)
		if err != nil {
			t.Fatal(err)
		}
		sys, _, err := a.BuildSim(v.Name, l.Header.Params)
		if err != nil {
			t.Fatal(err)
		}
		res := eventlog.ValidateWith(sys, l, eventlog.Options{Complete: true}) // the run ended cleanly
		if !eventlog.ValidateWith(sys, l, eventlog.Options{Atomic: true}).OK {
			nonAtomic++
		}
		enters := 0
		for _, e := range l.Events {
			if e.Kind == eventlog.KindEnter {
				enters++
			}
		}
		if !res.OK || res.Events != len(l.Events) || enters != 18 {
			data, _ := os.ReadFile(path)
			t.Fatalf("seed %d: ok=%v at %v: %s; %d of %d events explained, %d enters (want 18)\n%s", seed, res.OK, res.Failed, res.Reason, res.Events, len(l.Events), enters, data)
		}
	}
	// Its threads log where they act, so steps are not logged atomically.
	if nonAtomic == 0 {
		t.Fatal("all 3 logs are also logged atomically: the test does not exercise late effects")
	}
}
