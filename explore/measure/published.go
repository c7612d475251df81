package measure

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

// Published returns the published messages per CS of c's algorithm
// (Config.Facts) at c.N processes and c.Load, if a paper gives a
// number. Light and heavy load are the papers' two extremes; a rate has no
// claim.
//
// The run's parameters may make it another load than its kind says
// (facts.Measure.LoadAt): the torus with sqrt(N) requesters at heavy load
// is compared with the paper's medium-load figure, not the heavy one.
func (c *Config) Published() (Claim, bool) {
	kind := c.Load.Kind
	if kind == "rate" {
		return Claim{}, false
	}
	if f := c.Facts; f != nil && f.LoadAt != nil {
		kind = f.LoadAt(c.N, kind, c.Params)
	}
	cl, ok := c.Facts.CountAt(kind)
	if !ok {
		return Claim{}, false
	}
	lo, hi := cl.PerCS(float64(c.N))
	return Claim{Lo: lo, Hi: hi, Formula: cl.Formula, Source: cl.Source, Remote: cl.Remote}, true
}

// PublishedResponse returns the published service time (request to exit)
// of c's algorithm (Config.Facts) at c.Load, with its source:
// Banerjee-Chrysanthis' at light (§3.1 eq. (3)) and heavy load (§3.2 eq.
// (6)), reading T_req as the collection phase (timer 0), are the only
// published delays the sources give. It needs a duration for timer 0
// (Config.Timers, after Defaults).
func (c *Config) PublishedResponse() (float64, string, bool) {
	r, ok := c.Facts.ResponseAt(c.Load.Kind)
	if !ok || c.Load.Kind == "rate" || len(c.Timers) == 0 {
		return 0, "", false
	}
	return r.Time(float64(c.N), c.TMsg, c.TExec, c.Timers[0]), r.Source, true
}
