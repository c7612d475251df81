package symmetry

// The external tests reach the canonicalizer and the orbit count, which
// the package keeps to itself.
var (
	NewCanonicalizer = newCanonicalizer
	CountOrbits      = countOrbits
)
