package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/tokenmc/tokenmc/traces"
	"github.com/tokenmc/tokenmc/traces/outfile"

	"github.com/tokenmc/tokenmc/model/safefile"
)

// maxWorkers is the largest --workers accepted: 4 per core, at least 64.
// More goroutines than that only cost memory (each has its buffers).
func maxWorkers() int {
	return max(64, 4*runtime.NumCPU())
}

// checkOutDir checks, before any long work, that the file an output flag
// names (if any) can be created: it is not a device or other special file
// (checkRegular), its directory exists and is writable.
func checkOutDir(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := checkRegular(flag, path); err != nil {
		return err
	}
	if err := outfile.CheckDir(path); err != nil {
		return badInput("%s: %v", flag, err)
	}
	return nil
}

// checkRegular refuses an output path that exists and is neither a
// regular file nor a directory (which the callers refuse with their own
// words): a device such as /dev/null, a named pipe or a socket. Output
// files are written to a temporary file renamed over the path, which would
// replace the device itself, and a liveness check derives further names
// from the path (/dev/null.P0).
func checkRegular(flag, path string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
		return nil
	}
	return badInput("%s %s is %s, not a regular file; give the path of a file to create or replace", flag, path, safefile.Kind(fi.Mode()))
}

// saveTrace writes a counterexample trace to path, atomically. A trace
// file that already exists there is replaced: a re-run of the same check
// writes the same default name, so that `tokenmc replay NAME` always reads
// the newest counterexample. Replacing is said on stderr, so that no
// earlier trace disappears unannounced; the user keeps one by naming the
// file with --trace-out. A path the user gave (explicit: --trace-out
// itself, not a name derived from it) that is a symbolic link is written
// through, as every explicit output path is: the file it points to is
// replaced and the link stays; a symbolic link at a default or derived
// name is replaced, not followed. It returns the path written, or "" after
// saying on stderr why the file could not be written.
func saveTrace(prog string, stderr io.Writer, path string, explicit bool, tr *traces.Trace) string {
	policy, target := outfile.Replace, path
	if explicit {
		policy, target = outfile.Through, outfile.Target(path)
	}
	if fi, err := os.Lstat(target); err == nil && fi.Mode().IsRegular() {
		fmt.Fprintf(stderr, "%s: note: replacing the existing trace file %s (name another with --out to keep both)\n", prog, path)
	}
	if err := writeTraceFile(path, policy, tr); err != nil {
		// The violation stands; say the file could not be written.
		fmt.Fprintf(stderr, "%s: could not write the trace file: %v\n", prog, err)
		return ""
	}
	return path
}

// writeTraceFile writes tr to path atomically under policy p, with the
// encoding of traces.Write.
func writeTraceFile(path string, p outfile.Policy, tr *traces.Trace) error {
	var b bytes.Buffer
	if err := traces.Write(&b, tr); err != nil {
		return err
	}
	_, err := outfile.WriteFile(path, p, b.Bytes())
	return err
}

// writeJSON writes v to w as the --json outputs are written: indented by
// two spaces, one value, a newline at the end.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
