package measure

import (
	"math"
	"math/bits"
	"strings"
)

// Claim is a published message count per CS for an algorithm at a load:
// a value (Lo == Hi) or a range.
type Claim struct {
	Lo, Hi  float64
	Formula string // e.g. "(N^2-1)/N"
	Source  string // paper and section, e.g. "Banerjee-Chrysanthis §3.1 eq. (1)"
	// Remote: the claim is about requests made without the token (compare
	// Result.RemoteMsgs, not MessagesPerCS).
	Remote bool
}

// Value is the claim's point value (the middle of a range).
func (c Claim) Value() float64 { return (c.Lo + c.Hi) / 2 }

// IsRange reports whether the claim is a range.
func (c Claim) IsRange() bool { return c.Lo != c.Hi }

// Measured picks the figure of r the claim is about.
func (c Claim) Measured(r *Result) Stat {
	if c.Remote {
		return r.RemoteMsgs
	}
	return r.MessagesPerCS
}

// RelDiff is the measured mean's relative difference to the claim: 0
// inside a range, else (measured - nearest end) / nearest end.
func (c Claim) RelDiff(m float64) float64 {
	switch {
	case m < c.Lo:
		return (m - c.Lo) / c.Lo
	case m > c.Hi:
		return (m - c.Hi) / c.Hi
	}
	return 0
}

// Published returns the published messages per CS of algo (its base name
// decides) at n processes and the given load, if a paper gives a number.
// The name is that of a built-in algorithm: a caller measuring a user's
// algorithm of the same name must not ask.
// Light and heavy load are the papers' two extremes; a rate has no claim.
func Published(algo string, n int, load Load) (Claim, bool) {
	N := float64(n)
	pt := func(v float64, f, src string) (Claim, bool) {
		return Claim{Lo: v, Hi: v, Formula: f, Source: src}, true
	}
	base := baseName(algo)
	light, heavy := load.Kind == "light", load.Kind == "heavy"
	switch {
	case strings.HasPrefix(base, "banerjee") && base != "banerjee-rec":
		if light {
			return pt((N*N-1)/N, "(N^2-1)/N", "Banerjee-Chrysanthis §3.1 eq. (1)")
		}
		if heavy {
			return pt(3-2/N, "3-2/N", "Banerjee-Chrysanthis §3.2 eq. (4)")
		}
	case base == "torus":
		d := math.Sqrt(N)
		if light {
			return Claim{Lo: 2*d + 1, Hi: 3*d + 1, Formula: "2sqrt(N)+1 .. 3sqrt(N)+1", Source: "Neamatollahi et al. §5.1"}, true
		}
		if heavy {
			return pt((2*N+d+1)/N, "(2N+sqrt(N)+1)/N <= 3", "Neamatollahi et al. §5.2")
		}
	case base == "suzuki-kasami":
		if light {
			c, ok := pt(N, "N (requester without the token)", "Neamatollahi et al. Table 1; Suzuki-Kasami")
			c.Remote = true
			return c, ok
		}
		if heavy {
			return pt(N, "N", "Neamatollahi et al. Table 1")
		}
	case base == "ricart-agrawala":
		if light || heavy {
			return pt(2*(N-1), "2(N-1)", "Neamatollahi et al. Table 1; Banerjee-Chrysanthis §3.3")
		}
	case base == "raymond":
		if heavy {
			return pt(4, "4", "Neamatollahi et al. Table 1; Banerjee-Chrysanthis §3.3")
		}
	case base == "lelann":
		if light {
			return pt(N/2, "N/2 (average case; light O(N))", "Neamatollahi et al. Table 1")
		}
		if heavy {
			return pt(1, "1", "Neamatollahi et al. Table 1")
		}
	}
	return Claim{}, false
}

// PublishedFor is Published for a configuration: it also reads the
// parameters that change which load a paper's figure is about. The torus
// with a requesters mask of sqrt(N) processes (--requesters) at heavy load
// is the paper's medium load (Neamatollahi et al. §5.3: sqrt(N) nodes
// request at once), whose figure is 3 to 3sqrt(N) per CS, not the heavy
// load's at most 3; with another number of requesters (neither sqrt(N) nor
// N) the paper gives no figure. A user's algorithm has none.
func PublishedFor(cfg *Config) (Claim, bool) {
	if !cfg.builtin() {
		return Claim{}, false
	}
	if baseName(cfg.Algo) == "torus" && cfg.Load.Kind == "heavy" {
		mask := cfg.Params["requesters"]
		k := bits.OnesCount(uint(mask))
		N := float64(cfg.N)
		d := math.Sqrt(N)
		switch {
		case mask == 0 || k == cfg.N:
			// every process requests: heavy load, as Published says
		case float64(k) == d:
			return Claim{Lo: (3*d + 1) / d, Hi: (2*N + d + 1) / d, Formula: "(3sqrt(N)+1)/sqrt(N) .. (2N+sqrt(N)+1)/sqrt(N) (medium load: sqrt(N) requesters)", Source: "Neamatollahi et al. §5.3"}, true
		default:
			return Claim{}, false
		}
	}
	return Published(cfg.Algo, cfg.N, cfg.Load)
}

// PublishedResponse returns Banerjee-Chrysanthis' service time (request to
// exit) at light (§3.1 eq. (3)) or heavy load (§3.2 eq. (6)), reading T_req
// as the collection phase: the only published delays the seeds give. A
// user's algorithm (Config.Algorithm) has none.
func PublishedResponse(cfg *Config) (float64, string, bool) {
	b := baseName(cfg.Algo)
	if !cfg.builtin() || !strings.HasPrefix(b, "banerjee") || b == "banerjee-rec" || len(cfg.Timers) == 0 {
		return 0, "", false
	}
	N, tm, te, tr := float64(cfg.N), cfg.TMsg, cfg.TExec, cfg.Timers[0]
	switch cfg.Load.Kind {
	case "light":
		return (1-1/N)*2*tm + tr + te, "Banerjee-Chrysanthis §3.1 eq. (3)", true
	case "heavy":
		return (1-1/N)*tm + tr + (N/2+1)*(tm+te), "Banerjee-Chrysanthis §3.2 eq. (6)", true
	}
	return 0, "", false
}
