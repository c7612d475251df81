package webui

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

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
}

// Server serves the explorer. Create it with New; it is an http.Handler.
type Server struct {
	cfg Config
	mux *http.ServeMux

	mu     sync.Mutex // guards found
	found  []namedPath
	search sync.Mutex // one counterexample search at a time
}

// namedPath is a path the jump box offers.
type namedPath struct {
	Name string `json:"name"`
	Init int    `json:"init"`
	Path []int  `json:"path"`
	Loop int    `json:"loop"` // first step of a lasso's cycle (1-based), 0 for none
	// Waiting is the process a lasso starves, -1 for none.
	Waiting int `json:"waiting"`
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
	s := &Server{cfg: cfg, mux: http.NewServeMux()}
	for _, t := range cfg.Traces {
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

// ServeHTTP serves the page and its JSON API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

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
	init, err := atoiOr(r.URL.Query().Get("init"), 0)
	if err != nil {
		httpError(w, "init: "+err.Error())
		return
	}
	path, err := parsePath(r.URL.Query().Get("path"))
	if err != nil {
		httpError(w, err.Error())
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
	v, err := s.view(init, path, lasso, starving)
	if err != nil {
		httpError(w, err.Error())
		return
	}
	writeJSON(w, v)
}

// trace answers POST /api/trace with a trace file in the body: the path
// it takes, added to the jump box.
func (s *Server) trace(w http.ResponseWriter, r *http.Request) {
	t, err := traces.Read(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		httpError(w, err.Error())
		return
	}
	if t.Algorithm != s.cfg.Algorithm {
		httpError(w, fmt.Sprintf("the trace is of %s, the explorer shows %s", t.Algorithm, s.cfg.Algorithm))
		return
	}
	init, path, err := TracePath(s.cfg.System, t)
	if err != nil {
		httpError(w, err.Error())
		return
	}
	np := pathOf(fmt.Sprintf("pasted: %s, %d steps", t.Property, len(path)), init, path, t)
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
	if !s.search.TryLock() {
		httpError(w, "a search is already running; wait for it")
		return
	}
	defer s.search.Unlock()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.SearchTimeout)
	defer cancel()
	res, err := explore.Check(ctx, s.cfg.System, explore.Options{Properties: []model.Property{*prop}, MaxStates: s.cfg.SearchLimit})
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
	init, path, err := statesPath(s.cfg.System.NewWorker(), res.Violation.Path)
	if err != nil {
		httpError(w, err.Error())
		return
	}
	np := pathOf(fmt.Sprintf("counterexample: %s, %d steps", name, len(path)), init, path, nil)
	s.remember(np)
	writeJSON(w, np)
}

func (s *Server) remember(np namedPath) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.found {
		if f.Name == np.Name {
			return
		}
	}
	s.found = append(s.found, np)
}

func (s *Server) propNames() []string {
	var out []string
	for _, p := range s.cfg.Properties {
		out = append(out, p.Name)
	}
	return out
}

func parsePath(q string) ([]int, error) {
	if q == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(q, ".") {
		k, err := strconv.Atoi(f)
		if err != nil || k < 0 {
			return nil, fmt.Errorf("path: %q is not a transition index; want numbers separated by dots, e.g. 0.3.1", f)
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
		return 0, fmt.Errorf("%q is not a non-negative number", s)
	}
	return k, nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func httpError(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
