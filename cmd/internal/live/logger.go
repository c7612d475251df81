package live

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// ErrLog is wrapped by Run's error when Config.Log cannot be written (a
// full disk, say): the run stops at once.
var ErrLog = errors.New("writing the event log")

// logger records the events of a run: streamed to Config.Log as JSON
// lines when it is set (memory stays bounded however long the run), else
// kept in memory for Run to return.
type logger struct {
	mu     sync.Mutex
	start  time.Time
	events []eventlog.Event // without a stream only
	w      *bufio.Writer    // the stream, or nil
	enc    *json.Encoder
	count  int
	err    error       // the first write error of the stream
	broken atomic.Bool // err != nil, read without the lock
}

func newLogger(start time.Time, w io.Writer, h eventlog.Header) (*logger, error) {
	l := &logger{start: start}
	if w == nil {
		return l, nil
	}
	l.w = bufio.NewWriterSize(w, 256<<10)
	// The header exactly as eventlog.Write writes it.
	if err := eventlog.Write(l.w, h, nil); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrLog, err)
	}
	l.enc = json.NewEncoder(l.w)
	l.enc.SetEscapeHTML(false)
	return l, nil
}

// add stamps e with the time since the start and records it.
func (l *logger) add(e eventlog.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e.TNs = time.Since(l.start).Nanoseconds()
	l.count++
	if l.w == nil {
		l.events = append(l.events, e)
		return
	}
	if l.err == nil {
		if err := l.enc.Encode(&e); err != nil {
			l.err = fmt.Errorf("%w: %v", ErrLog, err)
			l.broken.Store(true)
		}
	}
}

// flush writes out the buffered events of the stream.
func (l *logger) flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w != nil && l.err == nil {
		if err := l.w.Flush(); err != nil {
			l.err = fmt.Errorf("%w: %v", ErrLog, err)
			l.broken.Store(true)
		}
	}
	return l.err
}

// logged returns the number of events logged so far.
func (l *logger) logged() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count
}

// failed returns the first write error of the stream.
func (l *logger) failed() error {
	if !l.broken.Load() {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}
