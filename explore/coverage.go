package explore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/tokenmc/tokenmc/model"
)

// Coverage is what a coverage walk counted (WalkCoverage): how often each
// action family fired at each process (TLC's -coverage), and the states
// and transitions per breadth-first level.
type Coverage struct {
	// Result is the walk's own outcome: States and Transitions are its
	// counts, Verdict is OK when every reachable state was expanded and
	// Incomplete otherwise, with StopReason (max-states, max-depth,
	// memory, interrupted, disk) saying why.
	Result *Result
	// Levels are the breadth-first levels: the states of each and the
	// transitions out of them. A walk that stopped within a level ends
	// with that level's next one, partly admitted and not expanded.
	Levels []LevelCount
	// Families are the action families in a fixed order: by kind
	// (Request, Exit, Timer, Deliver, Lose), then by name. Every process's
	// Request and Exit rows are there even when they never fire, and with
	// faults a "Lose (any message)" row when no message was lost.
	Families  []ActionFamily
	Processes int
}

// Complete reports whether the walk expanded every reachable state.
func (c *Coverage) Complete() bool { return c.Result.Verdict == OK }

// LevelCount is one breadth-first level: its states and the transitions
// out of them.
type LevelCount struct {
	States, Transitions int64
}

// ActionFamily is one kind of action (a Request, an Exit, a timer, the
// delivery or loss of one message kind) and how often it fired at each
// process.
type ActionFamily struct {
	Kind  model.ActionKind
	Name  string  // e.g. "Deliver REQ", "Timer 1", "Request g=2"
	Fired []int64 // per process
}

// Total is the number of times the family fired at any process.
func (f *ActionFamily) Total() int64 {
	var n int64
	for _, c := range f.Fired {
		n += c
	}
	return n
}

// WalkCoverage walks the reachable graph of sys breadth first, as Check
// does and with its seen set, spill files and memory budget, counting
// every transition by action family and process. It is a walk of its own:
// opts.Properties are ignored (it does not stop at a violation), and
// opts.MaxStates, MaxDepth, MemoryBudget, Workers, WorkDir and
// SpillAbove bound and run it as they do a search. A depth-first walk,
// checkpoints and resuming are refused.
func WalkCoverage(ctx context.Context, sys model.System, opts Options) (*Coverage, error) {
	if opts.DFS || opts.Checkpoint != "" || opts.Resume != "" {
		return nil, errors.New("the coverage walk is breadth first, without checkpoints")
	}
	opts.Properties = nil
	info := sys.Info()
	cw := &coverageWalk{n: info.Processes, groups: info.Groups}
	res, err := search(ctx, sys, opts, cw)
	if err != nil {
		return nil, err
	}
	cov := &Coverage{Result: res, Processes: info.Processes}
	var states int64
	for i, l := range cw.levels {
		end := res.Transitions
		if i+1 < len(cw.levels) {
			end = cw.levels[i+1].Transitions
		}
		cov.Levels = append(cov.Levels, LevelCount{States: l.States, Transitions: end - l.Transitions})
		states += l.States
	}
	if states < res.States {
		// stopped within a level: the next one, partly admitted
		cov.Levels = append(cov.Levels, LevelCount{States: res.States - states})
	}
	cov.Families = cw.families(info)
	return cov, nil
}

// coverageWalk collects a coverage walk's counts from the search's chunks.
type coverageWalk struct {
	n, groups int
	levels    []LevelCount // States, and Transitions counted before the level

	mu     sync.Mutex
	chunks []*coverageChunk
}

// startLevel records the start of a level of states states, when
// transitions transitions were counted.
func (cw *coverageWalk) startLevel(states, transitions int64) {
	cw.levels = append(cw.levels, LevelCount{States: states, Transitions: transitions})
}

// newChunk returns the counts of a new chunk of the search (called from
// the workers).
func (cw *coverageWalk) newChunk() *coverageChunk {
	c := &coverageChunk{n: cw.n, fired: map[familyKey][]int64{}}
	cw.mu.Lock()
	cw.chunks = append(cw.chunks, c)
	cw.mu.Unlock()
	return c
}

// familyKey identifies an action family: its kind, its argument (the group
// of a Request, the timer), and for a delivery or loss the message kind.
type familyKey struct {
	kind model.ActionKind
	arg  int
	msg  string
}

// coverageChunk counts the transitions one chunk of the search expanded;
// one worker at a time uses it.
type coverageChunk struct {
	n     int
	fired map[familyKey][]int64
}

func (c *coverageChunk) add(w model.Worker, s []byte, t *model.Transition) {
	k := familyKey{kind: t.Kind}
	switch t.Kind {
	case model.Request, model.Timer:
		k.arg = t.Arg
	case model.Exit:
	default:
		k.msg = messageKind(t, w.Label(s, t))
	}
	f := c.fired[k]
	if f == nil {
		f = make([]int64, c.n)
		c.fired[k] = f
	}
	if t.Proc >= 0 && t.Proc < c.n {
		f[t.Proc]++
	}
}

// messageKind is the kind of the message a Deliver or Lose transition
// handles: the label's word before "(".
func messageKind(t *model.Transition, label string) string {
	msg := strings.TrimPrefix(label, t.Kind.String()+" ")
	if k := strings.IndexAny(msg, "(<[{ "); k > 0 {
		msg = msg[:k]
	}
	return msg
}

// name names the family.
func (k familyKey) name(groups int) string {
	switch k.kind {
	case model.Request:
		if groups > 1 {
			return fmt.Sprintf("Request g=%d", k.arg)
		}
		return "Request"
	case model.Exit:
		return "Exit"
	case model.Timer:
		return fmt.Sprintf("Timer %d", k.arg)
	}
	return k.kind.String() + " " + k.msg
}

// families merges the chunks' counts into the families, in order.
func (cw *coverageWalk) families(info model.Info) []ActionFamily {
	byName := map[string]int{}
	var fams []ActionFamily
	row := func(kind model.ActionKind, name string) *ActionFamily {
		i, ok := byName[name]
		if !ok {
			i = len(fams)
			byName[name] = i
			fams = append(fams, ActionFamily{Kind: kind, Name: name, Fired: make([]int64, cw.n)})
		}
		return &fams[i]
	}
	// every process can Request and Exit: those rows always show, so that
	// one that never fires is called out
	for g := range max(cw.groups, 1) {
		row(model.Request, familyKey{kind: model.Request, arg: g}.name(cw.groups))
	}
	row(model.Exit, "Exit")
	for _, c := range cw.chunks {
		for k, fired := range c.fired {
			f := row(k.kind, k.name(cw.groups))
			for p, n := range fired {
				f.Fired[p] += n
			}
		}
	}
	if info.Faults > 0 {
		lost := false
		for _, f := range fams {
			lost = lost || f.Kind == model.Lose
		}
		if !lost {
			row(model.Lose, "Lose (any message)")
		}
	}
	sort.SliceStable(fams, func(i, j int) bool {
		if fams[i].Kind != fams[j].Kind {
			return fams[i].Kind < fams[j].Kind
		}
		return fams[i].Name < fams[j].Name
	})
	return fams
}
