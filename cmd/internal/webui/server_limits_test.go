package webui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/traces"
)

// zeros is a path of n steps each taking the first enabled action.
func zeros(n int) string { return strings.TrimSuffix(strings.Repeat("0.", n), ".") }

// A path of MaxPathSteps steps on a cyclic model (banerjee with cyclic
// clients never stops) is answered well within 10 s: the walk and the
// chart are linear in the path (10,000 steps gave no answer in 120 s when
// the chart's row height was recomputed for every row); one step more is
// refused with 413 and a message naming the limit.
func TestLongPath(t *testing.T) {
	ts, _ := newTestServer(t, "banerjee", map[string]int{"n": 2, "cyclic": 1})
	start := time.Now()
	var v view
	if code := getJSON(t, "GET", ts.URL+"/api/state?path="+zeros(MaxPathSteps), nil, &v); code != 200 {
		t.Fatalf("status %d", code)
	}
	if len(v.Steps) != MaxPathSteps {
		t.Fatalf("%d steps, want %d", len(v.Steps), MaxPathSteps)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("%d steps took %v", MaxPathSteps, d)
	}
	var e map[string]string
	code := getJSON(t, "GET", ts.URL+"/api/state?path="+zeros(MaxPathSteps+1), nil, &e)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(e["error"], fmt.Sprintf("at most %d", MaxPathSteps)) {
		t.Fatalf("status %d, error %q; want 413 naming the limit", code, e["error"])
	}
}

// The walk stops when the request's context is done (the client has
// gone), with the context's error.
func TestWalkCancelled(t *testing.T) {
	_, sys := newTestServer(t, "banerjee", map[string]int{"n": 2, "cyclic": 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := make([]int, 1000)
	if _, _, err := walk(ctx, sys.NewWorker(), 0, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("walk with a cancelled context: %v", err)
	}
	if _, _, err := walk(context.Background(), sys.NewWorker(), 0, path); err != nil {
		t.Fatalf("the same walk not cancelled: %v", err)
	}
}

// A trace longer than MaxPathSteps is refused by New, one larger than
// MaxTraceBytes by POST /api/trace with 413; of many posted
// traces the jump box keeps the MaxPosted newest.
func TestPostedTracesBounded(t *testing.T) {
	tr, err := traces.ReadFile("testdata/send-in-cs-n8.mutex.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := newTestServer(t, tr.Algorithm, tr.Params)
	long := *tr
	long.Steps = make([]traces.Step, MaxPathSteps+1)
	if _, err := New(Config{System: newSystem(t, tr.Algorithm, tr.Params), Traces: []*traces.Trace{&long}}); err == nil ||
		!strings.Contains(err.Error(), fmt.Sprintf("at most %d", MaxPathSteps)) {
		t.Fatalf("a trace of %d steps given to New: %v", len(long.Steps), err)
	}
	var e map[string]string
	big := append([]byte(`{"algorithm": "`), bytes.Repeat([]byte("x"), MaxTraceBytes)...)
	if code := getJSON(t, "POST", ts.URL+"/api/trace", big, &e); code != http.StatusRequestEntityTooLarge || !strings.Contains(e["error"], "MiB") {
		t.Fatalf("a %d-byte body: status %d, error %q", len(big), code, e["error"])
	}
	const posts = MaxPosted + 3
	for k := range posts {
		tr.Property = fmt.Sprintf("p%02d", k) // distinct names
		var b bytes.Buffer
		if err := traces.Write(&b, tr); err != nil {
			t.Fatal(err)
		}
		var np namedPath
		if code := getJSON(t, "POST", ts.URL+"/api/trace", b.Bytes(), &np); code != 200 {
			t.Fatalf("post %d: status %d", k, code)
		}
	}
	var in info
	getJSON(t, "GET", ts.URL+"/api/info", nil, &in)
	if len(in.Paths) != MaxPosted {
		t.Fatalf("the jump box offers %d paths after %d posts, want %d", len(in.Paths), posts, MaxPosted)
	}
	if want := fmt.Sprintf("pasted: p%02d,", posts-MaxPosted); !strings.HasPrefix(in.Paths[0].Name, want) {
		t.Fatalf("the oldest kept is %q, want %q...", in.Paths[0].Name, want)
	}
	if want := fmt.Sprintf("pasted: p%02d,", posts-1); !strings.HasPrefix(in.Paths[MaxPosted-1].Name, want) {
		t.Fatalf("the newest kept is %q, want %q...", in.Paths[MaxPosted-1].Name, want)
	}
}

// Requests naming a foreign host (DNS rebinding) or coming from a foreign
// origin (a cross-site form posting text/plain) are refused with 403;
// loopback names and Config.Hosts are served.
func TestForeignHostAndOrigin(t *testing.T) {
	ts, _ := newTestServer(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	ts.Config.Handler.(*Server).cfg.Hosts = []string{"box.lan", "10.1.2.3"}
	port := ts.URL[strings.LastIndex(ts.URL, ":"):]
	for _, c := range []struct {
		method, host, origin, site string
		want                       int
	}{
		{"GET", "evil.example" + port, "", "", 403},
		{"GET", "localhost" + port, "", "", 200},
		{"GET", "[::1]" + port, "", "", 200},
		{"GET", "box.lan" + port, "", "", 200},
		{"GET", "10.1.2.3" + port, "", "", 200},
		{"GET", "10.1.2.4" + port, "", "", 403},
		{"POST", "", "http://evil.example", "", 403},
		{"POST", "", "null", "", 403},
		{"POST", "", "http://localhost" + port, "", 400}, // served: the body is no trace
		{"GET", "", "", "cross-site", 403},
		{"GET", "", "", "same-origin", 200},
	} {
		target := ts.URL + "/api/info"
		if c.method == "POST" {
			target = ts.URL + "/api/trace"
		}
		req, _ := http.NewRequest(c.method, target, strings.NewReader("x=1"))
		req.Header.Set("Content-Type", "text/plain")
		if c.host != "" {
			req.Host = c.host
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		if c.site != "" {
			req.Header.Set("Sec-Fetch-Site", c.site)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s host %q origin %q site %q: status %d, want %d", c.method, c.host, c.origin, c.site, resp.StatusCode, c.want)
		}
	}
}

// Listen binds the loopback interface unless every interface is asked for
// by name, which it reports.
func TestListen(t *testing.T) {
	for _, c := range []struct {
		addr string
		all  bool
	}{{"", false}, {":0", false}, {"127.0.0.1:0", false}, {"0.0.0.0:0", true}} {
		ln, hosts, all, err := Listen(c.addr)
		if err != nil {
			t.Fatalf("%q: %v", c.addr, err)
		}
		host, _, _ := strings.Cut(ln.Addr().String(), ":")
		ln.Close()
		if all != c.all {
			t.Errorf("%q: all = %v", c.addr, all)
		}
		if !c.all && (host != "127.0.0.1" || len(hosts) != 1 || hosts[0] != "127.0.0.1") {
			t.Errorf("%q: listens on %s, hosts %q; want the loopback interface", c.addr, ln.Addr(), hosts)
		}
	}
	if _, _, _, err := Listen("nonsense"); err == nil {
		t.Fatal("Listen(nonsense) succeeded")
	}
}

// The server's timeouts cover slow headers and slow bodies, and idle
// connections.
func TestHTTPServerTimeouts(t *testing.T) {
	srv, err := New(Config{System: newSystem(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})})
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer()
	if hs.ReadHeaderTimeout <= 0 || hs.ReadTimeout <= 0 || hs.WriteTimeout <= 0 || hs.IdleTimeout <= 0 {
		t.Fatalf("timeouts %v %v %v %v", hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout)
	}
	if hs.WriteTimeout <= 20*time.Second {
		t.Fatalf("write timeout %v is shorter than the default search timeout", hs.WriteTimeout)
	}
}

// When maxBusy requests are being served, one more is refused with 503
// at once instead of queueing work without bound.
func TestBusy(t *testing.T) {
	ts, _ := newTestServer(t, "suzuki-kasami", map[string]int{"n": 2, "r": 1})
	s := ts.Config.Handler.(*Server)
	for range maxBusy {
		s.busy <- struct{}{}
	}
	var e map[string]string
	if code := getJSON(t, "GET", ts.URL+"/api/state", nil, &e); code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", code)
	}
	s.release()
	var v view
	if code := getJSON(t, "GET", ts.URL+"/api/state", nil, &v); code != 200 {
		t.Fatalf("status %d after a slot was freed", code)
	}
}

// FuzzServerRequest feeds the server's request parsing arbitrary path
// parameters and posted bodies: every answer is 200, 400 or 413 with a
// JSON body, never a panic.
func FuzzServerRequest(f *testing.F) {
	f.Add("0.1", []byte(`{}`))
	f.Add("0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0", []byte(`{"algorithm":"suzuki-kasami","steps":[{"action":"Request(P0)"}]}`))
	f.Add("99999999999999999999", []byte("not json"))
	f.Add("-1..", []byte(`{"algorithm":"suzuki-kasami","params":{"n":2,"r":1},"property":"mutex","steps":[]}`))
	srv, err := New(Config{System: newSystem(f, "suzuki-kasami", map[string]int{"n": 2, "r": 1}), Algorithm: "suzuki-kasami"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path string, body []byte) {
		for _, req := range []*http.Request{
			httptest.NewRequest("GET", "/api/state?path="+url.QueryEscape(path), nil),
			httptest.NewRequest("POST", "/api/trace", bytes.NewReader(body)),
		} {
			req.Host = "localhost" // NewRequest's example.com is foreign
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			switch rec.Code {
			case 200, 400, 413:
			default:
				t.Fatalf("%s %s: status %d", req.Method, req.URL, rec.Code)
			}
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("%s %s: the answer is not JSON: %.200q", req.Method, req.URL, rec.Body.String())
			}
		}
	})
}
