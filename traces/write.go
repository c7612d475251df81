package traces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// lineWidth is the width up to which Write keeps a JSON object or array on
// one line. Each process and each message in transit then usually takes one
// line, so a trace file reads top to bottom like the story it records.
const lineWidth = 120

// Write writes t as indented JSON. The output depends only on t: objects
// keep the field order of Trace, maps are sorted by key, and a value is
// kept on one line when it fits in lineWidth columns. Write refuses (with a
// *FormatError) a trace that Read would reject.
func Write(w io.Writer, t *Trace) error {
	b, err := encode(t)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// WriteFile writes t to the named file, as Write does, replacing the file
// in one step: the trace goes to a temporary file in the same directory,
// renamed over path when complete, so a reader never sees a cut trace. A
// symbolic link at path is replaced, not followed.
func WriteFile(path string, t *Trace) error {
	b, err := encode(t)
	if err != nil {
		return err
	}
	return replaceFile(path, b)
}

// replaceFile writes data to a temporary file in path's directory and
// renames it over path once complete and synced: a reader sees the old
// file or the whole new one, never a cut one. A failed write removes the
// temporary file. Errors name path, not the temporary file: the
// *fs.PathError or *os.LinkError of the failed call is unwrapped.
func replaceFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot write %s: the directory %s does not exist", path, dir)
	}
	if err == nil {
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(f.Name(), 0o644)
		}
		if err == nil {
			err = os.Rename(f.Name(), path)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}
	if err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

func encode(t *Trace) ([]byte, error) {
	if err := validate(t); err != nil {
		return nil, err
	}
	c := *t
	if c.Params == nil {
		c.Params = map[string]int{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep "P1->P0" readable
	if err := enc.Encode(&c); err != nil {
		return nil, fmt.Errorf("traces: encoding the trace: %w", err)
	}
	root, err := parseJSON(buf.Bytes())
	if err != nil {
		panic("traces: encoding/json produced JSON that parseJSON rejects: " + err.Error())
	}
	var out strings.Builder
	layout(&out, root, 0, 0)
	out.WriteByte('\n')
	return []byte(out.String()), nil
}

// layout writes n at the given indentation; col is the column at which n
// starts (after its key). A value that fits on the rest of the line is
// written inline; otherwise each element goes on its own line.
func layout(b *strings.Builder, n *jsonNode, indent, col int) {
	if n.kind == 0 || len(n.kids) == 0 {
		b.WriteString(n.inline(", "))
		return
	}
	if s := n.inline(", "); col+len(s)+1 <= lineWidth {
		b.WriteString(s)
		return
	}
	pad := strings.Repeat("  ", indent+1)
	b.WriteByte(n.kind)
	b.WriteByte('\n')
	for i, kid := range n.kids {
		b.WriteString(pad)
		c := len(pad)
		if n.kind == '{' {
			b.WriteString(n.keys[i].raw)
			b.WriteString(": ")
			c += len(n.keys[i].raw) + 2
		}
		layout(b, kid, indent+1, c)
		if i < len(n.kids)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", indent))
	if n.kind == '{' {
		b.WriteByte('}')
	} else {
		b.WriteByte(']')
	}
}
