package simulate

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// sketchBits is the HyperLogLog precision: 2^12 registers, a standard
// error of about 1.04/sqrt(4096) = 1.6%.
const sketchBits = 12

// sketch is a HyperLogLog counter of distinct state fingerprints. Sketches
// merge by taking register maxima, so the count over several runs does not
// depend on the order in which they are merged.
type sketch [1 << sketchBits]uint8

func (s *sketch) add(h uint64) {
	// re-mix: Fingerprint's low bits are good, but use all 64 bits anyway
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	idx := h >> (64 - sketchBits)
	w := h<<sketchBits | 1<<(sketchBits-1)
	rank := uint8(1)
	for w&(1<<63) == 0 {
		rank++
		w <<= 1
	}
	if rank > s[idx] {
		s[idx] = rank
	}
}

func (s *sketch) merge(o *sketch) {
	for i, v := range o {
		if v > s[i] {
			s[i] = v
		}
	}
}

// estimate returns the approximate number of distinct values added.
func (s *sketch) estimate() int64 {
	const m = float64(len(s))
	sum, zeros := 0.0, 0
	for _, v := range s {
		sum += math.Ldexp(1, -int(v))
		if v == 0 {
			zeros++
		}
	}
	alpha := 0.7213 / (1 + 1.079/m)
	e := alpha * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros)) // linear counting for small sets
	}
	return int64(e + 0.5)
}

// hashState is a fixed 64-bit hash of an encoded state (wyhash-style, the
// same construction as explore.Fingerprint, kept here so that this package
// depends on the model alone).
func hashState(b []byte) uint64 {
	const (
		k0 = 0xa0761d6478bd642f
		k1 = 0xe7037ed1a0b428db
		k2 = 0x8ebc6af09c88c6e3
		k3 = 0x589965cc75374cc3
	)
	mix := func(a, b uint64) uint64 {
		hi, lo := bits.Mul64(a, b)
		return hi ^ lo
	}
	n := len(b)
	h := uint64(n)*k0 ^ k1
	for len(b) >= 16 {
		h = mix(binary.LittleEndian.Uint64(b)^k2, binary.LittleEndian.Uint64(b[8:])^h)
		b = b[16:]
	}
	var a, c uint64
	if len(b) >= 8 {
		a = binary.LittleEndian.Uint64(b)
		b = b[8:]
		for i := len(b) - 1; i >= 0; i-- {
			c = c<<8 | uint64(b[i])
		}
	} else {
		for i := len(b) - 1; i >= 0; i-- {
			a = a<<8 | uint64(b[i])
		}
	}
	h = mix(a^k2, c^h^k3)
	return mix(h^k0, uint64(n)^k1)
}
