// Package bitpack writes and reads values of any width from 1 to 32 bits,
// packed least significant bit first.
//
// The Writer keeps a 64-bit accumulator and appends whole bytes to a buffer
// the caller owns, so encoding into a reused buffer never allocates. The
// Reader is bounds-checked: reading past the end returns ErrShort (and keeps
// returning it) instead of panicking or inventing data.
//
// Besides fixed-width values, the package has zigzag mapping (small signed
// numbers to small unsigned ones) and Exp-Golomb codes (short codes for small
// numbers, no fixed limit), the two building blocks of compact deltas.
package bitpack
