package traces_test

import (
	"bytes"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/tokenmc/tokenmc/traces"
)

// BenchmarkReadLargeTrace reads a trace of about 20 MB (a shipped trace
// with its steps repeated) and reports the peak heap in use per
// byte of input, sampled while Read runs: the input, the decoded trace and
// garbage, no parse tree (issue 12: a 60 MB trace took 1.5 GB to read). Run: go test -run '^$' -bench ReadLarge ./traces/
func BenchmarkReadLargeTrace(b *testing.B) {
	tr, err := traces.ReadFile(filepath.Join("testdata", "tiny", "eager-mutex.json"))
	if err != nil {
		b.Fatal(err)
	}
	steps := tr.Steps
	for len(tr.Steps) < 40000 {
		for _, s := range steps {
			s.Index = len(tr.Steps) + 1
			tr.Steps = append(tr.Steps, s)
		}
	}
	var buf bytes.Buffer
	if err := traces.Write(&buf, tr); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	var peak uint64
	for b.Loop() {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		done := make(chan struct{})
		sampled := make(chan uint64)
		go func() { // sample the heap while Read runs
			var top uint64
			t := time.NewTicker(5 * time.Millisecond)
			defer t.Stop()
			for {
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				top = max(top, m.HeapInuse-min(m.HeapInuse, base.HeapInuse))
				select {
				case <-done:
					sampled <- top
					return
				case <-t.C:
				}
			}
		}()
		got, err := traces.Read(bytes.NewReader(data))
		close(done)
		peak = max(peak, <-sampled)
		if err != nil {
			b.Fatal(err)
		}
		runtime.KeepAlive(got)
	}
	b.ReportMetric(float64(peak)/float64(len(data)), "peak-heap-bytes/input-byte")
	b.ReportMetric(float64(len(data))/(1<<20), "input-MB")
}
