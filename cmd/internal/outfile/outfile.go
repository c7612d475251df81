// Package outfile writes tokenmc's output files (traces, event logs,
// histories, HTML and SVG) so that a reader never sees a cut file and no
// user's work is lost by accident:
//
//   - the content goes to a temporary file in the destination's directory
//     (".NAME.tmp-RANDOM"), which Commit moves into place in one step; a
//     run killed before Commit leaves at most that temporary file, never a
//     cut NAME;
//   - Replace (a path the user gave explicitly) replaces an existing file,
//     or a symbolic link itself (it is not followed);
//   - Through (a path the user gave that may be a symbolic link to the
//     file they mean, such as report --out docs/results.md) is Replace
//     through the link: the file the link points to is replaced (the
//     temporary file goes next to it) and the link stays;
//   - Numbered (a default name the user did not choose) never replaces
//     anything: if NAME.EXT exists, even as a symbolic link, the file is
//     written as NAME.1.EXT, NAME.2.EXT, ... and Commit returns the name
//     used.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Policy says what Commit does when the destination exists.
type Policy int

const (
	// Replace replaces an existing destination (an explicit path).
	Replace Policy = iota
	// Numbered keeps an existing destination and numbers the new file (a
	// default name).
	Numbered
	// Through replaces an existing destination, following a symbolic link
	// at path to the file it points to (linkTarget), which is replaced; the
	// link stays. Commit still returns path.
	Through
)

// maxLinks bounds the symbolic links linkTarget follows.
const maxLinks = 255

// linkTarget returns the file a write through path replaces: path itself, or,
// when path is a symbolic link, the file it points to, resolved through
// every link (a relative link is relative to its own directory). A link
// to nothing yields the name it points to, which the write creates.
func linkTarget(path string) string {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		l, err := os.Readlink(p) // a link to nothing: follow it by hand
		if err != nil {
			return p
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(filepath.Dir(p), l)
		}
		p = l
	}
	return p
}

// maxNumber bounds the numbers Numbered tries.
const maxNumber = 9999

// File is an output file being written.
type File struct {
	f      *os.File
	tmp    string
	path   string
	target string // where Replace and Through put the file: path, or linkTarget(path)
	policy Policy
	done   bool
}

// checkDir reports whether a file can be created at path: its directory
// exists, is a directory, and is writable, and path is not a directory.
// It creates and removes a temporary file there.
func checkDir(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot write %s: the directory %s does not exist", path, dir)
		}
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory; give a file name", path)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: the directory %s is not writable (%v)", path, dir, unwrapPath(err))
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// Create starts writing the file that Commit will put at path. It fails
// at once, with an error that says why, when the file cannot be written:
// the directory of the file the write replaces (path, or under Through
// the file a symbolic link at path points to) does not exist, is not a
// directory or is not writable, or that file is a directory. Create then
// Abort checks, before long work, that an output file can be written.
func Create(path string, p Policy) (*File, error) {
	target := path
	if p == Through {
		target = linkTarget(path)
	}
	if err := checkDir(target); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	return &File{f: f, tmp: f.Name(), path: path, target: target, policy: p}, nil
}

// Write writes to the temporary file.
func (f *File) Write(b []byte) (int, error) { return f.f.Write(b) }

// TempName returns the name of the temporary file being written.
func (f *File) TempName() string { return f.tmp }

// Commit flushes the file to disk and moves it into place; it returns the
// name it got (path, or a numbered name under Numbered). On an error the
// temporary file is removed.
func (f *File) Commit() (string, error) {
	if f.done {
		return "", errors.New("outfile: Commit after Commit or Abort")
	}
	f.done = true
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.tmp, 0o644)
	}
	if err != nil {
		os.Remove(f.tmp)
		return "", fmt.Errorf("cannot write %s: %v", f.path, unwrapPath(err))
	}
	if f.policy == Replace || f.policy == Through {
		if err := os.Rename(f.tmp, f.target); err != nil {
			os.Remove(f.tmp)
			return "", fmt.Errorf("cannot write %s: %v", f.path, unwrapPath(err))
		}
		return f.path, nil
	}
	defer os.Remove(f.tmp)
	for k := 0; k <= maxNumber; k++ {
		name := f.path
		if k > 0 {
			name = numberedName(f.path, k)
		}
		err := os.Link(f.tmp, name)
		if err == nil {
			return name, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// No hard links on this file system: check, then rename.
		if _, lerr := os.Lstat(name); lerr == nil {
			continue
		}
		if rerr := os.Rename(f.tmp, name); rerr != nil {
			return "", fmt.Errorf("cannot write %s: %v", name, unwrapPath(rerr))
		}
		return name, nil
	}
	return "", fmt.Errorf("cannot write %s: it and %s to %s exist; remove some", f.path, numberedName(f.path, 1), numberedName(f.path, maxNumber))
}

// Abort removes the temporary file; after Commit it does nothing.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.f.Close()
	os.Remove(f.tmp)
}

// WriteFile writes data to path under policy p and returns the name used.
func WriteFile(path string, p Policy, data []byte) (string, error) {
	f, err := Create(path, p)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return "", fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	return f.Commit()
}

// compound lists the multi-part extensions kept whole when numbering.
var compound = []string{".trace.json", ".log.jsonl", ".history.jsonl", ".porcupine.html"}

// numberedName returns the k-th numbered variant of path: the number goes
// before the extension, "a.mutex.trace.json" -> "a.mutex.1.trace.json",
// "out.svg" -> "out.1.svg".
func numberedName(path string, k int) string {
	ext := filepath.Ext(path)
	for _, c := range compound {
		if strings.HasSuffix(path, c) && len(path) > len(c) {
			ext = c
			break
		}
	}
	return fmt.Sprintf("%s.%d%s", strings.TrimSuffix(path, ext), k, ext)
}

// unwrapPath drops the operation and temporary path of a *fs.PathError,
// which name the temporary file rather than the user's.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
