// Package ticker runs the progress reports of the explorer and of random
// simulation: a function called from its own goroutine at a fixed
// interval until it is stopped.
package ticker

import (
	"sync"
	"time"
)

// Every calls tick from its own goroutine every interval (5 s when
// interval <= 0) until stop is called; stop returns once no tick runs.
func Every(interval time.Duration, tick func()) (stop func()) {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				tick()
			}
		}
	})
	return func() { close(done); wg.Wait() }
}
