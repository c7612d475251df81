package model

// Symmetry declares a group of process renamings under which a System's
// behaviour is invariant: typically, for every renaming g in the group and
// every state s, the transitions of g(s) are the g-images of those of s.
// What a reduced search needs, and what explore/symmetry.Verify checks, is
// slightly weaker: g(s) and s have successors in the same orbits, with the
// same kinds and flags. The initial states need not be invariant: the
// quotient search starts from their orbits. Properties checked under
// symmetry must give the same answer on s and g(s).
//
// A renaming is a permutation perm of 0..N-1: process i of s becomes
// process perm[i] of g(s), every id i stored in a variable or a message
// becomes perm[i], and arrays indexed by id are permuted alike.
//
// Declaring a symmetry the model does not have makes the reduced search
// wrong, so every declaration must be proved by a test (see
// explore/symmetry.Verify).
type Symmetry struct {
	// Name names the group for people and for --json, e.g. "rotations".
	Name string
	// N is the number of processes.
	N int
	// Full declares the group of all N! permutations. Canonical forms are
	// then computed by sorting the processes by their renaming-invariant
	// keys (Renamer.Keys) and minimising only over the renamings that put
	// the keys in ascending order: the set of those renamings' results is
	// the same for every member of an orbit, so its least element is an
	// exact canonical form (one per orbit), at a cost of the product of
	// the factorials of the tie sizes instead of N!.
	Full bool
	// Perms lists every element of an explicit group (when Full is false),
	// the identity included; Perms[g][i] is the new id of process i.
	Perms [][]int
	// Properties names the algorithm-specific properties that are
	// invariant under the group; the generic ones (mutex, gme-safety,
	// single-token, no-unrequested-entry, no-deadlock) always are.
	Properties []string
	// NewRenamer returns a Renamer for one goroutine.
	NewRenamer func() Renamer
}

// Order returns the number of elements of the group (N! for Full, which
// is exact up to N = 20).
func (s *Symmetry) Order() uint64 {
	if !s.Full {
		return uint64(len(s.Perms))
	}
	f := uint64(1)
	for k := 2; k <= s.N; k++ {
		f *= uint64(k)
	}
	return f
}

// Renamer applies renamings to the encoded states of one System. It owns
// scratch memory: one per goroutine.
type Renamer interface {
	// Rename appends to dst the encoding of state with process i renamed
	// to perm[i] for every i, and returns the extended dst.
	Rename(dst, state []byte, perm []int) []byte
	// Keys returns, in keys[:0], one key per process of state that no
	// renaming changes (it moves with the process): the client phase,
	// request count and group.
	Keys(keys []uint64, state []byte) []uint64
}
