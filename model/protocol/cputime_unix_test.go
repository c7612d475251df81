//go:build unix

package protocol_test

import (
	"syscall"
	"time"
)

// cpuTime is the processor time (user and system) the process has used:
// on a machine shared with other jobs it varies much less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
