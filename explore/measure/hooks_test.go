package measure

import (
	"context"
	"errors"
	"fmt"
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

// Systems with a whole-state Guard or Normalize hook are measured
// through their local worker. A Guard that allows everything and a
// Normalize that changes nothing leave the ring's behaviour as it is:
// with the same seed they measure exactly what the ring without hooks
// measures through its Sampler, figure for figure, though the steps are
// taken by another code path. The registry's hooked models are measured.
func TestHooksMeasured(t *testing.T) {
	ctx := context.Background()
	guard := func(p *protocol.Protocol[lelann.Proc, lelann.Msg]) {
		p.Guard = func(*protocol.View[lelann.Proc, lelann.Msg], *protocol.Action[lelann.Msg]) bool { return true }
	}
	norm := func(p *protocol.Protocol[lelann.Proc, lelann.Msg]) {
		p.Normalize = func([]model.Phase, []lelann.Proc, []lelann.Msg) {}
	}
	for _, load := range []Load{heavyLoad, lightLoad, rateLoad(1)} {
		base := Config{N: 4, Load: load, ExpMsg: true, Entries: 300, Warmup: 20, Replications: 2, Seed: 9}
		plain, guarded, normal := base, base, base
		plain.Algo, guarded.Algo, normal.Algo = "plain", "guarded", "normal"
		plain = asUser(hookedRing("plain", func(*protocol.Protocol[lelann.Proc, lelann.Msg]) {}), plain)
		guarded = asUser(hookedRing("guarded", guard), guarded)
		normal = asUser(hookedRing("normal", norm), normal)
		var want string
		for k, c := range []Config{plain, guarded, normal} {
			cc := c
			cc.Defaults()
			b, err := resolvedBuild(&cc)
			if err != nil {
				t.Fatalf("%s: %v", c.Algo, err)
			}
			if b.local != (k > 0) || b.guarded != (k == 1) {
				t.Fatalf("%s: stepped locally %v, guarded %v", c.Algo, b.local, b.guarded)
			}
			r, err := run(ctx, c, 2)
			if err != nil {
				t.Fatalf("%s %s: %v", c.Algo, load, err)
			}
			got := fmt.Sprint(r.MessagesPerCS, r.IdlePerCS, r.ByKind, r.Response, r.Waiting, r.Sync, r.Entries, r.Events, r.Unserved, r.Stalled, r.Violation, r.Postponed)
			if k == 0 {
				want = got
			} else if got != want {
				t.Errorf("%s %s: %s; the ring without hooks: %s", c.Algo, load, got, want)
			}
		}
	}
	for _, c := range []Config{
		{Algo: "torus/literal", Params: map[string]int{"fifo": 1}, N: 4}, // Guard and Normalize
		{Algo: "torus", Params: map[string]int{"requesters": 3}, N: 4},   // Guard
		{Algo: "banerjee-rec/timers-oracle", N: 3},                       // Guard
		{Algo: "drs-gme/fcfs", N: 4},
		{Algo: "drs-gme", Params: map[string]int{"timers": 2}, N: 4},  // Normalize
		{Algo: "banerjee", Params: map[string]int{"cyclic": 1}, N: 3}, // Guard and Normalize
	} {
		c.Load, c.Entries, c.Replications = heavyLoad, 200, 2
		r, err := run(ctx, c, 2)
		if err != nil || r.Entries != 400 || r.Violation != "" || r.Stalled != 0 {
			t.Errorf("%s %v: error %v, result %+v; want 400 entries measured", c.Algo, c.Params, err, r)
		}
	}
}

// A hooked system with bounded channels is still refused, with one line
// that names it and says why: the local steps do not bound channels.
func TestHooksWithCapacityRefused(t *testing.T) {
	capped := hookedRing("capped", func(p *protocol.Protocol[lelann.Proc, lelann.Msg]) {
		n := p.N
		p.Capacity = 1
		p.From = func(m *lelann.Msg) int { return (m.To + n - 1) % n }
		p.Guard = func(*protocol.View[lelann.Proc, lelann.Msg], *protocol.Action[lelann.Msg]) bool { return true }
	})
	_, err := run(context.Background(), asUser(capped, Config{Algo: "capped", N: 4, Load: heavyLoad, Entries: 50, Replications: 1}), 1)
	if err == nil || !strings.Contains(err.Error(), "capped has a whole-state Guard hook and bounded channels") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %v; want one line refusing capped's Guard with bounded channels", err)
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
		res, err := run(context.Background(), asUser(boom, Config{Algo: "boom", N: 4, Load: heavyLoad, Entries: 50, Replications: 3}), workers)
		var pe *PanicError
		if !errors.As(err, &pe) || res != nil {
			t.Fatalf("workers=%d: result %v, error %v; want a *PanicError", workers, res, err)
		}
		if pe.Value != "boom at P2's exit" || pe.Replication != 0 || len(pe.Stack) == 0 {
			t.Errorf("workers=%d: %+v; want replication 0, the panic value and a stack", workers, pe)
		}
	}
}
