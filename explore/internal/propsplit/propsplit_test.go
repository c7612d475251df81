package propsplit_test

import (
	"testing"

	"github.com/tokenmc/tokenmc/explore/internal/propsplit"
	"github.com/tokenmc/tokenmc/model"
)

func TestByKindKeepsOrderAndFindsTheFirst(t *testing.T) {
	holds := func(ok bool) func(model.Snapshot) bool { return func(model.Snapshot) bool { return ok } }
	on := func(ok bool) func(*model.Transition) bool { return func(*model.Transition) bool { return ok } }
	ps := []model.Property{
		{Name: "a", Kind: model.Invariant, Holds: holds(true)},
		{Name: "t1", Kind: model.TransitionInvariant, HoldsOn: on(true)},
		{Name: "b", Kind: model.Invariant, Holds: holds(false)},
		{Name: "end", Kind: model.Terminal, Holds: holds(false)},
		{Name: "c", Kind: model.Invariant, Holds: holds(false)},
		{Name: "t2", Kind: model.TransitionInvariant, HoldsOn: on(false)},
	}
	s := propsplit.ByKind(ps)
	names := func(ps []model.Property) (out []string) {
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	if got := names(s.Invariants); len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Fatalf("invariants %v, want [a b c]", got)
	}
	if p := s.Invariant(nil); p == nil || p.Name != "b" {
		t.Fatalf("first violated invariant %v, want b", p)
	}
	if p := s.Transition(&model.Transition{}); p == nil || p.Name != "t2" {
		t.Fatalf("first violated transition invariant %v, want t2", p)
	}
	if p := s.Terminal(nil); p == nil || p.Name != "end" {
		t.Fatalf("terminal %v, want end", p)
	}
	var none propsplit.Split
	if none.Invariant(nil) != nil || none.Transition(nil) != nil || none.Terminal(nil) != nil {
		t.Fatal("an empty split reports a violation")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a property of unknown kind was accepted")
		}
	}()
	propsplit.ByKind([]model.Property{{Name: "x", Kind: 99}})
}
