package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// This file holds the name the command line's messages give the program:
// "tokenmc" for Run (the built-in binary's name), the name the program was
// invoked by for Main, so that a user's own binary built on cli.Main says
// "my-tool: ..." and "'my-tool list'".

// defaultProgram is the program name of Run's messages.
const defaultProgram = "tokenmc"

// programName is the name Main's messages give the program: the base name
// of arg0 (os.Args[0]) without a ".exe" suffix, or "tokenmc" when arg0
// names nothing.
func programName(arg0 string) string {
	base := strings.TrimSuffix(filepath.Base(arg0), ".exe")
	if base == "" || base == "." || base == string(filepath.Separator) {
		return defaultProgram
	}
	return base
}

// named returns text with every word "tokenmc" that names the program
// replaced by prog. A "tokenmc" inside a path, a module path, a file or a
// format name (./cmd/tokenmc, github.com/tokenmc, tokenmc-trace,
// tokenmc.trace.json) is left alone.
func named(prog, text string) string {
	return rename(prog, text, func(string) bool { return true })
}

// namedInError is named for error texts, which hold operands (paths,
// algorithm names) that may contain the word "tokenmc": it replaces only
// the phrases that name the program as a command line, "tokenmc" followed
// by a space and a command ("'tokenmc list'", "tokenmc replay FILE"),
// "help", "--help", "--version" or "COMMAND". "read tokenmc: is a
// directory" stays.
func namedInError(prog, text string) string {
	return rename(prog, clipError(text), commandFollows)
}

// maxErrorBytes bounds an error message: one quoting a value of the input
// (an 80 MiB action in a trace) keeps its head and its tail.
const maxErrorBytes = 8 << 10

// clipError cuts the middle of an error message longer than
// maxErrorBytes, saying how much was cut.
func clipError(text string) string {
	if len(text) <= maxErrorBytes {
		return text
	}
	head, tail := maxErrorBytes*3/4, maxErrorBytes/4
	for head > 0 && !utf8.RuneStart(text[head]) {
		head--
	}
	from := len(text) - tail
	for from < len(text) && !utf8.RuneStart(text[from]) {
		from++
	}
	return fmt.Sprintf("%s... (%d bytes cut) ...%s", text[:head], from-head, text[from:])
}

// rename replaces by prog each word "tokenmc" of text that names the
// program and whose following text satisfies also.
func rename(prog, text string, also func(rest string) bool) string {
	if prog == defaultProgram || !strings.Contains(text, defaultProgram) {
		return text
	}
	var b strings.Builder
	for k := 0; k < len(text); {
		i := strings.Index(text[k:], defaultProgram)
		if i < 0 {
			b.WriteString(text[k:])
			break
		}
		start, end := k+i, k+i+len(defaultProgram)
		b.WriteString(text[k:start])
		if namesProgram(text, start, end) && also(text[end:]) {
			b.WriteString(prog)
		} else {
			b.WriteString(defaultProgram)
		}
		k = end
	}
	return b.String()
}

// commandFollows reports whether rest starts with a space and a command
// name, "help", "--help", "--version" or "COMMAND", as a whole word.
func commandFollows(rest string) bool {
	rest, ok := strings.CutPrefix(rest, " ")
	if !ok {
		return false
	}
	n := 0
	for n < len(rest) && (wordByte(rest[n]) || rest[n] == '-') {
		n++
	}
	word := rest[:n]
	_, isCmd := commands[word]
	return isCmd || word == "help" || word == "--help" || word == "--version" || word == "COMMAND"
}

// namesProgram reports whether text[start:end], the word "tokenmc", stands
// alone: no letter, digit, '_', '-', '/' or '.' before it, and none of
// those after it but a '.' that ends a sentence.
func namesProgram(text string, start, end int) bool {
	if start > 0 {
		if c := text[start-1]; wordByte(c) || c == '-' || c == '/' || c == '.' {
			return false
		}
	}
	if end < len(text) {
		c := text[end]
		if wordByte(c) || c == '-' || c == '/' {
			return false
		}
		if c == '.' && end+1 < len(text) && text[end+1] != ' ' && text[end+1] != '\n' {
			return false
		}
	}
	return true
}

// progOr is prog, or "tokenmc" when prog is empty (a report built
// without a program name, as in tests).
func progOr(prog string) string {
	if prog == "" {
		return defaultProgram
	}
	return prog
}

func wordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
