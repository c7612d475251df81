package measure

import (
	"strings"

	"github.com/tokenmc/tokenmc/algorithms"
)

// profile is what the simulator knows of an algorithm beyond its model:
// registry parameters for measuring, default timer durations, and which
// messages are idle circulation of a perpetually moving token.
type profile struct {
	params map[string]int
	timers []float64
	// idle reports whether a message with this label, sent in a step with
	// no process Waiting or InCS before and after, is idle circulation.
	idle func(label string) bool
	// forwardKind is the kind whose same-kind forwarding is counted.
	forwardKind string
}

// profiles by base algorithm name. Algorithms not listed are measured with
// no extra parameters, every timer at T_msg and no idle circulation.
var profiles = map[string]profile{
	"banerjee":     {timers: []float64{0.1, 0.1, 0}, forwardKind: "REQUEST"},
	"banerjee-seq": {timers: []float64{0.1, 0.1, 0}, forwardKind: "REQUEST"},
	"banerjee-sf":  {timers: []float64{0.1, 0.1, 0}, forwardKind: "REQUEST"},
	"raymond":      {params: map[string]int{"tree": 1}},
	"torus":        {idle: torusIdle},
	"lelann":       {idle: func(l string) bool { return strings.HasPrefix(l, "TOKEN") }},
}

func profileOf(algo string) (profile, bool) {
	p, ok := profiles[baseName(algo)]
	return p, ok
}

// profile is the profile of c's algorithm: none for a user's algorithm
// (Config.Algorithm) that is not the registry's own of that name.
func (c *Config) profile() (profile, bool) {
	if !c.builtin() {
		return profile{}, false
	}
	return profileOf(c.Algo)
}

// builtin reports whether c's algorithm is the registry's own: no
// Config.Algorithm, or one with the name, source and doc of the
// registry's algorithm of that name.
func (c *Config) builtin() bool {
	if c.Algorithm == nil {
		return true
	}
	b, _, err := algorithms.Lookup(c.Algorithm.Name)
	return err == nil && b.Source == c.Algorithm.Source && b.Doc == c.Algorithm.Doc
}

// torusIdle: a TOKEN going down a column (cc=0) or changing column (cc=-1)
// is idle when nobody waits; a TOKEN touring a row (cc > 0) finishes the
// tour a request started, which the paper counts (seed 004 §5.1).
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
