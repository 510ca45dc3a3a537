package delta

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/sightline-game/sightline/netcode/bitpack"
)

// Set coding: a delta's removed set (positions in the baseline) and its
// changed set (positions among the baseline's survivors) are each written
// as a bitmask over their universe or as a count and Rice-coded gaps,
// whichever is shorter for the packet (see the package doc). planSet
// chooses, writeSetAs writes through a Writer, packRiceGaps writes the
// gaps into the encoder's side buffer (see writeChanges), and readSet
// reads any of them.

// riceBits is the width of a set's Rice parameter (0..15).
const riceBits = 4

// writeSet writes the set of positions pos (increasing, below universe):
// as a bitmask over the universe, or as a count and gaps coded Rice(k),
// whichever is shorter.
func writeSet(w *bitpack.Writer, pos []int32, universe int) {
	bitmask, k := planSet(pos, universe)
	writeSetAs(w, pos, universe, bitmask, k)
}

// planSet chooses how to write a set: as a bitmask, or as gaps coded
// Rice(k).
func planSet(pos []int32, universe int) (bitmask bool, k int) {
	count := len(pos)
	gapCost := 0
	if count > 0 {
		// The gaps sum to the last position less count-1. Rice(k) costs
		// count*(1+k) bits plus the sum of the gaps shifted right by k,
		// about sum>>k: choose k by that estimate.
		sum := int(pos[count-1]) + 1 - count
		gapCost = -1
		for kk := range 1 << riceBits {
			if cost := count*(1+kk) + sum>>kk; gapCost < 0 || cost < gapCost {
				k, gapCost = kk, cost
			}
		}
		gapCost += riceBits
	}
	gapCost += bitpack.GammaLen(uint32(count), 0)
	return universe <= gapCost, k
}

// writeSetAs writes a set as planSet chose.
func writeSetAs(w *bitpack.Writer, pos []int32, universe int, bitmask bool, k int) {
	count := len(pos)
	if bitmask {
		w.Write(1, 1) // bitmask
		next := int32(0)
		for _, p := range pos {
			for p-next >= 32 {
				w.Write(0, 32)
				next += 32
			}
			w.Write(1<<(p-next), uint(p-next+1)) // zeros up to p, then its one
			next = p + 1
		}
		for rest := int32(universe) - next; rest > 0; rest -= 32 {
			w.Write(0, uint(min(rest, 32)))
		}
		return
	}
	w.Write(0, 1)
	w.WriteGamma(uint32(count), 0)
	if count == 0 {
		return
	}
	w.Write(uint32(k), riceBits)
	prev := int32(-1)
	kk := uint(k)
	for _, p := range pos {
		g := uint32(p - prev - 1)
		prev = p
		if q := uint(g >> kk); q+1+kk <= 32 { // the usual case, in one write
			w.Write(1<<q|(g&(1<<kk-1))<<(q+1), q+1+kk)
			continue
		}
		w.WriteRice(g, kk)
	}
}

// readSet reads a set written by writeSet over universe positions and
// appends its members to pos, which must have room for universe of them.
func readSet(r *bitpack.Reader, pos []int32, universe int) ([]int32, error) {
	if r.ReadBool() {
		if universe > r.Remaining() {
			return pos, fmt.Errorf("%w: set bitmask of %d bits, %d left", ErrMalformed, universe, r.Remaining())
		}
		for at := 0; at < universe; at += 32 {
			v := r.Read(uint(min(universe-at, 32)))
			for ; v != 0; v &= v - 1 {
				pos = append(pos, int32(at+bits.TrailingZeros32(v)))
			}
		}
		return pos, r.Err()
	}
	count := r.ReadGamma(0)
	if r.Err() != nil {
		return pos, fmt.Errorf("%w: set count: %w", ErrMalformed, r.Err())
	}
	if count == 0 {
		return pos, nil
	}
	if int64(count) > int64(universe) {
		return pos, fmt.Errorf("%w: set of %d in %d", ErrMalformed, count, universe)
	}
	k := uint(r.Read(riceBits))
	prev := int64(-1)
	for range count {
		p := prev + 1 + int64(r.ReadRice(k))
		if r.Err() != nil {
			return pos, fmt.Errorf("%w: set gap: %w", ErrMalformed, r.Err())
		}
		if p >= int64(universe) {
			return pos, fmt.Errorf("%w: set position beyond its universe", ErrMalformed)
		}
		pos = append(pos, int32(p))
		prev = p
	}
	return pos, nil
}

// packRiceGaps packs the gaps of the set pos (increasing), each coded
// Rice(k), into buf from its start, the way writeChanges packs: an
// unconditional 8-byte store, then an advance by the whole bytes written.
// It returns the whole bytes written and the pending bits, n of them (below
// 8) in acc, the oldest lowest. buf must have room for every gap's bits
// and 8 bytes more.
func packRiceGaps(buf []byte, pos []int32, k uint) (whole int, acc uint64, n uint) {
	prev := int32(-1)
	for _, sp := range pos {
		g := uint32(sp - prev - 1)
		prev = sp
		q := uint(g >> k)
		for ; q >= 40; q -= 40 { // a long run of zeros
			n += 40
			binary.LittleEndian.PutUint64(buf[whole:whole+8], acc)
			whole += int(n >> 3)
			acc >>= n & 56
			n &= 7
		}
		acc |= (1<<(q&63) | uint64(g&(1<<k-1))<<((q+1)&63)) << (n & 63)
		n += q + 1 + k // at most 7+40+15 bits
		binary.LittleEndian.PutUint64(buf[whole:whole+8], acc)
		whole += int(n >> 3)
		acc >>= n & 56
		n &= 7
	}
	return whole, acc, n
}
