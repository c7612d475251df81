package eventlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// The identity of the log format, recorded in the header line.
const (
	Format  = "tokenmc-eventlog"
	Version = 1
)

// Event kinds. Request, Exit, Receive and Timer are triggers: each starts
// one step of its process; Send and Enter are effects of the trigger that
// precedes them in the same process.
const (
	KindRequest = "request"
	KindEnter   = "enter"
	KindExit    = "exit"
	KindSend    = "send"
	KindReceive = "receive"
	KindTimer   = "timer"
)

// Header is the first line of a log: which model the run executed.
type Header struct {
	Format    string         `json:"format"`              // always Format
	Version   int            `json:"version"`             // always Version
	Algorithm string         `json:"algorithm"`           // registry name with variant, e.g. "suzuki-kasami/send-in-cs"
	Params    map[string]int `json:"params"`              // e.g. {"n": 3, "r": 2}; "n" is required
	Transport string         `json:"transport,omitempty"` // "chan" or "tcp"; informative
	Seed      int64          `json:"seed,omitempty"`      // informative
	Start     string         `json:"start,omitempty"`     // wall-clock start, RFC 3339; informative
}

// Event is one line after the header.
type Event struct {
	P       int    `json:"p"`                 // the process, 0..n-1
	Seq     int    `json:"seq"`               // 1, 2, ... per process, in the process's order
	Kind    string `json:"kind"`              // one of the Kind constants
	Group   int    `json:"group,omitempty"`   // request: the requested group (GME); enter: the group entered
	Timer   int    `json:"timer,omitempty"`   // timer: which timer fired
	Msg     string `json:"msg,omitempty"`     // send, receive: the message as the model renders it, e.g. "REQ(P1->P0, sn=1)"
	MID     string `json:"mid,omitempty"`     // send, receive: an identifier of the message copy, unique in the log
	To      *int   `json:"to,omitempty"`      // send: the receiver (required)
	From    *int   `json:"from,omitempty"`    // receive: the sender (informative; absent for a message in transit initially)
	Token   bool   `json:"token,omitempty"`   // send, receive: the message carries the token
	VC      []int  `json:"vc,omitempty"`      // vector timestamp: VC[q] = number of q's events that happen before or are this event
	Lamport int    `json:"lamport,omitempty"` // Lamport timestamp; informative
	TNs     int64  `json:"t_ns"`              // monotonic wall-clock time since the start of the run, in nanoseconds

	Line int `json:"-"` // the 1-based line of the event in its file
}

// String names an event for messages: "line 12 (P1 #4 receive TOKEN(P0->P1, ...))".
func (e *Event) String() string {
	s := fmt.Sprintf("line %d (P%d #%d %s", e.Line, e.P, e.Seq, e.Kind)
	switch e.Kind {
	case KindSend, KindReceive:
		s += " " + e.Msg
	case KindRequest, KindEnter:
		if e.Group != 0 {
			s += fmt.Sprintf(" group %d", e.Group)
		}
	case KindTimer:
		s += fmt.Sprintf(" %d", e.Timer)
	}
	return s + ")"
}

// IsTrigger reports whether kind starts a step.
func IsTrigger(kind string) bool {
	return kind == KindRequest || kind == KindExit || kind == KindReceive || kind == KindTimer
}

// Log is a parsed event log. Events are in file order.
type Log struct {
	Header Header
	Events []Event
}

// N returns the number of processes.
func (l *Log) N() int { return l.Header.Params["n"] }

// LineError is bad input at one line of a log or history file.
type LineError struct {
	File string
	Line int
	Msg  string
}

// Error renders the error as FILE:LINE: message.
func (e *LineError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ReadFile reads and checks a log file; see Read.
func ReadFile(path string) (*Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read parses a log: a header line, then one event per line (blank lines
// are skipped). It checks the format, not the behaviour: every line is a
// JSON object with known fields, processes are in 0..n-1, each process's
// seq runs 1, 2, 3, ..., vector timestamps (when present on every event)
// have n entries with VC[p] = seq, a send or enter follows a trigger of
// its process, and message ids are not sent twice. Errors name the line.
func Read(r io.Reader, file string) (*Log, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	lineNo := 0
	bad := func(format string, args ...any) error {
		return &LineError{File: file, Line: lineNo, Msg: fmt.Sprintf(format, args...)}
	}
	log := &Log{}
	haveHeader := false
	seq := map[int]int{}
	trig := map[int]bool{}
	sent := map[string]int{}
	withVC := 0
	for sc.Scan() {
		lineNo++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if !haveHeader {
			if err := dec.Decode(&log.Header); err != nil {
				return nil, bad("the header is not a JSON object of the form {\"format\":%q,\"version\":%d,\"algorithm\":...,\"params\":{\"n\":...}}: %v", Format, Version, jsonErr(err))
			}
			h := &log.Header
			if h.Format != Format || h.Version != Version {
				return nil, bad("the header says format %q version %d; want %q version %d", h.Format, h.Version, Format, Version)
			}
			if h.Algorithm == "" {
				return nil, bad("the header has no \"algorithm\"; name the model, e.g. \"suzuki-kasami\"")
			}
			if h.Params["n"] < 1 {
				return nil, bad("the header's params have no \"n\" >= 1 (the number of processes)")
			}
			haveHeader = true
			continue
		}
		var e Event
		if err := dec.Decode(&e); err != nil {
			return nil, bad("not a JSON event object {\"p\":..,\"seq\":..,\"kind\":..}: %v", jsonErr(err))
		}
		if dec.More() {
			return nil, bad("more than one JSON value on the line; write one event per line")
		}
		e.Line = lineNo
		n := log.N()
		if e.P < 0 || e.P >= n {
			return nil, bad("unknown process P%d; the header says n=%d, so processes are P0..P%d", e.P, n, n-1)
		}
		switch e.Kind {
		case KindRequest, KindExit, KindReceive, KindTimer:
			trig[e.P] = true
		case KindSend, KindEnter:
			if !trig[e.P] {
				return nil, bad("P%d %s before any request, exit, receive or timer of P%d: sends and enters are effects of the step that precedes them", e.P, e.Kind, e.P)
			}
		default:
			return nil, bad("unknown kind %q; kinds are request, enter, exit, send, receive, timer", e.Kind)
		}
		if (e.Kind == KindSend || e.Kind == KindReceive) && e.Msg == "" {
			return nil, bad("a %s needs \"msg\", the message as the model renders it, e.g. \"REQ(P1->P0, sn=1)\"", e.Kind)
		}
		if e.Kind == KindSend && e.To == nil {
			return nil, bad("a send needs \"to\", the receiving process")
		}
		for _, q := range []*int{e.To, e.From} {
			if q != nil && (*q < 0 || *q >= n) {
				return nil, bad("unknown process P%d in \"to\"/\"from\"; processes are P0..P%d", *q, n-1)
			}
		}
		if e.Kind == KindSend && e.MID != "" {
			if prev, dup := sent[e.MID]; dup {
				return nil, bad("message id %q was already sent at line %d; ids must be unique", e.MID, prev)
			}
			sent[e.MID] = lineNo
		}
		seq[e.P]++
		if e.Seq != seq[e.P] {
			return nil, bad("P%d seq is %d; want %d (each process numbers its events 1, 2, 3, ... in file order)", e.P, e.Seq, seq[e.P])
		}
		if e.VC != nil {
			withVC++
			if len(e.VC) != n {
				return nil, bad("vector timestamp has %d entries; want n=%d", len(e.VC), n)
			}
			if e.VC[e.P] != e.Seq {
				return nil, bad("vc[%d] is %d; want the event's seq %d", e.P, e.VC[e.P], e.Seq)
			}
		}
		log.Events = append(log.Events, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if !haveHeader {
		return nil, &LineError{File: file, Line: max(lineNo, 1), Msg: "empty log: want a header line, then one JSON event per line"}
	}
	if withVC != 0 && withVC != len(log.Events) {
		return nil, fmt.Errorf("%s: %d of %d events have a vector timestamp; give \"vc\" on every event or on none", file, withVC, len(log.Events))
	}
	if withVC == 0 {
		computeVC(log)
	}
	return log, nil
}

// computeVC fills in vector timestamps from process order and from
// send/receive pairs matched by message id (mid).
func computeVC(l *Log) {
	n := l.N()
	cur := make([][]int, n)
	for i := range cur {
		cur[i] = make([]int, n)
	}
	sendVC := map[string][]int{}
	for k := range l.Events {
		e := &l.Events[k]
		v := cur[e.P]
		if e.Kind == KindReceive && e.MID != "" {
			if sv, ok := sendVC[e.MID]; ok {
				for q := range v {
					v[q] = max(v[q], sv[q])
				}
			}
		}
		v[e.P] = e.Seq
		e.VC = append([]int(nil), v...)
		if e.Kind == KindSend && e.MID != "" {
			sendVC[e.MID] = e.VC
		}
	}
}

func jsonErr(err error) string {
	s := err.Error()
	return strings.TrimPrefix(s, "json: ")
}

// Write writes a header and events as JSON lines.
func Write(w io.Writer, h Header, events []Event) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	for k := range events {
		if err := enc.Encode(&events[k]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Per returns the processes' event sequences: Per()[p] lists p's events in seq order.
func (l *Log) Per() [][]*Event {
	out := make([][]*Event, l.N())
	for k := range l.Events {
		e := &l.Events[k]
		out[e.P] = append(out[e.P], e)
	}
	for _, es := range out {
		sort.SliceStable(es, func(a, b int) bool { return es[a].Seq < es[b].Seq })
	}
	return out
}
