package traces

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// This file holds the checks of Read that encoding/json does not make, and
// the means to place an error in the input: from a byte offset to a JSON
// path and back.

// checkFields compares the member names of every object in n with the JSON
// fields of the Go type it decodes into, and reports the first unknown or
// duplicate name at its position.
func (r *reader) checkFields(n *jsonNode, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[json.RawMessage]() {
		return nil // free-form: a process's own variables
	}
	switch {
	case t.Kind() == reflect.Struct && n.kind == '{':
		fields := jsonFields(t)
		seen := map[string]bool{}
		for i, k := range n.keys {
			sub := join(path, k.name)
			if seen[k.name] {
				return r.errAt(k.off, sub, "duplicate field %q", k.name)
			}
			seen[k.name] = true
			ft, ok := fields[k.name]
			if !ok {
				return r.errAt(k.off, path, "%s", unknownField(k.name, fields))
			}
			if err := r.checkFields(n.kids[i], ft, sub); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map && n.kind == '{':
		seen := map[string]bool{}
		for i, k := range n.keys {
			sub := join(path, k.name)
			if seen[k.name] {
				return r.errAt(k.off, sub, "duplicate key %q", k.name)
			}
			seen[k.name] = true
			if err := r.checkFields(n.kids[i], t.Elem(), sub); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Slice && n.kind == '[':
		for i, kid := range n.kids {
			if err := r.checkFields(kid, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil // a type mismatch is left to the decoder, which names it
}

// jsonFields maps the JSON names of a struct's fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	return m
}

func unknownField(name string, fields map[string]reflect.Type) string {
	var known []string
	for k := range fields {
		if strings.EqualFold(k, name) {
			return fmt.Sprintf("unknown field %q; did you mean %q?", name, k)
		}
		known = append(known, k)
	}
	sort.Strings(known)
	return fmt.Sprintf("unknown field %q; known fields here: %s", name, strings.Join(known, ", "))
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// at returns the JSON path and node of the innermost value that ends at or
// contains byte offset off (encoding/json reports type errors at the end of
// the offending value).
func (r *reader) at(off int) (string, *jsonNode) {
	path, n := "", r.root
	for {
		next := -1
		for i, kid := range n.kids {
			if kid.start < off && off <= kid.end {
				next = i
				break
			}
		}
		if next < 0 {
			return path, n
		}
		if n.kind == '{' {
			path = join(path, n.keys[next].name)
		} else {
			path = fmt.Sprintf("%s[%d]", path, next)
		}
		n = n.kids[next]
	}
}

// lookup returns the node at a path such as "steps[2].state.processes[0]",
// or the deepest node on the way to it when the rest is missing.
func (r *reader) lookup(path string) *jsonNode {
	n := r.root
	for path != "" {
		var seg string
		if i := strings.IndexAny(path[1:], ".["); i >= 0 {
			seg, path = path[:i+1], path[i+1:]
		} else {
			seg, path = path, ""
		}
		var next *jsonNode
		if strings.HasPrefix(seg, "[") {
			i, err := strconv.Atoi(strings.Trim(seg, "[]"))
			if err == nil && n.kind == '[' && i >= 0 && i < len(n.kids) {
				next = n.kids[i]
			}
		} else if n.kind == '{' {
			next = n.member(strings.TrimPrefix(seg, "."))
		}
		if next == nil {
			return n
		}
		n = next
	}
	return n
}
