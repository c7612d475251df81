package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
)

// coverage is what the coverage walk counted, for check --coverage and
// --report: states and transitions per level, and how often each action
// family fired at each process (TLC's -coverage). It is a walk of its own
// (explore.WalkCoverage), separate from the search that checked the
// properties: it does not stop at a violation, and it runs under the same
// memory budget, stopping cleanly at it.
type coverage struct {
	Levels     []levelCount
	States     int64
	Trans      int64
	Families   []family // in a fixed order: Request, Exit, Timer, Deliver, Lose; then by name
	N          int
	Complete   bool   // every reachable state was expanded
	Stopped    string // why not: "max-states", "max-depth", "memory", "disk" or "interrupted"
	StopDetail string
	Elapsed    time.Duration
}

// levelCount is one BFS level: its new states and the transitions out of them.
type levelCount = explore.LevelCount

// family is one kind of action (a Request, an Exit, a timer, the delivery
// or loss of one message kind) and how often it fired at each process.
type family = explore.ActionFamily

// walkCoverage runs the coverage walk of sys with opts (its bounds, memory
// budget and workers).
func walkCoverage(ctx context.Context, sys model.System, opts explore.Options) (*coverage, error) {
	start := time.Now()
	c, err := explore.WalkCoverage(ctx, sys, opts)
	if err != nil {
		return nil, err
	}
	return &coverage{Levels: c.Levels, States: c.Result.States, Trans: c.Result.Transitions, Families: c.Families,
		N: c.Processes, Complete: c.Complete(), Stopped: c.Result.StopReason, StopDetail: c.Result.StopDetail,
		Elapsed: time.Since(start)}, nil
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
