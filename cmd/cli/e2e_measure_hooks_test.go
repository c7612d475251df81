package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// measure refuses a system with a whole-state hook (torus's FIFO
// channels, banerjee's cyclic clients, torus --requesters) with one line
// naming the algorithm, exit 2, instead of a panic or a silently ignored
// Guard.
func TestMeasureRefusesHooks(t *testing.T) {
	for _, c := range []struct{ algo, flag, hook string }{
		{"torus/literal", "--fifo", "Guard"},
		{"banerjee", "--cyclic", "Guard"},
		{"torus", "--requesters", "Guard"},
	} {
		r := runCLI(t, "measure", "--algos", c.algo, "--n", "4", "--load", "heavy", c.flag, "1", "--reps", "1", "--entries", "50")
		r.wantCode(t, exitBadInput)
		r.wantOneLineError(t, c.algo+" has a whole-state "+c.hook)
	}
}

// A panic inside measure's replications (here the model's own Exit
// handler) is an internal error: exit 4, the short report, no raw
// goroutine dump.
func TestMeasurePanicIsInternal(t *testing.T) {
	boom := algorithms.Algorithm{
		Name: "boom", Doc: "a ring whose P1 panics on Exit", Source: "a test",
		Params: []algorithms.Param{
			{Name: "n", Doc: "processes", Min: 2, Max: 6, Default: 3},
			{Name: "r", Doc: "requests per process", Min: 1, Max: 3, Default: 1, SimMax: -1},
		},
		Variants: []algorithms.Variant{{Name: "boom", Kind: algorithms.KindDefault, Doc: "the ring"}},
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
