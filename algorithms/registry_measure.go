package algorithms

import (
	"math"
	"math/bits"
	"strings"

	"github.com/tokenmc/tokenmc/model/facts"
)

// This file holds what `tokenmc measure` knows of the built-in algorithms
// beyond their models (Algorithm.Measure): timer durations, which messages
// are idle circulation of a perpetually moving token, and the message
// counts and service times the papers publish. Light and heavy load are
// the papers' two extremes; an arrival rate has no published figure.

// point is a published count with one value.
func point(load string, perCS func(n float64) float64, formula, source string) facts.Count {
	return facts.Count{Load: load, Formula: formula, Source: source,
		PerCS: func(n float64) (float64, float64) { v := perCS(n); return v, v }}
}

// banerjeeMeasure: Banerjee and Chrysanthis (1996), for banerjee,
// banerjee-seq and banerjee-sf (not banerjee-rec, whose recovery the
// analysis does not cover). Timers: 0 collection 0.1, 1 forwarding 0.1,
// 2 routing 0. The service times read T_req as the collection phase
// (timer 0): the only published delays the sources give.
var banerjeeMeasure = &facts.Measure{
	Timers:      []float64{0.1, 0.1, 0},
	ForwardKind: "REQUEST",
	Counts: []facts.Count{
		point("light", func(n float64) float64 { return (n*n - 1) / n }, "(N^2-1)/N", "Banerjee-Chrysanthis §3.1 eq. (1)"),
		point("heavy", func(n float64) float64 { return 3 - 2/n }, "3-2/N", "Banerjee-Chrysanthis §3.2 eq. (4)"),
	},
	Responses: []facts.Response{
		{Load: "light", Source: "Banerjee-Chrysanthis §3.1 eq. (3)",
			Time: func(n, tm, te, tr float64) float64 { return (1-1/n)*2*tm + tr + te }},
		{Load: "heavy", Source: "Banerjee-Chrysanthis §3.2 eq. (6)",
			Time: func(n, tm, te, tr float64) float64 { return (1-1/n)*tm + tr + (n/2+1)*(tm+te) }},
	},
}

// torusMeasure: Neamatollahi, Sedaghat and Naghibzadeh (2017).
var torusMeasure = &facts.Measure{
	NoTimers: true,
	Idle:     torusIdle,
	Counts: []facts.Count{
		{Load: "light", Formula: "2sqrt(N)+1 .. 3sqrt(N)+1", Source: "Neamatollahi et al. §5.1",
			PerCS: func(n float64) (float64, float64) { d := math.Sqrt(n); return 2*d + 1, 3*d + 1 }},
		point("heavy", func(n float64) float64 { return (2*n + math.Sqrt(n) + 1) / n }, "(2N+sqrt(N)+1)/N <= 3", "Neamatollahi et al. §5.2"),
		{Load: "medium", Formula: "(3sqrt(N)+1)/sqrt(N) .. (2N+sqrt(N)+1)/sqrt(N) (medium load: sqrt(N) requesters)", Source: "Neamatollahi et al. §5.3",
			PerCS: func(n float64) (float64, float64) { d := math.Sqrt(n); return (3*d + 1) / d, (2*n + d + 1) / d }},
	},
	LoadAt: torusLoad,
}

// torusLoad: at heavy load, a requesters mask (--requesters) of sqrt(N)
// processes is the paper's medium load (Neamatollahi et al. §5.3: sqrt(N)
// nodes request at once), whose figure is not the heavy load's; with
// another number of requesters (neither sqrt(N) nor N) the paper gives no
// figure. Light load is one requester at a time whatever the mask.
func torusLoad(n int, kind string, params map[string]int) string {
	if kind != "heavy" {
		return kind
	}
	mask := params["requesters"]
	k := bits.OnesCount(uint(mask))
	switch {
	case mask == 0 || k == n:
		return "heavy"
	case float64(k) == math.Sqrt(float64(n)):
		return "medium"
	}
	return ""
}

// torusIdle: a TOKEN going down a column (cc=0) or changing column
// (cc=-1) is idle when nobody waits; a TOKEN touring a row (cc > 0)
// finishes the tour a request started, which the paper counts
// (Neamatollahi et al. §5.1).
func torusIdle(label string) bool {
	if !strings.HasPrefix(label, "TOKEN") {
		return false
	}
	k := strings.Index(label, "cc=")
	if k < 0 {
		return false
	}
	return label[k+3] == '0' || label[k+3] == '-'
}

// suzukiKasamiMeasure: the light-load count is that of a requester without
// the token.
var suzukiKasamiMeasure = &facts.Measure{
	Counts: []facts.Count{
		func() facts.Count {
			c := point("light", func(n float64) float64 { return n }, "N (requester without the token)", "Neamatollahi et al. Table 1; Suzuki-Kasami")
			c.Remote = true
			return c
		}(),
		point("heavy", func(n float64) float64 { return n }, "N", "Neamatollahi et al. Table 1"),
	},
}

var ricartAgrawalaMeasure = &facts.Measure{
	Counts: []facts.Count{
		point("light", func(n float64) float64 { return 2 * (n - 1) }, "2(N-1)", "Neamatollahi et al. Table 1; Banerjee-Chrysanthis §3.3"),
		point("heavy", func(n float64) float64 { return 2 * (n - 1) }, "2(N-1)", "Neamatollahi et al. Table 1; Banerjee-Chrysanthis §3.3"),
	},
}

// raymondMeasure: measured on the balanced binary tree (tree=1).
var raymondMeasure = &facts.Measure{
	Params:   map[string]int{"tree": 1},
	NoTimers: true,
	Counts: []facts.Count{
		point("heavy", func(float64) float64 { return 4 }, "4", "Neamatollahi et al. Table 1; Banerjee-Chrysanthis §3.3"),
	},
}

// lelannMeasure: the token circulates for ever; its moves while nobody
// waits are idle.
var lelannMeasure = &facts.Measure{
	NoTimers: true,
	Idle:     func(l string) bool { return strings.HasPrefix(l, "TOKEN") },
	Counts: []facts.Count{
		point("light", func(n float64) float64 { return n / 2 }, "N/2 (average case; light O(N))", "Neamatollahi et al. Table 1"),
		point("heavy", func(float64) float64 { return 1 }, "1", "Neamatollahi et al. Table 1"),
	},
}
