package algorithms_test

// Property tests driven by pgregory.net/rapid:
// random schedules on every registered variant, checked against the
// properties, against the explorer, against traces and against naive
// recomputations written here from the model.Worker interface alone.
//
// Every draw is labelled, so a failure prints the exact schedule; rapid
// prints the command that reproduces it (-rapid.seed=..., or
// -rapid.failfile=... for the case it saves under testdata/rapid/). Each
// property is deterministic given its draws; rapid picks a new seed per
// run unless -rapid.seed is given. Without TOKENMC_HEAVY=1 (or with
// -short) each property makes 20 checks (main_test.go; rapid's default is
// 100, and -short runs a fifth of that) and TestPropSearchesAgree has a
// smaller budget, so a seed found that way reproduces that way.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/algorithms/suzukikasami"
	"github.com/tokenmc/tokenmc/algorithms/torus"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// Parameter ranges. Random walks are cheap, so they use sizes far beyond
// exhaustive search; the searches of TestPropSearchesAgree and the walks of
// TestPropEncodingCanonical use small ones. An algorithm without an entry
// here gets generic ranges from its registry Params: for walks n from Min
// up to Min+3 and r from Min up to Min+2; small, n and r at Min and each
// one above; every other parameter at its Default (Max bounds all).
// Combinations that Build rejects are dropped.
var (
	walkRanges = map[string]map[string][]int{
		suzukikasami.Default: {"n": {2, 3, 4, 5, 6}, "r": {1, 2, 3}},
		torus.Repaired:       {"n": {4, 9}, "r": {1, 2}},
	}
	smallRanges = map[string][]map[string]int{
		suzukikasami.Default: {{"n": 2, "r": 1}, {"n": 2, "r": 2}, {"n": 3, "r": 1}, {"n": 3, "r": 2}},
		torus.Repaired:       {{"n": 4, "r": 1}},
	}
)

// params are the parameter values of one configuration, in the order of
// the algorithm's Params.
type params []paramValue

type paramValue struct {
	name  string
	value int
}

// GoString renders p as rapid logs a draw: "n=3 r=1".
func (p params) GoString() string {
	var parts []string
	for _, v := range p {
		parts = append(parts, fmt.Sprintf("%s=%d", v.name, v.value))
	}
	return strings.Join(parts, " ")
}

func (p params) String() string { return p.GoString() }

func (p params) asMap() map[string]int {
	m := map[string]int{}
	for _, v := range p {
		m[v.name] = v.value
	}
	return m
}

// paramTable holds, per algorithm, the configurations to draw from.
type paramTable map[string][]params

// newParamTable computes the configurations of every registered algorithm,
// for random walks (small == false) or exhaustive searches.
func newParamTable(t *testing.T, small bool) paramTable {
	t.Helper()
	table := paramTable{}
	for _, a := range algorithms.All() {
		var grid []map[string]int
		switch {
		case small && smallRanges[a.Name] != nil:
			grid = smallRanges[a.Name]
		case small:
			// n and r at their Min, then one of them one above; every
			// other parameter at its Default.
			lo := map[string]int{}
			for _, p := range a.Params {
				lo[p.Name] = p.Default
				if p.Name == "n" || p.Name == "r" {
					lo[p.Name] = p.Min
				}
			}
			grid = append(grid, lo)
			for _, name := range []string{"n", "r"} {
				if _, ok := lo[name]; ok {
					m := maps.Clone(lo)
					m[name]++
					grid = append(grid, m)
				}
			}
		default:
			grid = []map[string]int{{}}
			for _, p := range a.Params {
				var next []map[string]int
				for _, m := range grid {
					for _, v := range walkValues(a, p) {
						m2 := maps.Clone(m)
						m2[p.Name] = v
						next = append(next, m2)
					}
				}
				grid = next
			}
		}
		for _, m := range grid {
			if _, _, err := a.Build(a.Name, m); err != nil {
				continue
			}
			var ps params
			for _, p := range a.Params {
				if v, ok := m[p.Name]; ok {
					ps = append(ps, paramValue{p.Name, v})
				}
			}
			table[a.Name] = append(table[a.Name], ps)
		}
		if len(table[a.Name]) == 0 {
			t.Fatalf("%s: no parameter combination of property_test.go builds; give it ranges in walkRanges and smallRanges", a.Name)
		}
	}
	return table
}

// walkValues returns the values of p that random walks on a draw from.
func walkValues(a algorithms.Algorithm, p spec.Param) []int {
	if vs, ok := walkRanges[a.Name][p.Name]; ok {
		return vs
	}
	hi := p.Default
	switch p.Name {
	case "n":
		hi = p.Min + 3
	case "r":
		hi = p.Min + 2
	}
	if p.Max > 0 {
		hi = min(hi, p.Max)
	}
	lo := p.Min
	if p.Name != "n" && p.Name != "r" {
		lo = p.Default
	}
	var out []int
	for v := lo; v <= hi; v++ {
		out = append(out, v)
	}
	return out
}

// variantsWhere returns the full names of the registered variants that keep
// accepts, in registry order.
func variantsWhere(keep func(algorithms.Variant) bool) []string {
	var out []string
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			if keep(v) {
				out = append(out, v.Name)
			}
		}
	}
	return out
}

func notMutant(v algorithms.Variant) bool { return v.Kind != spec.KindMutant }
func anyVariant(algorithms.Variant) bool  { return true }

// walkConfig is a system drawn for a random walk.
type walkConfig struct {
	variant algorithms.Variant
	params  params
	sys     model.System
	props   []model.Property // applicable: generic and algorithm-specific
}

func (c walkConfig) String() string { return c.variant.Name + " " + c.params.String() }

// drawConfig draws a variant among names and its parameters from table.
func drawConfig(t *rapid.T, table paramTable, names []string) walkConfig {
	t.Helper()
	name := rapid.SampledFrom(names).Draw(t, "variant")
	a, _, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	ps := rapid.SampledFrom(table[a.Name]).Draw(t, "params")
	return buildWalk(t, name, ps)
}

// buildWalk is buildSys for any parameters, usable inside a rapid property
// (a *rapid.T is not a testing.TB). It composes the properties with
// invariants.With, so that an algorithm's own single-token (counted over
// valid tokens, as banerjee-rec's) replaces the generic one.
func buildWalk(t rapid.TB, name string, ps params) walkConfig {
	t.Helper()
	a, v, err := algorithms.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	sys, extra, err := a.Build(v.Name, ps.asMap())
	if err != nil {
		t.Fatalf("%s %s: %v", name, ps, err)
	}
	props := invariants.Applicable(invariants.With(extra...), sys.Info())
	return walkConfig{variant: v, params: ps, sys: sys, props: props}
}

// succ is one enabled transition, copied out of the Successors callback.
type succ struct {
	tr    model.Transition // Msg is a copy
	label string
	next  []byte
}

// successorsOf collects the transitions enabled in s. Only Label is called
// inside the callback; the bytes are copied, since the worker reuses them.
// It also checks that Successors leaves s as it was (step functions never
// mutate their input) and that a label names one step (traces identify
// steps by label): two transitions with one label lead to one state.
func successorsOf(t *rapid.T, w model.Worker, s []byte) []succ {
	t.Helper()
	before := bytes.Clone(s)
	var out []succ
	w.Successors(s, func(tr *model.Transition, next []byte) bool {
		c := *tr
		c.Msg = bytes.Clone(tr.Msg)
		out = append(out, succ{tr: c, label: w.Label(s, tr), next: bytes.Clone(next)})
		return true
	})
	if !bytes.Equal(before, s) {
		t.Fatalf("Successors modified its input state:\nbefore %x\nafter  %x", before, s)
	}
	byLabel := map[string][]byte{}
	for _, c := range out {
		if other, ok := byLabel[c.label]; ok && !bytes.Equal(other, c.next) {
			t.Fatalf("two enabled transitions are labelled %q but lead to different states, in state %s", c.label, describeJSON(t, w, s))
		}
		byLabel[c.label] = c.next
	}
	return out
}

func initialStates(w model.Worker) [][]byte {
	var out [][]byte
	w.Initial(func(s []byte) bool {
		out = append(out, bytes.Clone(s))
		return true
	})
	return out
}

// path is a walk: states[0] is initial and taken[k] leads from states[k] to
// states[k+1].
type path struct {
	states [][]byte
	taken  []succ
}

func (p *path) labels() []string {
	var out []string
	for _, s := range p.taken {
		out = append(out, s.label)
	}
	return out
}

func (p *path) String() string {
	if len(p.taken) == 0 {
		return "(initial state)"
	}
	return strings.Join(p.labels(), ", ")
}

// randomWalk walks from an initial state for at most maxSteps steps,
// choosing among the enabled transitions with rapid.IntRange (nearly
// uniform; rapid slightly favours the first ones). visit sees each state
// with its transitions before the walk leaves it (the last state too) and
// stops the walk by returning false.
func randomWalk(t *rapid.T, w model.Worker, maxSteps int, visit func(p *path, succs []succ) bool) *path {
	t.Helper()
	inits := initialStates(w)
	if len(inits) == 0 {
		t.Fatalf("the system has no initial state")
	}
	k := 0
	if len(inits) > 1 {
		k = rapid.IntRange(0, len(inits)-1).Draw(t, "initial")
	}
	p := &path{states: [][]byte{inits[k]}}
	for step := 0; ; step++ {
		succs := successorsOf(t, w, p.states[len(p.states)-1])
		if !visit(p, succs) || len(succs) == 0 || step == maxSteps {
			return p
		}
		c := succs[rapid.IntRange(0, len(succs)-1).Draw(t, fmt.Sprintf("step %d", step+1))]
		p.states = append(p.states, c.next)
		p.taken = append(p.taken, c)
	}
}

// describeJSON renders state as JSON through Describe.
func describeJSON(t *rapid.T, w model.Worker, state []byte) string {
	t.Helper()
	b, err := json.Marshal(w.Describe(state))
	if err != nil {
		t.Fatalf("Describe does not marshal: %v", err)
	}
	return string(b)
}

// violated returns the first property of props that the last state of p
// (or its last step) violates, or ok == false. succs are the transitions
// enabled in that state.
func violated(w model.Worker, props []model.Property, p *path, succs []succ) (prop model.Property, ok bool) {
	if n := len(p.taken); n > 0 {
		for _, q := range props {
			if q.Kind == model.TransitionInvariant && !q.HoldsOn(&p.taken[n-1].tr) {
				return q, true
			}
		}
	}
	snap := w.Snapshot(p.states[len(p.states)-1])
	for _, q := range props {
		if q.Kind == model.Invariant && !q.Holds(snap) {
			return q, true
		}
		if q.Kind == model.Terminal && len(succs) == 0 && !q.Holds(snap) {
			return q, true
		}
	}
	return model.Property{}, false
}

// wholeRegistry extends TestPropRandomSchedulesKeepProperties from the
// algorithms it vouches for (correctAlgorithms) to every algorithm of the
// registry.
var wholeRegistry = flag.Bool("prop.all", false, "TestPropRandomSchedulesKeepProperties: walk every algorithm of the registry, not only the vetted ones")

// correctAlgorithms are the algorithms whose registry entries list every
// property that a non-mutant variant violates, so that a violation by a
// random schedule is a regression. Add an algorithm once its Breaks (or
// unlistedBreaks) are complete; run with -prop.all to see what is missing.
var correctAlgorithms = []string{suzukikasami.Default, torus.Repaired}

// unlistedBreaks are violations by design that the registry does not list
// in Variant.Breaks: registry_test.go allows Breaks only on mutants and
// literal readings (the repaired banerjee readings), or the entry omits
// an algorithm-specific property (fapp/literal). Each is documented in
// docs/notes/algorithms.md or in the model's package. Remove an entry
// once the registry lists it.
var unlistedBreaks = map[string][]string{
	"banerjee":     {invariants.NoDeadlock.Name}, // §6.8 A6: late requests are dropped
	"banerjee-seq": {invariants.NoDeadlock.Name}, // A6 as well
	"banerjee-sf":  {invariants.NoDeadlock.Name}, // A6, A10: a quiet system does not resubmit
	"banerjee-rec": {invariants.Mutex.Name},      // its Doc: "one lost message breaks mutex (a finding)"
	"fapp/literal": {"idle-root-empty"},          // fapp.RootOwesNothing: "fails in the literal reading"
}

// 1. Random schedules of the variants that are not mutants (default,
// literal, repaired readings) of correctAlgorithms violate none of their
// properties, except those their registry entry says they break
// (Variant.Breaks: a literal reading may be wrong): every invariant holds
// in every state visited, every transition invariant on every transition
// enabled there (taken or not), and every terminal property in a state
// without successors. With -prop.all, every algorithm of the registry.
func TestPropRandomSchedulesKeepProperties(t *testing.T) {
	names := variantsWhere(func(v algorithms.Variant) bool {
		a, _, _ := algorithms.Lookup(v.Name)
		return notMutant(v) && (*wholeRegistry || slices.Contains(correctAlgorithms, a.Name))
	})
	table := newParamTable(t, false)
	rapid.Check(t, func(t *rapid.T) {
		cfg := drawConfig(t, table, names)
		props := slices.DeleteFunc(slices.Clone(cfg.props), func(q model.Property) bool {
			return slices.Contains(cfg.variant.Breaks, q.Name) || slices.Contains(unlistedBreaks[cfg.variant.Name], q.Name)
		})
		w := cfg.sys.NewWorker()
		// No drawn length: rapid favours small numbers, and a walk stops
		// at the first violation anyway.
		randomWalk(t, w, 200, func(p *path, succs []succ) bool {
			state := p.states[len(p.states)-1]
			snap := w.Snapshot(state)
			for _, q := range props {
				switch {
				case q.Kind == model.Invariant && !q.Holds(snap),
					q.Kind == model.Terminal && len(succs) == 0 && !q.Holds(snap):
					t.Fatalf("%s: %s violated after %d steps [%s] in state %s",
						cfg, q.Name, len(p.taken), p, describeJSON(t, w, state))
				case q.Kind == model.TransitionInvariant:
					for _, s := range succs {
						if !q.HoldsOn(&s.tr) {
							t.Fatalf("%s: %s violated by %s, enabled after %d steps [%s] in state %s",
								cfg, q.Name, s.label, len(p.taken), p, describeJSON(t, w, state))
						}
					}
				}
			}
			return true
		})
	})
}

// counts is what an exhaustive search finds.
type counts struct{ states, transitions, depth int }

// naiveEnumerate is a breadth-first search with a map of full states, the
// plainest reading of semantics.md §1 counting: states reachable from the
// initial ones, transitions as (state, enabled action) pairs, depth as the
// largest BFS distance. It gives up (ok == false) beyond limit
// transitions.
func naiveEnumerate(sys model.System, limit int) (c counts, ok bool) {
	w := sys.NewWorker()
	seen := map[string]bool{}
	var level [][]byte
	for _, s := range initialStates(w) {
		if !seen[string(s)] {
			seen[string(s)] = true
			level = append(level, s)
		}
	}
	for depth := 0; len(level) > 0; depth++ {
		c.depth = depth
		var next [][]byte
		for _, s := range level {
			w.Successors(s, func(_ *model.Transition, n []byte) bool {
				c.transitions++
				if !seen[string(n)] {
					seen[string(n)] = true
					next = append(next, bytes.Clone(n))
				}
				return true
			})
			if c.transitions > limit {
				return counts{}, false
			}
		}
		level = next
	}
	c.states = len(seen)
	return c, true
}

// searchCase is one configuration of TestPropSearchesAgree with its naive
// counts.
type searchCase struct {
	variant string
	params  params
	want    counts
}

// GoString renders c as rapid logs a draw.
func (c searchCase) GoString() string { return c.variant + " " + c.params.String() }

// 2. Breadth-first search (any number of workers, fingerprints or exact
// states) and depth-first search agree with a naive map-based enumeration
// on the number of states and transitions, and BFS on the depth. No
// property is checked, so that every search covers the whole state space,
// mutants included. Configurations above a budget of transitions are left
// out (torus/copy-on-enter at n=4 has 176 million).
func TestPropSearchesAgree(t *testing.T) {
	budget := 400_000
	if !heavy() {
		budget = 100_000
	}
	table := newParamTable(t, true)
	var cases []searchCase
	var skipped []string
	for _, a := range algorithms.All() {
		for _, v := range a.Variants {
			for _, ps := range table[a.Name] {
				c := searchCase{variant: v.Name, params: ps}
				sys, _, err := a.Build(v.Name, ps.asMap())
				if err != nil {
					t.Fatalf("%s %s: %v", v.Name, ps, err)
				}
				want, ok := naiveEnumerate(sys, budget)
				if !ok {
					skipped = append(skipped, c.GoString())
					continue
				}
				c.want = want
				cases = append(cases, c)
			}
		}
	}
	t.Logf("%d configurations; over the budget of %d transitions: %s", len(cases), budget, strings.Join(skipped, "; "))
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.SampledFrom(cases).Draw(t, "config")
		workers := rapid.IntRange(1, 4).Draw(t, "workers")
		exact := rapid.Bool().Draw(t, "exact")
		sys := buildWalk(t, c.variant, c.params).sys
		b, err := explore.Check(context.Background(), sys, explore.Options{Workers: workers, Exact: exact})
		if err != nil {
			t.Fatal(err)
		}
		d, err := explore.Check(context.Background(), sys, explore.Options{DFS: true, Exact: exact})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range []struct {
			name string
			res  *explore.Result
		}{{"BFS", b}, {"DFS", d}} {
			if x.res.Verdict != explore.OK {
				t.Fatalf("%s: %s verdict %s (%s), want ok", c.GoString(), x.name, x.res.Verdict, x.res.StopReason)
			}
			if x.res.States != int64(c.want.states) || x.res.Transitions != int64(c.want.transitions) {
				t.Fatalf("%s: %s found %d states and %d transitions; the naive enumeration %d and %d",
					c.GoString(), x.name, x.res.States, x.res.Transitions, c.want.states, c.want.transitions)
			}
		}
		if b.Depth != c.want.depth {
			t.Fatalf("%s: BFS depth %d, naive BFS depth %d", c.GoString(), b.Depth, c.want.depth)
		}
	})
}

// replayCounts tallies, over a whole rapid.Check, the walks of
// TestPropReplayReproducesWalks that ended in a violation.
type replayCounts struct{ walks, violations int }

// 3. A random walk on any variant (mutants included), turned into a trace
// by traces.FromSteps, replays:
//   - re-executing the recorded action labels, each looked up among the
//     labels of the current state's transitions, gives byte for byte the
//     states of the walk, and Describe of each is the recorded state;
//   - traces.Replay follows every step; it confirms the violation when the
//     walk was stopped at the first violated property, and otherwise
//     reports that the end does not violate the system's first property;
//   - Write then Read gives back an equal Trace, and writing that again
//     gives the same bytes.
func TestPropReplayReproducesWalks(t *testing.T) {
	names := variantsWhere(anyVariant)
	table := newParamTable(t, false)
	var tally replayCounts
	rapid.Check(t, func(t *rapid.T) {
		cfg := drawConfig(t, table, names)
		w := cfg.sys.NewWorker()
		maxSteps := rapid.IntRange(1, 150).Draw(t, "max steps")
		var (
			bad   model.Property
			found bool
		)
		p := randomWalk(t, w, maxSteps, func(p *path, succs []succ) bool {
			bad, found = violated(w, cfg.props, p, succs)
			return !found
		})
		if len(p.taken) == 0 {
			return // a violation in an initial state has no trace; none of the variants has one
		}
		if !found {
			// Any property will do: the walk violates none.
			bad = cfg.props[0]
		}
		meta := traces.Meta{
			Algorithm:    cfg.sys.Info().Name,
			Params:       cfg.params.asMap(),
			Property:     bad.Name,
			PropertyKind: bad.Kind,
		}
		tr, err := traces.FromSteps(w, meta, p.states, nil)
		if err != nil {
			t.Fatalf("%s [%s]: FromSteps: %v", cfg, p, err)
		}
		if len(tr.Steps) != len(p.taken) {
			t.Fatalf("%s: FromSteps made %d steps of a %d-step walk", cfg, len(tr.Steps), len(p.taken))
		}
		mustSameDescription(t, cfg, "initial state", tr.Initial, w.Describe(p.states[0]))

		// Re-execute the labels.
		state := p.states[0]
		for k, st := range tr.Steps {
			var next *succ
			succs := successorsOf(t, w, state)
			for i := range succs {
				if succs[i].label == st.Action {
					next = &succs[i]
					break
				}
			}
			if next == nil {
				t.Fatalf("%s [%s]: step %d: action %q is not enabled", cfg, p, k+1, st.Action)
			}
			if next.tr.Kind.String() != st.Kind || next.tr.Proc != st.Process {
				t.Fatalf("%s: step %d: %q is a %s by P%d, the trace records a %s by P%d",
					cfg, k+1, st.Action, next.tr.Kind, next.tr.Proc, st.Kind, st.Process)
			}
			if !bytes.Equal(next.next, p.states[k+1]) {
				t.Fatalf("%s [%s]: step %d: %q leads to %x, the walk to %x (%s)",
					cfg, p, k+1, st.Action, next.next, p.states[k+1], p.taken[k].label)
			}
			mustSameDescription(t, cfg, fmt.Sprintf("state after step %d", k+1), st.State, w.Describe(next.next))
			state = next.next
		}

		res, err := traces.Replay(cfg.sys, cfg.props, tr)
		if err != nil {
			t.Fatalf("%s [%s]: Replay: %v", cfg, p, err)
		}
		n := len(tr.Steps)
		if found && (!res.OK || res.Steps != n) {
			t.Fatalf("%s [%s]: the walk violates %s, but Replay says %+v", cfg, p, bad.Name, res)
		}
		if !found && (res.OK || res.Steps != n || res.DivergedAt != 0) {
			t.Fatalf("%s [%s]: the walk violates nothing, but Replay says %+v", cfg, p, res)
		}
		tally.walks++
		if found {
			tally.violations++
		}

		var buf bytes.Buffer
		if err := traces.Write(&buf, tr); err != nil {
			t.Fatalf("%s: Write: %v", cfg, err)
		}
		first := bytes.Clone(buf.Bytes())
		back, err := traces.Read(&buf)
		if err != nil {
			t.Fatalf("%s: Read of what Write wrote: %v\n%s", cfg, err, first)
		}
		if !reflect.DeepEqual(back, tr) {
			t.Fatalf("%s: Read(Write(trace)) differs from the trace:\nwritten %+v\nread    %+v", cfg, tr, back)
		}
		buf.Reset()
		if err := traces.Write(&buf, back); err != nil {
			t.Fatalf("%s: Write of the trace read back: %v", cfg, err)
		}
		if !bytes.Equal(buf.Bytes(), first) {
			t.Fatalf("%s: writing the trace read back gives other bytes:\n%s\n---\n%s", cfg, first, buf.Bytes())
		}
	})
	t.Logf("%d walks replayed, %d of them counterexamples", tally.walks, tally.violations)
	// About a quarter of the walks end in a violation; with fewer than 50
	// walks (-short) none might, by chance.
	if !t.Failed() && tally.walks >= 50 && tally.violations == 0 {
		t.Errorf("no walk ended in a violation: the replay of counterexamples went untested")
	}
}

func mustSameDescription(t *rapid.T, cfg walkConfig, what string, recorded, now model.StateDescription) {
	t.Helper()
	a, errA := json.Marshal(recorded)
	b, errB := json.Marshal(now)
	if errA != nil || errB != nil {
		t.Fatalf("%s: %s does not marshal: %v %v", cfg, what, errA, errB)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("%s: %s: the trace records\n%s\nDescribe gives\n%s", cfg, what, a, b)
	}
}

// encodingCounts tallies, over a whole rapid.Check, the states that
// TestPropEncodingCanonical reached twice by different paths.
type encodingCounts struct {
	states int
	merges int // a state reached again by another sequence of actions
	// interleavings: reached again by a permutation of the same actions,
	// with messages in transit.
	interleavings int
}

// 4. The state encoding is canonical: over the states of several random
// walks on one configuration, two states have equal bytes exactly when
// Describe renders them alike (Describe is a complete rendering). In
// particular the encoding does not depend on the order in which the
// messages in transit were sent: the test requires that some state was
// reached by two interleavings of the same actions, with messages in
// transit, and had the same bytes both times.
func TestPropEncodingCanonical(t *testing.T) {
	names := variantsWhere(anyVariant)
	table := newParamTable(t, true)
	var tally encodingCounts
	rapid.Check(t, func(t *rapid.T) {
		cfg := drawConfig(t, table, names)
		w := cfg.sys.NewWorker()
		type seen struct {
			desc  string
			steps []string
		}
		byState := map[string]seen{}  // encoded state -> first visit
		byDesc := map[string]string{} // description -> encoded state
		walks := rapid.IntRange(2, 8).Draw(t, "walks")
		for k := range walks {
			maxSteps := rapid.IntRange(1, 60).Draw(t, fmt.Sprintf("walk %d max steps", k+1))
			randomWalk(t, w, maxSteps, func(p *path, _ []succ) bool {
				state := p.states[len(p.states)-1]
				desc := describeJSON(t, w, state)
				steps := p.labels()
				first, again := byState[string(state)]
				switch {
				case again && first.desc != desc:
					t.Fatalf("%s: Describe renders one state two ways:\n%s\n%s", cfg, first.desc, desc)
				case again:
					if !slices.Equal(first.steps, steps) {
						tally.merges++
						x, y := slices.Clone(first.steps), slices.Clone(steps)
						slices.Sort(x)
						slices.Sort(y)
						if slices.Equal(x, y) && !strings.Contains(desc, `"network":[]`) {
							tally.interleavings++
						}
					}
				default:
					if other, ok := byDesc[desc]; ok {
						t.Fatalf("%s: two encodings of one state:\n%x (after [%s])\n%x (after [%s])\nboth described as %s",
							cfg, other, strings.Join(byState[other].steps, ", "), state, strings.Join(steps, ", "), desc)
					}
					byState[string(state)] = seen{desc, steps}
					byDesc[desc] = string(state)
					tally.states++
				}
				return true
			})
		}
	})
	t.Logf("%d distinct states; %d reached again by another path, %d of them by an interleaving with messages in transit",
		tally.states, tally.merges, tally.interleavings)
	if !t.Failed() && tally.interleavings == 0 {
		t.Errorf("no state was reached by two interleavings: the independence of the send order went untested")
	}
}

// The deterministic core of the send-order case of test 4: in
// Suzuki-Kasami with three processes, P1 and P2 request in either order;
// both orders send the same four REQ messages, in different orders, and
// must give the same bytes.
func TestPropSendOrderIrrelevant(t *testing.T) {
	sys, _ := buildSys(t, suzukikasami.Default, 3, 1)
	w := sys.NewWorker()
	run := func(labels ...string) []byte {
		state := initialStates(w)[0]
		for _, l := range labels {
			var next []byte
			w.Successors(state, func(tr *model.Transition, n []byte) bool {
				if w.Label(state, tr) == l {
					next = bytes.Clone(n)
					return false
				}
				return true
			})
			if next == nil {
				t.Fatalf("%s is not enabled", l)
			}
			state = next
		}
		return state
	}
	a := run("Request(P1)", "Request(P2)")
	b := run("Request(P2)", "Request(P1)")
	if !bytes.Equal(a, b) {
		t.Fatalf("the order of two requests changes the state:\n%x\n%x", a, b)
	}
	if d := w.Describe(a); len(d.Network) != 4 {
		t.Fatalf("want 4 REQ messages in transit, got %+v", d.Network)
	}
}

// verdictCounts tallies, over a whole rapid.Check, the states in which the
// generic properties were found false.
type verdictCounts struct{ states, mutex, singleToken, unrequested, deadlock int }

// 5. The generic properties, evaluated on model.Snapshot, give the same
// verdicts as a naive recomputation from Worker.Describe, on the states of
// random walks, one on a variant of each algorithm per check (walks on
// mutants go on past violations):
//   - mutex: at most one process has phase "InCS";
//   - single-token: the processes with holds_token plus the copies of the
//     messages with token are exactly one (and Snapshot.Tokens is that
//     sum, Snapshot.InTransit the number of copies in the network);
//   - no-deadlock, in states without successors: every phase is "Idle";
//   - no-unrequested-entry, on the step taken: an entry from Idle by any
//     action but a Request violates it, and a step from Waiting or one that
//     does not end InCS cannot (a step from InCS to InCS is not decidable
//     from the descriptions and is not compared).
//
// The test requires that each of these was seen false at least once.
func TestPropFastInvariantsMatchNaive(t *testing.T) {
	table := newParamTable(t, false)
	var tally verdictCounts
	rapid.Check(t, func(t *rapid.T) {
		for _, a := range algorithms.All() {
			var names []string
			for _, v := range a.Variants {
				names = append(names, v.Name)
			}
			cfg := drawConfig(t, table, names)
			name := cfg.variant.Name
			tokens := cfg.sys.Info().Tokens
			w := cfg.sys.NewWorker()
			maxSteps := rapid.IntRange(0, 150).Draw(t, name+" max steps")
			var prev model.StateDescription
			randomWalk(t, w, maxSteps, func(p *path, succs []succ) bool {
				state := p.states[len(p.states)-1]
				snap := w.Snapshot(state)
				mutex := invariants.Mutex.Holds(snap)
				single := invariants.SingleToken.Holds(snap)
				deadlockFree := invariants.NoDeadlock.Holds(snap)
				nTokens, nTransit := snap.Tokens(), snap.InTransit()
				var phases []string
				for i := range snap.Processes() {
					phases = append(phases, snap.Phase(i).String())
				}
				d := w.Describe(state) // invalidates snap
				inCS, held, idle := 0, 0, 0
				var naivePhases []string
				for _, pd := range d.Processes {
					naivePhases = append(naivePhases, pd.Phase)
					switch pd.Phase {
					case model.InCS.String():
						inCS++
					case model.Idle.String():
						idle++
					}
					if pd.HoldsToken {
						held++
					}
				}
				transit := 0
				for _, md := range d.Network {
					transit += md.Count
					if md.Token {
						held += md.Count
					}
				}
				where := func() string { return fmt.Sprintf("%s after [%s], state %s", cfg, p, describeJSON(t, w, state)) }
				if !slices.Equal(phases, naivePhases) {
					t.Fatalf("%s: Snapshot phases %v, Describe phases %v", where(), phases, naivePhases)
				}
				if mutex != (inCS <= 1) {
					t.Fatalf("%s: mutex says %v with %d processes InCS", where(), mutex, inCS)
				}
				if nTransit != transit {
					t.Fatalf("%s: InTransit %d, the network holds %d copies", where(), nTransit, transit)
				}
				if !tokens {
					if nTokens != -1 {
						t.Fatalf("%s: Tokens %d on a system without tokens", where(), nTokens)
					}
				} else {
					if nTokens != held {
						t.Fatalf("%s: Tokens %d, naive count %d", where(), nTokens, held)
					}
					if single != (held == 1) {
						t.Fatalf("%s: single-token says %v with %d tokens", where(), single, held)
					}
				}
				if len(succs) == 0 && deadlockFree != (idle == len(d.Processes)) {
					t.Fatalf("%s: no-deadlock says %v in a terminal state with %d of %d processes Idle", where(), deadlockFree, idle, len(d.Processes))
				}
				if k := len(p.taken); k > 0 {
					last := p.taken[k-1]
					ok := invariants.NoUnrequestedEntry.HoldsOn(&last.tr)
					before, after := prev.Processes[last.tr.Proc].Phase, d.Processes[last.tr.Proc].Phase
					want, decidable := true, true
					switch {
					case after != model.InCS.String(), before == model.Waiting.String():
					case before == model.Idle.String():
						want = last.tr.Kind == model.Request
					default: // InCS to InCS
						decidable = false
					}
					if decidable && ok != want {
						t.Fatalf("%s: no-unrequested-entry says %v for %s (P%d %s -> %s)", where(), ok, last.label, last.tr.Proc, before, after)
					}
					if !ok {
						tally.unrequested++
					}
					for i, pd := range d.Processes {
						if i != last.tr.Proc && pd.Phase != prev.Processes[i].Phase {
							t.Fatalf("%s: %s changed the phase of P%d, not the acting P%d", where(), last.label, i, last.tr.Proc)
						}
					}
				}
				prev = d
				tally.states++
				if !mutex {
					tally.mutex++
				}
				if tokens && !single {
					tally.singleToken++
				}
				if len(succs) == 0 && !deadlockFree {
					tally.deadlock++
				}
				return true
			})
		}
	})
	t.Logf("%d states: mutex false in %d, single-token in %d, no-deadlock in %d, no-unrequested-entry on %d steps",
		tally.states, tally.mutex, tally.singleToken, tally.deadlock, tally.unrequested)
	if !t.Failed() && (tally.mutex == 0 || tally.singleToken == 0 || tally.deadlock == 0 || tally.unrequested == 0) {
		t.Errorf("some property was never false: its comparison with the naive verdict went untested")
	}
}
