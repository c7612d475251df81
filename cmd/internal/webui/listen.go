package webui

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// DefaultAddr is where the explorer listens when no address is given: the
// loopback interface, a free port.
const DefaultAddr = "127.0.0.1:0"

// Listen opens addr (HOST:PORT) for the explorer and returns the listener
// and the hosts to put in Config.Hosts. An empty address, or one with no
// host (":8080"), listens on the loopback interface only; every interface
// is bound only when asked for by name (0.0.0.0 or [::]), and then all
// reports true: the caller should warn that other machines can reach the
// server.
func Listen(addr string) (ln net.Listener, hosts []string, all bool, err error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, false, err
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		all = true
		hosts = localHosts()
	} else {
		hosts = []string{host}
	}
	ln, err = net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, nil, false, err
	}
	return ln, hosts, all, nil
}

// localHosts are the names and addresses of this machine, which a
// browser elsewhere uses to reach a server bound to every interface.
func localHosts() []string {
	var out []string
	if h, err := os.Hostname(); err == nil {
		out = append(out, h)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				out = append(out, n.IP.String())
			}
		}
	}
	return out
}

// HTTPServer returns an http.Server for s with every timeout set: a slow
// client cannot hold a connection (header or body) for long, and an idle
// one is closed.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second, // the header and the body (a posted trace)
		// the longest answer is a counterexample search, bounded by
		// SearchTimeout
		WriteTimeout:   s.cfg.SearchTimeout + 30*time.Second,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 1 << 20,
	}
}

// foreign says why r is refused ("" when it is not): its Host header or
// its Origin names a host other than the server's own, or a browser marks
// it as sent from another site.
func (s *Server) foreign(r *http.Request) string {
	if r.Host != "" && !s.ownHost(hostOnly(r.Host)) {
		return fmt.Sprintf("host %q is not this explorer's; open it at the address tokenmc explore printed (a request naming another host is refused: DNS rebinding)", clip(r.Host, maxName))
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host == "" || !s.ownHost(u.Hostname()) {
			return fmt.Sprintf("origin %q is not this explorer's; a page of another site may not use it", clip(o, maxName))
		}
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return "a request from another site is refused"
	}
	return ""
}

// hostOnly drops the port of a Host header.
func hostOnly(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		return host
	}
	return strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
}

// ownHost reports whether h is a loopback name or address, or one of
// Config.Hosts.
func (s *Server) ownHost(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	if ip != nil && ip.IsLoopback() {
		return true
	}
	for _, a := range s.cfg.Hosts {
		a = strings.TrimSuffix(strings.ToLower(strings.Trim(a, "[]")), ".")
		if a == h {
			return true
		}
		if ip != nil {
			if aip := net.ParseIP(a); aip != nil && aip.Equal(ip) {
				return true
			}
		}
	}
	return false
}
