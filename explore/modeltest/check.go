package modeltest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// Options change what Check and Verify do; the zero value is the default.
type Options struct {
	// MaxStates is the largest number of reachable states Check accepts
	// (0: 200 000); a larger state space is a failure (choose smaller
	// parameters).
	MaxStates int
	// MayNotEnter exempts the given processes from the check that every
	// process can enter its critical section, for models that, by design
	// or as a mutant, keep some process out.
	MayNotEnter []int
}

type config struct {
	maxStates   int
	mayNotEnter map[int]bool
}

// defaultMaxStates is the largest state space Check explores unless
// Options.MaxStates says otherwise: the kit is for small configurations.
const defaultMaxStates = 200_000

// maxFailures bounds the failures Verify reports.
const maxFailures = 10

// Check runs the conformance checks of Verify on sys and reports each
// failure with t.Error. At most one opts is used.
func Check(t testing.TB, sys model.System, opts ...Options) {
	t.Helper()
	err := Verify(sys, opts...)
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			t.Error(e)
		}
	} else if err != nil {
		t.Error(err)
	}
}

// Verify explores every reachable state of sys and returns an error that
// lists each way it fails to be a well-formed model (nil if none):
//   - Initial and Successors yield the same states and transitions, in the
//     same order, each time they are called, and Successors leaves its
//     input unchanged;
//   - the labels of a state's transitions are distinct;
//   - Describe renders every state with Info().Processes processes,
//     numbered in order, with valid phases, and messages with at least
//     one copy, each listed once;
//   - the encoding is canonical: two states have equal bytes exactly when
//     Describe renders them alike (equal JSON);
//   - Snapshot agrees with Describe on processes, phases, requests made
//     and messages in transit;
//   - explore.Check with one worker, two workers, exact states, depth
//     first and bitstate finds the states and transitions of a naive
//     breadth-first enumeration (and breadth first, its depth);
//   - every process is in its critical section in some reachable state
//     (except those Options.MayNotEnter names), so safety is not vacuous.
//
// It fails if sys has more than 200 000 reachable states (see
// Options.MaxStates). At most one opts is used: Verify panics if given
// more.
func Verify(sys model.System, opts ...Options) error {
	if len(opts) > 1 {
		panic("modeltest: more than one Options")
	}
	c := config{maxStates: defaultMaxStates, mayNotEnter: map[int]bool{}}
	if len(opts) == 1 {
		if opts[0].MaxStates > 0 {
			c.maxStates = opts[0].MaxStates
		}
		for _, p := range opts[0].MayNotEnter {
			c.mayNotEnter[p] = true
		}
	}
	v := &verifier{sys: sys, info: sys.Info(), w: sys.NewWorker(), cfg: c}
	v.enumerate()
	if len(v.errs) == 0 {
		v.searchesAgree()
		v.everyoneEnters()
	}
	if len(v.errs) == 0 {
		return nil
	}
	return errors.Join(v.errs...)
}

// verifier accumulates the failures of one Verify.
type verifier struct {
	sys  model.System
	info model.Info
	w    model.Worker
	cfg  config
	errs []error

	states, transitions, depth int
	entered                    []bool // entered[i]: Pi is InCS in some state
}

func (v *verifier) fail(format string, args ...any) bool {
	if len(v.errs) < maxFailures {
		v.errs = append(v.errs, fmt.Errorf("%s: "+format, append([]any{v.info.Name}, args...)...))
	}
	return len(v.errs) < maxFailures
}

// succ is one transition copied out of Successors.
type succ struct {
	label string
	kind  model.ActionKind
	next  []byte
}

func (v *verifier) successors(state []byte) []succ {
	var out []succ
	v.w.Successors(state, func(tr *model.Transition, next []byte) bool {
		out = append(out, succ{v.w.Label(state, tr), tr.Kind, bytes.Clone(next)})
		return true
	})
	return out
}

func (v *verifier) initial() [][]byte {
	var out [][]byte
	v.w.Initial(func(s []byte) bool { out = append(out, bytes.Clone(s)); return true })
	return out
}

// enumerate is a naive breadth-first search with a map of full states that
// checks each state on the way.
func (v *verifier) enumerate() {
	v.entered = make([]bool, v.info.Processes)
	init := v.initial()
	if again := v.initial(); !equalStates(init, again) {
		v.fail("Initial yields different states on a second call")
	}
	if len(init) == 0 {
		v.fail("no initial state")
		return
	}
	seen := map[string]bool{}
	described := map[string][]byte{} // Describe JSON -> state
	level := [][]byte{}
	for _, s := range init {
		if !seen[string(s)] {
			seen[string(s)] = true
			level = append(level, s)
		}
	}
	for depth := 0; len(level) > 0; depth++ {
		v.depth = depth
		var next [][]byte
		for _, s := range level {
			v.states++
			if v.states > v.cfg.maxStates {
				v.fail("more than %d reachable states; Check is for small configurations (choose smaller parameters, or raise Options.MaxStates)", v.cfg.maxStates)
				return
			}
			if !v.checkState(s, described) {
				return
			}
			succs := v.successors(s)
			v.transitions += len(succs)
			if !v.checkSuccessors(s, succs) {
				return
			}
			for _, t := range succs {
				if !seen[string(t.next)] {
					seen[string(t.next)] = true
					next = append(next, t.next)
				}
			}
		}
		level = next
	}
}

// checkState checks one state's description, snapshot and encoding.
func (v *verifier) checkState(s []byte, described map[string][]byte) bool {
	sd := v.w.Describe(s)
	js, err := json.Marshal(sd)
	if err != nil {
		return v.fail("Describe gives a state that does not marshal: %v", err)
	}
	if other, ok := described[string(js)]; ok {
		return v.fail("two encodings of one state (or Describe omits a variable): %x and %x both render as %s", other, s, js)
	}
	described[string(js)] = s
	if len(sd.Processes) != v.info.Processes {
		return v.fail("Describe renders %d processes, Info says %d: %s", len(sd.Processes), v.info.Processes, js)
	}
	snap := v.w.Snapshot(s)
	if snap.Processes() != v.info.Processes {
		return v.fail("Snapshot has %d processes, Info says %d", snap.Processes(), v.info.Processes)
	}
	for i, p := range sd.Processes {
		ph, ok := model.ParsePhase(p.Phase)
		switch {
		case p.ID != i:
			return v.fail("Describe numbers process %d as %d", i, p.ID)
		case !ok:
			return v.fail("P%d has phase %q, not Idle, Waiting or InCS", i, p.Phase)
		case snap.Phase(i) != ph:
			return v.fail("P%d: Snapshot phase %s, Describe %s: %s", i, snap.Phase(i), p.Phase, js)
		case snap.Made(i) != p.Made:
			return v.fail("P%d: Snapshot made %d, Describe %d: %s", i, snap.Made(i), p.Made, js)
		case v.info.Requests > 0 && (p.Made < 0 || p.Made > v.info.Requests):
			return v.fail("P%d made %d requests, outside 0..R=%d", i, p.Made, v.info.Requests)
		}
		if ph == model.InCS {
			v.entered[i] = true
		}
	}
	copies, msgs := 0, map[string]bool{}
	for _, m := range sd.Network {
		if m.Count < 1 || msgs[m.Message] {
			return v.fail("network lists %q with %d copies, or twice: %s", m.Message, m.Count, js)
		}
		msgs[m.Message] = true
		copies += m.Count
	}
	if snap.InTransit() != copies {
		return v.fail("Snapshot has %d messages in transit, Describe %d: %s", snap.InTransit(), copies, js)
	}
	return true
}

// checkSuccessors checks that Successors is deterministic, leaves its
// input alone and labels transitions uniquely.
func (v *verifier) checkSuccessors(s []byte, succs []succ) bool {
	keep := bytes.Clone(s)
	again := v.successors(s)
	if !bytes.Equal(keep, s) {
		return v.fail("Successors modified its input state %x", keep)
	}
	if len(again) != len(succs) {
		return v.fail("Successors yields %d then %d transitions for state %x", len(succs), len(again), s)
	}
	labels := map[string]bool{}
	for k, t := range succs {
		u := again[k]
		if t.label != u.label || t.kind != u.kind || !bytes.Equal(t.next, u.next) {
			return v.fail("Successors is not deterministic: transition %d of state %x is %q then %q", k, s, t.label, u.label)
		}
		if labels[t.label] {
			return v.fail("two transitions of one state are labelled %q (labels: %s)", t.label, strings.Join(labelList(succs), "; "))
		}
		labels[t.label] = true
	}
	return true
}

func labelList(succs []succ) []string {
	var out []string
	for _, t := range succs {
		out = append(out, t.label)
	}
	return out
}

func equalStates(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !bytes.Equal(a[k], b[k]) {
			return false
		}
	}
	return true
}

// searchesAgree compares the explorer's search modes with the naive
// enumeration.
func (v *verifier) searchesAgree() {
	for _, c := range []struct {
		name string
		o    explore.Options
	}{
		{"bfs, 1 worker", explore.Options{Workers: 1}},
		{"bfs, 2 workers", explore.Options{Workers: 2}},
		{"bfs, exact", explore.Options{Workers: 2, Exact: true}},
		{"dfs", explore.Options{DFS: true}},
		{"bitstate", explore.Options{Workers: 1, Bitstate: 1 << 20}},
	} {
		res, err := explore.Check(context.Background(), v.sys, c.o)
		if err != nil {
			v.fail("%s: %v", c.name, err)
			continue
		}
		if res.States != int64(v.states) || res.Transitions != int64(v.transitions) {
			v.fail("%s finds %d states and %d transitions, a naive enumeration %d and %d",
				c.name, res.States, res.Transitions, v.states, v.transitions)
		}
		if !c.o.DFS && res.Depth != v.depth {
			v.fail("%s finds depth %d, a naive enumeration %d", c.name, res.Depth, v.depth)
		}
	}
}

// everyoneEnters checks the sometimes-property: each process is InCS in
// some reachable state.
func (v *verifier) everyoneEnters() {
	for i, in := range v.entered {
		if !in && !v.cfg.mayNotEnter[i] {
			v.fail("P%d is never in its critical section in any reachable state (a safe verdict would be vacuous; MayNotEnter(%d) if that is by design)", i, i)
		}
	}
}
