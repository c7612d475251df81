package linearize

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/tokenmc/tokenmc/cmd/internal/history"
)

// input is a porcupine operation input.
type input struct {
	Acquire  bool
	P        int
	Group    int
	Resource int
}

// lockState is the sequential state of one lock: how many hold it and in
// which group (holder is the process, for the plain lock).
type lockState struct {
	Holders int
	Group   int
	Holder  int
}

// Model returns the porcupine model of kind (history.ModelLock, history.ModelGroupLock or
// history.ModelLocks). history.ModelLocks partitions the history by resource.
func Model(kind string) porcupine.Model {
	m := porcupine.Model{
		Init: func() interface{} { return lockState{Holder: -1} },
		Step: func(st, in, _ interface{}) (bool, interface{}) {
			s, i := st.(lockState), in.(input)
			if i.Acquire {
				if kind == history.ModelGroupLock {
					if s.Holders > 0 && s.Group != i.Group {
						return false, s
					}
					return true, lockState{Holders: s.Holders + 1, Group: i.Group, Holder: -1}
				}
				if s.Holders > 0 {
					return false, s
				}
				return true, lockState{Holders: 1, Holder: i.P}
			}
			if s.Holders == 0 || (kind != history.ModelGroupLock && s.Holder != i.P) {
				return false, s
			}
			if s.Holders == 1 {
				return true, lockState{Holder: -1}
			}
			return true, lockState{Holders: s.Holders - 1, Group: s.Group, Holder: -1}
		},
		DescribeOperation: func(in, _ interface{}) string {
			i := in.(input)
			op := "release"
			if i.Acquire {
				op = "acquire"
			}
			switch kind {
			case history.ModelGroupLock:
				if i.Acquire {
					return fmt.Sprintf("P%d %s(group %d)", i.P, op, i.Group)
				}
			case history.ModelLocks:
				return fmt.Sprintf("P%d %s(resource %d)", i.P, op, i.Resource)
			}
			return fmt.Sprintf("P%d %s()", i.P, op)
		},
		DescribeState: func(st interface{}) string {
			s := st.(lockState)
			switch {
			case s.Holders == 0:
				return "free"
			case kind == history.ModelGroupLock:
				return fmt.Sprintf("held by %d in group %d", s.Holders, s.Group)
			default:
				return fmt.Sprintf("held by P%d", s.Holder)
			}
		},
	}
	if kind == history.ModelLocks {
		m.Partition = func(ops []porcupine.Operation) [][]porcupine.Operation {
			by := map[int][]porcupine.Operation{}
			var keys []int
			for _, op := range ops {
				r := op.Input.(input).Resource
				if _, ok := by[r]; !ok {
					keys = append(keys, r)
				}
				by[r] = append(by[r], op)
			}
			sort.Ints(keys)
			var out [][]porcupine.Operation
			for _, k := range keys {
				out = append(out, by[k])
			}
			return out
		}
	}
	return m
}

// Operations pairs calls with returns. An acquire that never returned is
// dropped (it may not have taken effect, the most permissive choice); a
// release that never returned gets an open return time.
func Operations(h *history.History) []porcupine.Operation {
	var ops []porcupine.Operation
	open := map[int]*history.Event{}
	held := map[int]int{} // the resource of each process's last acquire
	res := func(e *history.Event) int {
		if e.Resource != nil {
			return *e.Resource
		}
		if e.Op == "release" {
			return held[e.P]
		}
		return 0
	}
	for k := range h.Events {
		e := &h.Events[k]
		if e.Ev == "call" {
			open[e.P] = e
			if e.Op == "acquire" {
				held[e.P] = res(e)
			}
			continue
		}
		c := open[e.P]
		if c == nil || c.Op != e.Op {
			continue // not well formed (see Validate); ignored rather than guessed
		}
		delete(open, e.P)
		g := c.Group
		if e.Group != 0 {
			g = e.Group // the group granted (extended GME), when the return names one
		}
		ops = append(ops, porcupine.Operation{ClientId: e.P, Input: input{Acquire: e.Op == "acquire", P: e.P, Group: g, Resource: res(c)}, Call: c.TNs, Return: e.TNs})
	}
	// An open release may take effect at any time after its call: after
	// every recorded time. Validate keeps times below math.MaxInt64.
	var end int64
	for k := range h.Events {
		end = max(end, h.Events[k].TNs)
	}
	if end < math.MaxInt64 {
		end++
	}
	ps := make([]int, 0, len(open))
	for p := range open {
		ps = append(ps, p)
	}
	sort.Ints(ps)
	for _, p := range ps {
		c := open[p]
		if c.Op == "release" {
			ops = append(ops, porcupine.Operation{ClientId: p, Input: input{P: p, Resource: res(c)}, Call: c.TNs, Return: end})
		}
	}
	return ops
}

// Result is the verdict of Check.
type Result struct {
	Linearizable bool
	Unknown      bool // the check timed out
	Operations   int
	info         porcupine.LinearizationInfo
	model        porcupine.Model
}

// Check checks h for linearizability against its header's model with
// porcupine, giving up after timeout (0: no limit).
func Check(h *history.History, timeout time.Duration) Result {
	m := Model(h.Header.Model)
	ops := Operations(h)
	res, info := porcupine.CheckOperationsVerbose(m, ops, timeout)
	return Result{Linearizable: res == porcupine.Ok, Unknown: res == porcupine.Unknown, Operations: len(ops), info: info, model: m}
}

// Visualize writes porcupine's HTML visualisation of the check.
func (r Result) Visualize(w io.Writer) error {
	return porcupine.Visualize(r.model, r.info, w)
}
