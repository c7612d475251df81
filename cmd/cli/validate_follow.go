package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// followWatch notices a followed log that is truncated, rewritten or
// replaced under validate --follow: the events read so far would then not
// be the file's, and an "ok" would be about a log that no longer exists.
// It records the first and the last bytes read; at each end of the data
// it checks that the file is still the same file, no shorter than what
// was read, and that those bytes are still there.
type followWatch struct {
	f    *os.File
	path string
	id   os.FileInfo // the file opened, to tell a replacement by rename
	pos  int64       // bytes read
	head []byte      // the first bytes read
	tail []byte      // the last bytes read (a ring of len(tail) bytes, ending at pos)
}

// followKeep is how many bytes of the head and of the tail the watch keeps.
const followKeep = 4 << 10

func newFollowWatch(f *os.File, path string) (*followWatch, error) {
	id, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return &followWatch{f: f, path: path, id: id, tail: make([]byte, 0, followKeep)}, nil
}

// Read reads from the file, keeping the head and the tail.
func (w *followWatch) Read(p []byte) (int, error) {
	n, err := w.f.Read(p)
	got := p[:n]
	if room := followKeep - len(w.head); room > 0 {
		w.head = append(w.head, got[:min(room, len(got))]...)
	}
	w.tail = append(w.tail, got...)
	if len(w.tail) > followKeep {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-followKeep:]...)
	}
	w.pos += int64(n)
	return n, err
}

// check returns an error when the file was truncated, rewritten,
// replaced or removed since it was read.
func (w *followWatch) check() error {
	cur, err := os.Stat(w.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s was removed while it was followed, after %d bytes", w.path, w.pos)
	case err != nil:
		return err
	case !os.SameFile(cur, w.id):
		return fmt.Errorf("%s was replaced by another file while it was followed, after %d bytes; validate the new file from its start", w.path, w.pos)
	}
	st, err := w.f.Stat()
	if err != nil {
		return err
	}
	if st.Size() < w.pos {
		return fmt.Errorf("%s was truncated while it was followed: %d bytes now, %d already read; the events read are not the file's, validate it again from its start", w.path, st.Size(), w.pos)
	}
	for _, r := range []struct {
		at   int64
		want []byte
	}{{0, w.head}, {w.pos - int64(len(w.tail)), w.tail}} {
		got := make([]byte, len(r.want))
		if _, err := w.f.ReadAt(got, r.at); err != nil && err != io.EOF {
			return err
		}
		if !bytes.Equal(got, r.want) {
			return fmt.Errorf("%s was rewritten while it was followed: bytes %d..%d differ from those read; the events read are not the file's, validate it again from its start", w.path, r.at, r.at+int64(len(r.want)))
		}
	}
	return nil
}
