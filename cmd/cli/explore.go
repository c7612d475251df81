package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tokenmc/tokenmc/cmd/internal/webui"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/traces"
)

const exploreSynopsis = `tokenmc explore --algo NAME [--n N] [--r R] [--props P,...] [--trace FILE]
                       [--addr HOST:PORT]

Serves an interactive explorer of the algorithm's state space on a local web
page (the URL is printed; open it in a browser): the current state with the
fields the last step changed highlighted, the messages in transit grouped by
receiver, every enabled action as a button with what it would change, back
and forward, the properties on the current state, the message sequence chart
of the path so far, and a box that jumps to the start of a trace (the --trace
file, one pasted into the page, or a counterexample the page searches for)
and steps through it. With --trace and no --algo the trace's algorithm and
parameters are explored. Ctrl-C stops the server.`

func init() {
	registerCommand("explore", command{order: 3, synopsis: "explore --algo NAME [flags]", summary: "walk the state space by hand in a web browser", run: cmdExplore})
}

func cmdExplore(cat *catalog, args []string, stdout, stderr io.Writer) (int, error) {
	fs := cat.newFlagSet("explore", exploreSynopsis, stdout)
	algo := fs.String("algo", "", "algorithm `NAME` or NAME/VARIANT (see tokenmc list); default: the --trace file's")
	pflags := addParamFlags(fs, cat)
	props := fs.String("props", "", "comma-separated safety `properties` to show (default: all that apply)")
	traceFile := fs.String("trace", "", "a counterexample trace `FILE` to offer in the page's jump box")
	addr := fs.String("addr", webui.DefaultAddr, "listen on `HOST:PORT` (port 0: a free port; no host: the loopback interface; 0.0.0.0 or [::]: every interface, reachable from other machines)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("explore takes no positional arguments, got %q (did you mean --trace %s?)", pos[0], pos[0])
	}
	var tr *traces.Trace
	if *traceFile != "" {
		if tr, err = traces.ReadFile(*traceFile); err != nil {
			return 0, badInput("%v", err)
		}
	}
	name := *algo
	if name == "" {
		if tr == nil {
			return 0, badInput("explore needs --algo NAME or --trace FILE; 'tokenmc list' shows the algorithms")
		}
		name = tr.Algorithm
	}
	a, v, err := cat.lookup(name)
	if err != nil {
		return 0, badInput("%v", err)
	}
	var params map[string]int
	if tr != nil && *algo == "" {
		params = tr.Params
	} else if params, _, err = pflags.resolve(fs, a, v); err != nil {
		return 0, err
	}
	sys, extra, err := a.BuildSim(v.Name, params)
	if err != nil {
		return 0, badInput("%v", err)
	}
	if hasLiveness(*props) {
		return 0, badInput("explore evaluates safety properties on each state; for a liveness property use the page's search, which finds a starvation-freedom lasso, or run tokenmc check --props ... and step its lasso with explore --trace FILE")
	}
	selected, err := invariants.Select(allProps(extra), sys.Info(), *props)
	if err != nil {
		return 0, badInput("%v", err)
	}
	cfg := webui.Config{System: sys, Algorithm: v.Name, Params: params, Properties: selected}
	if tr != nil {
		if tr.Algorithm != v.Name || paramString(tr.Params) != paramString(params) {
			return 0, badInput("%s is a trace of %s (%s), not of %s (%s); drop --algo and the parameters to explore the trace's",
				*traceFile, tr.Algorithm, paramString(tr.Params), v.Name, paramString(params))
		}
		cfg.Traces = []*traces.Trace{tr}
	}
	ln, hosts, all, err := webui.Listen(*addr)
	if err != nil {
		return 0, badInput("--addr %s: %v; give a free HOST:PORT, e.g. 127.0.0.1:8080, or port 0 for any free port", *addr, err)
	}
	defer ln.Close()
	if all {
		fmt.Fprintf(stderr, "explore: warning: --addr %s listens on every interface: other machines can reach the explorer\n", *addr)
	}
	cfg.Hosts = hosts
	srv, err := webui.New(cfg)
	if err != nil {
		return 0, badInput("%s: %v", *traceFile, err)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	fmt.Fprintf(stdout, "explore: %s (%s) at http://%s/ (Ctrl-C to stop)\n", v.Name, paramString(params), ln.Addr())
	hs := srv.HTTPServer()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return 0, err
	case <-ctx.Done():
	}
	shut, cancelShut := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancelShut()
	_ = hs.Shutdown(shut)
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return 0, err
	}
	fmt.Fprintln(stderr, "explore: stopped")
	return exitOK, nil
}
