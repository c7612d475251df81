package symmetry

// The external tests reach the canonicalizer and the orbit count, which
// the package keeps to itself.
var (
	NewCanonicalizer = newCanonicalizer
	CountOrbits      = countOrbits
	Elements         = elements
)

// BoundedRenamer is the renamers' early-stopping capability, for the
// external tests that compare it with Rename.
type BoundedRenamer = boundedRenamer
