// Package cputime reads the processor time the process has used, for
// benchmarks on a machine shared with other jobs, where it varies much
// less than wall time.
package cputime
