package symmetry

import (
	"bytes"
	"slices"
	"sort"

	"github.com/tokenmc/tokenmc/model"
)

// boundedRenamer is an optional model.Renamer capability that makes
// canonical forms cheaper: RenameBelow appends the renamed state to dst
// (which must be empty) like Rename, but may stop early, reporting false,
// once the result is known not to be less than bound (bytes.Compare); it
// reports true, with the complete encoding in the result, when it is less.
// The renamers of package model/protocol implement it.
type boundedRenamer interface {
	RenameBelow(dst, state []byte, perm []int, bound []byte) ([]byte, bool)
}

// fixingRenamer is an optional model.Renamer capability: Fixes reports
// whether renaming state by perm gives state itself, as bytes.Equal of
// Rename's result and state would, but may stop at the first part that
// differs. The renamers of package model/protocol implement it.
type fixingRenamer interface {
	Fixes(state []byte, perm []int) bool
}

// canonicalizer maps states to the canonical representative of their orbit.
// For an explicit group it is the least encoding (bytes.Compare) among the
// renamings of the state by the group; for all permutations, the least
// among the renamings that put the processes in ascending order of their
// renaming-invariant keys (model.Renamer.Keys), a set that every member of
// the orbit shares. It owns scratch memory: one per goroutine.
type canonicalizer struct {
	sym    *model.Symmetry
	r      model.Renamer
	below  boundedRenamer // r, if it can stop early; else nil
	fixes  fixingRenamer  // r, if it can test a renaming for a fixed point early; else nil
	others [][]int        // explicit groups: every element but the identity
	best   []byte
	cur    []byte

	// Full groups: processes sorted by key, blocks of equal keys, and
	// within blocks classes of interchangeable processes (classify).
	keys       []uint64
	order      []int
	bounds     []int
	perm       []int
	byKey      keySort
	classOf    []int
	reps       []int
	classStart []int
	members    []int
	used       []int
	arr        []int
	swap       []int
}

// newCanonicalizer returns a canonicalizer for sym.
func newCanonicalizer(sym *model.Symmetry) *canonicalizer {
	c := &canonicalizer{sym: sym, r: sym.NewRenamer(), order: make([]int, sym.N), perm: make([]int, sym.N)}
	for _, p := range sym.Perms {
		if !isIdentity(p) {
			c.others = append(c.others, p) // the state itself is the identity's image
		}
	}
	c.below, _ = c.r.(boundedRenamer)
	c.fixes, _ = c.r.(fixingRenamer)
	return c
}

// Canonical returns the representative of state's orbit. The result is
// valid until the next call.
func (c *canonicalizer) Canonical(state []byte) []byte {
	if !c.sym.Full {
		c.best = append(c.best[:0], state...)
		for _, p := range c.others {
			c.consider(state, p)
		}
		return c.best
	}
	// Sort the processes by key: only permutations that put the keys in
	// ascending order by position are candidates. That set of renamed
	// states is the same for every member of the orbit (keys move with
	// their process), so its minimum is an exact canonical form.
	c.keys = c.r.Keys(c.keys, state)
	for i := range c.order {
		c.order[i] = i
	}
	c.byKey = keySort{c.keys, c.order}
	sort.Stable(&c.byKey)
	c.bounds = append(c.bounds[:0], 0)
	for j := 1; j < len(c.order); j++ {
		if c.keys[c.order[j]] != c.keys[c.order[j-1]] {
			c.bounds = append(c.bounds, j)
		}
	}
	c.bounds = append(c.bounds, len(c.order))
	c.classify(state)
	first := true
	for {
		for g := range c.used {
			c.used[g] = 0
		}
		for j, g := range c.arr {
			i := c.members[c.classStart[g]+c.used[g]]
			c.used[g]++
			c.perm[i] = j
		}
		if first {
			// The state itself need not have its keys in order, so it
			// is not a candidate: start from the first sorted one. When
			// that is the identity (the state's keys are in order, as
			// for most successors of a canonical state), renaming is
			// copying.
			if isIdentity(c.perm) {
				c.best = append(c.best[:0], state...)
			} else {
				c.best = c.r.Rename(c.best[:0], state, c.perm)
			}
			first = false
		} else {
			c.consider(state, c.perm)
		}
		// Advance the odometer: the last block first. nextPermutation
		// enumerates the distinct arrangements of a block's classes.
		b := len(c.bounds) - 2
		for ; b >= 0; b-- {
			if nextPermutation(c.arr[c.bounds[b]:c.bounds[b+1]]) {
				break
			}
		}
		if b < 0 {
			return c.best
		}
	}
}

// classify splits each block of equal keys into classes of processes that
// the state cannot tell apart: a and b are in one class when swapping
// them (the transposition (a b)) leaves the state unchanged. Candidates
// that differ only by how a class's members are placed give the same
// renamed state (π∘(a b) applied to s is π applied to s), so only the
// distinct arrangements of class labels need to be tried: for a state in
// which k processes are alike, 1 instead of k! candidates. The relation is
// an equivalence (a product of such transpositions fixes the state too).
//
// It sets c.arr (the class label at each position, sorted within each
// block), c.members (process ids grouped by class, ascending) and
// c.classStart (where each class starts in members, plus an end mark).
func (c *canonicalizer) classify(state []byte) {
	n := len(c.order)
	c.classOf = grow(c.classOf, n)
	c.reps = c.reps[:0]
	for b := 0; b+1 < len(c.bounds); b++ {
		lo, hi := c.bounds[b], c.bounds[b+1]
		first := len(c.reps) // classes of this block start here
		for _, i := range c.order[lo:hi] {
			g := -1
			if hi-lo > 1 {
				for k := first; k < len(c.reps); k++ {
					if c.swapFixes(state, c.reps[k], i) {
						g = k
						break
					}
				}
			}
			if g < 0 {
				g = len(c.reps)
				c.reps = append(c.reps, i)
			}
			c.classOf[i] = g
		}
	}
	nc := len(c.reps)
	c.classStart = grow(c.classStart, nc+1)
	c.used = grow(c.used, nc)
	for g := range c.classStart {
		c.classStart[g] = 0
	}
	for i := range n {
		c.classStart[c.classOf[i]+1]++
	}
	for g := range nc {
		c.classStart[g+1] += c.classStart[g]
	}
	c.members = grow(c.members, n)
	for g := range c.used {
		c.used[g] = 0
	}
	for i := range n { // ascending ids within each class
		g := c.classOf[i]
		c.members[c.classStart[g]+c.used[g]] = i
		c.used[g]++
	}
	// The first arrangement: each block's labels in ascending order (the
	// classes of a block have consecutive labels).
	c.arr = grow(c.arr, n)
	for j, i := range c.order {
		c.arr[j] = c.classOf[i]
	}
	for b := 0; b+1 < len(c.bounds); b++ {
		slices.Sort(c.arr[c.bounds[b]:c.bounds[b+1]])
	}
}

// swapFixes reports whether swapping processes a and b leaves state
// unchanged.
func (c *canonicalizer) swapFixes(state []byte, a, b int) bool {
	c.swap = grow(c.swap, len(c.order))
	for i := range c.swap {
		c.swap[i] = i
	}
	c.swap[a], c.swap[b] = b, a
	if c.fixes != nil {
		return c.fixes.Fixes(state, c.swap)
	}
	c.cur = c.r.Rename(c.cur[:0], state, c.swap)
	return bytes.Equal(c.cur, state)
}

func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func (c *canonicalizer) consider(state []byte, perm []int) {
	if c.below != nil {
		var less bool
		c.cur, less = c.below.RenameBelow(c.cur[:0], state, perm, c.best)
		if less {
			c.best, c.cur = c.cur, c.best
		}
		return
	}
	c.cur = c.r.Rename(c.cur[:0], state, perm)
	if bytes.Compare(c.cur, c.best) < 0 {
		c.best, c.cur = c.cur, c.best
	}
}

// keySort orders process ids by key, without allocating.
type keySort struct {
	keys  []uint64
	order []int
}

func (s *keySort) Len() int           { return len(s.order) }
func (s *keySort) Less(a, b int) bool { return s.keys[s.order[a]] < s.keys[s.order[b]] }
func (s *keySort) Swap(a, b int)      { s.order[a], s.order[b] = s.order[b], s.order[a] }

// isIdentity reports whether perm maps every process to itself.
func isIdentity(perm []int) bool {
	for i, j := range perm {
		if i != j {
			return false
		}
	}
	return true
}
