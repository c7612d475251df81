package modeltest

import (
	"fmt"
	"strings"
)

// separator ends a command's input and starts its expected output.
const separator = "----"

// block is one command of a script with its expected output.
type block struct {
	line     int      // 1-based line of the command
	cmd      string   // the command's name
	args     string   // the rest of the command line, trimmed
	input    []string // the lines between the command and "----"
	want     []string // the expected output
	outStart int      // 0-based index of the first output line
	outEnd   int      // 0-based index past the last output line
}

// parseScript splits a script into blocks. Blank lines and comments
// between blocks are skipped; a command without "----" is an error.
func parseScript(name, text string) (lines []string, blocks []block, err error) {
	lines = strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			i++
			continue
		}
		if l == separator {
			return nil, nil, fmt.Errorf("%s:%d: %q without a command before it", name, i+1, separator)
		}
		b := block{line: i + 1}
		b.cmd, b.args, _ = strings.Cut(l, " ")
		b.args = strings.TrimSpace(b.args)
		i++
		for i < len(lines) && strings.TrimSpace(lines[i]) != separator && strings.TrimSpace(lines[i]) != "" {
			b.input = append(b.input, strings.TrimSpace(lines[i]))
			i++
		}
		if i == len(lines) || strings.TrimSpace(lines[i]) != separator {
			return nil, nil, fmt.Errorf("%s:%d: command %q has no %q line; write %q after it and its input lines, then the expected output",
				name, b.line, b.cmd, separator, separator)
		}
		i++
		b.outStart = i
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			b.want = append(b.want, lines[i])
			i++
		}
		b.outEnd = i
		blocks = append(blocks, b)
	}
	return lines, blocks, nil
}

// rewrite returns the script with each block's expected output replaced by
// got[k] (nil: left as it is).
func rewrite(lines []string, blocks []block, got [][]string) string {
	var out []string
	at := 0
	for k, b := range blocks {
		out = append(out, lines[at:b.outStart]...)
		if got[k] != nil {
			out = append(out, got[k]...)
		} else {
			out = append(out, lines[b.outStart:b.outEnd]...)
		}
		at = b.outEnd
	}
	out = append(out, lines[at:]...)
	return strings.Join(out, "\n")
}
