package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
)

// Read reads a trace written by Write and checks it strictly: the format
// and version, JSON syntax, unknown or duplicate fields, value types, and
// the structure that validate requires. Every problem is a *FormatError
// with the line and column it was found at; an I/O error is returned as is.
func Read(r io.Reader) (*Trace, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return decode(data, "")
}

// ReadFile reads the trace in the named file, as Read does; format errors
// name the file.
func ReadFile(path string) (*Trace, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decode(data, path)
}

// reader holds the input while it is decoded, to place errors in it.
type reader struct {
	data []byte
	file string
	root *jsonNode // nil until the input is known to be valid JSON
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
	root, err := parseJSON(data)
	if err != nil {
		return nil, r.errAt(0, "", "invalid JSON: %v", err)
	}
	r.root = root
	if root.kind != '{' {
		return nil, r.errAt(root.start, "", "a trace is a JSON object; got %s", jsonKind(root.raw))
	}
	if f := root.member("format"); f == nil {
		return nil, r.errAt(root.start, "", `"format" is missing; a tokenmc trace starts with "format": %q, "version": %d`, Format, Version)
	} else if hdr.Format == nil || *hdr.Format != Format {
		return nil, r.errAt(f.start, "format", "format is %s; want %q (is this a tokenmc trace?)", f.raw, Format)
	}
	if v := root.member("version"); v == nil {
		return nil, r.errAt(root.start, "", `"version" is missing; want "version": %d`, Version)
	} else if hdr.Version == nil || *hdr.Version != Version {
		return nil, r.errAt(v.start, "version", "version %s is not supported; this tokenmc reads %s version %d", v.raw, Format, Version)
	}

	// 2. Field names, exactly (encoding/json would accept "Format" for
	// "format" and the last of two duplicate fields).
	if err := r.checkFields(root, reflect.TypeFor[Trace](), ""); err != nil {
		return nil, err
	}

	// 3. Value types.
	var t Trace
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field, n := r.at(int(te.Offset))
			return nil, r.errAt(n.start, field, "got %s; want %s", jsonKind(te.Value), goKind(te.Type))
		}
		return nil, r.errAt(0, "", "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	compactVars(&t)

	// 4. Structure.
	if err := validate(&t); err != nil {
		var fe *FormatError
		if errors.As(err, &fe) {
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
