package protocol_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/protocol"
	"github.com/tokenmc/tokenmc/model/protocol/protosys"
)

// alternativesCrossCheck explores every reachable state of sys and checks,
// for every action of one process, that LocalWorker.Alternatives counts
// the alternatives the global Worker yields for it (one more than its
// largest Transition.Choice), that Step with each Choice gives that very
// successor, and that Step with Choice = Alternatives fails with
// ErrNoAlternative. It returns how many actions had k alternatives.
func alternativesCrossCheck(t *testing.T, sys model.System) map[int]int {
	t.Helper()
	w := sys.NewWorker()
	lw := sys.(protosys.LocalSystem).NewLocalWorker()
	var queue [][]byte
	seen := map[string]bool{}
	w.Initial(func(s []byte) bool {
		queue = append(queue, append([]byte(nil), s...))
		seen[string(s)] = true
		return true
	})
	type action struct {
		kind      model.ActionKind
		proc, arg int
	}
	hist := map[int]int{}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		locals, network, faults := lw.Split(s)
		type succ struct {
			t    model.Transition
			next []byte
		}
		var succs []succ
		globalK := map[action]int{}
		var order []action
		w.Successors(s, func(tr *model.Transition, next []byte) bool {
			c := *tr
			c.Msg = append([]byte(nil), tr.Msg...)
			succs = append(succs, succ{c, append([]byte(nil), next...)})
			a := action{tr.Kind, tr.Proc, tr.Arg}
			if _, ok := globalK[a]; !ok {
				order = append(order, a)
			}
			globalK[a] = max(globalK[a], tr.Choice+1)
			return true
		})
		checked := map[action]bool{}
		for _, sc := range succs {
			if !seen[string(sc.next)] {
				seen[string(sc.next)] = true
				queue = append(queue, sc.next)
			}
			if sc.t.Kind == model.Lose {
				continue
			}
			i := sc.t.Proc
			ev := protosys.LocalEvent{Kind: sc.t.Kind, Arg: sc.t.Arg, Msg: sc.t.Msg, Choice: sc.t.Choice}
			a := action{sc.t.Kind, sc.t.Proc, sc.t.Arg}
			k, err := lw.Alternatives(i, locals[i], ev)
			if err != nil {
				t.Fatalf("%s enabled globally but Alternatives says: %v", w.Label(s, &sc.t), err)
			}
			if k != globalK[a] {
				t.Fatalf("%s: Alternatives %d, the global worker yields %d", w.Label(s, &sc.t), k, globalK[a])
			}
			res, err := lw.Step(i, locals[i], ev)
			if err != nil {
				t.Fatalf("%s: Step: %v", w.Label(s, &sc.t), err)
			}
			if got := assembleAfter(lw, locals, network, faults, &sc.t, res); !bytes.Equal(got, sc.next) {
				t.Fatalf("%s: the local step with Choice %d differs from the global successor", w.Label(s, &sc.t), sc.t.Choice)
			}
			if !checked[a] {
				checked[a] = true
				hist[k]++
				ev.Choice = k
				if _, err := lw.Step(i, locals[i], ev); !errors.Is(err, protocol.ErrNoAlternative) {
					t.Fatalf("%s: Step with Choice %d of %d: error %v, want ErrNoAlternative", w.Label(s, &sc.t), k, k, err)
				}
			}
		}
	}
	return hist
}

// Alternatives counts exactly the alternatives the checker explores, on
// Suzuki-Kasami with Exit appending in every order: with N=4 an Exit may
// find the 3 others waiting, 3! = 6 orders.
func TestLocalAlternativesMatchGlobalSuccessors(t *testing.T) {
	// N=4 (TOKENMC_HEAVY=1): 0..3 ids appended, 1, 1, 2 or 6 orders; the
	// default suite runs N=3: 0..2 ids, 1, 1 or 2 orders.
	n, orders, most := 4, map[int]bool{1: true, 2: true, 6: true}, 6
	if os.Getenv("TOKENMC_HEAVY") == "" {
		n, orders, most = 3, map[int]bool{1: true, 2: true}, 2
	}
	p, err := suzukikasami.New(suzukikasami.AnyOrder, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	hist := alternativesCrossCheck(t, p.System())
	for k := range hist {
		if !orders[k] {
			t.Errorf("an action with %d alternatives; Suzuki-Kasami N=%d has %v orders", k, n, orders)
		}
	}
	if hist[2] == 0 || hist[most] == 0 {
		t.Errorf("alternatives per action %v: want some with 2 and some with %d", hist, most)
	}
	// A protocol without choices has one alternative per enabled action.
	p, err = suzukikasami.New(suzukikasami.Default, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if hist := alternativesCrossCheck(t, p.System()); len(hist) != 1 || hist[1] == 0 {
		t.Errorf("suzuki-kasami: alternatives per action %v, want only 1", hist)
	}
}

// Alternatives refuses what Step refuses, with the same error.
func TestLocalAlternativesRejectDisabledEvents(t *testing.T) {
	for _, v := range []string{suzukikasami.Default, suzukikasami.AnyOrder} {
		p, err := suzukikasami.New(v, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		lw := p.System().(protosys.LocalSystem).NewLocalWorker()
		idle := lw.InitialLocal(1)
		req, err := lw.Step(1, lw.InitialLocal(1), protosys.LocalEvent{Kind: model.Request}) // P0 holds the token: P1 sends REQ to P0
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			i  int
			s  protosys.LocalState
			ev protosys.LocalEvent
		}{
			{1, idle, protosys.LocalEvent{Kind: model.Exit}},
			{1, req.Next, protosys.LocalEvent{Kind: model.Request}},
			{1, idle, protosys.LocalEvent{Kind: model.Request, Arg: 1}},
			{5, idle, protosys.LocalEvent{Kind: model.Request}},
			{0, lw.InitialLocal(0), protosys.LocalEvent{Kind: model.Deliver, Msg: req.Sent[0]}}, // enabled
			{1, idle, protosys.LocalEvent{Kind: model.Deliver, Msg: req.Sent[0]}},               // addressed to P0
			{1, idle, protosys.LocalEvent{Kind: model.Lose}},
		}
		for _, c := range cases {
			_, serr := lw.Step(c.i, c.s, c.ev)
			k, aerr := lw.Alternatives(c.i, c.s, c.ev)
			if (serr == nil) != (aerr == nil) || serr != nil && serr.Error() != aerr.Error() {
				t.Errorf("%s: P%d %v: Step error %v, Alternatives error %v", v, c.i, c.ev.Kind, serr, aerr)
			}
			if aerr == nil && k != 1 {
				t.Errorf("%s: P%d %v: %d alternatives, want 1", v, c.i, c.ev.Kind, k)
			}
			if aerr != nil && k != 0 {
				t.Errorf("%s: P%d %v: %d alternatives with an error, want 0", v, c.i, c.ev.Kind, k)
			}
		}
	}
}
