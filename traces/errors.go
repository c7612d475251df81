package traces

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// FormatError says why a trace is malformed: where (file, line, column and
// the JSON path of the offending value, as far as known), what is wrong and
// what would be right.
type FormatError struct {
	File   string // the file read; empty for a stream or a trace in memory
	Line   int    // 1-based line of the problem; 0 when it has no position
	Column int    // 1-based byte column on that line
	Field  string // JSON path of the offending value, e.g. "steps[2].kind"; may be empty
	Msg    string // what is wrong and what would be right
}

// Error renders the error on one line: "file:line:column: field: message".
func (e *FormatError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	} else {
		b.WriteString("trace")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// errAt returns a *FormatError located at byte offset off of the input.
func (r *reader) errAt(off int, field, format string, args ...any) *FormatError {
	e := &FormatError{File: r.file, Field: field, Msg: fmt.Sprintf(format, args...)}
	e.Line, e.Column = r.position(off)
	return e
}

// position converts a byte offset of the input to a 1-based line and
// column.
func (r *reader) position(off int) (line, col int) {
	off = min(max(off, 0), len(r.data))
	line = 1 + bytes.Count(r.data[:off], []byte("\n"))
	col = off - (bytes.LastIndexByte(r.data[:off], '\n') + 1) + 1
	return line, col
}

// jsonKind names a kind of JSON value, given the word encoding/json uses
// for it ("number", "string", "array", ...) or a scalar's text.
func jsonKind(v string) string {
	switch {
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "string", strings.HasPrefix(v, `"`):
		return "a string"
	case v == "bool", v == "true", v == "false":
		return "a boolean"
	case v == "array":
		return "an array"
	case v == "object":
		return "an object"
	case v == "null":
		return "null"
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return "a number"
	}
	return v
}

// goKind says what JSON a Go type expects.
func goKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}
