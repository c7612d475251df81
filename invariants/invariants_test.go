package invariants_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// fake is a hand-made snapshot for testing the predicates.
type fake struct {
	phases []model.Phase
	tokens int
}

func (f fake) Processes() int          { return len(f.phases) }
func (f fake) Phase(i int) model.Phase { return f.phases[i] }
func (f fake) Made(int) int            { return 0 }
func (f fake) Group(int) int           { return 0 }
func (f fake) Tokens() int             { return f.tokens }
func (f fake) InTransit() int          { return 0 }

func TestPredicates(t *testing.T) {
	I, W, C := model.Idle, model.Waiting, model.InCS
	cases := []struct {
		prop model.Property
		s    fake
		want bool
	}{
		{invariants.Mutex, fake{[]model.Phase{I, W, C}, 1}, true},
		{invariants.Mutex, fake{[]model.Phase{C, W, C}, 1}, false},
		{invariants.SingleToken, fake{[]model.Phase{I, I}, 1}, true},
		{invariants.SingleToken, fake{[]model.Phase{I, I}, 0}, false},
		{invariants.SingleToken, fake{[]model.Phase{I, I}, 2}, false},
		{invariants.NoDeadlock, fake{[]model.Phase{I, I}, 1}, true},
		{invariants.NoDeadlock, fake{[]model.Phase{I, W}, 1}, false},
		{invariants.NoDeadlock, fake{[]model.Phase{C, I}, 1}, false},
	}
	for _, c := range cases {
		if got := c.prop.Holds(c.s); got != c.want {
			t.Errorf("%s on %v: %v, want %v", c.prop.Name, c.s, got, c.want)
		}
	}
	if !invariants.NoUnrequestedEntry.HoldsOn(&model.Transition{}) ||
		invariants.NoUnrequestedEntry.HoldsOn(&model.Transition{Flags: model.FlagUnrequestedEntry}) {
		t.Error("no-unrequested-entry must fail exactly on flagged transitions")
	}
}

func TestSelect(t *testing.T) {
	tokens := model.Info{Name: "x", Tokens: true}
	noTokens := model.Info{Name: "ra", Tokens: false}
	all := invariants.Standard()
	got, err := invariants.Select(all, noTokens, "")
	if err != nil || len(got) != 3 {
		t.Fatalf("default selection without tokens: %v %v", got, err)
	}
	if _, err := invariants.Select(all, noTokens, "single-token"); err == nil || !strings.Contains(err.Error(), "does not apply") {
		t.Errorf("single-token on a tokenless system: %v", err)
	}
	if _, err := invariants.Select(all, tokens, "mutex,bogus"); err == nil || !strings.Contains(err.Error(), "valid properties") {
		t.Errorf("unknown property: %v", err)
	}
	got, err = invariants.Select(all, tokens, " mutex , no-deadlock,mutex")
	if err != nil || len(got) != 2 || got[0].Name != "mutex" || got[1].Name != "no-deadlock" {
		t.Errorf("list selection: %v %v", got, err)
	}
}

// A custom property is a plain value; this one forbids any message in
// transit while a process is in its CS.
func Example() {
	quiet := model.Property{
		Name: "quiet-cs",
		Kind: model.Invariant,
		Doc:  "no message is in transit while a process is InCS",
		Holds: func(s model.Snapshot) bool {
			for i := range s.Processes() {
				if s.Phase(i) == model.InCS && s.InTransit() > 0 {
					return false
				}
			}
			return true
		},
	}
	props, err := invariants.Select(append(invariants.Standard(), quiet), model.Info{Name: "demo", Tokens: true}, "mutex,quiet-cs")
	fmt.Println(len(props), props[1].Name, err)
	// Output: 2 quiet-cs <nil>
}
