package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/tokenmc/tokenmc/model/safefile"
)

// MaxTraceBytes is the largest trace Read accepts. A trace is held in
// memory once as text and once decoded, and reading one takes up to about
// seven times its size at its peak (measured with a single 80 MiB string:
// 570 MB); the JSON tree used to place errors is built only when there is
// an error to place. 256 MiB bounds that peak below 2 GB, far above any
// counterexample (tens of thousands of steps of a large model are tens of
// MiB).
const MaxTraceBytes = 256 << 20

// Read reads a trace written by Write and checks it strictly: the format
// and version, JSON syntax, unknown or duplicate fields, value types, and
// the structure that validate requires. Every problem is a *FormatError
// with the line and column it was found at; an I/O error is returned as is.
func Read(r io.Reader) (*Trace, error) {
	data, err := readAll(r, "")
	if err != nil {
		return nil, err
	}
	return decode(data, "")
}

// ReadFile reads the trace in the named file, as Read does; format errors
// name the file.
func ReadFile(path string) (*Trace, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readAll(f, path)
	if err != nil {
		return nil, err
	}
	return decode(data, path)
}

// readAll reads at most MaxTraceBytes, sizing its buffer from the file's
// size when it is known.
func readAll(r io.Reader, file string) ([]byte, error) {
	size := 0
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if st.Size() > MaxTraceBytes {
				return nil, &FormatError{File: file, Msg: fmt.Sprintf("the file is %d bytes; a trace is at most %d bytes (256 MiB)", st.Size(), MaxTraceBytes)}
			}
			size = int(st.Size())
		}
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(r, MaxTraceBytes+1)); err != nil {
		return nil, err
	}
	if buf.Len() > MaxTraceBytes {
		return nil, &FormatError{File: file, Msg: fmt.Sprintf("the input is over %d bytes; a trace is at most 256 MiB", MaxTraceBytes)}
	}
	return buf.Bytes(), nil
}

// reader holds the input while it is decoded, to place errors in it.
type reader struct {
	data []byte
	file string
	root *jsonNode // nil until needed to place an error (see tree)
}

// tree parses the input into a jsonNode tree, once, to place an error. It
// is only called on input that encoding/json accepted as JSON.
func (r *reader) tree() error {
	if r.root != nil {
		return nil
	}
	root, err := parseJSON(r.data)
	if err != nil {
		return r.errAt(0, "", "invalid JSON: %v", err)
	}
	r.root = root
	return nil
}

func decode(data []byte, file string) (*Trace, error) {
	r := &reader{data: data, file: file}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &FormatError{File: file, Msg: "the input is empty; want a " + Format + " JSON document"}
	}

	// 1. JSON syntax, and the header, before anything that depends on the
	// version: a file of another version gets a version error, not a list
	// of unknown fields.
	var hdr struct {
		Format  *string `json:"format"`
		Version *int    `json:"version"`
	}
	if err := json.Unmarshal(data, &hdr); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			msg := strings.TrimPrefix(se.Error(), "json: ")
			off := int(se.Offset) - 1 // the offset is just past the offending byte
			if msg == "unexpected end of JSON input" {
				msg = "unexpected end of input (is the file truncated?)"
				off = len(data)
			}
			return nil, r.errAt(off, "", "invalid JSON: %s", msg)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field == "" {
			return nil, r.errAt(0, "", "a trace is a JSON object; got %s", jsonKind(te.Value))
		}
	}
	if first := bytes.TrimLeft(data, " \t\r\n"); first[0] != '{' {
		if err := r.tree(); err != nil {
			return nil, err
		}
		return nil, r.errAt(r.root.start, "", "a trace is a JSON object; got %s", jsonKind(r.root.raw))
	}
	if hdr.Format == nil || *hdr.Format != Format || hdr.Version == nil || *hdr.Version != Version {
		if err := r.tree(); err != nil {
			return nil, err
		}
		root := r.root
		if f := root.member("format"); f == nil {
			return nil, r.errAt(root.start, "", `"format" is missing; a tokenmc trace starts with "format": %q, "version": %d`, Format, Version)
		} else if hdr.Format == nil || *hdr.Format != Format {
			return nil, r.errAt(f.start, "format", "format is %s; want %q (is this a tokenmc trace?)", f.raw, Format)
		}
		if v := root.member("version"); v == nil {
			return nil, r.errAt(root.start, "", `"version" is missing; want "version": %d`, Version)
		} else {
			return nil, r.errAt(v.start, "version", "version %s is not supported; this tokenmc reads %s version %d", v.raw, Format, Version)
		}
	}

	// 2. Field names, exactly (encoding/json would accept "Format" for
	// "format" and the last of two duplicate fields): a streaming pass,
	// then, only if it finds a problem, the tree to place it.
	if !fieldsExact(data, reflect.TypeFor[Trace]()) {
		if err := r.tree(); err != nil {
			return nil, err
		}
		if err := r.checkFields(r.root, reflect.TypeFor[Trace](), ""); err != nil {
			return nil, err
		}
	}

	// 3. Value types.
	var t Trace
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		if terr := r.tree(); terr != nil {
			return nil, terr
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field, n := r.at(int(te.Offset))
			return nil, r.errAt(n.start, field, "got %s; want %s", jsonKind(te.Value), goKind(te.Type))
		}
		return nil, r.errAt(0, "", "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	compactVars(&t)
	if t.Params == nil {
		t.Params = map[string]int{} // as Write writes it and FromPath makes it
	}

	// 4. Structure.
	if err := validate(&t); err != nil {
		var fe *FormatError
		if errors.As(err, &fe) {
			if terr := r.tree(); terr != nil {
				return nil, terr
			}
			e := *fe
			e.File = file
			e.Line, e.Column = r.position(r.lookup(fe.Field).start)
			return nil, &e
		}
		return nil, err
	}
	return &t, nil
}

// compactVars rewrites every process's vars in compact form, the form
// model.Worker.Describe produces, so that a trace read back equals the
// trace written.
func compactVars(t *Trace) {
	for _, sd := range t.states() {
		for i := range sd.Processes {
			v := sd.Processes[i].Vars
			if len(v) == 0 {
				continue
			}
			var b bytes.Buffer
			if json.Compact(&b, v) == nil {
				sd.Processes[i].Vars = b.Bytes()
			}
		}
	}
}
