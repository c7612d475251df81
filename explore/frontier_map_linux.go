package explore

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of file into memory, private and
// readable (writes would stay private too), or returns nil if it cannot:
// the caller then reads the file. A file shorter than size is mapped to
// its end, so that its reader meets the end instead of a fault.
func mapFile(file *os.File, size int64) []byte {
	if st, err := file.Stat(); err != nil {
		return nil
	} else if st.Size() < size {
		size = st.Size()
	}
	if size <= 0 || int64(int(size)) != size {
		return nil
	}
	m, err := syscall.Mmap(int(file.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	return m
}

// unmapFile releases a mapping made by mapFile.
func unmapFile(m []byte) { _ = syscall.Munmap(m) }

// dropPages gives back the whole pages of m[from:to] (from is page
// aligned or 0) and returns the offset up to which pages are given back.
// Their contents stay readable: a later read faults them in again from
// the file.
func dropPages(m []byte, from, to int) int {
	end := to &^ (os.Getpagesize() - 1)
	if end <= from {
		return from
	}
	_ = syscall.Madvise(m[from:end], syscall.MADV_DONTNEED)
	return end
}
