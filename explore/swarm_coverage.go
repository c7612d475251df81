package explore

import (
	"fmt"
	"math"
	"slices"
)

// SwarmCoverage is the estimated coverage of several searches together
// (the shards of a swarm), from their fingerprint samples (Result.Sketch).
//
// The derivation. Fingerprint is a hash, so the states whose fingerprint
// is at most a threshold t are a uniform random sample of all states,
// and a search's sketch (its k smallest fingerprints) holds every state
// of the sample it visited as long as t is at most its k-th smallest
// fingerprint (or it keeps fewer than k). With t the smallest k-th
// fingerprint over the shards, the sample is complete for every shard:
// Sample states of the union, of which shard i visited InSample[i].
//
// The union then counts about Sample*2^64/(t+1) states (all of them when
// no sketch is full). For the reachable states, which no shard may have
// seen all of, the estimate is capture-recapture with independent
// captures: if shard i visited each of the R reachable states of the
// sample independently with probability a_i/R, the union would hold
// R*(1 - prod_i (1 - a_i/R)) of them; Reachable solves that for the
// observed Sample (scaled like Union), and Coverage is Union/Reachable.
// Shards that miss the same states (states that are hard for every
// strategy, as deep states are for depth-bounded searches) break the
// independence and make the estimate optimistic; shards with distinct
// hash seeds miss by hash collisions, largely independently, which is
// what the estimate assumes.
type SwarmCoverage struct {
	// Threshold: fingerprints at most Threshold form the sample.
	Threshold uint64
	// Sample is the number of states of the sample some shard visited;
	// InSample[i] those shard i visited.
	Sample   int
	InSample []int
	// Union estimates the states visited by at least one shard; Reachable
	// the reachable states (0 when the shards' samples do not overlap at
	// all: no estimate); Coverage is Union/Reachable (0 without an
	// estimate).
	Union, Reachable, Coverage float64
}

// EstimateSwarmCoverage estimates the coverage of the union of searches
// from their sketches (Result.Sketch of searches run with Options.Sketch
// k): each in increasing order, a sketch shorter than k holding all of
// its search's fingerprints. See SwarmCoverage for the derivation.
func EstimateSwarmCoverage(sketches [][]uint64, k int) (SwarmCoverage, error) {
	var c SwarmCoverage
	if k < 1 {
		return c, fmt.Errorf("sketch size must be >= 1, got %d", k)
	}
	c.Threshold = math.MaxUint64
	for i, s := range sketches {
		if len(s) > k {
			return c, fmt.Errorf("sketch %d holds %d fingerprints, more than the sketch size %d", i, len(s), k)
		}
		if !slices.IsSorted(s) {
			return c, fmt.Errorf("sketch %d is not in increasing order", i)
		}
		if len(s) == k {
			c.Threshold = min(c.Threshold, s[k-1])
		}
	}
	union := map[uint64]bool{}
	c.InSample = make([]int, len(sketches))
	for i, s := range sketches {
		for _, fp := range s {
			if fp > c.Threshold {
				break
			}
			c.InSample[i]++
			union[fp] = true
		}
	}
	c.Sample = len(union)
	if c.Sample == 0 {
		return c, nil
	}
	scale := 1.0
	if c.Threshold != math.MaxUint64 {
		scale = math.Exp2(64) / (float64(c.Threshold) + 1)
	}
	c.Union = float64(c.Sample) * scale
	r := captureRecapture(c.InSample, c.Sample)
	if r > 0 {
		c.Reachable = r * scale
		c.Coverage = float64(c.Sample) / r
	}
	return c, nil
}

// captureRecapture returns the R >= max(a) for which R*(1 - prod(1 -
// a_i/R)), the expected union of independent samples of sizes a_i from R
// items, equals union; 0 if there is none (the samples do not overlap).
func captureRecapture(a []int, union int) float64 {
	sum, largest := 0, 0
	for _, x := range a {
		sum += x
		largest = max(largest, x)
	}
	if union >= sum {
		return 0 // no overlap: any R is as likely, however large
	}
	expected := func(r float64) float64 {
		miss := 1.0
		for _, x := range a {
			miss *= 1 - float64(x)/r
		}
		return r * (1 - miss)
	}
	lo, hi := float64(largest), float64(largest)
	if expected(lo) >= float64(union) {
		return lo
	}
	for expected(hi) < float64(union) {
		hi *= 2
		if hi > 1e30 {
			return 0
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if expected(mid) < float64(union) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
