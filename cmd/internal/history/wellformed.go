package history

import (
	"fmt"
	"math"
)

// maxLine is the longest history line Read accepts, in bytes.
const maxLine = 1 << 20

// wellFormed checks, event by event, the rules every history obeys: known
// processes and operations, call and return alternating per process, a
// return matching its pending call, and times that do not go back within a
// process. Read and Validate share it.
type wellFormed struct {
	pending map[int]*Event
	last    map[int]int64
}

// add checks e after the events added before it; it returns "" or what is
// wrong, without the line.
func (w *wellFormed) add(h *Header, e *Event) string {
	if w.pending == nil {
		w.pending, w.last = map[int]*Event{}, map[int]int64{}
	}
	if e.P < 0 || (h.Processes > 0 && e.P >= h.Processes) {
		if h.Processes > 0 {
			return fmt.Sprintf("unknown process %d; the header says processes 0..%d", e.P, h.Processes-1)
		}
		return fmt.Sprintf("unknown process %d; processes are numbered from 0", e.P)
	}
	if e.Op != "acquire" && e.Op != "release" {
		return fmt.Sprintf("unknown op %q; ops are acquire and release", e.Op)
	}
	if e.TNs < 0 || e.TNs == math.MaxInt64 {
		return fmt.Sprintf("t_ns %d is out of range; times are in [0, 2^63-2] nanoseconds", e.TNs)
	}
	if t, ok := w.last[e.P]; ok && e.TNs < t {
		return fmt.Sprintf("process %d's time goes back from %d to %d", e.P, t, e.TNs)
	}
	w.last[e.P] = e.TNs
	switch e.Ev {
	case "call":
		if c := w.pending[e.P]; c != nil {
			return fmt.Sprintf("process %d calls %s while its %s of line %d has not returned", e.P, e.Op, c.Op, c.Line)
		}
		w.pending[e.P] = e
	case "return":
		c := w.pending[e.P]
		if c == nil {
			return fmt.Sprintf("unmatched return: process %d has no pending call of %s", e.P, e.Op)
		}
		if c.Op != e.Op {
			return fmt.Sprintf("unmatched return: process %d returns from %s but its pending call (line %d) is %s", e.P, e.Op, c.Line, c.Op)
		}
		delete(w.pending, e.P)
	default:
		return fmt.Sprintf("unknown ev %q; ev is call or return", e.Ev)
	}
	return ""
}

// Validate checks that h is well formed, as Read checks a file: known
// processes, call and return alternating per process, returns matching
// their calls, times in range and not going back within a process.
// linearize.Check needs a well-formed history; a history from FromLog of an arbitrary log
// need not be one (an enter without a request, a time going back), so
// check it first. Errors are *LineError naming file and the event's Line
// (for FromLog, the line of the log event it comes from).
func (h *History) Validate(file string) error {
	switch h.Header.Model {
	case "", ModelLock, ModelGroupLock, ModelLocks:
	default:
		return &LineError{File: file, Line: 1, Msg: fmt.Sprintf("unknown model %q; valid: lock, group-lock, locks", h.Header.Model)}
	}
	var wf wellFormed
	for k := range h.Events {
		e := &h.Events[k]
		if msg := wf.add(&h.Header, e); msg != "" {
			return &LineError{File: file, Line: e.Line, Msg: msg}
		}
	}
	return nil
}
