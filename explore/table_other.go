//go:build !unix

package explore

// allocTable returns a zeroed table of n slots.
func allocTable(n int) []uint64 { return make([]uint64, n) }

// freeTable releases a table made by allocTable (the collector does).
func freeTable([]uint64) {}
