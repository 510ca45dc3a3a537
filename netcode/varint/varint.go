// Package varint reads and sizes the unsigned LEB128 numbers of the
// byte-aligned messages (events, replica records, the game's records) the
// way a decoder of hostile input must: shortest form only, bounded, and
// never past the end.
package varint

import (
	"errors"
	"fmt"
)

var (
	// ErrShort is returned when the input ends inside a number.
	ErrShort = errors.New("varint: cut inside a number")
	// ErrMalformed is returned for a number that is not in shortest form,
	// longer than 5 bytes, or over its bound.
	ErrMalformed = errors.New("varint: malformed number")
)

// Read reads one shortest-form number of at most max (max < 2^35) from the
// start of p and returns it with its length in bytes.
func Read(p []byte, max uint64) (uint64, int, error) {
	var v uint64
	for i := 0; i < len(p) && i < 5; i++ {
		b := p[i]
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			if b == 0 && i > 0 {
				return 0, 0, fmt.Errorf("%w: not in shortest form", ErrMalformed)
			}
			if v > max {
				return 0, 0, fmt.Errorf("%w: %d over %d", ErrMalformed, v, max)
			}
			return v, i + 1, nil
		}
	}
	if len(p) >= 5 {
		return 0, 0, fmt.Errorf("%w: longer than 5 bytes", ErrMalformed)
	}
	return 0, 0, ErrShort
}

// Len returns the bytes binary.AppendUvarint writes for v.
func Len(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
