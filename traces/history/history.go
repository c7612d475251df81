package history

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces/eventlog"

	"github.com/tokenmc/tokenmc/model/safefile"
)

// The identity of the history format, in its optional header line.
const (
	Format  = "tokenmc-history"
	Version = 1
)

// Sequential models a history is checked against.
const (
	ModelLock      = "lock"       // one mutual-exclusion lock: at most one holder
	ModelGroupLock = "group-lock" // group mutual exclusion: holders share the lock only if they requested the same group
	ModelLocks     = "locks"      // one independent lock per resource
)

// Header is the optional first line of a history file.
type Header struct {
	Format    string `json:"format"`              // always Format
	Version   int    `json:"version"`             // always Version
	Model     string `json:"model"`               // ModelLock (default), ModelGroupLock or ModelLocks
	Processes int    `json:"processes,omitempty"` // if > 0, processes must be in 0..Processes-1
	Source    string `json:"source,omitempty"`    // informative, e.g. the log it came from
}

// Event is one history line: a call or a return of an acquire or a release.
type Event struct {
	P        int    `json:"p"`                  // the client process
	Op       string `json:"op"`                 // "acquire" or "release"
	Ev       string `json:"ev"`                 // "call" or "return"
	TNs      int64  `json:"t_ns"`               // time, any monotonic clock shared by all clients, in nanoseconds
	Group    int    `json:"group,omitempty"`    // group-lock: the group requested (on the acquire call)
	Resource *int   `json:"resource,omitempty"` // locks: the resource (on the call); a release without one releases the process's last acquired resource

	Line int `json:"-"`
}

// History is a parsed history file.
type History struct {
	Header Header
	Events []Event
}

// LineError is bad input at one line.
type LineError = eventlog.LineError

// ReadFile reads a history file; see Read.
func ReadFile(path string) (*History, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read parses a history: an optional header line, then one Event per line.
// It checks that every process alternates call and return, that a return
// matches the operation of the pending call, and that times do not go back
// within a process. Errors name the line.
func Read(r io.Reader, file string) (*History, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	h := &History{Header: Header{Format: Format, Version: Version, Model: ModelLock}}
	line := 0
	bad := func(format string, args ...any) error {
		return &LineError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	first := true
	var wf wellFormed
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		if first && bytes.Contains(raw, []byte(`"format"`)) {
			first = false
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&h.Header); err != nil {
				return nil, bad("the header is not a JSON object {\"format\":%q,\"version\":%d,\"model\":\"lock\"}: %v", Format, Version, err)
			}
			if h.Header.Format != Format || h.Header.Version != Version {
				return nil, bad("the header says format %q version %d; want %q version %d", h.Header.Format, h.Header.Version, Format, Version)
			}
			switch h.Header.Model {
			case "":
				h.Header.Model = ModelLock
			case ModelLock, ModelGroupLock, ModelLocks:
			default:
				return nil, bad("unknown model %q; valid: lock, group-lock, locks", h.Header.Model)
			}
			if h.Header.Processes < 0 {
				return nil, bad("processes %d is negative; give the number of processes, or leave it out", h.Header.Processes)
			}
			continue
		}
		first = false
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var e Event
		if err := dec.Decode(&e); err != nil {
			return nil, bad("not a JSON history event {\"p\":0,\"op\":\"acquire\",\"ev\":\"call\",\"t_ns\":0}: %v", strings.TrimPrefix(err.Error(), "json: "))
		}
		if dec.More() {
			return nil, bad("more than one JSON value on the line; write one event per line")
		}
		e.Line = line
		if msg := wf.add(&h.Header, &e); msg != "" {
			return nil, bad("%s", msg)
		}
		h.Events = append(h.Events, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &LineError{File: file, Line: line + 1, Msg: fmt.Sprintf("the line is longer than %d bytes; a history event is one short JSON object per line", maxLine)}
		}
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if len(h.Events) == 0 {
		return nil, &LineError{File: file, Line: max(line, 1), Msg: "empty history: want one JSON event per line, e.g. {\"p\":0,\"op\":\"acquire\",\"ev\":\"call\",\"t_ns\":0}"}
	}
	return h, nil
}

// Write writes a history with its header as JSON lines.
func Write(w io.Writer, h *History) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h.Header); err != nil {
		return err
	}
	for k := range h.Events {
		if err := enc.Encode(&h.Events[k]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// KindFor returns the sequential model that fits a system: a group lock
// for GME, one lock per resource when requests name one of several
// resources (request arguments without GME, as in multi-token
// algorithms), else one lock.
func KindFor(info model.Info) string {
	switch {
	case info.GME:
		return ModelGroupLock
	case info.Groups > 1:
		return ModelLocks
	}
	return ModelLock
}

// FromLog derives the client-visible history of a run: a request is an
// acquire call and the enter that ends its wait the return; an exit is a
// release call, returning when the exit's step has logged its effects.
// kind is the sequential model (see KindFor): for ModelGroupLock the
// request's and the enter's groups are recorded, for ModelLocks the
// request's argument is the resource, which the release inherits.
//
// Each event's Line is the line of the log event it comes from. The events
// of one process keep their log order, and the processes' sequences are
// merged by time; a log whose times go back within a process, or whose
// enter has no request before it, gives a history that Validate rejects
// at that line.
func FromLog(l *eventlog.Log, kind string) *History {
	h := &History{Header: Header{Format: Format, Version: Version, Model: kind, Processes: l.N(), Source: l.Header.Algorithm}}
	resource := make([]int, l.N())
	per := make([][]Event, l.N())
	for p, es := range l.Per() {
		h.Events = per[p][:0]
		for k, e := range es {
			switch e.Kind {
			case eventlog.KindRequest:
				ev := Event{P: e.P, Op: "acquire", Ev: "call", TNs: e.TNs, Line: e.Line}
				switch kind {
				case ModelGroupLock:
					// the group granted: the enter's (extended GME admits
					// a request for a set of groups with one of them)
					ev.Group = e.Group
					for _, f := range es[k+1:] {
						if f.Kind == eventlog.KindEnter {
							ev.Group = f.Group
							break
						}
						if f.Kind == eventlog.KindExit {
							break
						}
					}
				case ModelLocks:
					r := e.Group
					ev.Resource = &r
					resource[e.P] = e.Group
				}
				h.Events = append(h.Events, ev)
			case eventlog.KindEnter:
				ev := Event{P: e.P, Op: "acquire", Ev: "return", TNs: e.TNs, Line: e.Line}
				switch kind {
				case ModelGroupLock:
					ev.Group = e.Group
				case ModelLocks:
					r := resource[e.P]
					ev.Resource = &r
				}
				h.Events = append(h.Events, ev)
			case eventlog.KindExit:
				ev := Event{P: e.P, Op: "release", Ev: "call", TNs: e.TNs, Line: e.Line}
				if kind == ModelLocks {
					r := resource[e.P]
					ev.Resource = &r
				}
				h.Events = append(h.Events, ev)
				ret, line := e.TNs, e.Line
				for _, f := range es[k+1:] {
					if eventlog.IsTrigger(f.Kind) {
						break
					}
					ret, line = f.TNs, f.Line
				}
				h.Events = append(h.Events, Event{P: e.P, Op: "release", Ev: "return", TNs: ret, Resource: ev.Resource, Line: line})
			}
		}
		per[p] = h.Events
	}
	h.Events = mergeByTime(per)
	return h
}

// mergeByTime merges the processes' event sequences into one, by time;
// each sequence keeps its order even where its times go back, and ties go
// to the lower process.
func mergeByTime(per [][]Event) []Event {
	total := 0
	for _, es := range per {
		total += len(es)
	}
	out := make([]Event, 0, total)
	next := make([]int, len(per))
	hp := &heads{per: per, next: next}
	for p := range per {
		if len(per[p]) > 0 {
			hp.ps = append(hp.ps, p)
		}
	}
	heap.Init(hp)
	for hp.Len() > 0 {
		p := hp.ps[0]
		out = append(out, per[p][next[p]])
		next[p]++
		if next[p] < len(per[p]) {
			heap.Fix(hp, 0)
		} else {
			heap.Pop(hp)
		}
	}
	return out
}

// heads is a heap of the processes whose sequences have events left,
// ordered by the time of their next event, then by process.
type heads struct {
	per  [][]Event
	next []int
	ps   []int
}

func (h *heads) Len() int { return len(h.ps) }
func (h *heads) Less(a, b int) bool {
	pa, pb := h.ps[a], h.ps[b]
	ta, tb := h.per[pa][h.next[pa]].TNs, h.per[pb][h.next[pb]].TNs
	if ta != tb {
		return ta < tb
	}
	return pa < pb
}
func (h *heads) Swap(a, b int) { h.ps[a], h.ps[b] = h.ps[b], h.ps[a] }
func (h *heads) Push(x any)    { h.ps = append(h.ps, x.(int)) }
func (h *heads) Pop() any {
	x := h.ps[len(h.ps)-1]
	h.ps = h.ps[:len(h.ps)-1]
	return x
}

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

// Model returns the porcupine model of kind (ModelLock, ModelGroupLock or
// ModelLocks). ModelLocks partitions the history by resource.
func Model(kind string) porcupine.Model {
	m := porcupine.Model{
		Init: func() interface{} { return lockState{Holder: -1} },
		Step: func(st, in, _ interface{}) (bool, interface{}) {
			s, i := st.(lockState), in.(input)
			if i.Acquire {
				if kind == ModelGroupLock {
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
			if s.Holders == 0 || (kind != ModelGroupLock && s.Holder != i.P) {
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
			case ModelGroupLock:
				if i.Acquire {
					return fmt.Sprintf("P%d %s(group %d)", i.P, op, i.Group)
				}
			case ModelLocks:
				return fmt.Sprintf("P%d %s(resource %d)", i.P, op, i.Resource)
			}
			return fmt.Sprintf("P%d %s()", i.P, op)
		},
		DescribeState: func(st interface{}) string {
			s := st.(lockState)
			switch {
			case s.Holders == 0:
				return "free"
			case kind == ModelGroupLock:
				return fmt.Sprintf("held by %d in group %d", s.Holders, s.Group)
			default:
				return fmt.Sprintf("held by P%d", s.Holder)
			}
		},
	}
	if kind == ModelLocks {
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
func (h *History) Operations() []porcupine.Operation {
	var ops []porcupine.Operation
	open := map[int]*Event{}
	held := map[int]int{} // the resource of each process's last acquire
	res := func(e *Event) int {
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
func Check(h *History, timeout time.Duration) Result {
	m := Model(h.Header.Model)
	ops := h.Operations()
	res, info := porcupine.CheckOperationsVerbose(m, ops, timeout)
	return Result{Linearizable: res == porcupine.Ok, Unknown: res == porcupine.Unknown, Operations: len(ops), info: info, model: m}
}

// Visualize writes porcupine's HTML visualisation of the check.
func (r Result) Visualize(w io.Writer) error {
	return porcupine.Visualize(r.model, r.info, w)
}
