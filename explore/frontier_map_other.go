//go:build !linux

package explore

import "os"

// mapFile is the Linux mapping of a frontier file; elsewhere frontier
// files are read (nil).
func mapFile(*os.File, int64) []byte { return nil }

func unmapFile([]byte) {}

func dropPages(_ []byte, from, _ int) int { return from }
