package measure

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/lelann"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// hookedRing is myRing with edit applied to its protocol.
func hookedRing(name string, edit func(p *protocol.Protocol[lelann.Proc, lelann.Msg])) *algorithms.Algorithm {
	a := myRing(name)
	a.Build = func(variant string, params map[string]int) (model.System, []model.Property, error) {
		p, err := lelann.New(lelann.Default, params["n"], params["r"])
		if err != nil {
			return nil, nil, err
		}
		p.Name = variant
		edit(p)
		return p.System(), nil, nil
	}
	return a
}

// Systems with a whole-state Guard or Normalize hook are refused with one
// line naming the algorithm and the hook: the simulation steps processes
// one at a time and would ignore the Guard, and a normalised state no
// longer holds the messages it scheduled. The same ring without hooks is
// measured, so the refusal is the hooks' doing.
func TestHooksRefused(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		hook string
		cfg  Config
	}{
		{"Guard", Config{Algo: "guarded", Algorithm: hookedRing("guarded", func(p *protocol.Protocol[lelann.Proc, lelann.Msg]) {
			p.Guard = func(*protocol.View[lelann.Proc, lelann.Msg], *protocol.Action[lelann.Msg]) bool { return true }
		})}},
		{"Normalize", Config{Algo: "normal", Algorithm: hookedRing("normal", func(p *protocol.Protocol[lelann.Proc, lelann.Msg]) {
			p.Normalize = func([]model.Phase, []lelann.Proc, []lelann.Msg) {}
		})}},
		// built-in ones: torus's FIFO channels (Guard and Normalize),
		// torus --requesters (Guard)
		{"Guard", Config{Algo: "torus/literal", Params: map[string]int{"fifo": 1}}},
		{"Guard", Config{Algo: "torus", Params: map[string]int{"requesters": 1}}},
	}
	for _, c := range cases {
		c.cfg.N, c.cfg.Load, c.cfg.Entries, c.cfg.Replications = 4, Heavy, 50, 1
		_, err := Run(ctx, c.cfg, 1)
		if err == nil {
			t.Errorf("%s %v: measured; want a refusal", c.cfg.Algo, c.cfg.Params)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.cfg.Algo+" has a whole-state "+c.hook) || strings.Contains(msg, "\n") {
			t.Errorf("%s %v: error %q; want one line naming %s and its %s hook", c.cfg.Algo, c.cfg.Params, msg, c.cfg.Algo, c.hook)
		}
	}
	plain := Config{Algo: "plain", Algorithm: hookedRing("plain", func(*protocol.Protocol[lelann.Proc, lelann.Msg]) {}), N: 4, Load: Heavy, Entries: 50, Replications: 1}
	if _, err := Run(ctx, plain, 1); err != nil {
		t.Fatalf("the ring without hooks: %v", err)
	}
}

// A panic in a replication's goroutine comes back from Run as a
// *PanicError (instead of ending the program), whichever worker ran it.
func TestPanicRecovered(t *testing.T) {
	boom := hookedRing("boom", func(p *protocol.Protocol[lelann.Proc, lelann.Msg]) {
		exit := p.OnExit
		p.OnExit = func(c *protocol.Ctx[lelann.Proc, lelann.Msg]) {
			if c.ID == 2 {
				panic("boom at P2's exit")
			}
			exit(c)
		}
	})
	for _, workers := range []int{1, 2} {
		res, err := Run(context.Background(), Config{Algo: "boom", Algorithm: boom, N: 4, Load: Heavy, Entries: 50, Replications: 3}, workers)
		var pe *PanicError
		if !errors.As(err, &pe) || res != nil {
			t.Fatalf("workers=%d: result %v, error %v; want a *PanicError", workers, res, err)
		}
		if pe.Value != "boom at P2's exit" || pe.Replication != 0 || len(pe.Stack) == 0 {
			t.Errorf("workers=%d: %+v; want replication 0, the panic value and a stack", workers, pe)
		}
	}
}
