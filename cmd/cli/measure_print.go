package cli

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/tokenmc/tokenmc/explore/measure"
)

// This file holds measure's output: the --json rows and the table.

// measureRow is one line of --json output: a public contract.
type measureRow struct {
	Algorithm     string             `json:"algorithm"`
	VariantParams map[string]int     `json:"variant_params,omitempty"` // the variant's own parameters that applied
	N             int                `json:"n"`
	Load          string             `json:"load"`
	MessagesPerCS float64            `json:"messages_per_cs"`
	MessagesCI    [2]float64         `json:"messages_per_cs_ci95"`
	IdlePerCS     float64            `json:"idle_messages_per_cs"`
	ByKind        map[string]float64 `json:"messages_by_kind"`
	SyncDelay     *measure.Stat      `json:"sync_delay,omitempty"`
	Response      *measure.Stat      `json:"response_time,omitempty"`
	Waiting       *measure.Stat      `json:"waiting_time,omitempty"`
	Forwarded     *measure.Stat      `json:"forwarded_per_cs,omitempty"`
	LocalShare    *measure.Stat      `json:"local_request_share,omitempty"`
	LocalMsgs     *measure.Stat      `json:"messages_per_local_request,omitempty"`
	RemoteMsgs    *measure.Stat      `json:"messages_per_remote_request,omitempty"`
	Published     *publishedJSON     `json:"published,omitempty"`
	PubResponse   *publishedJSON     `json:"published_response_time,omitempty"`
	TMsg          float64            `json:"t_msg"`
	ExpMsg        bool               `json:"exp_msg"`
	TExec         float64            `json:"t_exec"`
	Timers        []float64          `json:"timers,omitempty"`
	Replications  int                `json:"replications"`
	Entries       int64              `json:"entries"`
	Seed          uint64             `json:"seed"`
	Unserved      int                `json:"unserved_at_end"`
	Stranded      int                `json:"stranded_at_end"`
	Stalled       int                `json:"stalled_replications"`
	// Blocked: stalled replications where only events the model's Guard
	// refuses were left; Postponed: events the Guard held back when they
	// were due (both only for a model with a Guard).
	Blocked     int     `json:"blocked_replications,omitempty"`
	Postponed   int64   `json:"postponed_events,omitempty"`
	Violation   string  `json:"violation,omitempty"`
	Interrupted bool    `json:"interrupted,omitempty"`
	ElapsedS    float64 `json:"elapsed_s"`
}

type publishedJSON struct {
	Value    float64 `json:"value"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	Formula  string  `json:"formula"`
	Source   string  `json:"source"`
	Measured float64 `json:"measured"`
	RelDiff  float64 `json:"rel_diff"`
}

func statPtr(s measure.Stat) *measure.Stat {
	if math.IsNaN(s.Mean) {
		return nil
	}
	if math.IsNaN(s.Half) {
		s.Half = 0
	}
	return &s
}

// measureRowOf is the row of r, with the published figures its
// algorithm's facts give (algorithms.Algorithm.Measure).
func measureRowOf(r *measure.Result) measureRow {
	c := r.Config
	row := measureRow{Algorithm: c.Algo, N: c.N, Load: c.Load.String(),
		MessagesPerCS: r.MessagesPerCS.Mean, MessagesCI: [2]float64{r.MessagesPerCS.Lo(), r.MessagesPerCS.Hi()},
		IdlePerCS: r.IdlePerCS.Mean, ByKind: map[string]float64{},
		SyncDelay: statPtr(r.Sync), Response: statPtr(r.Response), Waiting: statPtr(r.Waiting),
		LocalShare: statPtr(r.LocalShare), LocalMsgs: statPtr(r.LocalMsgs), RemoteMsgs: statPtr(r.RemoteMsgs),
		TMsg: c.TMsg, ExpMsg: c.ExpMsg, TExec: c.TExec, Timers: c.Timers, Replications: c.Replications,
		Entries: r.Entries, Seed: c.Seed, Unserved: r.Unserved, Stranded: r.Stranded, Stalled: r.Stalled, Blocked: r.Blocked, Postponed: r.Postponed, Violation: r.Violation,
		Interrupted: r.Interrupted, ElapsedS: r.Elapsed.Seconds()}
	if math.IsNaN(row.MessagesCI[0]) {
		row.MessagesCI = [2]float64{row.MessagesPerCS, row.MessagesPerCS}
	}
	for k, s := range r.ByKind {
		row.ByKind[k] = s.Mean
	}
	if r.Forwarded.Mean > 0 {
		row.Forwarded = statPtr(r.Forwarded)
	}
	if cl, ok := c.Published(); ok {
		m := cl.Measured(r).Mean
		row.Published = &publishedJSON{Value: cl.Value(), Lo: cl.Lo, Hi: cl.Hi, Formula: cl.Formula, Source: cl.Source, Measured: m, RelDiff: cl.RelDiff(m)}
	}
	if v, src, ok := c.PublishedResponse(); ok && !math.IsNaN(r.Response.Mean) {
		row.PubResponse = &publishedJSON{Value: v, Lo: v, Hi: v, Formula: "service time", Source: src, Measured: r.Response.Mean, RelDiff: (r.Response.Mean - v) / v}
	}
	return row
}

func fmtMeasureStat(s *measure.Stat) string {
	if s == nil {
		return "-"
	}
	return fmt.Sprintf("%.3g ±%.2g", s.Mean, s.Half)
}

func printMeasureTable(w io.Writer, rows []measureRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "algorithm\tn\tload\tmsgs/CS (95% CI)\tpublished\trel. diff\tsync delay\tresponse\tnote")
	for _, r := range rows {
		pub, diff := "-", "-"
		if p := r.Published; p != nil {
			pub = fmt.Sprintf("%.3g = %s", p.Value, p.Formula)
			if p.Lo != p.Hi {
				pub = fmt.Sprintf("%.3g..%.3g = %s", p.Lo, p.Hi, p.Formula)
			}
			diff = fmt.Sprintf("%+.1f%%", 100*p.RelDiff)
		}
		var notes []string
		if len(r.VariantParams) > 0 {
			notes = append(notes, "parameters of the variant: "+paramString(r.VariantParams))
		}
		if p := r.Published; p != nil && p.Measured != r.MessagesPerCS {
			notes = append(notes, fmt.Sprintf("compared: %.3g per request without the token", p.Measured))
		}
		if r.IdlePerCS > 0 {
			notes = append(notes, fmt.Sprintf("+%.3g idle token moves/CS", r.IdlePerCS))
		}
		if r.Forwarded != nil {
			notes = append(notes, fmt.Sprintf("forwarded %.2g%%", 100*r.Forwarded.Mean))
		}
		if r.Stalled > 0 {
			if r.Blocked > 0 {
				notes = append(notes, fmt.Sprintf("%d replication(s) stalled (%d with only events the guard refuses)", r.Stalled, r.Blocked))
			} else {
				notes = append(notes, fmt.Sprintf("%d replication(s) stalled", r.Stalled))
			}
		}
		if r.Postponed > 0 {
			notes = append(notes, fmt.Sprintf("%d event(s) held back by the guard", r.Postponed))
		}
		if r.Stranded > 0 {
			notes = append(notes, fmt.Sprintf("%.1f process(es) per replication stranded (request lost)", float64(r.Stranded)/float64(r.Replications)))
		}
		if r.Violation != "" {
			notes = append(notes, "VIOLATION: "+r.Violation)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.4g ±%.2g\t%s\t%s\t%s\t%s\t%s\n", r.Algorithm, r.N, r.Load, r.MessagesPerCS,
			(r.MessagesCI[1]-r.MessagesCI[0])/2, pub, diff, fmtMeasureStat(r.SyncDelay), fmtMeasureStat(r.Response), strings.Join(notes, "; "))
	}
	tw.Flush()
}
