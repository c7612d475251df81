package pingpong

// BruteForce exposes the independent search of bruteforce_test.go to the
// external tests.
func BruteForce(n, r, faults int, increment bool) (states, transitions int64, depth int) {
	return bfRing{n: n, r: r, faults: faults, increment: increment}.bruteForce()
}
