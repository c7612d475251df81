// Package sysmem reads the resident memory of this process (/proc, the Go
// runtime's figures as a fall-back). It imports nothing of tokenmc: the
// explorer measures and budgets memory with it. (The machine's available
// memory and the size flags are the command line's, cmd/internal/memsize.)
package sysmem

import (
	"bytes"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
)

// PeakRSS returns the peak resident memory of this process in bytes, as the
// kernel measured it (VmHWM in /proc/self/status). Where /proc is not
// available it falls back to the memory the Go runtime has mapped, which is
// an upper bound on the Go part of the resident set.
func PeakRSS() int64 {
	if v := procStatus("VmHWM:"); v > 0 {
		return v
	}
	return runtimeMapped()
}

// CurrentRSS returns the resident memory of this process now, in bytes
// (VmRSS, with the same fall-back as PeakRSS).
func CurrentRSS() int64 {
	if v := procStatus("VmRSS:"); v > 0 {
		return v
	}
	return runtimeMapped()
}

// procStatus reads one "kB" field of /proc/self/status, or returns 0.
func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte(field)); ok {
			f := strings.Fields(string(rest))
			if len(f) >= 1 {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}

func runtimeMapped() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return int64(s[0].Value.Uint64())
	}
	return 0
}
