package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// followWatch notices each way a followed log can change under the
// reader (validate --follow reported ok on a file truncated and rewritten
// under it), and nothing while the file only grows.
func TestFollowWatch(t *testing.T) {
	log, err := os.ReadFile("../../traces/eventlog/testdata/suzuki-kasami.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		change func(path string) error
		want   string
	}{
		{"grown", func(p string) error { return appendFile(p, "\n") }, ""},
		{"truncated", func(p string) error { return os.Truncate(p, int64(len(log)/2)) }, "was truncated"},
		{"truncated and rewritten longer", func(p string) error {
			return os.WriteFile(p, []byte(strings.Replace(string(log), `"format"`, `"format" `, 1)+"\n\n"), 0o644)
		}, "was rewritten"},
		{"rewritten at the end", func(p string) error {
			b := []byte(string(log))
			b[len(b)-3] ^= 1
			return os.WriteFile(p, b, 0o644)
		}, "was rewritten"},
		{"replaced", func(p string) error {
			q := p + ".new"
			if err := os.WriteFile(q, log, 0o644); err != nil {
				return err
			}
			return os.Rename(q, p)
		}, "was replaced"},
		{"removed", os.Remove, "was removed"},
	} {
		path := filepath.Join(t.TempDir(), "live.jsonl")
		if err := os.WriteFile(path, log, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := newFollowWatch(f, path)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(w); err != nil || len(b) != len(log) {
			t.Fatalf("read %d bytes, %v", len(b), err)
		}
		if err := w.check(); err != nil {
			t.Fatalf("%s: the unchanged file: %v", c.name, err)
		}
		if err := c.change(path); err != nil {
			t.Fatal(err)
		}
		err = w.check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: check() = %v, want %q", c.name, err, c.want)
		}
		f.Close()
	}
}

func appendFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(s)
	return err
}
