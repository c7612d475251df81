package eventlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tokenmc/tokenmc/model"
	"github.com/tokenmc/tokenmc/model/safefile"
)

// Mapping translates an implementation's own names into the model's, so
// that a program can log in its own words:
//
//	{
//	  "processes": {"alpha": 0, "beta": 1, "gamma": 2},
//	  "process_patterns": [{"regex": "node-(?P<p>[0-9]+)"}],
//	  "events":    {"acquire": "request", "acquired": "enter", "release": "exit"},
//	  "messages":  {"Ask": "REQ", "Baton": "TOKEN"},
//	  "fields":    {"seq": "sn", "granted": "ln", "queue": "q"},
//	  "message_patterns": [{"regex": "REQ(?P<sn>[0-9]+)", "kind": "REQ"}]
//	}
//
// processes maps the names used in p, to and from (and in the to and
// from fields of structured messages) to process numbers; a name not
// listed there is matched against process_patterns, whose group p gives
// the number. events maps event kinds; messages maps the kind of a
// structured message; fields renames the fields of structured messages.
// A message logged as a string is matched against message_patterns (when
// there are any): the first pattern that matches the whole string turns
// it into a structured message whose fields are the pattern's named
// groups. Names not in the mapping are kept as they are. Vector
// timestamps stay indexed by process number. docs/mapping.md is the
// reference.
type Mapping struct {
	Processes       map[string]int    `json:"processes,omitempty"`
	Events          map[string]string `json:"events,omitempty"`
	Messages        map[string]string `json:"messages,omitempty"`
	Fields          map[string]string `json:"fields,omitempty"`
	ProcessPatterns []ProcessPattern  `json:"process_patterns,omitempty"`
	MessagePatterns []MessagePattern  `json:"message_patterns,omitempty"`
}

// ProcessPattern reads process numbers out of process names: a name that
// Regex matches as a whole is process p-First, where p is the decimal
// number the group named p captures ("node-(?P<p>[0-9]+)" with First 1
// maps node-1 to P0).
type ProcessPattern struct {
	Regex string `json:"regex"`
	First int    `json:"first,omitempty"`

	re *regexp.Regexp
}

// MessagePattern turns a message logged as a string into a structured
// message: when Regex (Go's syntax, RE2) matches the whole string, the
// message has kind Kind, or the text of the group named kind, and one
// field per other named group, under the group's name (renamed by the
// mapping's fields). A group's text is a number if it is one, a list if
// it is enclosed in [ ] (items separated by commas or spaces, as Go's
// %v prints slices), true or false, or else a string; the group named
// from or to is a process name or number. A group that takes no part in
// the match leaves its field unconstrained.
type MessagePattern struct {
	Regex string `json:"regex"`
	Kind  string `json:"kind,omitempty"`

	re *regexp.Regexp
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
		return nil, &LineError{File: path, Line: line, Msg: "not a mapping {\"processes\":{NAME:NUMBER},\"events\":{NAME:KIND},\"messages\":{NAME:KIND},\"fields\":{NAME:NAME},\"process_patterns\":[{\"regex\":RE}],\"message_patterns\":[{\"regex\":RE,\"kind\":KIND}]}: " + jsonErr(err)}
	}
	if err := m.Compile(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &m, nil
}

// Compile checks the mapping and compiles its patterns. ParseMapping
// calls it; call it on a Mapping built in Go before reading with it.
func (m *Mapping) Compile() error {
	for name, p := range m.Processes {
		if p < 0 || p >= MaxProcesses {
			return fmt.Errorf("process %q is mapped to %d; process numbers are 0..n-1", name, p)
		}
	}
	for name, k := range m.Events {
		if !validKind(k) {
			return fmt.Errorf("event %q is mapped to %q; kinds are request, enter, exit, send, receive, timer", name, k)
		}
	}
	for k := range m.ProcessPatterns {
		pp := &m.ProcessPatterns[k]
		re, err := compilePattern(pp.Regex)
		if err != nil {
			return fmt.Errorf("process_patterns[%d]: %v", k, err)
		}
		if !slices.Contains(re.SubexpNames(), "p") {
			return fmt.Errorf("process_patterns[%d] %q has no group named p; write the number's part as (?P<p>[0-9]+)", k, pp.Regex)
		}
		for _, g := range re.SubexpNames() {
			if g != "" && g != "p" {
				return fmt.Errorf("process_patterns[%d] %q has a group named %q; the only named group of a process pattern is p, the process's number", k, pp.Regex, g)
			}
		}
		pp.re = re
	}
	for k := range m.MessagePatterns {
		mp := &m.MessagePatterns[k]
		re, err := compilePattern(mp.Regex)
		if err != nil {
			return fmt.Errorf("message_patterns[%d]: %v", k, err)
		}
		hasKind := false
		for _, g := range re.SubexpNames() {
			hasKind = hasKind || g == "kind" || g != "" && m.Fields[g] == "kind"
		}
		switch {
		case hasKind && mp.Kind != "":
			return fmt.Errorf("message_patterns[%d] %q has both \"kind\" %q and a group that gives the kind; give one", k, mp.Regex, mp.Kind)
		case !hasKind && mp.Kind == "":
			return fmt.Errorf("message_patterns[%d] %q says no kind; give \"kind\": the model's kind of the message (e.g. \"REQ\"), or capture it in a group named kind", k, mp.Regex)
		}
		mp.re = re
	}
	return nil
}

// ready reports an error if the mapping has patterns Compile has not
// compiled (a Mapping built in Go).
func (m *Mapping) ready() error {
	for _, pp := range m.ProcessPatterns {
		if pp.re == nil {
			return fmt.Errorf("the mapping's process pattern %q is not compiled: call Mapping.Compile first", pp.Regex)
		}
	}
	for _, mp := range m.MessagePatterns {
		if mp.re == nil {
			return fmt.Errorf("the mapping's message pattern %q is not compiled: call Mapping.Compile first", mp.Regex)
		}
	}
	return nil
}

// compilePattern compiles a pattern that must match a whole name or
// message.
func compilePattern(expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, fmt.Errorf("\"regex\" is empty; give a regular expression (Go's RE2 syntax) with named groups, e.g. \"REQ(?P<sn>[0-9]+)\"")
	}
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		// The error quotes the wrapped expression; name the user's.
		if _, err2 := regexp.Compile(expr); err2 != nil {
			err = err2
		}
		return nil, fmt.Errorf("%q is not a regular expression (Go's RE2 syntax): %v", expr, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

// apply rewrites one event line into the model's names.
func (m *Mapping) apply(raw []byte) ([]byte, error) {
	if err := m.ready(); err != nil {
		return nil, err
	}
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
	v, ok := ev["msg"]
	v = bytes.TrimSpace(v)
	switch {
	case !ok || len(v) == 0:
	case v[0] == '{':
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
	case v[0] == '"' && len(m.MessagePatterns) > 0:
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, fmt.Errorf("msg: %v", jsonErr(err))
		}
		out, err := m.parseMessage(s)
		if err != nil {
			return nil, err
		}
		ev["msg"], _ = json.Marshal(out)
	}
	return json.Marshal(ev)
}

// parseMessage turns a string message into a structured one by the first
// message pattern that matches it.
func (m *Mapping) parseMessage(s string) (map[string]any, error) {
	for _, mp := range m.MessagePatterns {
		idx := mp.re.FindStringSubmatchIndex(s)
		if idx == nil {
			continue
		}
		out := map[string]any{}
		if mp.Kind != "" {
			out["kind"] = m.messageKind(mp.Kind)
		}
		for g, name := range mp.re.SubexpNames() {
			if name == "" || idx[2*g] < 0 {
				continue
			}
			text := s[idx[2*g]:idx[2*g+1]]
			if to, ok := m.Fields[name]; ok {
				name = to
			}
			if _, dup := out[name]; dup {
				continue // a name given twice (alternatives): the first group that took part
			}
			switch name {
			case "kind":
				out[name] = m.messageKind(text)
			case "from", "to":
				p, err := m.procName(text)
				if err != nil {
					return nil, fmt.Errorf("msg %q: group %s: %v", s, name, err)
				}
				out[name] = p
			default:
				out[name] = captureValue(text)
			}
		}
		return out, nil
	}
	tried := make([]string, len(m.MessagePatterns))
	for k, mp := range m.MessagePatterns {
		tried[k] = strconv.Quote(mp.Regex)
	}
	return nil, fmt.Errorf("msg %q matches none of the mapping's message_patterns (tried %s); add a pattern for it", s, strings.Join(tried, ", "))
}

func (m *Mapping) messageKind(k string) string {
	if to, ok := m.Messages[k]; ok {
		return to
	}
	return k
}

// captureValue reads a group's text: a number, a [list], a boolean or a
// string. Lists nest up to 8 deep; deeper brackets stay text.
func captureValue(s string) any { return captureAt(s, 0) }

func captureAt(s string, depth int) any {
	t := strings.TrimSpace(s)
	if items, ok := captureList(t, depth); ok {
		return items
	}
	if _, err := strconv.ParseInt(t, 10, 64); err == nil {
		return json.Number(t)
	}
	if t == "true" || t == "false" {
		return t == "true"
	}
	return s
}

// captureList reads "[a b]" or "[a, b]" (items nested in brackets
// whole); false if t is not one list.
func captureList(t string, depth int) ([]any, bool) {
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' || depth >= 8 {
		return nil, false
	}
	items := []any{}
	level, start := 0, 1
	flush := func(end int) {
		if item := strings.TrimSpace(t[start:end]); item != "" {
			items = append(items, captureAt(item, depth+1))
		}
	}
	for i := 1; i < len(t)-1; i++ {
		switch c := t[i]; {
		case c == '[':
			level++
		case c == ']':
			if level--; level < 0 {
				return nil, false // "[a] [b]" is two lists, not one
			}
		case level == 0 && (c == ',' || c == ' ' || c == '\t'):
			flush(i)
			start = i + 1
		}
	}
	if level != 0 {
		return nil, false
	}
	flush(len(t) - 1)
	return items, true
}

// proc maps a process name (a JSON string) to its number; numbers pass.
func (m *Mapping) proc(v json.RawMessage) (json.RawMessage, error) {
	var s string
	if json.Unmarshal(v, &s) != nil {
		return v, nil
	}
	p, err := m.procName(s)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(strconv.Itoa(p)), nil
}

// procName maps a process name to its number: by the mapping's
// processes, then its process patterns; a decimal number or the model's
// own P3 is taken as it is.
func (m *Mapping) procName(s string) (int, error) {
	if p, ok := m.Processes[s]; ok {
		return p, nil
	}
	for _, pp := range m.ProcessPatterns {
		sub := pp.re.FindStringSubmatch(s)
		if sub == nil {
			continue
		}
		text := sub[pp.re.SubexpIndex("p")]
		k, err := strconv.Atoi(text)
		if err != nil {
			return 0, fmt.Errorf("process %q matches the process pattern %q but its group p is %q, not a decimal number", s, pp.Regex, text)
		}
		if k-pp.First < 0 || k-pp.First >= MaxProcesses {
			return 0, fmt.Errorf("process %q is P%d by the process pattern %q (first %d); process numbers are 0..n-1", s, k-pp.First, pp.Regex, pp.First)
		}
		return k - pp.First, nil
	}
	if k, err := strconv.Atoi(strings.TrimPrefix(s, "P")); err == nil && k >= 0 && k < MaxProcesses {
		return k, nil
	}
	if len(m.ProcessPatterns) == 0 {
		return 0, fmt.Errorf("process %q is not in the mapping's processes", s)
	}
	tried := make([]string, len(m.ProcessPatterns))
	for k, pp := range m.ProcessPatterns {
		tried[k] = strconv.Quote(pp.Regex)
	}
	return 0, fmt.Errorf("process %q is not in the mapping's processes and matches none of its process_patterns (tried %s)", s, strings.Join(tried, ", "))
}

// modelSampleStates bounds the states CheckModel visits to learn the
// model's messages.
const modelSampleStates = 2000

// CheckModel checks the mapping's message patterns against the model sys:
// every pattern's kind must be a kind of the model's messages and every
// named group a field of that kind (the fields of the model's rendering,
// e.g. sn of REQ(P1->P0, sn=1), or from, to, arg1, ...). It learns the
// model's messages from the states reached in a breadth-first walk of at
// most a few thousand states; a kind not met there is not held against a
// pattern (the check then says nothing rather than guess).
func (m *Mapping) CheckModel(sys model.System) error {
	if len(m.MessagePatterns) == 0 {
		return nil
	}
	if err := m.ready(); err != nil {
		return err
	}
	kinds, complete := modelMessages(sys)
	var all []string
	for k := range kinds {
		all = append(all, k)
	}
	sort.Strings(all)
	for k, mp := range m.MessagePatterns {
		kind := ""
		if mp.Kind != "" {
			kind = m.messageKind(mp.Kind)
		}
		fields, known := kinds[strings.ToLower(kind)]
		if kind != "" && !known {
			if complete {
				return fmt.Errorf("message_patterns[%d] %q has kind %q, but the model %s has no such message; its kinds: %s", k, mp.Regex, kind, sys.Info().Name, strings.Join(all, ", "))
			}
			continue
		}
		for _, g := range mp.re.SubexpNames() {
			if to, ok := m.Fields[g]; ok {
				g = to
			}
			switch g {
			case "", "kind", "from", "to":
				continue
			}
			if kind != "" {
				if !fields[strings.ToLower(g)] {
					return fmt.Errorf("message_patterns[%d] %q: group %q is not a field of the model's %s messages (fields: %s); name each group after a field, or leave it unnamed", k, mp.Regex, g, kind, strings.Join(fieldNames(fields), ", "))
				}
				continue
			}
			found := false
			for _, fs := range kinds {
				found = found || fs[strings.ToLower(g)]
			}
			if !found && complete {
				return fmt.Errorf("message_patterns[%d] %q: group %q is not a field of any of the model's messages (%s); name each group after a field, or leave it unnamed", k, mp.Regex, g, strings.Join(all, ", "))
			}
		}
	}
	return nil
}

func fieldNames(fields map[string]bool) []string {
	var out []string
	for f := range fields {
		out = append(out, f)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

// modelMessages walks sys breadth first and returns the kinds of the
// messages it delivers (lower case) with their fields, and whether the walk
// covered every reachable state.
func modelMessages(sys model.System) (map[string]map[string]bool, bool) {
	kinds := map[string]map[string]bool{}
	w := sys.NewWorker()
	seen := map[string]bool{}
	var queue [][]byte
	w.Initial(func(s []byte) bool {
		if !seen[string(s)] {
			seen[string(s)] = true
			queue = append(queue, slices.Clone(s))
		}
		return true
	})
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		w.Successors(s, func(t *model.Transition, next []byte) bool {
			if t.Kind == model.Deliver {
				label, _, _ := strings.Cut(strings.TrimPrefix(w.Label(s, t), "Deliver "), " (alternative ")
				r := parseRendered(label)
				k := strings.ToLower(r.kind)
				if kinds[k] == nil {
					kinds[k] = map[string]bool{}
				}
				for f := range r.fields {
					kinds[k][f] = true
				}
			}
			if !seen[string(next)] && len(seen) < modelSampleStates {
				seen[string(next)] = true
				queue = append(queue, slices.Clone(next))
			}
			return true
		})
	}
	return kinds, len(seen) < modelSampleStates
}
