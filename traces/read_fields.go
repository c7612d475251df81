package traces

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// fieldsExact reports whether every object member name in data is a JSON
// field of the Go type it decodes into (or a map key), with no duplicates:
// the check of reader.checkFields, made in one streaming pass that keeps
// no tree. It reports false on the first problem (or on invalid JSON),
// and checkFields then places it; type mismatches are left to the decoder.
func fieldsExact(data []byte, t reflect.Type) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers are not parsed: 1E700 is valid JSON
	fc := fieldChecker{dec: dec, fields: map[reflect.Type]map[string]reflect.Type{}}
	return fc.value(t)
}

type fieldChecker struct {
	dec    *json.Decoder
	fields map[reflect.Type]map[string]reflect.Type // jsonFields, cached
}

// value checks the next value against t (nil: any value, unchecked).
func (fc *fieldChecker) value(t reflect.Type) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[json.RawMessage]() {
		t = nil // free-form: a process's own variables
	}
	tok, err := fc.dec.Token()
	if err != nil {
		return false
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return true // a scalar
	}
	switch {
	case d == '{' && t != nil && t.Kind() == reflect.Struct:
		fields, ok := fc.fields[t]
		if !ok {
			fields = jsonFields(t)
			fc.fields[t] = fields
		}
		seen := make(map[string]bool, len(fields))
		for fc.dec.More() {
			k, err := fc.dec.Token()
			if err != nil {
				return false
			}
			name, _ := k.(string)
			ft, known := fields[name]
			if !known || seen[name] {
				return false
			}
			seen[name] = true
			if !fc.value(ft) {
				return false
			}
		}
	case d == '{':
		var elem reflect.Type
		var seen map[string]bool
		if t != nil && t.Kind() == reflect.Map {
			elem, seen = t.Elem(), map[string]bool{}
		}
		for fc.dec.More() {
			k, err := fc.dec.Token()
			if err != nil {
				return false
			}
			if seen != nil {
				name, _ := k.(string)
				if seen[name] {
					return false
				}
				seen[name] = true
			}
			if !fc.value(elem) {
				return false
			}
		}
	case d == '[':
		var elem reflect.Type
		if t != nil && t.Kind() == reflect.Slice {
			elem = t.Elem()
		}
		for fc.dec.More() {
			if !fc.value(elem) {
				return false
			}
		}
	}
	_, err = fc.dec.Token() // the closing delimiter
	return err == nil
}
