package cli

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/model"
)

// coverage is what one breadth-first walk over the reachable graph
// counts, for check --coverage and --report: states and transitions per
// level, and how often each action family fired at each process (TLC's
// -coverage). It is a walk of its own, independent of the search that
// checked the properties: it does not stop at a violation.
type coverage struct {
	Levels   []levelCount
	States   int64
	Trans    int64
	Families []family // in a fixed order: Request, Exit, Timer, Deliver, Lose; then by name
	N        int
	Complete bool   // every reachable state was expanded
	Stopped  string // why not: "max-states", "max-depth" or "interrupted"
	Elapsed  time.Duration
}

// levelCount is one BFS level: its new states and the transitions out of them.
type levelCount struct {
	States, Transitions int64
}

// family is one kind of action (a Request, an Exit, a timer, the delivery
// or loss of one message kind) and how often it fired at each process.
type family struct {
	Kind  model.ActionKind
	Name  string  // e.g. "Deliver REQ", "Timer 1", "Request g=2"
	Fired []int64 // per process
}

// Total is the number of times the family fired at any process.
func (f *family) Total() int64 {
	var n int64
	for _, c := range f.Fired {
		n += c
	}
	return n
}

// familyName names the family of transition t with label label.
func familyName(t *model.Transition, label string, groups int) string {
	switch t.Kind {
	case model.Request:
		if groups > 1 {
			return fmt.Sprintf("Request g=%d", t.Arg)
		}
		return "Request"
	case model.Exit:
		return "Exit"
	case model.Timer:
		return fmt.Sprintf("Timer %d", t.Arg)
	}
	// Deliver and Lose: the message's kind, the label's word before "("
	msg := strings.TrimPrefix(label, t.Kind.String()+" ")
	if k := strings.IndexAny(msg, "(<[{ "); k > 0 {
		msg = msg[:k]
	}
	return t.Kind.String() + " " + msg
}

// walkCoverage walks the reachable graph of sys breadth first, admitting
// at most maxStates states (0: no bound) and expanding states up to
// maxDepth steps from an initial state (0: no bound).
func walkCoverage(ctx context.Context, sys model.System, maxStates int64, maxDepth int) *coverage {
	start := time.Now()
	info := sys.Info()
	w := sys.NewWorker()
	cov := &coverage{N: info.Processes, Complete: true}
	seed := maphash.MakeSeed()
	seen := map[uint64]struct{}{}
	byName := map[string]int{}
	fams := []family{}
	// every process can Request and Exit: those rows always show, so that
	// one that never fires is called out
	for g := range max(info.Groups, 1) {
		t := model.Transition{Kind: model.Request, Arg: g}
		name := familyName(&t, "", info.Groups)
		byName[name] = len(fams)
		fams = append(fams, family{Kind: model.Request, Name: name, Fired: make([]int64, info.Processes)})
	}
	byName["Exit"] = len(fams)
	fams = append(fams, family{Kind: model.Exit, Name: "Exit", Fired: make([]int64, info.Processes)})

	var cur, next []byte
	var curOff, nextOff []int
	admit := func(s []byte) bool {
		h := maphash.Bytes(seed, s)
		if _, ok := seen[h]; ok {
			return true
		}
		if maxStates > 0 && int64(len(seen)) >= maxStates {
			cov.Complete, cov.Stopped = false, stopMaxStates
			return false
		}
		seen[h] = struct{}{}
		nextOff = append(nextOff, len(next))
		next = append(next, s...)
		return true
	}
	w.Initial(func(s []byte) bool { return admit(s) })
	for depth := 0; len(nextOff) > 0; depth++ {
		cur, next = next, cur[:0]
		curOff, nextOff = append(curOff[:0], nextOff...), nextOff[:0]
		curOff = append(curOff, len(cur))
		lv := levelCount{States: int64(len(curOff) - 1)}
		if maxDepth > 0 && depth >= maxDepth {
			cov.Levels = append(cov.Levels, lv)
			cov.States += lv.States
			if cov.Complete {
				// only incomplete if the states at the bound have successors
				for k := 0; k+1 < len(curOff) && cov.Complete; k++ {
					w.Successors(cur[curOff[k]:curOff[k+1]], func(*model.Transition, []byte) bool {
						cov.Complete, cov.Stopped = false, stopMaxDepth
						return false
					})
				}
			}
			break
		}
		for k := 0; k+1 < len(curOff); k++ {
			if k%4096 == 0 && ctx.Err() != nil {
				cov.Complete, cov.Stopped = false, stopInterrupted
				break
			}
			s := cur[curOff[k]:curOff[k+1]]
			w.Successors(s, func(t *model.Transition, nx []byte) bool {
				lv.Transitions++
				name := familyName(t, w.Label(s, t), info.Groups)
				f, ok := byName[name]
				if !ok {
					f = len(fams)
					byName[name] = f
					fams = append(fams, family{Kind: t.Kind, Name: name, Fired: make([]int64, info.Processes)})
				}
				if t.Proc >= 0 && t.Proc < info.Processes {
					fams[f].Fired[t.Proc]++
				}
				admit(nx)
				return true
			})
		}
		cov.Levels = append(cov.Levels, lv)
		cov.States += lv.States
		cov.Trans += lv.Transitions
		if !cov.Complete {
			// the states admitted after the bound are not counted
			cov.States += int64(len(nextOff))
			if len(nextOff) > 0 {
				cov.Levels = append(cov.Levels, levelCount{States: int64(len(nextOff))})
			}
			break
		}
	}
	if info.Faults > 0 {
		if _, ok := byName["Lose"]; !ok {
			lost := false
			for _, f := range fams {
				lost = lost || f.Kind == model.Lose
			}
			if !lost {
				fams = append(fams, family{Kind: model.Lose, Name: "Lose (any message)", Fired: make([]int64, info.Processes)})
			}
		}
	}
	sort.SliceStable(fams, func(i, j int) bool {
		if fams[i].Kind != fams[j].Kind {
			return fams[i].Kind < fams[j].Kind
		}
		return fams[i].Name < fams[j].Name
	})
	cov.Families = fams
	cov.Elapsed = time.Since(start)
	return cov
}

// neverFired lists the (family, process) pairs that never fired, as
// "Deliver TOKEN at P2", and the families that never fired anywhere.
func (c *coverage) neverFired() (pairs []string, families []string) {
	for _, f := range c.Families {
		if f.Total() == 0 {
			families = append(families, f.Name)
			continue
		}
		var at []string
		for p, n := range f.Fired {
			if n == 0 {
				at = append(at, fmt.Sprintf("P%d", p))
			}
		}
		if len(at) > 0 {
			pairs = append(pairs, f.Name+" at "+strings.Join(at, ", "))
		}
	}
	return pairs, families
}

// printCoverage writes the coverage as text: a table of action families by
// process, then what never fired.
func printCoverage(w io.Writer, c *coverage) {
	scope := fmt.Sprintf("all %d reachable states", c.States)
	if !c.Complete {
		scope = fmt.Sprintf("the first %d states (stopped: %s)", c.States, c.Stopped)
	}
	// The walk is not the check's search: it goes on past violations, so
	// its counts can exceed the check's (issue 25).
	fmt.Fprintf(w, "coverage, from a separate walk of the reachable graph that goes on past violations (its counts are not the check's):\n")
	fmt.Fprintf(w, "  actions fired from %s, %d transitions, %d levels (%.3fs)\n", scope, c.Trans, len(c.Levels), c.Elapsed.Seconds())
	width := len("action")
	for _, f := range c.Families {
		width = max(width, len(f.Name))
	}
	cell := 6
	for _, f := range c.Families {
		for _, n := range f.Fired {
			cell = max(cell, len(fmt.Sprint(n))+1)
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "  %-*s %*s", width, "action", cell+2, "total")
	for p := range c.N {
		fmt.Fprintf(&b, " %*s", cell, fmt.Sprintf("P%d", p))
	}
	b.WriteString("\n")
	for _, f := range c.Families {
		fmt.Fprintf(&b, "  %-*s %*d", width, f.Name, cell+2, f.Total())
		for _, n := range f.Fired {
			if n == 0 {
				fmt.Fprintf(&b, " %*s", cell, "-")
			} else {
				fmt.Fprintf(&b, " %*d", cell, n)
			}
		}
		b.WriteString("\n")
	}
	_, _ = w.Write(b.Bytes())
	pairs, fams := c.neverFired()
	switch {
	case len(pairs) == 0 && len(fams) == 0:
		fmt.Fprintln(w, "never fired: nothing; every action fired at every process")
	default:
		if len(fams) > 0 {
			fmt.Fprintf(w, "never fired anywhere: %s\n", strings.Join(fams, "; "))
		}
		if len(pairs) > 0 {
			fmt.Fprintf(w, "never fired at some processes: %s\n", strings.Join(pairs, "; "))
		}
	}
}
