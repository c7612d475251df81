package traces

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzFieldsExact: the streaming field check agrees with the tree-based
// one (checkFields) on every JSON input: both accept, or both refuse.
func FuzzFieldsExact(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "tiny", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format":"tokenmc-trace","version":1,"Format":"x"}`))
	f.Add([]byte(`{"format":"tokenmc-trace","version":1,"params":{"n":1,"n":2}}`))
	f.Add([]byte(`{"steps":[{"state":{"processes":[{"vars":{"a":1,"a":2}}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return // Read reports invalid JSON before checking fields
		}
		root, err := parseJSON(data)
		if err != nil {
			t.Fatalf("parseJSON refuses valid JSON: %v", err)
		}
		r := &reader{data: data, root: root}
		tree := r.checkFields(root, reflect.TypeFor[Trace](), "") == nil
		if stream := fieldsExact(data, reflect.TypeFor[Trace]()); stream != tree {
			t.Fatalf("streaming check says %v, tree check %v, on %q", stream, tree, data)
		}
	})
}
