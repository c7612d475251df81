package cli

// This file runs measure --out DIR (--figures DIR): the paper figures,
// with a line at once, a line every few seconds and a closing line that
// says what was written where.

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tokenmc/tokenmc/algorithms"
	"github.com/tokenmc/tokenmc/cmd/internal/linked"
	"github.com/tokenmc/tokenmc/explore/measure"
)

// figuresProgressEvery is the interval of measure --out's progress lines.
const figuresProgressEvery = 5 * time.Second

// writeFigures runs linked.Figures into dir, with progress on progress and
// the closing line (or why it stopped) on stderr.
func writeFigures(ctx context.Context, prog, dir string, progress, stderr io.Writer) (int, error) {
	start := time.Now()
	fmt.Fprintf(progress, "measure: simulating the runs of the docs' figures and table into %s (minutes; a line every %s)\n", dir, figuresProgressEvery)
	var mu sync.Mutex
	last := start
	log := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		last = time.Now()
		return progress.Write(p)
	})
	stop := tickEvery(figuresProgressEvery, func(now time.Time) {
		mu.Lock()
		defer mu.Unlock()
		if now.Sub(last) >= figuresProgressEvery {
			fmt.Fprintf(progress, "measure: figures: still simulating, %s elapsed\n", now.Sub(start).Round(time.Second))
			last = now
		}
	})
	// The figures are those of the built-in algorithms, from the registry.
	resolve := func(cfg *measure.Config) error {
		a, v, err := algorithms.Lookup(cfg.Algo)
		if err != nil {
			return err
		}
		cfg.Build, cfg.Facts = a.MeasureBuild(v.Name), a.Measure
		return nil
	}
	err := linked.Figures(ctx, dir, log, resolve)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "%s: interrupted; figures not complete (%s written to %s)\n", prog, figuresWritten(dir, start), dir)
			return exitIncomplete, nil
		}
		return 0, err
	}
	fmt.Fprintf(stderr, "measure: wrote %s to %s in %s\n", figuresWritten(dir, start), dir, time.Since(start).Round(time.Second))
	return exitOK, nil
}

// figuresWritten says what figures.Write wrote to dir since start: "7
// figures (SVG and PNG) and table.md".
func figuresWritten(dir string, start time.Time) string {
	entries, _ := os.ReadDir(dir)
	figs, table := 0, false
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || info.ModTime().Before(start.Add(-time.Second)) {
			continue
		}
		switch {
		case strings.HasSuffix(e.Name(), ".svg"):
			figs++
		case e.Name() == "table.md":
			table = true
		}
	}
	s := fmt.Sprintf("%d figure(s) (SVG and PNG)", figs)
	if table {
		s += " and table.md"
	}
	return s
}

// writerFunc is an io.Writer made of a function.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
