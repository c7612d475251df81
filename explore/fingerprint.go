package explore

import (
	"encoding/binary"
	"math/bits"
)

// Multipliers of the fingerprint function (odd 64-bit constants with
// well-mixed bits, as used by wyhash-style hashes).
const (
	fpK0 = 0xa0761d6478bd642f
	fpK1 = 0xe7037ed1a0b428db
	fpK2 = 0x8ebc6af09c88c6e3
	fpK3 = 0x589965cc75374cc3
)

func fpMix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// Fingerprint returns a 64-bit hash of an encoded state. It is fixed (no
// per-process seed), so counts, collisions and results are the same on every
// run and machine. It never returns 0, which marks an empty slot.
func Fingerprint(b []byte) uint64 { return seededFingerprint(b, 0) }

// seededFingerprint is Fingerprint of another function of a family
// indexed by seed (Options.HashSeed); seed 0 is Fingerprint itself.
func seededFingerprint(b []byte, seed uint64) uint64 {
	n := len(b)
	h := uint64(n)*fpK0 ^ fpK1 ^ seed
	for len(b) >= 16 {
		h = fpMix(binary.LittleEndian.Uint64(b)^fpK2, binary.LittleEndian.Uint64(b[8:])^h)
		b = b[16:]
	}
	var a, c uint64
	switch {
	case len(b) >= 8:
		a = binary.LittleEndian.Uint64(b)
		b = b[8:]
		for i := len(b) - 1; i >= 0; i-- {
			c = c<<8 | uint64(b[i])
		}
	default:
		for i := len(b) - 1; i >= 0; i-- {
			a = a<<8 | uint64(b[i])
		}
	}
	h = fpMix(a^fpK2, c^h^fpK3)
	h = fpMix(h^fpK0, uint64(n)^fpK1)
	if h == 0 {
		h = 1
	}
	return h
}
