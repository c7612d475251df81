package record

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/tokenmc/tokenmc/traces/eventlog"
)

// maxProcesses is the largest n a log may have (the event log format's
// bound; TestNBounds checks that eventlog reads a log of that many).
const maxProcesses = 1000

// Config says which model a log is of and what it records.
type Config struct {
	// Algorithm is the model the implementation implements, as tokenmc
	// names it (tokenmc list), e.g. "suzuki-kasami".
	Algorithm string
	// Params are the model's parameters; "n", the number of processes,
	// is required. Give "r" as the number of requests per process the
	// implementation makes (or more).
	Params map[string]int
	// Kinds lists the event kinds to write (eventlog.KindRequest, ...);
	// empty means all. Events of other kinds still advance the clocks,
	// so a partial log says how many events it leaves out.
	Kinds []string
	// Processes lists the processes whose events are written; empty
	// means all.
	Processes []int
	// Names, if set, gives each process's name (Names[p] for process p),
	// written in p, to and from instead of its number: a log in the
	// program's own words, read back with a mapping file (docs/mapping.md).
	// Vector timestamps stay indexed by number.
	Names []string
}

// Stamp is what a message carries from its send to its receive: its id,
// its sender and the sender's vector clock at the send. Put it in the
// message (it is a small value; it marshals to JSON) and give it back to
// Receive.
type Stamp struct {
	MID     string `json:"mid"`
	From    int    `json:"from"`
	VC      []int  `json:"vc"`
	Lamport int    `json:"lamport"`
}

// Log writes an event log. It is safe for concurrent use: each call
// writes one line under a lock, so the order of the lines, and of their
// t_ns, is the order of the calls. Processes are numbered 0..n-1.
type Log struct {
	*writer
	thread string // written in each event's "thread" (Thread)
}

// writer is the state a Log and its Thread views share.
type writer struct {
	mu      sync.Mutex
	w       *bufio.Writer
	c       io.Closer
	n       int
	start   time.Time
	vc      [][]int
	lamport []int
	sent    []int
	kinds   map[string]bool
	procs   []bool
	names   []string
	err     error
}

// Create creates (or truncates) the file path and starts a log in it.
func Create(path string, cfg Config) (*Log, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	l, err := New(f, cfg)
	if err != nil {
		f.Close()
		return nil, err
	}
	l.c = f
	return l, nil
}

// New starts a log on w: it writes the header line at once.
func New(w io.Writer, cfg Config) (*Log, error) {
	n := cfg.Params["n"]
	if cfg.Algorithm == "" {
		return nil, errors.New("record: Config.Algorithm is empty; name the model, e.g. \"suzuki-kasami\"")
	}
	if n < 1 || n > maxProcesses {
		return nil, fmt.Errorf("record: Config.Params[\"n\"] is %d; want 1..%d", n, maxProcesses)
	}
	l := &Log{writer: &writer{w: bufio.NewWriterSize(w, 1<<16), n: n, start: time.Now(), vc: make([][]int, n),
		lamport: make([]int, n), sent: make([]int, n), procs: make([]bool, n)}}
	for p := range l.vc {
		l.vc[p] = make([]int, n)
	}
	h := eventlog.Header{Algorithm: cfg.Algorithm,
		Params: cfg.Params, Start: l.start.UTC().Format(time.RFC3339Nano), Clock: "global"}
	if len(cfg.Kinds) > 0 || len(cfg.Processes) > 0 {
		h.Observed = &eventlog.Observed{Kinds: cfg.Kinds, Processes: cfg.Processes, SeqCountsAll: true}
	}
	if len(cfg.Kinds) > 0 {
		l.kinds = map[string]bool{}
		for _, k := range cfg.Kinds {
			l.kinds[k] = true
		}
	}
	if cfg.Names != nil {
		if len(cfg.Names) != n {
			return nil, fmt.Errorf("record: Config.Names has %d names for %d processes", len(cfg.Names), n)
		}
		l.names = cfg.Names
	}
	for _, p := range cfg.Processes {
		if p < 0 || p >= n {
			return nil, fmt.Errorf("record: Config.Processes names P%d; processes are 0..%d", p, n-1)
		}
		l.procs[p] = true
	}
	if len(cfg.Processes) == 0 {
		for p := range l.procs {
			l.procs[p] = true
		}
	}
	if err := eventlog.Write(l.w, h, nil); err != nil { // the header line, with format and version
		return nil, err
	}
	return l, nil
}

// line is one event as written.
type line struct {
	P       any             `json:"p"` // a number, or a name (Config.Names)
	Seq     int             `json:"seq"`
	Kind    string          `json:"kind"`
	Group   int             `json:"group,omitempty"`
	Timer   int             `json:"timer,omitempty"`
	Msg     json.RawMessage `json:"msg,omitempty"`
	MID     string          `json:"mid,omitempty"`
	To      any             `json:"to,omitempty"`
	From    any             `json:"from,omitempty"`
	VC      []int           `json:"vc"`
	Lamport int             `json:"lamport"`
	TNs     int64           `json:"t_ns"`
	Thread  string          `json:"thread,omitempty"`
}

// event ticks p's clock and writes the event if it is recorded; the
// caller holds l.mu.
func (l *Log) event(p int, e line) {
	if p < 0 || p >= l.n {
		panic(fmt.Sprintf("record: process %d is outside 0..%d", p, l.n-1))
	}
	l.vc[p][p]++
	l.lamport[p]++
	if !l.procs[p] || l.kinds != nil && !l.kinds[e.Kind] {
		return
	}
	e.P, e.Seq, e.VC, e.Lamport, e.Thread = l.name(p), l.vc[p][p], l.vc[p], l.lamport[p], l.thread
	e.TNs = time.Since(l.start).Nanoseconds()
	b, err := json.Marshal(&e)
	if err == nil {
		_, err = l.w.Write(append(b, '\n'))
	}
	if err != nil && l.err == nil {
		l.err = err
	}
}

// Thread returns a view of the log that writes the same log and marks
// each event with the program thread (goroutine, handler) name that
// logged it. A process whose steps are logged non-atomically, from
// several threads, can so tell the validator which trigger each send
// belongs to: the latest earlier trigger of its process logged from the
// same thread (docs/eventlog.md). Closing or flushing a view closes or
// flushes the log.
func (l *Log) Thread(name string) *Log { return &Log{writer: l.writer, thread: name} }

// name is what the log calls process p.
func (l *Log) name(p int) any {
	if l.names != nil {
		return l.names[p]
	}
	return p
}

// encodeMsg renders a message: a string is the model's rendering; any
// other value is marshalled and must be a JSON object with "kind" (after
// the mapping, if the log is read with one); nil is no payload.
func encodeMsg(msg any) (json.RawMessage, error) {
	switch m := msg.(type) {
	case nil:
		return nil, nil
	case string:
		return json.Marshal(m)
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, fmt.Errorf("record: a message must marshal to a JSON object or be a string, not %s", b)
	}
	return b, nil
}

// Request records that process p asked for its critical section.
func (l *Log) Request(p int) { l.RequestGroup(p, 0) }

// RequestGroup records a request for group (or resource) g.
func (l *Log) RequestGroup(p, g int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.event(p, line{Kind: eventlog.KindRequest, Group: g})
}

// Enter records that p entered its critical section. It is an effect of
// an earlier trigger of p (the request, or the receive that let p in),
// and may be logged after other events of p, as a polling loop notices
// it may enter.
func (l *Log) Enter(p int) { l.EnterGroup(p, 0) }

// EnterGroup records an entry in group g.
func (l *Log) EnterGroup(p, g int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.event(p, line{Kind: eventlog.KindEnter, Group: g})
}

// Exit records that p left its critical section.
func (l *Log) Exit(p int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.event(p, line{Kind: eventlog.KindExit})
}

// Timer records that timer t of p fired.
func (l *Log) Timer(p, t int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.event(p, line{Kind: eventlog.KindTimer, Timer: t})
}

// Send records that p sends msg to process to and returns the stamp the
// message must carry to its receiver.
func (l *Log) Send(p, to int, msg any) Stamp {
	raw, err := encodeMsg(msg)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil && l.err == nil {
		l.err = err
	}
	l.sent[p]++
	mid := strconv.Itoa(p) + "." + strconv.Itoa(l.sent[p])
	if to < 0 || to >= l.n {
		panic(fmt.Sprintf("record: Send to process %d, outside 0..%d", to, l.n-1))
	}
	l.event(p, line{Kind: eventlog.KindSend, Msg: raw, MID: mid, To: l.name(to)})
	return Stamp{MID: mid, From: p, VC: slices.Clone(l.vc[p]), Lamport: l.lamport[p]}
}

// Receive records that p received msg, which carried st.
func (l *Log) Receive(p int, st Stamp, msg any) {
	raw, err := encodeMsg(msg)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil && l.err == nil {
		l.err = err
	}
	if st.From < 0 || st.From >= l.n || len(st.VC) != l.n {
		panic(fmt.Sprintf("record: Receive got a stamp from process %d with %d clock entries; give it the Stamp that Send returned", st.From, len(st.VC)))
	}
	v := l.vc[p]
	for q := range v {
		if q < len(st.VC) {
			v[q] = max(v[q], st.VC[q])
		}
	}
	l.lamport[p] = max(l.lamport[p], st.Lamport)
	l.event(p, line{Kind: eventlog.KindReceive, Msg: raw, MID: st.MID, From: l.name(st.From)})
}

// Flush writes what is buffered to the underlying writer.
func (l *Log) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.w.Flush(); err != nil && l.err == nil {
		l.err = err
	}
	return l.err
}

// Close flushes the log and closes its file (if Create opened it). It
// returns the first error any write met.
func (l *Log) Close() error {
	err := l.Flush()
	if l.c != nil {
		if cerr := l.c.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
