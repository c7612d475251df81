package live

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"
)

// failAfter accepts n bytes, then fails as a full disk does.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, syscall.ENOSPC
	}
	f.n -= len(p)
	return len(p), nil
}

// A log that cannot be written (a full disk) stops the run at once with
// the error, instead of running on and losing the events.
func TestLogWriteErrorStopsTheRun(t *testing.T) {
	sys, params := buildSK(t, 3, 100000)
	start := time.Now()
	_, _, st, err := Run(context.Background(), Config{Algorithm: "suzuki-kasami", Params: params, System: sys,
		Duration: 30 * time.Second, Seed: 1, Log: &failAfter{n: 300 << 10}})
	if err == nil || !strings.Contains(err.Error(), "writing the event log: no space left on device") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second || st.Completed {
		t.Fatalf("the run went on for %v after the log failed (stats %+v)", d, st)
	}
}
