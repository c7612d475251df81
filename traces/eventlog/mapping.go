package eventlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tokenmc/tokenmc/internal/safefile"
)

// Mapping translates an implementation's own names into the model's, so
// that a program can log in its own words:
//
//	{
//	  "processes": {"alpha": 0, "beta": 1, "gamma": 2},
//	  "events":    {"acquire": "request", "acquired": "enter", "release": "exit"},
//	  "messages":  {"Ask": "REQ", "Baton": "TOKEN"},
//	  "fields":    {"seq": "sn", "granted": "ln", "queue": "q"}
//	}
//
// processes maps the names used in p, to and from (and in the to and
// from fields of structured messages) to process numbers; events maps
// event kinds; messages maps the kind of a structured message; fields
// renames the fields of structured messages. Names not in the mapping are
// kept as they are. Vector timestamps stay indexed by process number.
type Mapping struct {
	Processes map[string]int    `json:"processes,omitempty"`
	Events    map[string]string `json:"events,omitempty"`
	Messages  map[string]string `json:"messages,omitempty"`
	Fields    map[string]string `json:"fields,omitempty"`
}

// ReadMapping reads a mapping file.
func ReadMapping(path string) (*Mapping, error) {
	data, err := safefile.ReadFile(path, MaxLineBytes)
	if err != nil {
		return nil, err
	}
	return ParseMapping(data, path)
}

// ParseMapping reads a mapping from data; file names it in errors.
func ParseMapping(data []byte, path string) (*Mapping, error) {
	if len(data) > MaxLineBytes {
		return nil, fmt.Errorf("%s: the mapping file is larger than %d bytes", path, MaxLineBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Mapping
	if err := dec.Decode(&m); err != nil {
		line := 1 + bytes.Count(data[:min(int(dec.InputOffset()), len(data))], []byte("\n"))
		return nil, &LineError{File: path, Line: line, Msg: "not a mapping {\"processes\":{NAME:NUMBER},\"events\":{NAME:KIND},\"messages\":{NAME:KIND},\"fields\":{NAME:NAME}}: " + jsonErr(err)}
	}
	for name, p := range m.Processes {
		if p < 0 || p >= MaxProcesses {
			return nil, fmt.Errorf("%s: process %q is mapped to %d; process numbers are 0..n-1", path, name, p)
		}
	}
	for name, k := range m.Events {
		if !validKind(k) {
			return nil, fmt.Errorf("%s: event %q is mapped to %q; kinds are request, enter, exit, send, receive, timer", path, name, k)
		}
	}
	return &m, nil
}

// apply rewrites one event line into the model's names.
func (m *Mapping) apply(raw []byte) ([]byte, error) {
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(raw, &ev); err != nil {
		return nil, fmt.Errorf("not a JSON event object: %v", jsonErr(err))
	}
	for _, k := range []string{"p", "to", "from"} {
		if v, ok := ev[k]; ok {
			nv, err := m.proc(v)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", k, err)
			}
			ev[k] = nv
		}
	}
	if v, ok := ev["kind"]; ok {
		var s string
		if json.Unmarshal(v, &s) == nil {
			if to, ok := m.Events[s]; ok {
				ev["kind"], _ = json.Marshal(to)
			}
		}
	}
	if v, ok := ev["msg"]; ok && len(bytes.TrimSpace(v)) > 0 && bytes.TrimSpace(v)[0] == '{' {
		var msg map[string]json.RawMessage
		if err := json.Unmarshal(v, &msg); err != nil {
			return nil, fmt.Errorf("msg: %v", jsonErr(err))
		}
		out := make(map[string]json.RawMessage, len(msg))
		for k, fv := range msg {
			name := k
			if to, ok := m.Fields[k]; ok {
				name = to
			}
			switch name {
			case "kind":
				var s string
				if json.Unmarshal(fv, &s) == nil {
					if to, ok := m.Messages[s]; ok {
						fv, _ = json.Marshal(to)
					}
				}
			case "to", "from":
				nv, err := m.proc(fv)
				if err != nil {
					return nil, fmt.Errorf("msg %q: %v", k, err)
				}
				fv = nv
			}
			if _, dup := out[name]; dup {
				return nil, fmt.Errorf("msg: two fields map to %q", name)
			}
			out[name] = fv
		}
		ev["msg"], _ = json.Marshal(out)
	}
	return json.Marshal(ev)
}

// proc maps a process name (a JSON string) to its number; numbers pass.
func (m *Mapping) proc(v json.RawMessage) (json.RawMessage, error) {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return v, nil
	}
	p, ok := m.Processes[s]
	if !ok {
		return nil, fmt.Errorf("process %q is not in the mapping's processes", s)
	}
	return json.RawMessage(strconv.Itoa(p)), nil
}
