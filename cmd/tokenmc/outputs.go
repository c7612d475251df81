package main

import (
	"runtime"

	"github.com/tokenmc/tokenmc/traces/outfile"
)

// maxWorkers is the largest --workers accepted: 4 per core, at least 64.
// More goroutines than that only cost memory (each has its buffers).
func maxWorkers() int {
	return max(64, 4*runtime.NumCPU())
}

// checkOutDir checks, before any long work, that the file an output flag
// names (if any) can be created: its directory exists and is writable.
func checkOutDir(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := outfile.CheckDir(path); err != nil {
		return badInput("%s: %v", flag, err)
	}
	return nil
}
