//go:build !unix

package protocol_test

import "time"

// cpuTime is not measured here: the cpu-s/op metric reads 0.
func cpuTime() time.Duration { return 0 }
