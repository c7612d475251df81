package explore

import (
	"encoding/binary"
	"testing"
)

// The values of Fingerprint, computed once (2026-11-26) and pinned: state
// counts under fingerprint collisions, the numbering of states and hence
// every counterexample depend on them, so the function must never change.
// Inputs cover every branch: empty, the short tail (< 8 bytes), exactly
// one word, word plus tail, one block of 16, a block plus a byte, and many
// blocks with a tail. Input byte i is i*7+1.
func TestFingerprintPinned(t *testing.T) {
	want := map[int]uint64{
		0:   0xa175d7365644a163,
		1:   0x9c947fb7e6330441,
		8:   0xf11de36e22edcc3b,
		15:  0x343b0e5eaf530ba9,
		16:  0xba32c64b66e27314,
		17:  0x7e4877b6cfca4052,
		100: 0x76b5db9e895b2fdc,
	}
	for _, n := range []int{0, 1, 8, 15, 16, 17, 100} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + 1)
		}
		if got := Fingerprint(b); got != want[n] {
			t.Errorf("Fingerprint of %d bytes = %#016x, want %#016x", n, got, want[n])
		}
	}
	if got := Fingerprint([]byte("tokenmc")); got != 0xe2831cfb9f1e116a {
		t.Errorf("Fingerprint(\"tokenmc\") = %#016x, want 0xe2831cfb9f1e116a", got)
	}
	for _, p := range nearCollisions {
		for k, id := range p.ids {
			if got := Fingerprint(nearState(id)); got != p.fps[k] {
				t.Errorf("Fingerprint of state %d = %#016x, want %#016x", id, got, p.fps[k])
			}
		}
	}
}

// nearCollisions are pairs of 8-byte states (little-endian integers)
// whose fingerprints agree in their top 14 bits (the same shard and the
// same home slot in tables of up to 64 slots) and in their low 32 bits,
// and differ only in bits 33 to 49. They were found by a birthday search
// over the fingerprints of the integers 0 to 2^24-1, matching the top 12
// and low 32 bits (7 such pairs; these two agree on 14 top bits).
var nearCollisions = []struct {
	ids [2]uint64
	fps [2]uint64
}{
	{[2]uint64{7538876, 3700155}, [2]uint64{0xcdbacd44390d34ab, 0xcdb8c58f390d34ab}},
	{[2]uint64{11677828, 3607728}, [2]uint64{0x0a350577377fbe67, 0x0a374cac377fbe67}},
}

func nearState(id uint64) []byte { return binary.LittleEndian.AppendUint64(nil, id) }

func TestNearCollisionsAreNear(t *testing.T) {
	for _, p := range nearCollisions {
		a, b := p.fps[0], p.fps[1]
		if a == b || a>>50 != b>>50 || uint32(a) != uint32(b) {
			t.Errorf("%#016x and %#016x are not a near-collision", a, b)
		}
	}
}

// A seen set must compare whole fingerprints: states whose fingerprints
// share the shard, the home slot and the low 32 bits are still distinct.
// The root's successors are the first state of the first pair and both
// states of the second (candidates of one level); the first pair's second
// state follows its first (a candidate looked up against a state admitted
// a level before). Every search must count 5 states and 4 transitions.
func TestNearCollidingFingerprintsAreDistinctStates(t *testing.T) {
	p, q := nearCollisions[0].ids, nearCollisions[1].ids
	root := []byte("root")
	sys := &funcSys{
		name: "near-collisions",
		init: [][]byte{root},
		succ: func(s []byte) []edge {
			switch string(s) {
			case string(root):
				return []edge{{to: nearState(p[0])}, {to: nearState(q[0])}, {to: nearState(q[1])}}
			case string(nearState(p[0])):
				return []edge{{to: nearState(p[1])}}
			}
			return nil
		},
	}
	for _, mode := range searchModes {
		r := mustCheck(t, sys, mode)
		if r.Verdict != OK || r.States != 5 || r.Transitions != 4 {
			t.Errorf("%s: %s, %d states %d transitions; want ok, 5 states, 4 transitions",
				modeName(mode), r.Verdict, r.States, r.Transitions)
		}
	}
}
