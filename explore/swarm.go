package explore

import (
	"fmt"
	"slices"
)

// Swarm verification (Holzmann, Joshi and Groce, "Swarm Verification
// Techniques", IEEE TSE 2011): many small searches, each diversified by
// its hash function, its successor order, its strategy and its depth
// bound, run independently (on the machines of a cluster, each as one
// job of a batch array); any violation one finds is real and replays, and
// together they cover more of a state space too large for one search than
// one search of the same total time. This file holds the explorer's side:
// the successor orders, the table of diversifications (SwarmShard) and
// the fingerprint sample (Options.Sketch) from which the coverage of the
// shards together is estimated (swarm_coverage.go).

// SuccessorOrder is the order in which a depth-first search visits the new
// successors of a state (Options.Order): the zero value is the model's
// transition order; the others, the reverse of it and a pseudo-random
// order, are set by a swarm shard (SwarmShard.Apply). String names them
// natural, reversed and shuffled.
type SuccessorOrder int

// Successor orders.
const (
	// orderNatural visits successors in the model's transition order.
	orderNatural SuccessorOrder = iota
	// orderReversed visits them in the reverse of the model's order.
	orderReversed
	// orderShuffled visits them in a pseudo-random order drawn, for each
	// state, from Options.HashSeed and the state itself: the same search
	// visits the same order every time.
	orderShuffled
)

// String returns the order's name: natural, reversed or shuffled.
func (o SuccessorOrder) String() string {
	switch o {
	case orderNatural:
		return "natural"
	case orderReversed:
		return "reversed"
	case orderShuffled:
		return "shuffled"
	}
	return fmt.Sprintf("SuccessorOrder(%d)", int(o))
}

func (o *Options) validateSwarm() error {
	if o.Order < orderNatural || o.Order > orderShuffled {
		return fmt.Errorf("successor order %d is unknown; leave it 0 (the model's order) or let a swarm shard set it (SwarmShard.Apply)", int(o.Order))
	}
	if o.HashSeed != 0 && (o.Checkpoint != "" || o.Resume != "") {
		return fmt.Errorf("a hash seed cannot be combined with checkpoints (the checkpoint keeps fingerprints of seed 0)")
	}
	if o.Sketch < 0 {
		return fmt.Errorf("sketch size must be >= 0, got %d", o.Sketch)
	}
	return nil
}

// visitOrder returns the order in which a frame's n children are visited:
// nil for the natural order, else a permutation of 0..n-1.
func visitOrder(order SuccessorOrder, seed uint64, state []byte, n int) []int32 {
	if order == orderNatural || n < 2 {
		return nil
	}
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	if order == orderReversed {
		slices.Reverse(p)
		return p
	}
	// Fisher-Yates, drawing from splitmix64 seeded by the state's
	// fingerprint under the search's seed.
	x := seededFingerprint(state, seed)
	for i := n - 1; i > 0; i-- {
		x = splitmix64(x)
		j := int(x % uint64(i+1))
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// splitmix64 is one step of the SplitMix64 generator (Steele, Lea and
// Flood 2014): a bijection of uint64 with well-mixed bits.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// sketch keeps the k smallest Fingerprint values of the states added
// (Options.Sketch): a bottom-k sample, uniform over states because the
// fingerprint is a hash. A nil sketch ignores adds.
type sketch struct {
	k    int
	seed uint64   // the search's HashSeed: if 0, its fingerprints are Fingerprint's
	heap []uint64 // max-heap of the k smallest so far
}

func newSketch(o *Options) *sketch {
	if o.Sketch <= 0 {
		return nil
	}
	return &sketch{k: o.Sketch, seed: o.HashSeed}
}

// add samples a state the search admitted; fp is its fingerprint under the
// search's seed.
func (s *sketch) add(fp uint64, state []byte) {
	if s == nil {
		return
	}
	if s.seed != 0 {
		fp = Fingerprint(state)
	}
	h := s.heap
	if len(h) < s.k {
		h = append(h, fp)
		for i := len(h) - 1; i > 0; {
			up := (i - 1) / 2
			if h[up] >= h[i] {
				break
			}
			h[up], h[i] = h[i], h[up]
			i = up
		}
		s.heap = h
		return
	}
	if fp >= h[0] {
		return
	}
	h[0] = fp
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1] > h[c] {
			c++
		}
		if h[i] >= h[c] {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// sorted returns the sample in increasing order (nil for a nil sketch).
func (s *sketch) sorted() []uint64 {
	if s == nil {
		return nil
	}
	out := slices.Clone(s.heap)
	if out == nil {
		out = []uint64{}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// defaultSwarmSketch is the sample size a swarm shard keeps
// (Options.Sketch): the coverage estimate's sample then holds about this
// many states, enough for a coverage near 1 to be estimated to a fraction
// of a percent.
const defaultSwarmSketch = 2048

// SwarmShard is the diversification of one shard of a swarm: shard Index
// of Shards. It is a function of the index alone (see NewSwarmShard), so a
// scheduler that only numbers its jobs runs a diversified swarm.
type SwarmShard struct {
	Index, Shards int
	// HashSeed is Options.HashSeed: 0 for shard 0 (the ordinary search),
	// a distinct non-zero seed for every other shard.
	HashSeed uint64
	// DFS and Order are Options.DFS and Options.Order.
	DFS   bool
	Order SuccessorOrder
	// MaxDepth is the shard's own depth bound (0: none); Apply keeps the
	// smaller of it and the search's own bound.
	MaxDepth int
}

// NewSwarmShard returns the diversification of shard index of shards. It
// repeats with period 8:
//
//	index mod 8   search   order      depth bound
//	0             BFS      (natural)  none
//	1             DFS      natural    none
//	2             DFS      reversed   none
//	3             DFS      shuffled   none
//	4             BFS      (natural)  none
//	5             DFS      shuffled   none
//	6             DFS      natural    depthUnit   (none if depthUnit is 0)
//	7             DFS      shuffled   2*depthUnit (none if depthUnit is 0)
//
// and every shard has a hash seed of its own (shard 0: seed 0, so shard 0
// is the plain breadth-first search). A breadth-first search ignores the
// successor order, so the two breadth-first shards of each eight differ
// by their seeds only; a shuffled order differs from shard to shard
// because it is drawn from the seed.
func NewSwarmShard(index, shards, depthUnit int) (SwarmShard, error) {
	if shards < 1 {
		return SwarmShard{}, fmt.Errorf("a swarm has at least 1 shard, got %d", shards)
	}
	if index < 0 || index >= shards {
		return SwarmShard{}, fmt.Errorf("shard index %d is out of range; give 0..%d for a swarm of %d", index, shards-1, shards)
	}
	if depthUnit < 0 {
		return SwarmShard{}, fmt.Errorf("swarm depth unit must be >= 0, got %d", depthUnit)
	}
	s := SwarmShard{Index: index, Shards: shards, DFS: true}
	if index > 0 {
		s.HashSeed = splitmix64(uint64(index))
		if s.HashSeed == 0 {
			s.HashSeed = 1
		}
	}
	switch index % 8 {
	case 0, 4:
		s.DFS = false
	case 1:
	case 2:
		s.Order = orderReversed
	case 3, 5:
		s.Order = orderShuffled
	case 6:
		s.MaxDepth = depthUnit
	case 7:
		s.Order, s.MaxDepth = orderShuffled, 2*depthUnit
	}
	return s, nil
}

// Apply sets the options of the shard's search: HashSeed, DFS, Order, the
// smaller depth bound, and a sample of 2048 fingerprints
// unless o.Sketch asks for another size.
func (s SwarmShard) Apply(o *Options) {
	o.HashSeed, o.DFS, o.Order = s.HashSeed, s.DFS, s.Order
	if s.MaxDepth > 0 && (o.MaxDepth == 0 || s.MaxDepth < o.MaxDepth) {
		o.MaxDepth = s.MaxDepth
	}
	if o.Sketch == 0 {
		o.Sketch = defaultSwarmSketch
	}
}

// Search is "bfs" or "dfs".
func (s SwarmShard) Search() string {
	if s.DFS {
		return "dfs"
	}
	return "bfs"
}

// String describes the shard in one line, e.g. "shard 3 of 8: dfs,
// shuffled order, hash seed 0x…".
func (s SwarmShard) String() string {
	d := fmt.Sprintf("shard %d of %d: %s", s.Index, s.Shards, s.Search())
	if s.DFS {
		d += ", " + s.Order.String() + " order"
	}
	d += fmt.Sprintf(", hash seed %#x", s.HashSeed)
	if s.MaxDepth > 0 {
		d += fmt.Sprintf(", depth bound %d", s.MaxDepth)
	}
	return d
}

// sketchBlock samples the states the block admitted (its candidates that
// won), when the search keeps a sketch. A block cut by MaxStates may add
// a few states beyond the cut: the sample of a truncated search is only
// for a coverage estimate.
func (b *bfs) sketchBlock() {
	if b.sk == nil {
		return
	}
	for _, c := range b.chunks {
		for j, won := range c.won {
			if won {
				b.sk.add(c.fps[j], c.state(j))
			}
		}
	}
}
