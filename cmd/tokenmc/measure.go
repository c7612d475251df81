package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/tokenmc/tokenmc/explore/measure"
	"github.com/tokenmc/tokenmc/explore/measure/figures"
)

const measureSynopsis = `tokenmc measure --algos A,B --n N[,N...] --load light|heavy|LAMBDA[,...] [flags]
       tokenmc measure --figures DIR

A discrete-event simulation of the registered models (the same step
functions the checker verifies): each message takes --t-msg (constant, or
exponential with --exp), each CS --t-exec, requests arrive at light load one
at a time, at heavy load at once after every exit, or at LAMBDA per Idle
process (Poisson). Prints messages per CS, delays and the published formula
beside the measured value with the relative difference; means over
--reps replications with 95% confidence intervals. Safety properties are
checked at every step. --figures DIR writes the paper figures (SVG and PNG)
and a markdown table. Exit codes: 0 ok, 1 a safety violation, 2 bad input,
3 interrupted.`

// measureRow is one line of --json output: a public contract.
type measureRow struct {
	Algorithm     string             `json:"algorithm"`
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
	Violation     string             `json:"violation,omitempty"`
	Interrupted   bool               `json:"interrupted,omitempty"`
	ElapsedS      float64            `json:"elapsed_s"`
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

func init() {
	registerCommand("measure", command{order: 4, synopsis: "measure --algos A,B --n N --load L", summary: "message complexity and delays by discrete-event simulation, beside the published formulas", run: cmdMeasure})
}

func cmdMeasure(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("measure", measureSynopsis, stdout)
	algos := fs.String("algos", "", "comma-separated algorithm `NAMES` (see tokenmc list)")
	ns := fs.String("n", "", "comma-separated process counts `N`")
	loads := fs.String("load", "light,heavy", "comma-separated `loads`: light, heavy or an arrival rate per process")
	tmsg := fs.Float64("t-msg", 0.1, "message delay (mean with --exp)")
	exp := fs.Bool("exp", false, "exponential message delays")
	texec := fs.Float64("t-exec", 0.1, "CS duration")
	timers := fs.String("timers", "", "comma-separated timer durations by timer number (Banerjee-Chrysanthis: collection,forwarding; default 0.1,0.1)")
	entries := fs.Int("entries", 2000, "measured CS entries per replication")
	warmup := fs.Int("warmup", 200, "CS entries discarded at the start of each replication")
	reps := fs.Int("reps", 5, "independent replications")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 2, "goroutines running replications")
	asJSON := fs.Bool("json", false, "print one JSON array of rows")
	figDir := fs.String("figures", "", "write the paper figures and table to `DIR` and exit")
	quiet := fs.Bool("quiet", false, "with --figures: no progress lines on stderr")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 0 {
		return 0, badInput("measure takes no positional arguments, got %q", pos[0])
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if *figDir != "" {
		if *algos != "" || *ns != "" {
			return 0, badInput("measure: --figures takes no --algos or --n; it runs the fixed set of the docs")
		}
		progress := stderr
		if *quiet {
			progress = io.Discard
		}
		if err := figures.Write(ctx, *figDir, progress); err != nil {
			if ctx.Err() != nil {
				fmt.Fprintln(stderr, "tokenmc: interrupted; figures not complete")
				return exitIncomplete, nil
			}
			return 0, err
		}
		return exitOK, nil
	}
	if *algos == "" || *ns == "" {
		return 0, badInput("measure needs --algos A,B and --n N (e.g. --algos banerjee,torus --n 16 --load heavy)")
	}
	switch {
	case *reps < 1:
		return 0, badInput("--reps must be at least 1, got %d", *reps)
	case *entries < 1:
		return 0, badInput("--entries must be at least 1, got %d", *entries)
	case *warmup < 0:
		return 0, badInput("--warmup must be >= 0, got %d", *warmup)
	case *workers < 1:
		return 0, badInput("--workers must be at least 1, got %d", *workers)
	case !(*tmsg > 0) || math.IsInf(*tmsg, 0):
		return 0, badInput("--t-msg must be a positive number, got %g", *tmsg)
	case !(*texec > 0) || math.IsInf(*texec, 0):
		return 0, badInput("--t-exec must be a positive number, got %g", *texec)
	}
	var nList []int
	for _, f := range strings.Split(*ns, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 2 {
			return 0, badInput("--n %q: give process counts >= 2, comma-separated (e.g. 16,64)", f)
		}
		nList = append(nList, v)
	}
	var lList []measure.Load
	for _, f := range strings.Split(*loads, ",") {
		l, err := measure.ParseLoad(strings.TrimSpace(f))
		if err != nil {
			return 0, badInput("--load: %v", err)
		}
		lList = append(lList, l)
	}
	var tList []float64
	if *timers != "" {
		for _, f := range strings.Split(*timers, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || v < 0 || math.IsInf(v, 0) {
				return 0, badInput("--timers %q: give non-negative durations, comma-separated (e.g. 0.1,0.2)", f)
			}
			tList = append(tList, v)
		}
	}
	var rows []measureRow
	code := exitOK
	for _, a := range strings.Split(*algos, ",") {
		a = strings.TrimSpace(a)
		for _, n := range nList {
			for _, l := range lList {
				cfg := measure.Config{Algo: a, N: n, Load: l, TMsg: *tmsg, ExpMsg: *exp, TExec: *texec,
					Timers: tList, Entries: *entries, Warmup: *warmup, Replications: *reps, Seed: *seed}
				if *warmup == 0 {
					cfg.Warmup = -1 // explicit zero: Defaults must not replace it
				}
				res, err := measure.Run(ctx, cfg, *workers)
				if err != nil {
					if ctx.Err() != nil {
						fmt.Fprintln(stderr, "tokenmc: interrupted; partial summary follows")
						code = exitIncomplete
						break
					}
					return 0, badInput("measure %s n=%d: %v", a, n, err)
				}
				rows = append(rows, measureRowOf(res))
				if res.Violation != "" {
					code = exitViolation
				}
				if res.Interrupted {
					fmt.Fprintln(stderr, "tokenmc: interrupted; partial summary follows")
					code = exitIncomplete
				}
			}
			if code == exitIncomplete {
				break
			}
		}
		if code == exitIncomplete {
			break
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if rows == nil {
			rows = []measureRow{}
		}
		return code, enc.Encode(rows)
	}
	printMeasureTable(stdout, rows)
	return code, nil
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

func measureRowOf(r *measure.Result) measureRow {
	c := r.Config
	row := measureRow{Algorithm: c.Algo, N: c.N, Load: c.Load.String(),
		MessagesPerCS: r.MessagesPerCS.Mean, MessagesCI: [2]float64{r.MessagesPerCS.Lo(), r.MessagesPerCS.Hi()},
		IdlePerCS: r.IdlePerCS.Mean, ByKind: map[string]float64{},
		SyncDelay: statPtr(r.Sync), Response: statPtr(r.Response), Waiting: statPtr(r.Waiting),
		LocalShare: statPtr(r.LocalShare), LocalMsgs: statPtr(r.LocalMsgs), RemoteMsgs: statPtr(r.RemoteMsgs),
		TMsg: c.TMsg, ExpMsg: c.ExpMsg, TExec: c.TExec, Timers: c.Timers, Replications: c.Replications,
		Entries: r.Entries, Seed: c.Seed, Unserved: r.Unserved, Stranded: r.Stranded, Stalled: r.Stalled, Violation: r.Violation,
		Interrupted: r.Interrupted, ElapsedS: r.Elapsed.Seconds()}
	if math.IsNaN(row.MessagesCI[0]) {
		row.MessagesCI = [2]float64{row.MessagesPerCS, row.MessagesPerCS}
	}
	for _, k := range r.ByKind {
		row.ByKind[k.Kind] = k.PerCS.Mean
	}
	if r.Forwarded.Mean > 0 {
		row.Forwarded = statPtr(r.Forwarded)
	}
	if cl, ok := measure.Published(c.Algo, c.N, c.Load); ok {
		m := cl.Measured(r).Mean
		row.Published = &publishedJSON{Value: cl.Value(), Lo: cl.Lo, Hi: cl.Hi, Formula: cl.Formula, Source: cl.Source, Measured: m, RelDiff: cl.RelDiff(m)}
	}
	if v, src, ok := measure.PublishedResponse(&c); ok && !math.IsNaN(r.Response.Mean) {
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
			notes = append(notes, fmt.Sprintf("%d replication(s) stalled", r.Stalled))
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
