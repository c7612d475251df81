package cli

import (
	"fmt"
	"io"
	"strings"
)

// internalError is a bug in tokenmc detected below the top level, for
// instance a panic recovered in a goroutine: reported like a panic, exit 4.
type internalError struct {
	value any    // the panic value or the error
	stack []byte // debug.Stack() where it was caught; may be nil
}

func (e *internalError) Error() string { return fmt.Sprintf("internal error: %v", e.value) }

// maxFrames is how many stack frames an internal error report shows.
const maxFrames = 8

// reportInternal prints the short report of an internal error: one line
// "tokenmc: internal error: VALUE", then the command line and the top
// frames of stack, so that a bug report can be written from it.
func reportInternal(w io.Writer, prog string, args []string, value any, stack []byte) {
	fmt.Fprintf(w, "%s: internal error: %v\n", prog, value)
	fmt.Fprintf(w, "  command: %s %s\n", prog, strings.Join(args, " "))
	frames := topFrames(stack, maxFrames)
	if len(frames) > 0 {
		fmt.Fprintln(w, "  top frames:")
		for _, f := range frames {
			fmt.Fprintf(w, "    %s\n", f)
		}
	}
	fmt.Fprintln(w, "  this is a bug in tokenmc; please report it with the lines above")
}

// topFrames extracts up to n "function (file:line)" frames from a
// debug.Stack() text, skipping the frames of the panic machinery and of
// the recovery itself.
func topFrames(stack []byte, n int) []string {
	lines := strings.Split(strings.TrimSpace(string(stack)), "\n")
	var out []string
	// lines[0] is "goroutine N [running]:", then pairs: function, \tfile:line +off
	for k := 1; k+1 < len(lines) && len(out) < n; k += 2 {
		fn := strings.TrimSpace(lines[k])
		loc := strings.TrimSpace(lines[k+1])
		if i := strings.LastIndex(loc, " +0x"); i >= 0 {
			loc = loc[:i]
		}
		if strings.HasPrefix(fn, "runtime/debug.Stack") || strings.HasPrefix(fn, "panic(") ||
			strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "main.run.func") || strings.HasPrefix(fn, "main.reportInternal") ||
			strings.Contains(fn, "/model/protocol.(*protocolWorker[...]).catch") || strings.Contains(fn, "/model/protocol.asModelPanic") {
			continue
		}
		if i := strings.LastIndex(fn, "("); i > 0 {
			fn = fn[:i]
		}
		out = append(out, fn+" ("+loc+")")
	}
	return out
}

// checkedWriter remembers the first error of its writer, so that output
// that could not be written (a full disk, a closed pipe) ends the program
// with an error instead of exit 0.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}
