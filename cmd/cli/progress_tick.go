package cli

import (
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// tickEvery calls tick from its own goroutine every interval until stop
// is called; stop returns once no tick runs. report and measure --out use
// it for their "still running" lines.
func tickEvery(interval time.Duration, tick func(now time.Time)) (stop func()) {
	t := time.NewTicker(interval)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-quit:
				return
			case now := <-t.C:
				tick(now)
			}
		}
	}()
	return func() { t.Stop(); close(quit); wg.Wait() }
}

// trackedWriter is a writer that records whether anything was written
// through it (from any goroutine).
type trackedWriter struct {
	w     io.Writer
	wrote atomic.Bool
}

func (t *trackedWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		t.wrote.Store(true)
	}
	return t.w.Write(p)
}
