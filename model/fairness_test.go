package model_test

import (
	"bytes"
	"testing"

	"github.com/tokenmc/tokenmc/model"
)

func TestFamilies(t *testing.T) {
	m1, m2 := []byte{1, 2}, []byte{1, 3}
	cases := []struct {
		t     model.Transition
		fair  model.Fairness
		class model.FairnessClass
	}{
		{model.Transition{Kind: model.Exit, Proc: 1}, model.NoFairness, model.WeaklyFair},
		{model.Transition{Kind: model.Timer, Proc: 1, Arg: 2}, model.StrongFairness, model.WeaklyFair},
		{model.Transition{Kind: model.Request, Proc: 1, Arg: 0}, model.WeakFairness, model.Unfair},
		{model.Transition{Kind: model.Lose, Proc: 0, Msg: m1}, model.WeakFairness, model.Unfair},
		{model.Transition{Kind: model.Deliver, Proc: 0, Msg: m1}, model.WeakFairness, model.WeaklyFair},
		{model.Transition{Kind: model.Deliver, Proc: 0, Msg: m1}, model.StrongFairness, model.StronglyFair},
		{model.Transition{Kind: model.Deliver, Proc: 0, Msg: m1}, model.NoFairness, model.Unfair},
	}
	for _, c := range cases {
		if _, got := model.AppendFamily(nil, &c.t, c.fair); got != c.class {
			t.Errorf("%v under %s fairness: class %s, want %s", c.t, c.fair, got, c.class)
		}
	}
	key := func(tr model.Transition) []byte {
		k, _ := model.AppendFamily(nil, &tr, model.WeakFairness)
		return k
	}
	// One family per distinct message, whatever the Arg (its index among
	// the messages of a state); distinct messages, timers, processes and
	// kinds are distinct families.
	same := [][2]model.Transition{
		{{Kind: model.Deliver, Proc: 0, Arg: 0, Msg: m1}, {Kind: model.Deliver, Proc: 0, Arg: 3, Msg: m1}},
	}
	diff := [][2]model.Transition{
		{{Kind: model.Deliver, Proc: 0, Msg: m1}, {Kind: model.Deliver, Proc: 0, Msg: m2}},
		{{Kind: model.Deliver, Proc: 0, Msg: m1}, {Kind: model.Lose, Proc: 0, Msg: m1}},
		{{Kind: model.Timer, Proc: 0, Arg: 0}, {Kind: model.Timer, Proc: 0, Arg: 1}},
		{{Kind: model.Exit, Proc: 0}, {Kind: model.Exit, Proc: 1}},
		{{Kind: model.Request, Proc: 0, Arg: 0}, {Kind: model.Request, Proc: 0, Arg: 1}},
	}
	for _, p := range same {
		if !bytes.Equal(key(p[0]), key(p[1])) {
			t.Errorf("%v and %v should be one family", p[0], p[1])
		}
	}
	for _, p := range diff {
		if bytes.Equal(key(p[0]), key(p[1])) {
			t.Errorf("%v and %v should be distinct families", p[0], p[1])
		}
	}
	for _, s := range []string{"weak", "strong", "none"} {
		if f, err := model.ParseFairness(s); err != nil || f.String() != s {
			t.Errorf("ParseFairness(%q) = %v, %v", s, f, err)
		}
	}
	if _, err := model.ParseFairness("fair"); err == nil || err.Error() != `fairness "fair" is unknown; want weak, strong or none` {
		t.Errorf("ParseFairness(fair): %v", err)
	}
}
