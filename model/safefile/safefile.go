// Package safefile opens the files tokenmc reads by path (traces, logs,
// histories, mappings, checkpoints, reports): regular files only, so that
// a named pipe, a device such as /dev/zero, a directory or a symbolic
// link to one of them is refused with a clear error instead of blocking
// the reader or feeding it without end; and ReadFile reads a whole file
// only when its size is within a cap. It imports nothing of tokenmc, so
// that every layer (traces, explore, the command line) may use it.
package safefile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Open opens path for reading if it is a regular file (after following
// symbolic links). The file is opened without blocking, so a named pipe
// with no writer is refused at once rather than waited on.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: notRegular(st.Mode())}
	}
	return f, nil
}

// notRegular says what a file of mode m is instead of a regular file.
func notRegular(m fs.FileMode) error {
	return fmt.Errorf("%s, not a regular file; only regular files are read", Kind(m))
}

// Kind names what a file of mode m is, for a message saying why it is
// refused: "a directory", "a named pipe", "a character device", "a
// device", "a socket", else "a regular file" or "a special file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// ReadFile reads the regular file path whole if it holds at most limit
// bytes; a larger file (or one that grows past limit while it is read) is
// refused with an error that gives both sizes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, tooLarge(path, st.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(path, int64(len(b)), limit)
	}
	return b, nil
}

func tooLarge(path string, size, limit int64) error {
	return fmt.Errorf("%s: the file is %d bytes or more; at most %d are read", path, size, limit)
}
