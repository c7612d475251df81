package webui

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/tokenmc/tokenmc/cmd/internal/chart"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

// view is the answer to /api/state: everything the page shows.
type view struct {
	Init       int          `json:"init"`
	Path       []int        `json:"path"`
	Steps      []string     `json:"steps"` // label of each step taken
	Columns    []string     `json:"columns"`
	Processes  []procRow    `json:"processes"`
	Network    []inbox      `json:"network"`
	InTransit  int          `json:"in_transit"`
	FaultsUsed int          `json:"faults_used"`
	Actions    []action     `json:"actions"`
	Properties []propStatus `json:"properties"`
	Chart      string       `json:"chart,omitempty"` // SVG of the path so far
}

// procRow is one process: a cell per column, changed ones marked.
type procRow struct {
	ID    int    `json:"id"`
	Phase string `json:"phase"`
	Token bool   `json:"token"`
	Cells []cell `json:"cells"`
}

type cell struct {
	Value   string `json:"value"`
	Changed bool   `json:"changed,omitempty"`
	Was     string `json:"was,omitempty"` // the value before the last step
}

// inbox is the messages in transit to one receiver.
type inbox struct {
	To       int       `json:"to"`
	Messages []message `json:"messages"`
}

type message struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
	Token bool   `json:"token,omitempty"`
	New   bool   `json:"new,omitempty"` // sent by the last step
}

// action is one enabled transition and what it would change.
type action struct {
	Index    int      `json:"index"`
	Label    string   `json:"label"`
	Kind     string   `json:"kind"`
	Proc     int      `json:"proc"`
	Changes  []string `json:"changes"`
	Sends    []string `json:"sends,omitempty"`
	Violates []string `json:"violates,omitempty"` // properties the step or its successor violates
}

// propStatus is a property on the current state: "holds", "violated", or
// "n/a" with a note (a terminal property on a state with actions, a
// transition invariant, judged per action).
type propStatus struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

// view replays a position and describes it.
//
// lasso, when positive, is the step (1-based) where the cycle of a lasso
// the path follows starts, and starving its waiting process (-1 none): the
// chart marks them once the path reaches the cycle.
func (s *Server) view(ctx context.Context, init int, path []int, lasso, starving int) (*view, error) {
	w := s.cfg.System.NewWorker()
	states, steps, err := walk(ctx, w, init, path)
	if err != nil {
		return nil, err
	}
	cur := states[len(states)-1]
	v := &view{Init: init, Path: append([]int{}, path...), Steps: []string{}}
	for k := range steps {
		v.Steps = append(v.Steps, w.Label(states[k], &steps[k]))
	}
	desc := w.Describe(cur)
	var prev *model.StateDescription
	if len(states) > 1 {
		p := w.Describe(states[len(states)-2])
		prev = &p
	}
	s.table(v, &desc, prev)

	// the enabled actions, then their successors' descriptions
	type succ struct {
		a    action
		next []byte
	}
	var succs []succ
	k := 0
	w.Successors(cur, func(t *model.Transition, next []byte) bool {
		a := action{Index: k, Label: w.Label(cur, t), Kind: t.Kind.String(), Proc: t.Proc, Changes: []string{}}
		for _, p := range s.cfg.Properties {
			if p.Kind == model.TransitionInvariant && !p.HoldsOn(t) {
				a.Violates = append(a.Violates, p.Name)
			}
		}
		succs = append(succs, succ{a, bytes.Clone(next)})
		k++
		return true
	})
	// an action is marked for the invariants its successor violates and
	// the current state does not
	snap := w.Snapshot(cur)
	already := map[string]bool{}
	for _, p := range s.cfg.Properties {
		if p.Kind == model.Invariant && !p.Holds(snap) {
			already[p.Name] = true
		}
	}
	for _, sc := range succs {
		a := sc.a
		after := w.Describe(sc.next)
		for _, c := range traces.Changes(&desc, &after) {
			if c.Name != "holds_token" {
				a.Changes = append(a.Changes, c.String())
			} else if c.After == "true" {
				a.Changes = append(a.Changes, fmt.Sprintf("P%d: takes the token", c.Process))
			} else {
				a.Changes = append(a.Changes, fmt.Sprintf("P%d: gives up the token", c.Process))
			}
		}
		added, _ := traces.NetworkDelta(&desc, &after)
		a.Sends = added
		next := w.Snapshot(sc.next)
		for _, p := range s.cfg.Properties {
			if p.Kind == model.Invariant && !already[p.Name] && !p.Holds(next) {
				a.Violates = append(a.Violates, p.Name)
			}
		}
		v.Actions = append(v.Actions, a)
	}
	if v.Actions == nil {
		v.Actions = []action{}
	}

	snap = w.Snapshot(cur)
	for _, p := range s.cfg.Properties {
		ps := propStatus{Name: p.Name, Kind: p.Kind.String(), Status: "holds"}
		switch p.Kind {
		case model.Invariant:
			if !p.Holds(snap) {
				ps.Status = "violated"
			}
		case model.Terminal:
			if len(succs) > 0 {
				ps.Status, ps.Note = "n/a", "the state has enabled actions"
			} else if !p.Holds(snap) {
				ps.Status = "violated"
			}
		case model.TransitionInvariant:
			if len(steps) > 0 && !p.HoldsOn(&steps[len(steps)-1]) {
				ps.Status, ps.Note = "violated", "by the last step"
			} else {
				ps.Note = "checked on each step; see the actions"
			}
		}
		if p.Doc != "" && ps.Note == "" {
			ps.Note = p.Doc
		}
		v.Properties = append(v.Properties, ps)
	}
	if v.Properties == nil {
		v.Properties = []propStatus{}
	}

	if len(states) > 1 {
		t, err := traces.FromSteps(w, traces.Meta{Algorithm: s.cfg.Algorithm, Params: s.cfg.Params, Property: "path", PropertyKind: model.Invariant}, states, nil)
		if err == nil {
			c := chart.FromTrace(t)
			c.Subtitle = fmt.Sprintf("the path so far: %d steps", len(steps))
			c.Violation, c.ViolationText = s.firstViolation(w, states, steps)
			if lasso > 0 && len(steps) >= lasso {
				c.LoopStart = lasso - 1
				if starving >= 0 {
					c.Starving = []int{starving}
				}
			}
			var b strings.Builder
			if chart.SVG(&b, c) == nil {
				v.Chart = b.String()
			}
		}
	}
	return v, nil
}

// firstViolation finds the first step of a path that violates a
// property, as show and report mark it: a step into a state that violates
// an invariant the state before it satisfies, or a step that violates a
// transition invariant. It returns the step's row (-1 for none) and what
// it violates.
func (s *Server) firstViolation(w model.Worker, states [][]byte, steps []model.Transition) (int, string) {
	held := map[string]bool{}
	snap := w.Snapshot(states[0])
	for _, p := range s.cfg.Properties {
		if p.Kind == model.Invariant {
			held[p.Name] = p.Holds(snap)
		}
	}
	for k := range steps {
		for _, p := range s.cfg.Properties {
			if p.Kind == model.TransitionInvariant && !p.HoldsOn(&steps[k]) {
				return k, "violates " + p.Name
			}
		}
		snap := w.Snapshot(states[k+1])
		for _, p := range s.cfg.Properties {
			if p.Kind != model.Invariant {
				continue
			}
			now := p.Holds(snap)
			if held[p.Name] && !now {
				return k, "violates " + p.Name
			}
			held[p.Name] = now
		}
	}
	return -1, ""
}

// table fills the process table and the network of v from desc, marking
// what differs from prev (the state before the last step; nil for none).
func (s *Server) table(v *view, desc, prev *model.StateDescription) {
	// columns: the fixed ones, then every variable in first-seen order
	// (or the algorithm's rendering of the process, chart.DisplayFields)
	var cols []string
	index := map[string]int{}
	rows := make([][]chart.Field, len(desc.Processes))
	groups := s.cfg.System.Info().Groups > 1
	for i := range desc.Processes {
		rows[i] = chart.DisplayFields(&desc.Processes[i], groups)
		for _, f := range rows[i] {
			if _, ok := index[f.Name]; !ok {
				index[f.Name] = len(cols)
				cols = append(cols, f.Name)
			}
		}
	}
	v.Columns = cols
	for i, p := range desc.Processes {
		row := procRow{ID: p.ID, Phase: p.Phase, Token: p.HoldsToken, Cells: make([]cell, len(cols))}
		for _, f := range rows[i] {
			row.Cells[index[f.Name]].Value = f.Value
		}
		if prev != nil && i < len(prev.Processes) {
			was := map[string]string{}
			for _, f := range chart.DisplayFields(&prev.Processes[i], groups) {
				was[f.Name] = f.Value
			}
			for c, name := range cols {
				if old, ok := was[name]; ok && old != row.Cells[c].Value || !ok && row.Cells[c].Value != "" {
					row.Cells[c].Changed, row.Cells[c].Was = true, old
				}
			}
		}
		v.Processes = append(v.Processes, row)
	}
	var added map[string]bool
	if prev != nil {
		add, _ := traces.NetworkDelta(prev, desc)
		added = map[string]bool{}
		for _, m := range add {
			added[strings.TrimSuffix(m, suffixCount(m))] = true
		}
	}
	by := map[int]*inbox{}
	for _, m := range desc.Network {
		b := by[m.To]
		if b == nil {
			b = &inbox{To: m.To}
			by[m.To] = b
		}
		b.Messages = append(b.Messages, message{Text: m.Message, Count: m.Count, Token: m.Token, New: added[m.Message]})
		v.InTransit += m.Count
	}
	var tos []int
	for to := range by {
		tos = append(tos, to)
	}
	sort.Ints(tos)
	v.Network = []inbox{}
	for _, to := range tos {
		v.Network = append(v.Network, *by[to])
	}
	v.FaultsUsed = desc.FaultsUsed
}

// suffixCount returns the " xN" suffix NetworkDelta adds for copies.
func suffixCount(m string) string {
	k := strings.LastIndex(m, " x")
	if k < 0 {
		return ""
	}
	for _, r := range m[k+2:] {
		if r < '0' || r > '9' {
			return ""
		}
	}
	if k+2 == len(m) {
		return ""
	}
	return m[k:]
}
