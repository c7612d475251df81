package webui

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tokenmc/tokenmc/cmd/internal/memsize"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/traces"
)

//go:embed static
var static embed.FS

// Config is what the explorer serves.
type Config struct {
	System     model.System
	Algorithm  string         // name with variant, as in trace files
	Params     map[string]int // the parameter values, for titles and traces
	Properties []model.Property
	// Traces are offered in the page's jump box (e.g. the --trace file).
	Traces []*traces.Trace
	// SearchLimit bounds the counterexample search of the page's "find"
	// button (distinct states; 0 means 2,000,000).
	SearchLimit int64
	// SearchTimeout bounds its time (0 means 20 seconds).
	SearchTimeout time.Duration
	// Hosts are the host names and addresses the server answers to
	// besides the loopback ones (localhost, 127.0.0.0/8, ::1), e.g. the
	// address it was asked to bind (Listen returns them). A request whose
	// Host header or Origin names another host is refused with 403: a web
	// page elsewhere cannot reach the server through DNS rebinding or a
	// cross-site form.
	Hosts []string
}

// Limits of the server's work per request and of what it keeps.
const (
	// MaxPathSteps is the longest path GET /api/state replays and the
	// longest trace POST /api/trace accepts.
	MaxPathSteps = 10_000
	// MaxTraceBytes is the largest trace file POST /api/trace reads.
	MaxTraceBytes = 16 << 20
	// MaxPosted is how many posted traces the jump box keeps; a new one
	// evicts the oldest.
	MaxPosted = 16
	// maxBusy is how many state and trace requests are served at once;
	// more are refused with 503 (each one's memory is bounded by the
	// limits above, so all of them together are too).
	maxBusy = 4
	// maxName bounds the length of a property name shown in the jump box.
	maxName = 80
	// maxError bounds an error message (one may quote the posted trace).
	maxError = 8 << 10
)

// Server serves the explorer. Create it with New; it is an http.Handler.
type Server struct {
	cfg Config
	mux *http.ServeMux

	mu     sync.Mutex // guards found
	found  []namedPath
	search sync.Mutex    // one counterexample search at a time
	busy   chan struct{} // a slot per state or trace request being served
}

// namedPath is a path the jump box offers.
type namedPath struct {
	Name string `json:"name"`
	Init int    `json:"init"`
	Path []int  `json:"path"`
	Loop int    `json:"loop"` // first step of a lasso's cycle (1-based), 0 for none
	// Waiting is the process a lasso starves, -1 for none.
	Waiting int  `json:"waiting"`
	posted  bool // from POST /api/trace: evicted first
}

// pathOf names the position of trace t in the jump box.
func pathOf(name string, init int, path []int, t *traces.Trace) namedPath {
	np := namedPath{Name: name, Init: init, Path: path, Waiting: -1}
	if t != nil && t.Loop != nil {
		np.Loop = *t.Loop
		if t.WaitingProcess != nil {
			np.Waiting = *t.WaitingProcess
		}
	}
	return np
}

// New checks cfg and returns a server. Each trace in cfg.Traces must
// replay on cfg.System by its action labels; an error names the first
// step that does not.
func New(cfg Config) (*Server, error) {
	if cfg.System == nil {
		return nil, errors.New("webui: Config.System is nil")
	}
	if cfg.SearchLimit <= 0 {
		cfg.SearchLimit = 2_000_000
	}
	if cfg.SearchTimeout <= 0 {
		cfg.SearchTimeout = 20 * time.Second
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), busy: make(chan struct{}, maxBusy)}
	for _, t := range cfg.Traces {
		if len(t.Steps) > MaxPathSteps {
			return nil, fmt.Errorf("the trace has %d steps; the explorer follows at most %d", len(t.Steps), MaxPathSteps)
		}
		init, path, err := TracePath(cfg.System, t)
		if err != nil {
			return nil, err
		}
		s.found = append(s.found, pathOf(fmt.Sprintf("trace: %s, %d steps", t.Property, len(t.Steps)), init, path, t))
	}
	sub, _ := fs.Sub(static, "static")
	s.mux.Handle("GET /", http.FileServerFS(sub))
	s.mux.HandleFunc("GET /api/info", s.info)
	s.mux.HandleFunc("GET /api/state", s.state)
	s.mux.HandleFunc("POST /api/trace", s.trace)
	s.mux.HandleFunc("POST /api/counterexample", s.counterexample)
	s.mux.HandleFunc("POST /api/lasso", s.lasso)
	return s, nil
}

// ServeHTTP serves the page and its JSON API, to requests whose Host and
// Origin are the server's own (see Config.Hosts).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if msg := s.foreign(r); msg != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
		return
	}
	s.mux.ServeHTTP(w, r)
}

// acquire takes one of the busy slots, or answers 503 and returns false.
func (s *Server) acquire(w http.ResponseWriter) bool {
	select {
	case s.busy <- struct{}{}:
		return true
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("the explorer is serving %d requests already; try again", maxBusy))
		return false
	}
}

func (s *Server) release() { <-s.busy }

// startSearch starts a search for request r, one at a time: it answers
// the client itself when another search runs (ok false); otherwise ctx
// ends with the request or after Config.SearchTimeout, and done releases
// the search.
func (s *Server) startSearch(w http.ResponseWriter, r *http.Request) (ctx context.Context, done func(), ok bool) {
	if !s.search.TryLock() {
		httpError(w, "a search is already running; wait for it")
		return nil, nil, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.SearchTimeout)
	return ctx, func() { cancel(); s.search.Unlock() }, true
}

// info is the page's header: what is explored and which paths it offers.
type info struct {
	Algorithm  string         `json:"algorithm"`
	Params     map[string]int `json:"params"`
	Processes  int            `json:"processes"`
	Initial    int            `json:"initial"`
	Properties []string       `json:"properties"`
	Paths      []namedPath    `json:"paths"`
}

func (s *Server) info(w http.ResponseWriter, _ *http.Request) {
	in := info{Algorithm: s.cfg.Algorithm, Params: s.cfg.Params, Processes: s.cfg.System.Info().Processes, Properties: []string{}}
	s.cfg.System.NewWorker().Initial(func([]byte) bool { in.Initial++; return true })
	for _, p := range s.cfg.Properties {
		in.Properties = append(in.Properties, p.Name)
	}
	s.mu.Lock()
	in.Paths = append([]namedPath{}, s.found...)
	s.mu.Unlock()
	writeJSON(w, in)
}

// state answers GET /api/state?init=I&path=a.b.c: the state that path
// reaches, with its actions, properties and chart.
func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	if !s.acquire(w) {
		return
	}
	defer s.release()
	init, err := atoiOr(r.URL.Query().Get("init"), 0)
	if err != nil {
		httpError(w, "init: "+err.Error())
		return
	}
	path, err := parsePath(r.URL.Query().Get("path"))
	if err != nil {
		writeError(w, statusOf(err), err.Error())
		return
	}
	lasso, err := atoiOr(r.URL.Query().Get("loop"), 0)
	if err != nil {
		httpError(w, "loop: "+err.Error())
		return
	}
	starving := -1
	if q := r.URL.Query().Get("starving"); q != "" {
		if starving, err = atoiOr(q, -1); err != nil {
			httpError(w, "starving: "+err.Error())
			return
		}
	}
	v, err := s.view(r.Context(), init, path, lasso, starving)
	if err != nil {
		if r.Context().Err() != nil {
			return // the client has gone; nobody reads an answer
		}
		httpError(w, err.Error())
		return
	}
	writeJSON(w, v)
}

// trace answers POST /api/trace with a trace file in the body: the path
// it takes, added to the jump box.
func (s *Server) trace(w http.ResponseWriter, r *http.Request) {
	if !s.acquire(w) {
		return
	}
	defer s.release()
	t, err := traces.Read(http.MaxBytesReader(w, r.Body, MaxTraceBytes))
	if err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the trace is larger than %d MiB, the most the explorer reads; explore it with tokenmc explore --trace FILE", MaxTraceBytes>>20))
			return
		}
		httpError(w, err.Error())
		return
	}
	if len(t.Steps) > MaxPathSteps {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the trace has %d steps; the explorer follows at most %d", len(t.Steps), MaxPathSteps))
		return
	}
	if t.Algorithm != s.cfg.Algorithm {
		httpError(w, fmt.Sprintf("the trace is of %s, the explorer shows %s", t.Algorithm, s.cfg.Algorithm))
		return
	}
	init, path, err := tracePath(r.Context(), s.cfg.System, t)
	if err != nil {
		if r.Context().Err() != nil {
			return
		}
		httpError(w, err.Error())
		return
	}
	np := pathOf(fmt.Sprintf("pasted: %s, %d steps", clip(t.Property, maxName), len(path)), init, path, t)
	np.posted = true
	s.remember(np)
	writeJSON(w, np)
}

// counterexample answers POST /api/counterexample?prop=NAME: a shortest
// path to a violation of the property, searched breadth first within the
// configured bounds.
func (s *Server) counterexample(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("prop")
	var prop *model.Property
	for k := range s.cfg.Properties {
		if s.cfg.Properties[k].Name == name {
			prop = &s.cfg.Properties[k]
		}
	}
	if prop == nil {
		httpError(w, fmt.Sprintf("no property %q; the explorer checks %s", name, strings.Join(s.propNames(), ", ")))
		return
	}
	ctx, done, ok := s.startSearch(w, r)
	if !ok {
		return
	}
	defer done()
	res, err := explore.Check(ctx, s.cfg.System, explore.Options{Properties: []model.Property{*prop}, MaxStates: s.cfg.SearchLimit,
		MemoryBudget: memsize.DefaultBudget()})
	if err != nil {
		httpError(w, err.Error())
		return
	}
	if res.Violation == nil {
		msg := fmt.Sprintf("%s holds on all %d reachable states", name, res.States)
		if res.Verdict != explore.OK {
			msg = fmt.Sprintf("no violation of %s among the %d states searched (stopped: %s)", name, res.States, res.StopReason)
		}
		writeJSON(w, map[string]string{"message": msg})
		return
	}
	init, path, err := statesPath(s.cfg.System.NewWorker(), res.Violation.Path, res.Violation.Actions)
	if err != nil {
		httpError(w, err.Error())
		return
	}
	np := pathOf(fmt.Sprintf("counterexample: %s, %d steps", name, len(path)), init, path, nil)
	s.remember(np)
	writeJSON(w, np)
}

// remember adds np to the jump box unless the same path is there; of
// posted paths it keeps the MaxPosted newest.
func (s *Server) remember(np namedPath) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.found {
		if f.Name == np.Name && f.Init == np.Init && slices.Equal(f.Path, np.Path) {
			return
		}
	}
	if np.posted {
		n, oldest := 0, -1
		for k, f := range s.found {
			if f.posted {
				if oldest < 0 {
					oldest = k
				}
				n++
			}
		}
		if n >= MaxPosted {
			s.found = slices.Delete(s.found, oldest, oldest+1)
		}
	}
	s.found = append(s.found, np)
}

// clip cuts s to at most n bytes (at a rune boundary), marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := n
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + "..."
}

func (s *Server) propNames() []string {
	var out []string
	for _, p := range s.cfg.Properties {
		out = append(out, p.Name)
	}
	return out
}

// errTooLong marks a request for more work than the server does per
// request (413).
var errTooLong = errors.New("too long")

func statusOf(err error) int {
	if errors.Is(err, errTooLong) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// parsePath reads a path parameter: transition indices separated by dots,
// at most MaxPathSteps of them.
func parsePath(q string) ([]int, error) {
	if q == "" {
		return nil, nil
	}
	if n := strings.Count(q, ".") + 1; n > MaxPathSteps {
		return nil, fmt.Errorf("path: %d steps; the explorer follows at most %d (%w)", n, MaxPathSteps, errTooLong)
	}
	var out []int
	for f := range strings.SplitSeq(q, ".") {
		k, err := strconv.Atoi(f)
		if err != nil || k < 0 {
			return nil, fmt.Errorf("path: %q is not a transition index; want numbers separated by dots, e.g. 0.3.1", clip(f, maxName))
		}
		out = append(out, k)
	}
	return out, nil
}

func atoiOr(s string, def int) (int, error) {
	if s == "" {
		return def, nil
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 0 {
		return 0, fmt.Errorf("%q is not a non-negative number", clip(s, maxName))
	}
	return k, nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func httpError(w http.ResponseWriter, msg string) { writeError(w, http.StatusBadRequest, msg) }

func writeError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": clip(msg, maxError)})
}
