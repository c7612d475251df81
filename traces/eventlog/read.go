package eventlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strings"

	"github.com/tokenmc/tokenmc/model/safefile"
)

// Limits on what a log may declare, checked before anything is allocated.
const (
	// maxProcesses bounds the header's n: vector timestamps take n
	// integers per event and the reader keeps one clock per process.
	maxProcesses = 1000
	// maxLineBytes bounds one line of a log.
	maxLineBytes = 4 << 20
	// maxSeq bounds seq and the entries of vector timestamps.
	maxSeq = 1<<31 - 1
)

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

// Reader reads a log one event at a time, checking each line as Read
// does, so that a long log is validated in bounded memory and a log that
// is still being written can be followed.
type Reader struct {
	br      *bufio.Reader
	file    string
	line    int
	pending []byte // an unterminated last line (Follow)
	// Follow makes Next treat an unterminated last line as not yet
	// written: it returns io.EOF and reads the line once it is complete.
	Follow bool
	// Mapping, if set before the first call to Next, translates an
	// implementation's own names into the model's on every line.
	Mapping *Mapping

	header   Header
	n        int
	partial  bool
	kinds    map[string]bool // observed kinds; nil: all
	procs    []bool          // observed processes
	seq      []int
	trig     []bool
	trigSeq  [][]uint64     // full logs: per process, a bit per seq that is a trigger
	sent     map[uint64]int // hashed send ids -> line
	vcMode   int            // 0 unknown, 1 every event has vc, 2 none has
	cur      [][]int        // computed clocks (vcMode 2)
	sendVC   map[string][]int
	recvVC   map[string]recvStamp // vc given: receives read before their send
	events   int
	lastLine int
}

// NewReader returns a reader of the log in r; file names it in errors.
func NewReader(r io.Reader, file string) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 1<<16), file: file}
}

func (r *Reader) bad(format string, args ...any) error {
	return &LineError{File: r.file, Line: max(r.line, 1), Msg: fmt.Sprintf(format, args...)}
}

// readLine returns the next complete line (without its newline), or
// io.EOF.
func (r *Reader) readLine() ([]byte, error) {
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.pending = append(r.pending, chunk...)
		if len(r.pending) > maxLineBytes {
			r.line++
			r.pending = r.pending[:0]
			return nil, r.bad("the line is longer than %d bytes; a log has one event per line", maxLineBytes)
		}
		switch {
		case err == nil:
			r.line++
			line := r.pending
			r.pending = r.pending[:0]
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(r.pending) == 0 || r.Follow {
				return nil, io.EOF
			}
			r.line++
			line := r.pending
			r.pending = nil
			return line, nil
		default:
			return nil, fmt.Errorf("%s:%d: %v", r.file, r.line+1, err)
		}
	}
}

// Header reads the header line if it has not been read, and returns it.
func (r *Reader) Header() (Header, error) {
	if r.n > 0 {
		return r.header, nil
	}
	for {
		raw, err := r.readLine()
		if err == io.EOF {
			if r.Follow {
				return Header{}, io.EOF
			}
			return Header{}, &LineError{File: r.file, Line: max(r.line, 1), Msg: "empty log: want a header line, then one JSON event per line"}
		}
		if err != nil {
			return Header{}, err
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		return r.header, r.readHeader(raw)
	}
}

func (r *Reader) readHeader(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	h := &r.header
	if err := dec.Decode(h); err != nil {
		return r.bad("the header is not a JSON object of the form {\"format\":%q,\"version\":%d,\"algorithm\":...,\"params\":{\"n\":...}}: %v", format, version, jsonErr(err))
	}
	if dec.More() {
		return r.bad("more than one JSON value on the header line")
	}
	if h.Format != format || h.Version != version {
		return r.bad("the header says format %q version %d; want %q version %d", h.Format, h.Version, format, version)
	}
	if h.Algorithm == "" {
		return r.bad("the header has no \"algorithm\"; name the model, e.g. \"suzuki-kasami\"")
	}
	n := h.Params["n"]
	if n < 1 || n > maxProcesses {
		return r.bad("the header's params need \"n\" in 1..%d (the number of processes), got %d", maxProcesses, n)
	}
	if h.Clock != "" && h.Clock != clockGlobal {
		return r.bad("the header's clock is %q; the only value is %q (every t_ns from one clock)", h.Clock, clockGlobal)
	}
	r.procs = make([]bool, n)
	if o := h.Observed; o != nil {
		r.partial = true
		if len(o.Kinds) > 0 {
			r.kinds = map[string]bool{}
			for _, k := range o.Kinds {
				if !validKind(k) {
					return r.bad("the header observes kind %q; kinds are request, enter, exit, send, receive, timer", k)
				}
				r.kinds[k] = true
			}
		}
		for _, p := range o.Processes {
			if p < 0 || p >= n {
				return r.bad("the header observes process P%d; processes are P0..P%d", p, n-1)
			}
			r.procs[p] = true
		}
	}
	if !r.partial || len(h.Observed.Processes) == 0 {
		for p := range r.procs {
			r.procs[p] = true
		}
	}
	r.n = n
	r.seq = make([]int, n)
	r.trig = make([]bool, n)
	r.sent = map[uint64]int{}
	return nil
}

func validKind(k string) bool {
	switch k {
	case KindRequest, KindEnter, KindExit, KindSend, KindReceive, KindTimer:
		return true
	}
	return false
}

// Next returns the next event, or io.EOF at the end of the input (with
// Follow: of what has been written so far). Errors name the line.
func (r *Reader) Next() (*Event, error) {
	if _, err := r.Header(); err != nil {
		return nil, err
	}
	for {
		raw, err := r.readLine()
		if err != nil {
			return nil, err
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		if r.Mapping != nil {
			if raw, err = r.Mapping.apply(raw); err != nil {
				return nil, r.bad("%v", err)
			}
		}
		e := &Event{Line: r.line}
		dec := json.NewDecoder(bytes.NewReader(raw))
		if err := dec.Decode(e); err != nil {
			return nil, r.bad("not a JSON event object {\"p\":..,\"seq\":..,\"kind\":..}: %v", jsonErr(err))
		}
		if dec.More() {
			return nil, r.bad("more than one JSON value on the line; write one event per line")
		}
		e.Line = r.line
		if err := r.check(e); err != nil {
			return nil, err
		}
		r.events++
		r.lastLine = r.line
		return e, nil
	}
}

// markTrigger records that P p's event seq is a trigger (full logs).
func (r *Reader) markTrigger(p, seq int) {
	if r.trigSeq == nil {
		r.trigSeq = make([][]uint64, r.n)
	}
	w := seq / 64
	for len(r.trigSeq[p]) <= w {
		r.trigSeq[p] = append(r.trigSeq[p], 0)
	}
	r.trigSeq[p][w] |= 1 << (seq % 64)
}

// isTrigger reports whether P p's event seq was read as a trigger.
func (r *Reader) isTrigger(p, seq int) bool {
	w := seq / 64
	return r.trigSeq != nil && w < len(r.trigSeq[p]) && r.trigSeq[p][w]&(1<<(seq%64)) != 0
}

// check applies the format rules to one event and completes its vector
// timestamp when the log has none.
func (r *Reader) check(e *Event) error {
	n := r.n
	if e.P < 0 || e.P >= n {
		return r.bad("unknown process P%d; the header says n=%d, so processes are P0..P%d", e.P, n, n-1)
	}
	if !validKind(e.Kind) {
		return r.bad("unknown kind %q; kinds are request, enter, exit, send, receive, timer", e.Kind)
	}
	if r.partial {
		if r.kinds != nil && !r.kinds[e.Kind] {
			return r.bad("a %s event, but the header's observed kinds are %s", e.Kind, strings.Join(r.header.Observed.Kinds, ", "))
		}
		if !r.procs[e.P] {
			return r.bad("an event of P%d, but the header does not observe P%d", e.P, e.P)
		}
	}
	if isTrigger(e.Kind) {
		r.trig[e.P] = true
		if !r.partial && e.Seq >= 1 && e.Seq <= maxSeq {
			r.markTrigger(e.P, e.Seq)
		}
	} else if !r.partial && !r.trig[e.P] {
		return r.bad("P%d %s before any request, exit, receive or timer of P%d: sends and enters are effects of the step that precedes them", e.P, e.Kind, e.P)
	}
	if (e.Kind == KindSend || e.Kind == KindReceive) && e.Msg == "" && !r.partial {
		return r.bad("a %s needs \"msg\", the message as the model renders it, e.g. \"REQ(P1->P0, sn=1)\", or a structured message {\"kind\":...}", e.Kind)
	}
	if e.Kind != KindSend && e.Kind != KindReceive && (e.Msg != "" || e.MID != "" || e.To != nil || e.From != nil) {
		return r.bad("a %s has no msg, mid, to or from; only send and receive events do", e.Kind)
	}
	if e.Cause != 0 {
		if e.Kind != KindSend && e.Kind != KindEnter {
			return r.bad("a %s has no \"cause\"; only effects (send, enter) name the trigger whose step they belong to", e.Kind)
		}
		if e.Cause < 1 || e.Cause >= e.Seq {
			return r.bad("cause is %d; it is the seq of an earlier trigger of P%d (1..%d)", e.Cause, e.P, e.Seq-1)
		}
		if !r.partial && !r.isTrigger(e.P, e.Cause) {
			return r.bad("cause is %d, but P%d's event %d is no trigger (request, exit, receive or timer): cause names the trigger whose step the effect belongs to", e.Cause, e.P, e.Cause)
		}
	}
	if len(e.Thread) > 256 {
		return r.bad("thread is %d bytes long; name a thread in at most 256", len(e.Thread))
	}
	if e.Kind == KindSend && e.To == nil {
		return r.bad("a send needs \"to\", the receiving process")
	}
	if e.Kind == KindSend && e.From != nil {
		return r.bad("a send has no \"from\": its sender is its process p")
	}
	if e.Kind == KindReceive && e.To != nil {
		return r.bad("a receive has no \"to\": its receiver is its process p")
	}
	for _, q := range []*int{e.To, e.From} {
		if q != nil && (*q < 0 || *q >= n) {
			return r.bad("unknown process P%d in \"to\"/\"from\"; processes are P0..P%d", *q, n-1)
		}
	}
	if e.Seq < 1 || e.Seq > maxSeq {
		return r.bad("seq is %d; it counts the process's events from 1 (at most %d)", e.Seq, maxSeq)
	}
	if e.Group < 0 || e.Timer < 0 {
		return r.bad("group and timer are numbers >= 0")
	}
	if e.TNs < 0 {
		return r.bad("t_ns is %d; times are >= 0", e.TNs)
	}
	if e.Kind == KindSend && e.MID != "" {
		h := hashMID(e.MID)
		if prev, dup := r.sent[h]; dup {
			return r.bad("message id %q was already sent at line %d; ids must be unique", e.MID, prev)
		}
		r.sent[h] = r.line
	}
	if r.partial {
		if e.Seq <= r.seq[e.P] {
			return r.bad("P%d seq is %d after %d; seq increases with each event of a process", e.P, e.Seq, r.seq[e.P])
		}
		r.seq[e.P] = e.Seq
	} else {
		r.seq[e.P]++
		if e.Seq != r.seq[e.P] {
			return r.bad("P%d seq is %d; want %d (each process numbers its events 1, 2, 3, ... in file order)", e.P, e.Seq, r.seq[e.P])
		}
	}
	has := 2
	if e.VC != nil {
		has = 1
	}
	if r.vcMode == 0 {
		r.vcMode = has
		if has == 2 {
			r.cur = make([][]int, n)
			r.sendVC = map[string][]int{}
		}
	} else if r.vcMode != has {
		return r.bad("this event has %s vector timestamp but the first event %s; give \"vc\" on every event or on none", map[bool]string{true: "a", false: "no"}[has == 1], map[bool]string{true: "has one", false: "has none"}[r.vcMode == 1])
	}
	if has == 1 {
		if len(e.VC) != n {
			return r.bad("vector timestamp has %d entries; want n=%d", len(e.VC), n)
		}
		if e.VC[e.P] != e.Seq {
			return r.bad("vc[%d] is %d; want the event's seq %d", e.P, e.VC[e.P], e.Seq)
		}
		for q, v := range e.VC {
			if v < 0 || v > maxSeq {
				return r.bad("vc[%d] is %d; entries are counts of events, 0..%d", q, v, maxSeq)
			}
		}
		return r.checkCovers(e)
	}
	// No vector timestamps: process order plus send-before-receive by mid.
	v := r.cur[e.P]
	if v == nil {
		v = make([]int, n)
		r.cur[e.P] = v
	}
	if e.Kind == KindReceive && e.MID != "" {
		if sv, ok := r.sendVC[e.MID]; ok {
			for q := range v {
				v[q] = max(v[q], sv[q])
			}
			delete(r.sendVC, e.MID)
		}
	}
	v[e.P] = e.Seq
	e.VC = slices.Clone(v)
	if e.Kind == KindSend && e.MID != "" {
		r.sendVC[e.MID] = e.VC
	}
	return nil
}

// checkCovers checks that a receive's vector timestamp covers its
// send's: the send happens before the receive, so every event before the
// send is before the receive. The send or the receive may come first in
// the file; the other one's timestamp is kept until its partner is read.
func (r *Reader) checkCovers(e *Event) error {
	if e.MID == "" || e.Kind != KindSend && e.Kind != KindReceive {
		return nil
	}
	if r.sendVC == nil {
		r.sendVC, r.recvVC = map[string][]int{}, map[string]recvStamp{}
	}
	if e.Kind == KindSend {
		if rv, ok := r.recvVC[e.MID]; ok {
			delete(r.recvVC, e.MID)
			return r.covers(e.MID, e.VC, e.Line, rv.vc, rv.line)
		}
		r.sendVC[e.MID] = e.VC
		return nil
	}
	if sv, ok := r.sendVC[e.MID]; ok {
		delete(r.sendVC, e.MID)
		return r.covers(e.MID, sv, r.sent[hashMID(e.MID)], e.VC, e.Line)
	}
	r.recvVC[e.MID] = recvStamp{e.VC, e.Line}
	return nil
}

type recvStamp struct {
	vc   []int
	line int
}

// covers reports an error unless the receive's timestamp rv is at least
// the send's sv in every entry.
func (r *Reader) covers(mid string, sv []int, sendLine int, rv []int, recvLine int) error {
	for q := range sv {
		if rv[q] < sv[q] {
			return r.bad("message %q: the receive's vector timestamp %v (line %d) does not cover its send's %v (line %d): vc[%d] is %d < %d; a receive happens after its send, so its timestamp must be at least the send's in every entry (merge the carried clock into the receiver's before ticking)",
				mid, rv, recvLine, sv, sendLine, q, rv[q], sv[q])
		}
	}
	return nil
}

// VCGiven reports whether the log's events carry vector timestamps (as
// opposed to timestamps the reader computed). Valid after the first event.
func (r *Reader) VCGiven() bool { return r.vcMode == 1 }

// Line returns the number of lines read so far.
func (r *Reader) Line() int { return r.line }

func hashMID(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// ReadFile reads and checks a log file; see Read.
func ReadFile(path string) (*Log, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read parses a log: a header line, then one event per line (blank lines
// are skipped). It checks the format, not the behaviour: every line is a
// JSON object with known fields, processes are in 0..n-1 (n at most
// 1000), each process's seq runs 1, 2, 3, ... (increases, in a
// partial log), vector timestamps (when present on every event) have n
// entries with VC[p] = seq, a send or enter follows a trigger of its
// process (in a full log), and message ids are not sent twice. Errors
// name the line. Without vector timestamps Read computes them from
// process order and the send and receive of each message id.
func Read(r io.Reader, file string) (*Log, error) {
	var m *Mapping
	return m.Read(r, file)
}

// Read is Read with m, the mapping from an implementation's names to the
// model's (a nil m maps nothing).
func (m *Mapping) Read(r io.Reader, file string) (*Log, error) {
	rd := NewReader(r, file)
	rd.Mapping = m
	h, err := rd.Header()
	if err != nil {
		return nil, err
	}
	l := &Log{Header: h}
	for {
		e, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		l.Events = append(l.Events, *e)
	}
	l.VCGiven = rd.VCGiven()
	return l, nil
}

func jsonErr(err error) string {
	s := err.Error()
	return strings.TrimPrefix(s, "json: ")
}
