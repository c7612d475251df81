package main

import (
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/tokenmc/tokenmc/traces"
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

// saveTrace writes a counterexample trace to path, atomically. A trace
// file that already exists there is replaced: a re-run of the same check
// writes the same default name, so that `tokenmc replay NAME` always reads
// the newest counterexample. Replacing is said on stderr, so that no
// earlier trace disappears unannounced; the user keeps one by naming the
// file with --trace-out. It returns the path written, or "" after saying
// on stderr why the file could not be written.
func saveTrace(stderr io.Writer, path string, tr *traces.Trace) string {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		fmt.Fprintf(stderr, "tokenmc: note: replacing the existing trace file %s (name another with --trace-out to keep both)\n", path)
	}
	if err := traces.WriteFile(path, tr); err != nil {
		// The violation stands; say the file could not be written.
		fmt.Fprintf(stderr, "tokenmc: could not write the trace file: %v\n", err)
		return ""
	}
	return path
}
