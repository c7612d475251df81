package protocol_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
)

// boundedToy is the toy protocol with a timer that stays enabled (its
// ticks saturate at 2, so the state space stays finite without a guard).
func boundedToy() *protocol.Protocol[toyProc, toyMsg] {
	p := toyProtocol(3)
	p.R, p.Faults, p.Groups = 1, 0, 1
	p.OnTimer = func(c *protocol.Ctx[toyProc, toyMsg], _ int) { c.Self.Ticks = min(c.Self.Ticks+1, 2) }
	return p
}

func countStates(t *testing.T, sys model.System) (states, transitions int64) {
	t.Helper()
	res, err := explore.Check(context.Background(), sys, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.States, res.Transitions
}

// A nil TimerEnabled means every timer may always fire: the same state
// space as an explicit always-true guard, and more transitions than the
// toy's own restrictive guard (the same states: ticks can rise while Idle).
func TestDefaultTimerEnabledIsAlwaysTrue(t *testing.T) {
	explicit := boundedToy()
	explicit.TimerEnabled = func(int, model.Phase, *toyProc, int) bool { return true }
	defaulted := boundedToy()
	defaulted.TimerEnabled = nil
	s1, t1 := countStates(t, explicit.System())
	s2, t2 := countStates(t, defaulted.System())
	if s1 != s2 || t1 != t2 {
		t.Fatalf("nil TimerEnabled: %d states %d transitions; always-true: %d states %d transitions", s2, t2, s1, t1)
	}
	_, t3 := countStates(t, boundedToy().System()) // the toy's guard: Idle only, Ticks < 2
	if t3 >= t1 {
		t.Fatalf("restricted timers give %d transitions, not fewer than the %d of always-enabled ones", t3, t1)
	}
	if defaulted.TimerEnabled != nil {
		t.Fatal("System changed the protocol it compiled")
	}
}

// A nil FormatMsg renders messages generically, with every field, in
// labels and state descriptions.
func TestDefaultFormatMsg(t *testing.T) {
	p := boundedToy()
	p.FormatMsg = nil
	w := p.System().NewWorker()
	var labels []string
	w.Initial(func(init []byte) bool {
		s := append([]byte(nil), init...) // Successors reuses the worker's buffers
		w.Successors(s, func(tr *model.Transition, _ []byte) bool {
			if tr.Kind == model.Deliver {
				labels = append(labels, w.Label(s, tr))
			}
			return true
		})
		if d := w.Describe(s); len(d.Network) == 0 || d.Network[0].Message != "{Kind:1 From:1 To:2}" {
			t.Errorf("network %+v, want the token {Kind:1 From:1 To:2} first", d.Network)
		}
		return false
	})
	want := []string{"Deliver {Kind:1 From:1 To:2}", "Deliver {Kind:2 From:1 To:2}"}
	if len(labels) != 2 || labels[0] != want[0] || labels[1] != want[1] {
		t.Fatalf("labels %q, want %q", labels, want)
	}
}

// A required field left nil is reported when the system is built, by
// name.
func TestMissingFieldPanicsAtBuild(t *testing.T) {
	for _, c := range []struct {
		field string
		clear func(p *protocol.Protocol[toyProc, toyMsg])
	}{
		{"OnExit", func(p *protocol.Protocol[toyProc, toyMsg]) { p.OnExit = nil }},
		{"OnTimer", func(p *protocol.Protocol[toyProc, toyMsg]) { p.OnTimer = nil }},
		{"Init", func(p *protocol.Protocol[toyProc, toyMsg]) { p.Init = nil }},
		{"EncodeMsg/DecodeMsg", func(p *protocol.Protocol[toyProc, toyMsg]) { p.DecodeMsg = nil }},
	} {
		p := boundedToy()
		c.clear(p)
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, `protocol "toy" has no `+c.field) {
					t.Errorf("without %s: panic %q", c.field, msg)
				}
			}()
			p.System()
		}()
	}
}
