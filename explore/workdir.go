package explore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
)

// workDir is the directory a search spills frontier and link files to. It
// is created on first use, inside Options.WorkDir or the system's temporary
// directory, and removed with everything in it when the search ends.
type workDir struct {
	parent  string // Options.WorkDir, or "" for os.TempDir
	mu      sync.Mutex
	dir     string
	spilled atomic.Int64 // bytes written so far
}

// create returns a new file of the given name in the work directory.
func (w *workDir) create(name string) (*os.File, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dir == "" {
		d, err := os.MkdirTemp(w.parent, "tokenmc-work-")
		if err != nil {
			return nil, w.wrap(err)
		}
		w.dir = d
	}
	f, err := os.OpenFile(filepath.Join(w.dir, name), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, w.wrap(err)
	}
	return f, nil
}

// wrap names the directory in a file-system error and says when the disk
// is full.
func (w *workDir) wrap(err error) error {
	where := w.dir
	if where == "" {
		where = w.parent
		if where == "" {
			where = os.TempDir()
		}
	}
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("disk full in work directory %s (use --workdir on a larger disk): %w", where, err)
	}
	return fmt.Errorf("work directory %s: %w", where, err)
}

// remove deletes the work directory and its files.
func (w *workDir) remove() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dir != "" {
		_ = os.RemoveAll(w.dir)
		w.dir = ""
	}
}
