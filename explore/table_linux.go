//go:build linux

package explore

import "syscall"

// mapPopulate asks the kernel to fault a new table's pages in at once (one
// call instead of one page fault per 4 KiB on first touch).
const mapPopulate = syscall.MAP_POPULATE
