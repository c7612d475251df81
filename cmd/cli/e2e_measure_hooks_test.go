package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// measure measures a system with a whole-state hook (torus's FIFO
// channels, banerjee's cyclic clients, torus --requesters) through its
// per-process stepper, the Guard honoured (explore/measure's package doc,
// "Whole-state hooks"): exit 0 and one row, no stalled replication.
func TestMeasureHookedModels(t *testing.T) {
	for _, c := range []struct{ algo, flag string }{
		{"torus/literal", "--fifo"},
		{"banerjee", "--cyclic"},
		{"torus", "--requesters"},
	} {
		r := runCLI(t, "measure", "--algos", c.algo, "--n", "4", "--load", "heavy", c.flag, "1", "--reps", "1", "--entries", "50", "--json")
		r.wantCode(t, exitOK)
		var rows []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 {
			t.Fatalf("%s %s 1: %v, stdout:\n%s\nwant one JSON row", c.algo, c.flag, err, r.stdout)
		}
		if m, _ := rows[0]["messages_per_cs"].(float64); rows[0]["algorithm"] != c.algo || !(m > 0) || rows[0]["stalled_replications"] != 0.0 {
			t.Errorf("%s %s 1: row %v; want the algorithm, messages per CS and no stalled replication", c.algo, c.flag, rows[0])
		}
	}
}

// A panic inside measure's replications (here the model's own Exit
// handler) is an internal error: exit 4, the short report, no raw
// goroutine dump.
func TestMeasurePanicIsInternal(t *testing.T) {
	boom := algorithms.Algorithm{
		Name: "boom", Doc: "a ring whose P1 panics on Exit", Source: "a test",
		Params: []spec.Param{
			{Name: "n", Doc: "processes", Min: 2, Max: 6, Default: 3},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 3, Default: 1, SimMax: -1},
		},
		Variants: []algorithms.Variant{{Name: "boom", Kind: spec.KindDefault, Doc: "the ring"}},
		Build: func(variant string, params map[string]int) (model.System, []model.Property, error) {
			p, err := lelann.New(lelann.Default, params["n"], params["r"])
			if err != nil {
				return nil, nil, err
			}
			p.Name = variant
			exit := p.OnExit
			p.OnExit = func(c *protocol.Ctx[lelann.Proc, lelann.Msg]) {
				if c.ID == 1 {
					panic("boom at P1's exit")
				}
				exit(c)
			}
			return p.System(), nil, nil
		},
	}
	var out, errb bytes.Buffer
	code := Run([]string{"measure", "--algos", "boom", "--n", "3", "--load", "heavy", "--reps", "2", "--entries", "50"}, &out, &errb, append(algorithms.All(), boom)...)
	stderr := errb.String()
	if code != exitInternal || !strings.HasPrefix(stderr, "tokenmc: internal error: measure boom n=3: replication 0 panicked: boom at P1's exit\n") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and the internal-error report", code, stderr, exitInternal)
	}
	if strings.Contains(stderr, "goroutine ") {
		t.Errorf("stderr holds a raw stack trace:\n%s", stderr)
	}
}

// With random delays a FIFO channel's later message can be due first: the
// guard holds it back, and the output counts it (--json
// postponed_events, the note in the table).
func TestMeasureReportsHeldEvents(t *testing.T) {
	r := runCLI(t, "measure", "--algos", "torus", "--fifo", "1", "--n", "9", "--load", "heavy", "--exp", "--reps", "1", "--entries", "200", "--json")
	r.wantCode(t, exitOK)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("%v, stdout:\n%s\nwant one JSON row", err, r.stdout)
	}
	if n, _ := rows[0]["postponed_events"].(float64); !(n > 0) {
		t.Errorf("postponed_events %v, want some: deliveries out of channel order wait", rows[0]["postponed_events"])
	}
	if _, ok := rows[0]["blocked_replications"]; ok {
		t.Errorf("blocked_replications %v, want none (absent)", rows[0]["blocked_replications"])
	}
	r = runCLI(t, "measure", "--algos", "torus", "--fifo", "1", "--n", "9", "--load", "heavy", "--exp", "--reps", "1", "--entries", "200")
	if !strings.Contains(r.stdout, "event(s) held back by the guard") {
		t.Errorf("the table does not say how many events were held back:\n%s", r.stdout)
	}
}
