//go:build unix

package explore

import (
	"syscall"
	"unsafe"
)

// mmapMinBytes is the size from which seen-set tables are mapped directly
// from the kernel instead of the Go heap: a table freed on growth then
// goes back to the kernel at once, and the collector neither counts nor
// doubles the set's memory (it holds no pointers).
const mmapMinBytes = 64 << 10

// allocTable returns a zeroed table of n slots.
func allocTable(n int) []uint64 {
	if n*8 < mmapMinBytes {
		return make([]uint64, n)
	}
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE|mapPopulate)
	if err != nil {
		return make([]uint64, n) // the heap may still have room
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n)
}

// freeTable releases a table made by allocTable. The table must not be
// used afterwards.
func freeTable(t []uint64) {
	if len(t)*8 < mmapMinBytes || cap(t) != len(t) {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&t[0])), len(t)*8)
	_ = syscall.Munmap(b) // fails harmlessly for a heap fall-back
}
