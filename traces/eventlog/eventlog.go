package eventlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// format is the identity of the log format, recorded in the header line
// with its version (Header.Format, Header.Version; Write fills both in).
const format = "tokenmc-eventlog"

// version is the version of the log format this package reads and writes.
const version = 1

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
	Format    string         `json:"format"`              // always "tokenmc-eventlog" ("" when written: Write fills it in)
	Version   int            `json:"version"`             // always 1 (0 when written: Write fills it in)
	Algorithm string         `json:"algorithm"`           // registry name with variant, e.g. "suzuki-kasami/send-in-cs"
	Params    map[string]int `json:"params"`              // e.g. {"n": 3, "r": 2}; "n" is required
	Transport string         `json:"transport,omitempty"` // "chan" or "tcp"; informative
	Seed      int64          `json:"seed,omitempty"`      // informative
	Start     string         `json:"start,omitempty"`     // wall-clock start, RFC 3339; informative
	// Observed declares a partial log: which kinds of events, of which
	// processes, the log records. Absent: every event of every process
	// (a full log).
	Observed *Observed `json:"observed,omitempty"`
	// Clock is "global" when every t_ns comes from one clock, so that
	// the order of the t_ns values is the real order of the events; the
	// validation of a partial log then respects it. Absent: the t_ns are
	// informative (unless a partial log has no vector timestamps).
	Clock string `json:"clock,omitempty"`
}

// clockGlobal is the Header.Clock of a log whose t_ns come from one clock.
const clockGlobal = "global"

// Observed says what a partial log records. Events of other kinds or of
// other processes happened but are not in the log; the validation fills
// them in by a search of the model.
type Observed struct {
	// Kinds lists the event kinds the log records (of the Kind
	// constants); empty means all.
	Kinds []string `json:"kinds,omitempty"`
	// Processes lists the processes whose events the log records; empty
	// means all.
	Processes []int `json:"processes,omitempty"`
	// SeqCountsAll says that seq and vc count every event of a process,
	// recorded or not (as the record package writes them), so a gap in a
	// process's seq is the number of its events the log leaves out. The
	// validation then knows how many steps each process took between two
	// recorded events, which keeps its search small.
	SeqCountsAll bool `json:"seq_counts_all,omitempty"`
}

// Event is one line after the header.
type Event struct {
	P     int    `json:"p"`               // the process, 0..n-1
	Seq   int    `json:"seq"`             // 1, 2, ... per process, in the process's order (gaps in a partial log)
	Kind  string `json:"kind"`            // one of the Kind constants
	Group int    `json:"group,omitempty"` // request: the requested group (GME); enter: the group entered
	Timer int    `json:"timer,omitempty"` // timer: which timer fired
	// Msg is the message of a send or receive: either as the model renders
	// it, e.g. "REQ(P1->P0, sn=1)", or a structured message, a JSON object
	// with its kind and fields by name, kept here as its JSON text (it
	// starts with '{'), e.g. {"kind":"REQ","sn":1}. A partial log may omit
	// it. Write writes a structured message as an object; encoding/json
	// writes it as a string, which Read also takes as a structured message.
	Msg     string `json:"msg,omitempty"`
	MID     string `json:"mid,omitempty"`     // send, receive: an identifier of the message copy, unique in the log
	To      *int   `json:"to,omitempty"`      // send: the receiver (required)
	From    *int   `json:"from,omitempty"`    // receive: the sender (absent for a message in transit initially)
	Token   bool   `json:"token,omitempty"`   // send, receive: the message carries the token
	VC      []int  `json:"vc,omitempty"`      // vector timestamp: VC[q] = number of q's events that happen before or are this event
	Lamport int    `json:"lamport,omitempty"` // Lamport timestamp; informative
	TNs     int64  `json:"t_ns"`              // monotonic wall-clock time since the start of the run, in nanoseconds
	// Cause, on a send or enter, is the seq of the trigger (request,
	// exit, receive or timer of the same process) whose model step the
	// event is an effect of. Optional: without it the validator infers
	// which step an effect belongs to (docs/eventlog.md, "Steps").
	Cause int `json:"cause,omitempty"`
	// Thread names the program thread (goroutine, handler) that logged
	// the event. Optional: a send with a thread is an effect of the
	// latest earlier trigger of its process with the same thread.
	Thread string `json:"thread,omitempty"`

	Line int `json:"-"` // the 1-based line of the event in its file

	pat *pattern // the parsed structured message, when Msg is one
}

// Structured reports whether the event's message is a structured message
// (a JSON object) rather than the model's rendering.
func (e *Event) Structured() bool { return len(e.Msg) > 0 && e.Msg[0] == '{' }

// eventJSON is Event's wire form: the same fields in the same order, with
// msg kept raw so that it may be a string or an object.
type eventJSON struct {
	P       int             `json:"p"`
	Seq     int             `json:"seq"`
	Kind    string          `json:"kind"`
	Group   int             `json:"group,omitempty"`
	Timer   int             `json:"timer,omitempty"`
	Msg     json.RawMessage `json:"msg,omitempty"`
	MID     string          `json:"mid,omitempty"`
	To      *int            `json:"to,omitempty"`
	From    *int            `json:"from,omitempty"`
	Token   bool            `json:"token,omitempty"`
	VC      []int           `json:"vc,omitempty"`
	Lamport int             `json:"lamport,omitempty"`
	TNs     int64           `json:"t_ns"`
	Cause   int             `json:"cause,omitempty"`
	Thread  string          `json:"thread,omitempty"`
}

// appendEvent appends e's JSON form without reflection: what a json
// encoder with SetEscapeHTML(false) writes for the struct's fields,
// except that a structured message is written as the object it is.
func appendEvent(b []byte, e *Event) ([]byte, error) {
	b = append(b, `{"p":`...)
	b = strconv.AppendInt(b, int64(e.P), 10)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"kind":`...)
	b = appendString(b, e.Kind)
	if e.Group != 0 {
		b = append(b, `,"group":`...)
		b = strconv.AppendInt(b, int64(e.Group), 10)
	}
	if e.Timer != 0 {
		b = append(b, `,"timer":`...)
		b = strconv.AppendInt(b, int64(e.Timer), 10)
	}
	if e.Msg != "" {
		b = append(b, `,"msg":`...)
		if e.Structured() {
			var buf bytes.Buffer
			if err := json.Compact(&buf, []byte(e.Msg)); err != nil {
				return nil, fmt.Errorf("eventlog: structured message %q: %v", e.Msg, err)
			}
			b = append(b, buf.Bytes()...)
		} else {
			b = appendString(b, e.Msg)
		}
	}
	if e.MID != "" {
		b = append(b, `,"mid":`...)
		b = appendString(b, e.MID)
	}
	if e.To != nil {
		b = append(b, `,"to":`...)
		b = strconv.AppendInt(b, int64(*e.To), 10)
	}
	if e.From != nil {
		b = append(b, `,"from":`...)
		b = strconv.AppendInt(b, int64(*e.From), 10)
	}
	if e.Token {
		b = append(b, `,"token":true`...)
	}
	if len(e.VC) > 0 {
		b = append(b, `,"vc":[`...)
		for k, v := range e.VC {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	if e.Lamport != 0 {
		b = append(b, `,"lamport":`...)
		b = strconv.AppendInt(b, int64(e.Lamport), 10)
	}
	b = append(b, `,"t_ns":`...)
	b = strconv.AppendInt(b, e.TNs, 10)
	if e.Cause != 0 {
		b = append(b, `,"cause":`...)
		b = strconv.AppendInt(b, int64(e.Cause), 10)
	}
	if e.Thread != "" {
		b = append(b, `,"thread":`...)
		b = appendString(b, e.Thread)
	}
	return append(b, '}'), nil
}

// appendString appends s as a JSON string. Printable ASCII other than
// quote and backslash is copied; any other string goes through
// encoding/json (without HTML escaping), so the output is always what an
// encoder writes.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.Encode(s)
			return append(b, bytes.TrimSpace(buf.Bytes())...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// UnmarshalJSON reads one event object; unknown fields are errors, and
// msg may be a string or an object (a structured message).
func (e *Event) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var w eventJSON
	if err := dec.Decode(&w); err != nil {
		return err
	}
	*e = Event{P: w.P, Seq: w.Seq, Kind: w.Kind, Group: w.Group, Timer: w.Timer, MID: w.MID, To: w.To, From: w.From,
		Token: w.Token, VC: w.VC, Lamport: w.Lamport, TNs: w.TNs, Cause: w.Cause, Thread: w.Thread, Line: e.Line}
	m := bytes.TrimSpace(w.Msg)
	switch {
	case len(m) == 0 || string(m) == "null":
	case m[0] == '"':
		if err := json.Unmarshal(m, &e.Msg); err != nil {
			return err
		}
		if e.Structured() { // a structured message encoded as a string
			p, err := parsePattern([]byte(e.Msg))
			if err != nil {
				return fmt.Errorf("msg %q starts with '{' but is not a structured message: %v", e.Msg, err)
			}
			e.pat = p
		}
	case m[0] == '{':
		p, err := parsePattern(m)
		if err != nil {
			return fmt.Errorf("msg: %v", err)
		}
		e.Msg, e.pat = string(m), p
	default:
		return fmt.Errorf("msg must be a string (the message as the model renders it) or an object {\"kind\":...}, not %s", m)
	}
	return nil
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

// IsTrigger reports whether e starts a step: a request, an exit, a
// receive or a timer (an enter or a send is an effect of its step).
func (e *Event) IsTrigger() bool { return isTrigger(e.Kind) }

// isTrigger reports whether an event of kind kind starts a step.
func isTrigger(kind string) bool {
	return kind == KindRequest || kind == KindExit || kind == KindReceive || kind == KindTimer
}

// Log is a parsed event log. Events are in file order.
type Log struct {
	Header Header
	Events []Event
	// VCGiven: the events carry vector timestamps of their own (otherwise
	// Read computed them from process order and message ids).
	VCGiven bool
}

// Partial reports whether the log records only some events (its header
// has Observed).
func (l *Log) Partial() bool { return l.Header.Observed != nil }

// N returns the number of processes.
func (l *Log) N() int { return l.Header.Params["n"] }

// Write writes a header and events as JSON lines. A header without
// Format and Version gets this package's.
func Write(w io.Writer, h Header, events []Event) error {
	if h.Format == "" {
		h.Format = format
	}
	if h.Version == 0 {
		h.Version = version
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	var line []byte
	for k := range events {
		var err error
		if line, err = appendEvent(line[:0], &events[k]); err != nil {
			return err
		}
		if _, err := bw.Write(append(line, '\n')); err != nil {
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
