package live_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/history"
	"github.com/tokenmc/tokenmc/cmd/internal/linearize"
	"github.com/tokenmc/tokenmc/cmd/internal/live"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// build compiles a registered algorithm; it skips when name is not registered.
func build(t *testing.T, name string, params map[string]int) model.System {
	t.Helper()
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		t.Skipf("%s is not registered: %v", name, err)
	}
	sys, _, err := a.Build(v.Name, params)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return sys
}

// runLog runs sys and returns its log, re-read from its JSON-lines form so
// that line numbers and the format round trip are exercised.
// Runs of correct algorithms end as soon as every request is served (tens
// of milliseconds), so their generous bound only matters on a loaded
// machine; mutants may deadlock and are cut at 300ms.
func runLog(t *testing.T, name string, params map[string]int, sys model.System, transport string, seed uint64, maxCS time.Duration) (*eventlog.Log, live.Stats) {
	d := 300 * time.Millisecond
	if maxCS == 0 {
		d = 5 * time.Second
	}
	t.Helper()
	h, events, st, err := live.Run(context.Background(), live.Config{Algorithm: name, Params: params, System: sys,
		Transport: transport, Duration: d, Seed: seed, MaxCS: maxCS})
	if err != nil {
		t.Fatalf("%s over %s: %v", name, transport, err)
	}
	var buf bytes.Buffer
	if err := eventlog.Write(&buf, h, events); err != nil {
		t.Fatal(err)
	}
	l, err := eventlog.Read(&buf, "run.jsonl")
	if err != nil {
		t.Fatalf("the log of a run does not read back: %v", err)
	}
	return l, st
}

// TestCorrectRunsValidateAndLinearize is the acceptance test of the
// runtime: every correct algorithm run as processes, over channels and
// over TCP, yields a log that is a behaviour of the model and a history
// porcupine finds linearizable, with every request served.
func TestCorrectRunsValidateAndLinearize(t *testing.T) {
	cases := []struct {
		name   string
		params map[string]int
	}{
		{"suzuki-kasami", map[string]int{"n": 3, "r": 3}},
		{"torus", map[string]int{"n": 4, "r": 2}},
		{"drs-gme", map[string]int{"n": 3, "r": 2, "groups": 2}},
	}
	for _, c := range cases {
		for _, tr := range []string{live.Chan, live.TCP} {
			t.Run(c.name+"/"+tr, func(t *testing.T) {
				sys := build(t, c.name, c.params)
				info := sys.Info()
				l, st := runLog(t, c.name, c.params, sys, tr, 7, 0)
				if !st.Completed || st.Entries != info.Processes*info.Requests || st.Exits != st.Entries || st.Received > st.Sent+len(initialMessages(sys)) {
					t.Fatalf("run did not serve every request: %+v", st)
				}
				res := eventlog.Validate(sys, l)
				if !res.OK {
					t.Fatalf("validate rejects a run of the correct model: %s: %s\n%v", res.Failed, res.Reason, res.Pending)
				}
				if res.Events != len(l.Events) {
					t.Fatalf("explained %d of %d events", res.Events, len(l.Events))
				}
				// Independent count: every message sent and not received is in transit at the end.
				sends, recvs := 0, 0
				for _, e := range l.Events {
					switch e.Kind {
					case eventlog.KindSend:
						sends++
					case eventlog.KindReceive:
						recvs++
					}
				}
				if want := sends + len(initialMessages(sys)) - recvs; res.Messages != want {
					t.Fatalf("model has %d messages in transit at the end; the log says %d", res.Messages, want)
				}
				h := history.FromLog(l, history.KindFor(info))
				hr := linearize.Check(h, 10*time.Second)
				if !hr.Linearizable {
					t.Fatalf("history of a correct run is not linearizable (model %s)", h.Header.Model)
				}
				if hr.Operations != 2*st.Entries {
					t.Fatalf("%d operations, want 2 per CS entry (%d)", hr.Operations, 2*st.Entries)
				}
			})
		}
	}
}

func initialMessages(sys model.System) [][]byte {
	return sys.(protosys.LocalSystem).NewLocalWorker().InitialMessages()
}

// mutantRejected runs a mutant with a few seeds until the history of one
// run is not linearizable under kind; every run must be a behaviour of the
// mutant itself. It returns that run's log, or nil.
func mutantRejected(t *testing.T, name string, params map[string]int, kind string) *eventlog.Log {
	t.Helper()
	sys := build(t, name, params)
	for seed := uint64(1); seed <= 5; seed++ {
		l, _ := runLog(t, name, params, sys, live.Chan, seed, 10*time.Millisecond)
		if res := eventlog.Validate(sys, l); !res.OK {
			t.Fatalf("a run of %s is not a behaviour of %s: %s: %s", name, name, res.Failed, res.Reason)
		}
		if !linearize.Check(history.FromLog(l, kind), 10*time.Second).Linearizable {
			return l
		}
	}
	return nil
}

// A GME mutant (the captain admits a follower of another group) violates
// the group lock in a real run.
func TestGMEMutantRun(t *testing.T) {
	if mutantRejected(t, "drs-gme/admit-any-group", map[string]int{"n": 3, "r": 4, "groups": 2}, history.ModelGroupLock) == nil {
		t.Fatal("no seed of 1..5 produced a non-linearizable group-lock history of drs-gme/admit-any-group")
	}
}

// TestMutantRun: a run of suzuki-kasami/send-in-cs (the holder sends the
// token on a REQ while in its CS) is a behaviour of the mutant, but not of
// the correct algorithm, and its history violates the lock model. The run
// is concurrent, so a few seeds are tried until one shows an overlap.
func TestMutantRun(t *testing.T) {
	params := map[string]int{"n": 3, "r": 4}
	mut := build(t, "suzuki-kasami/send-in-cs", params)
	good := build(t, "suzuki-kasami", params)
	for seed := uint64(1); seed <= 5; seed++ {
		l, _ := runLog(t, "suzuki-kasami/send-in-cs", params, mut, live.Chan, seed, 10*time.Millisecond)
		if res := eventlog.Validate(mut, l); !res.OK {
			t.Fatalf("a run of the mutant is not a behaviour of the mutant: %s: %s", res.Failed, res.Reason)
		}
		h := history.FromLog(l, history.ModelLock)
		if linearize.Check(h, 10*time.Second).Linearizable {
			continue // no overlap this time
		}
		res := eventlog.Validate(good, l)
		if res.OK {
			t.Fatal("the correct model explains a run whose history violates mutual exclusion")
		}
		if res.Failed.Kind != eventlog.KindSend || !strings.HasPrefix(res.Failed.Msg, "TOKEN(") || !strings.Contains(res.Reason, "does not") {
			t.Fatalf("want the first unexplained event to be the token sent from the CS, got %s: %s", res.Failed, res.Reason)
		}
		if res.Reached.Processes[res.Failed.P].Phase != "InCS" {
			t.Fatalf("the sender of the unexplained token is %s, want InCS", res.Reached.Processes[res.Failed.P].Phase)
		}
		return
	}
	t.Fatal("no seed of 1..5 produced a non-linearizable history of suzuki-kasami/send-in-cs")
}

func TestRunRejectsUnknownTransport(t *testing.T) {
	sys := build(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	_, _, _, err := live.Run(context.Background(), live.Config{Algorithm: "suzuki-kasami", System: sys, Transport: "udp", Duration: time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "chan, tcp") {
		t.Fatalf("err = %v", err)
	}
}
