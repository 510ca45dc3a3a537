package delta

import "encoding/binary"

// Check returns the check byte a delta of a schema with Check set ends
// with, computed over the bytes before it: a hash of 64-bit little-endian
// words. Random damage to a delta
// (a cut, a flipped bit) leaves it a valid-looking packet far more often
// than one would like, its codes being dense; the check makes that 256
// times rarer for one byte. It protects against damage, not against a
// forger.
func Check(p []byte) byte {
	h := uint64(0x9e3779b97f4a7c15) ^ uint64(len(p))
	for ; len(p) >= 8; p = p[8:] {
		h = mixCheck(h ^ binary.LittleEndian.Uint64(p))
	}
	var tail uint64
	for i, c := range p {
		tail |= uint64(c) << (8 * i)
	}
	return byte(mixCheck(h^tail) >> 56)
}

func mixCheck(x uint64) uint64 {
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>31
}
