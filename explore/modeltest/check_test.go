package modeltest_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore/modeltest"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// broken wraps a system and breaks one rule of the Worker contract.
type broken struct {
	model.System
	how string
}

func (b broken) NewWorker() model.Worker {
	return &brokenWorker{Worker: b.System.NewWorker(), how: b.how}
}

type brokenWorker struct {
	model.Worker
	how   string
	calls int
}

type succ struct {
	t    model.Transition
	next []byte
}

func (w *brokenWorker) Successors(state []byte, yield func(*model.Transition, []byte) bool) {
	w.calls++
	if w.how != "order" || w.calls%2 == 1 {
		w.Worker.Successors(state, yield)
		return
	}
	var all []succ
	w.Worker.Successors(state, func(t *model.Transition, next []byte) bool {
		c := *t
		c.Msg = bytes.Clone(t.Msg)
		all = append(all, succ{c, bytes.Clone(next)})
		return true
	})
	slices.Reverse(all)
	for _, s := range all {
		if !yield(&s.t, s.next) {
			return
		}
	}
}

func (w *brokenWorker) Label(state []byte, t *model.Transition) string {
	if w.how == "labels" && t.Kind == model.Request {
		return "Request"
	}
	return w.Worker.Label(state, t)
}

type offSnapshot struct{ model.Snapshot }

func (s offSnapshot) InTransit() int { return s.Snapshot.InTransit() + 1 }

func (w *brokenWorker) Snapshot(state []byte) model.Snapshot {
	if w.how == "snapshot" {
		return offSnapshot{w.Worker.Snapshot(state)}
	}
	return w.Worker.Snapshot(state)
}

// hidden is a ring whose processes count deliveries modulo 2 in a field
// that Describe does not render: two encodings of one described state.
func hidden() model.System {
	type hproc struct {
		Has    bool
		Parity int `json:"-"`
	}
	next := func(c *protocol.Ctx[hproc, msg]) { c.Self.Has = false; c.Send(msg{To: (c.ID + 1) % c.N}) }
	return (&protocol.Protocol[hproc, msg]{
		Name: "hidden",
		N:    2,
		R:    1,
		Init: func(i int) hproc { return hproc{Has: i == 0} },
		Codec: protocol.Codec[hproc, msg]{
			EncodeProc: func(e *model.Encoder, p *hproc) { e.Bool(p.Has); e.Int(p.Parity) },
			DecodeProc: func(d *model.Decoder, p *hproc) { p.Has = d.Bool(); p.Parity = d.Int() },
			EncodeMsg:  func(e *model.Encoder, m *msg) { e.Int(m.To) },
			DecodeMsg:  func(d *model.Decoder, m *msg) { m.To = d.Int() },
			To:         func(m *msg) int { return m.To },
		},
		Format: protocol.Format[hproc, msg]{
			FormatMsg: func(m *msg) string { return fmt.Sprintf("TOKEN(->P%d)", m.To) },
		},
		OnRequest: func(c *protocol.Ctx[hproc, msg], _ int) {
			if c.Self.Has {
				c.Enter()
			}
		},
		OnExit: next,
		OnDeliver: func(c *protocol.Ctx[hproc, msg], m *msg) {
			c.Self.Has, c.Self.Parity = true, 1-c.Self.Parity
			if c.Phase() == model.Waiting {
				c.Enter()
				return
			}
			next(c)
		},
	}).System()
}

// Each broken rule is reported, with a message that names it; the correct
// ring and its mutant (a wrong algorithm, but a well-formed model) pass.
func TestVerifyFindsBrokenModels(t *testing.T) {
	for _, c := range []struct {
		name string
		sys  model.System
		opts []modeltest.Options
		want string // "" for no failure
	}{
		{"ring", ring(3, false), nil, ""},
		{"mutant", ring(2, true), nil, ""},
		{"order", broken{ring(3, false), "order"}, nil, "Successors is not deterministic"},
		{"labels", broken{ring(3, false), "labels"}, nil, `two transitions of one state are labelled "Request"`},
		{"snapshot", broken{ring(3, false), "snapshot"}, nil, "Snapshot has 1 messages in transit, Describe 0"},
		{"hidden", hidden(), nil, "two encodings of one state"},
		{"too large", ring(3, false), []modeltest.Options{{MaxStates: 10}}, "more than 10 reachable states"},
	} {
		err := modeltest.Verify(c.sys, c.opts...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Verify = %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// A process that can never enter is reported unless Options.MayNotEnter
// exempts it.
func TestVerifyEveryProcessEnters(t *testing.T) {
	lazy := lazyRing()
	err := modeltest.Verify(lazy)
	if err == nil || !strings.Contains(err.Error(), "P2 is never in its critical section") || strings.Contains(err.Error(), "P1 is never") {
		t.Errorf("Verify = %v, want P2 (only) never in its critical section", err)
	}
	if err := modeltest.Verify(lazy, modeltest.Options{MayNotEnter: []int{2}}); err != nil {
		t.Errorf("with MayNotEnter [2]: %v", err)
	}
}

// lazyRing is the ring in which P2 never takes the token: it passes it on
// even while Waiting.
func lazyRing() model.System {
	p := ringProtocol(3, false)
	p.Name = "lazy-ring"
	deliver := p.OnDeliver
	p.OnDeliver = func(c *protocol.Ctx[proc, msg], m *msg) {
		if c.ID == 2 {
			c.Send(msg{To: (c.ID + 1) % c.N})
			return
		}
		deliver(c, m)
	}
	return p.System()
}

// Verify takes at most one Options: a second is a mistake it refuses.
func TestVerifyRefusesTwoOptions(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Verify with two Options did not panic")
		}
	}()
	_ = modeltest.Verify(ring(2, false), modeltest.Options{}, modeltest.Options{MaxStates: 10})
}
