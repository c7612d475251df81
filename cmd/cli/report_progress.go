package cli

// This file holds what report says on stderr while it works and when it
// ends: a first line at once, a line per row, a line every few seconds
// during a long row, and a closing line that gives the reason of an exit
// 1 or 3.

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
)

// reportProgressEvery is the interval of report's "still checking" lines.
const reportProgressEvery = 5 * time.Second

// reportRowCount is the number of rows buildReport makes for algs: every
// variant and every extra row (Algorithm.ClaimRuns) whose variant exists.
func reportRowCount(algs []algorithms.Algorithm) int {
	n := 0
	for _, a := range algs {
		n += len(a.Variants)
		for _, e := range a.ClaimRuns {
			if _, ok := variantOf(a, e.Variant); ok {
				n++
			}
		}
	}
	return n
}

// reportProgress prints report's progress on w: the opening line now,
// then a line per row (row) and, while a row takes long, a line every
// interval; stop ends the interval lines.
type reportProgress struct {
	w     io.Writer
	total int
	start time.Time
	mu    sync.Mutex
	done  int
	last  time.Time // of the last line printed
	stop  func()
}

func startReportProgress(w io.Writer, algs []algorithms.Algorithm, maxStates int64, every time.Duration) *reportProgress {
	p := &reportProgress{w: w, total: reportRowCount(algs), start: time.Now()}
	p.last = p.start
	bound := "no bound"
	if maxStates > 0 {
		bound = fmt.Sprintf("at most %d states per search", maxStates)
	}
	fmt.Fprintf(w, "report: checking %d rows of %d algorithm(s), %s; a line per row\n", p.total, len(algs), bound)
	p.stop = tickEvery(every, func(now time.Time) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if now.Sub(p.last) >= every {
			fmt.Fprintf(w, "report: %d of %d rows done, row %d still running, %s elapsed\n",
				p.done, p.total, p.done+1, now.Sub(p.start).Round(time.Second))
			p.last = now
		}
	})
	return p
}

// row prints the line of a finished row.
func (p *reportProgress) row(r reportRow) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.last = time.Now()
	fmt.Fprintf(p.w, "report: %3d/%d %-40s %8d states %6.1fs\n", p.done, p.total, r.Variant, r.States, r.ElapsedS)
}

// reportOutcome is the closing line of report, and the reason of its exit
// code when it is not 0: the rows that differ from their expectation
// (exit 1) or that are incomplete (exit 3).
func reportOutcome(rows []reportRow, maxStates int64, elapsed time.Duration) string {
	var differ, incomplete []string
	for _, r := range rows {
		switch {
		case len(r.Unexpected) > 0:
			differ = append(differ, r.Variant+" ("+strings.Join(r.Unexpected, "; ")+")")
		case r.Error != "":
			incomplete = append(incomplete, r.Variant+" ("+r.Error+")")
		case !r.Complete:
			reason := "stopped by the bound"
			if maxStates > 0 {
				reason = fmt.Sprintf("stopped by the bound of %d states", maxStates)
			}
			incomplete = append(incomplete, r.Variant+" ("+reason+")")
		}
	}
	s := fmt.Sprintf("report: %d rows in %s", len(rows), elapsed.Round(time.Second/10))
	if len(differ) == 0 && len(incomplete) == 0 {
		return s + ", every one complete and as expected"
	}
	if len(differ) > 0 {
		s += fmt.Sprintf("; %d differ from their expectation (exit 1): %s", len(differ), strings.Join(differ, ", "))
	}
	if len(incomplete) > 0 {
		s += fmt.Sprintf("; %d incomplete (exit 3 unless a row differs): %s", len(incomplete), strings.Join(incomplete, ", "))
		if maxStates > 0 {
			s += "; raise --max-states (0: no bound) to complete them"
		}
	}
	return s
}
