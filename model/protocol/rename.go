package protocol

import "fmt"

// RenameID returns the new id of process id under perm; negative values
// (nil markers such as -1) are returned unchanged.
func RenameID(id int, perm []int) int {
	if id < 0 {
		return id
	}
	if id >= len(perm) {
		panic(fmt.Sprintf("model: renaming id %d with a permutation of %d processes", id, len(perm)))
	}
	return perm[id]
}

// RenameIDs returns dst[:0] extended with RenameID(x, perm) for each x of
// src: a list (queue, set) of process ids after the renaming.
func RenameIDs(dst, src []int, perm []int) []int {
	dst = dst[:0]
	for _, x := range src {
		dst = append(dst, RenameID(x, perm))
	}
	return dst
}

// PermuteIndexed returns dst resized to len(src) with dst[perm[i]] =
// src[i]: an array indexed by process id after the renaming (the values
// are not ids; rename them separately if they are).
func PermuteIndexed(dst, src []int, perm []int) []int {
	if cap(dst) < len(src) {
		dst = make([]int, len(src))
	}
	dst = dst[:len(src)]
	for i, x := range src {
		dst[perm[i]] = x
	}
	return dst
}
