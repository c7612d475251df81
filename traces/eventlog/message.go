package eventlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A structured message names the message's kind and some of its fields,
// e.g. {"kind":"TOKEN","to":1,"ln":[0,0,0],"q":[2]}. It matches a model
// message when the kinds are equal and every field it names has the
// value the model renders; fields it omits are unconstrained. Names and
// kinds are compared without regard to case. "from" and "to" are the
// sender and receiver; the model's bare arguments (such as the P2 of
// "REQUEST(P2, ->P0)") are named arg1, arg2, ... Values are numbers
// (a process may be written 3 or "P3"), booleans, strings, or arrays of
// them.
type pattern struct {
	kind   string
	fields []patField // sorted by name
}

type patField struct {
	name string
	val  any // json.Number, bool, string or []any of them
}

// parsePattern reads a structured message.
func parsePattern(raw []byte) (*pattern, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	p := &pattern{}
	for k, v := range m {
		name := strings.ToLower(k)
		if name == "kind" {
			s, ok := v.(string)
			if !ok || s == "" {
				return nil, fmt.Errorf(`"kind" must be a non-empty string, e.g. "TOKEN"`)
			}
			p.kind = s
			continue
		}
		if v == nil {
			continue // null: unconstrained
		}
		if err := checkValue(v, 0); err != nil {
			return nil, fmt.Errorf("field %q: %v", k, err)
		}
		p.fields = append(p.fields, patField{name, v})
	}
	if p.kind == "" {
		return nil, fmt.Errorf(`a structured message needs "kind", e.g. {"kind":"TOKEN","to":1}`)
	}
	sort.Slice(p.fields, func(a, b int) bool { return p.fields[a].name < p.fields[b].name })
	return p, nil
}

func checkValue(v any, depth int) error {
	switch x := v.(type) {
	case json.Number, bool, string:
		return nil
	case []any:
		if depth > 8 {
			return fmt.Errorf("arrays nested deeper than 8")
		}
		for _, y := range x {
			if err := checkValue(y, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("objects are not supported as field values; use numbers, strings, booleans or arrays")
}

// rendered is a model message's rendering taken apart:
// "TOKEN(->P1, LN=[0,0,0], Q=[2])" has kind TOKEN, no sender, receiver 1
// and fields ln and q.
type rendered struct {
	kind     string
	from, to int // -1 when the rendering does not say
	fields   map[string]string
}

// parseRendered takes a rendering of the form KIND(args) apart. It never
// fails: a rendering of another form has that whole text as its kind.
func parseRendered(s string) *rendered {
	r := &rendered{from: -1, to: -1, fields: map[string]string{}}
	i := strings.IndexByte(s, '(')
	if i < 0 || !strings.HasSuffix(s, ")") {
		r.kind = s
		return r
	}
	r.kind = s[:i]
	bare := 0
	for _, a := range splitTop(s[i+1 : len(s)-1]) {
		if j := strings.Index(a, "->"); j >= 0 && !strings.Contains(a, "=") {
			if f, ok := procNum(a[:j]); ok {
				r.from = f
			}
			if t, ok := procNum(a[j+2:]); ok {
				r.to = t
			}
			continue
		}
		if j := strings.IndexByte(a, '='); j > 0 {
			r.fields[strings.ToLower(strings.TrimSpace(a[:j]))] = strings.TrimSpace(a[j+1:])
			continue
		}
		bare++
		r.fields["arg"+strconv.Itoa(bare)] = a
	}
	return r
}

// splitTop splits s at the commas outside brackets and trims the parts.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" || len(out) > 0 {
		out = append(out, t)
	}
	return out
}

// procNum reads "P3" or "3".
func procNum(s string) (int, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "P")
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// matches reports whether the pattern matches the rendered message.
func (p *pattern) matches(r *rendered) bool {
	if !strings.EqualFold(p.kind, r.kind) {
		return false
	}
	for _, f := range p.fields {
		switch f.name {
		case "from", "to":
			want := r.from
			if f.name == "to" {
				want = r.to
			}
			if want < 0 {
				if text, ok := r.fields[f.name]; ok && valueMatches(f.val, text) {
					continue
				}
				return false
			}
			if !valueMatches(f.val, strconv.Itoa(want)) {
				return false
			}
		default:
			text, ok := r.fields[f.name]
			if !ok || !valueMatches(f.val, text) {
				return false
			}
		}
	}
	return true
}

// valueMatches compares a structured value with the model's text of it.
func valueMatches(v any, text string) bool {
	text = strings.TrimSpace(text)
	switch x := v.(type) {
	case json.Number:
		if n, ok := procNum(text); ok {
			m, err := strconv.Atoi(x.String())
			return err == nil && m == n
		}
		return x.String() == text
	case bool:
		return strconv.FormatBool(x) == text
	case string:
		if x == text || strings.Trim(text, `"`) == x {
			return true
		}
		if n, ok := procNum(x); ok {
			if m, ok := procNum(text); ok {
				return n == m
			}
		}
		return false
	case []any:
		if len(text) < 2 || text[0] != '[' || text[len(text)-1] != ']' {
			return false
		}
		parts := splitTop(text[1 : len(text)-1])
		if len(parts) != len(x) {
			return false
		}
		for k := range x {
			if !valueMatches(x[k], parts[k]) {
				return false
			}
		}
		return true
	}
	return false
}

// msgMatcher matches logged messages against model renderings, caching
// the parsed renderings.
type msgMatcher struct {
	cache map[string]*rendered
}

func (m *msgMatcher) rendered(s string) *rendered {
	if m.cache == nil {
		m.cache = map[string]*rendered{}
	}
	r := m.cache[s]
	if r == nil {
		if len(m.cache) > 1<<16 {
			clear(m.cache)
		}
		r = parseRendered(s)
		m.cache[s] = r
	}
	return r
}

// match reports whether event e's message (a rendering, a structured
// message, or none) is the model message rendered as s.
func (m *msgMatcher) match(e *Event, s string) bool {
	switch {
	case e.Msg == "":
		return true
	case e.pat != nil:
		return e.pat.matches(m.rendered(s))
	case e.Structured():
		p, err := parsePattern([]byte(e.Msg))
		if err != nil {
			return false
		}
		e.pat = p
		return p.matches(m.rendered(s))
	}
	return e.Msg == s
}

// sender returns the sender that the model's rendering s names, or -1.
func (m *msgMatcher) sender(s string) int { return m.rendered(s).from }
