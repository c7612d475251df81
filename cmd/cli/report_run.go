package cli

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/algorithms/spec"
	"github.com/tokenmc/tokenmc/explore"
	"github.com/tokenmc/tokenmc/invariants"
	"github.com/tokenmc/tokenmc/model"
)

// This file holds the runner of report: every variant checked at its
// default parameters (plus its own), one row each. report_markdown.go
// writes the rows as a table.

// Verdicts of a report cell beyond verdictOK and verdictIncomplete.
const (
	propViolated = "violated"
	propNA       = "n/a" // the property does not apply to the algorithm
)

// propResult is the verdict of one property in one row.
type propResult struct {
	Property string `json:"property"`
	// Verdict is "ok", "violated", "incomplete" or "n/a".
	Verdict string `json:"verdict"`
	// Length is the number of steps of the counterexample: the shortest one
	// for a safety property, prefix plus one cycle for a starvation lasso.
	Length int `json:"length,omitempty"`
}

// reportRow is one variant checked at its default parameters.
type reportRow struct {
	Algorithm   string         `json:"algorithm"`
	Variant     string         `json:"variant"`
	Kind        string         `json:"kind"`
	Params      map[string]int `json:"params"`
	States      int64          `json:"states"`
	Transitions int64          `json:"transitions"`
	Complete    bool           `json:"complete"` // the state space was covered
	Properties  []propResult   `json:"properties"`
	Breaks      []string       `json:"breaks"` // what the registry expects to fail
	// Unexpected lists the differences from Breaks that matter: a property
	// in Breaks that holds, or a violation by a default or repaired variant.
	Unexpected []string `json:"unexpected"`
	// Also lists the properties a mutant or literal reading violates beyond
	// its Breaks (informational).
	Also     []string `json:"also_violates"`
	ElapsedS float64  `json:"elapsed_s"`
	Error    string   `json:"error,omitempty"`
	claim    string   // the claim the row confirms: the variant's (Variant.Claim) or the extra row's (Algorithm.ClaimRuns)
}

// buildReport checks every variant of every algorithm in algs at its
// default parameters, in order; done (may be nil) is called after each row.
// An interrupted context leaves the remaining rows out.
func buildReport(ctx context.Context, algs []algorithms.Algorithm, opts reportOptions, done func(reportRow)) []reportRow {
	var rows []reportRow
	for _, a := range algs {
		for _, v := range a.Variants {
			if ctx.Err() != nil {
				return rows
			}
			r := checkRow(ctx, a, v, opts)
			r.claim = v.Claim
			rows = append(rows, r)
			if done != nil {
				done(r)
			}
		}
		for _, e := range a.ClaimRuns {
			v, ok := variantOf(a, e.Variant)
			if !ok {
				continue
			}
			if ctx.Err() != nil {
				return rows
			}
			v.Params = maps.Clone(v.Params)
			if v.Params == nil {
				v.Params = map[string]int{}
			}
			maps.Copy(v.Params, e.Params)
			o := opts
			if o.MaxStates > 0 && e.MaxStates > o.MaxStates {
				o.MaxStates = e.MaxStates
			}
			r := checkRow(ctx, a, v, o)
			r.claim = e.Claim
			rows = append(rows, r)
			if done != nil {
				done(r)
			}
		}
	}
	return rows
}

// variantOf returns a's variant called name.
func variantOf(a algorithms.Algorithm, name string) (algorithms.Variant, bool) {
	for _, v := range a.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return algorithms.Variant{}, false
}

// checkRow checks one variant. Safety properties are checked breadth first
// with all remaining properties at once; each violation found removes its
// property and the search is repeated, so every reported length is the
// shortest counterexample of that property, and the last search (without
// the violated ones) gives the state and transition counts.
func checkRow(ctx context.Context, a algorithms.Algorithm, v algorithms.Variant, opts reportOptions) (row reportRow) {
	start := time.Now()
	params := map[string]int{}
	for _, p := range a.Params {
		params[p.Name] = p.Default
	}
	for k, val := range v.Params {
		params[k] = val
	}
	row = reportRow{Algorithm: a.Name, Variant: v.Name, Kind: v.Kind, Params: params,
		Breaks: append([]string{}, v.Breaks...), Properties: []propResult{}, Unexpected: []string{}, Also: []string{}}
	defer func() {
		// A model under construction may panic; one row must not take the
		// whole table down (panics inside search goroutines still do).
		if p := recover(); p != nil {
			row.Error = fmt.Sprintf("panic: %v", p)
			row.Complete = false
		}
		row.ElapsedS = time.Since(start).Seconds()
	}()
	sys, extra, err := a.Build(v.Name, params)
	if err != nil {
		row.Error = err.Error()
		return row
	}
	info := sys.Info()
	all := invariants.With(extra...)
	verdict := map[string]propResult{}
	remaining := invariants.Applicable(all, info)
	for {
		res, err := explore.Check(ctx, sys, explore.Options{Properties: remaining, Workers: opts.Workers, MaxStates: opts.MaxStates})
		if err != nil {
			row.Error = err.Error()
			return row
		}
		if res.Verdict == explore.Violated {
			name := res.Violation.Property.Name
			verdict[name] = propResult{Property: name, Verdict: propViolated, Length: res.Violation.Len()}
			remaining = slices.DeleteFunc(remaining, func(p model.Property) bool { return p.Name == name })
			if len(remaining) > 0 {
				continue
			}
			// Every property is violated: one more search for the counts.
			res, err = explore.Check(ctx, sys, explore.Options{Workers: opts.Workers, MaxStates: opts.MaxStates})
			if err != nil {
				row.Error = err.Error()
				return row
			}
		}
		row.States, row.Transitions = res.States, res.Transitions
		row.Complete = res.Verdict == explore.OK
		for _, p := range remaining {
			if row.Complete {
				verdict[p.Name] = propResult{Property: p.Name, Verdict: verdictOK}
			} else {
				verdict[p.Name] = propResult{Property: p.Name, Verdict: verdictIncomplete}
			}
		}
		break
	}
	for _, l := range livenessProps() {
		if !l.appliesTo(info) {
			continue
		}
		lres, err := explore.CheckLiveness(ctx, sys, explore.LivenessOptions{
			Starvation: l.name == invariants.NameStarvationFreedom,
			Occupancy:  l.name == invariants.NameConcurrentOccupancy,
			Fairness:   model.WeakFairness,
			Options:    explore.Options{MaxStates: opts.MaxStates},
		})
		if err != nil {
			row.Error = err.Error()
			return row
		}
		pr := propResult{Property: l.name, Verdict: verdictOK}
		switch {
		case l.name == invariants.NameStarvationFreedom && len(lres.Starving) > 0:
			pr.Verdict, pr.Length = propViolated, lres.Starving[0].Len()
			for _, s := range lres.Starving[1:] {
				pr.Length = min(pr.Length, s.Len())
			}
		case l.name == invariants.NameConcurrentOccupancy && lres.Occupancy != nil:
			pr.Verdict, pr.Length = propViolated, lres.Occupancy.Len()
		case lres.Verdict == explore.Incomplete:
			pr.Verdict = verdictIncomplete
		}
		verdict[l.name] = pr
	}
	// Columns first, then algorithm-specific properties in their order.
	var names []string
	for _, c := range reportColumns {
		names = append(names, c)
	}
	for _, p := range all {
		if !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	for _, n := range names {
		pr, ok := verdict[n]
		if !ok {
			pr = propResult{Property: n, Verdict: propNA}
		}
		row.Properties = append(row.Properties, pr)
		expected := slices.Contains(v.Breaks, n)
		switch {
		case pr.Verdict == propViolated && !expected && (v.Kind == spec.KindMutant || v.Kind == spec.KindLiteral):
			// A broken variant often breaks more than its purpose.
			row.Also = append(row.Also, n)
		case pr.Verdict == propViolated && !expected:
			row.Unexpected = append(row.Unexpected, "violates "+n)
		case pr.Verdict == verdictOK && expected:
			row.Unexpected = append(row.Unexpected, n+" holds")
		}
	}
	return row
}
