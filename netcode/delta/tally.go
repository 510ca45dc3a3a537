package delta

import (
	"math"
	"math/bits"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Tally counts what deltas of a schema code, to train the schema's residual
// codes (snapshot.Field.Code) on recorded traffic: per field, how many
// changed values had a residual of each bit length, with the schema's
// predictor. Feed it the (baseline, current, gap) triples a real sender
// meets, then take Lengths into the schema. It is not safe for concurrent use.
type Tally struct {
	c      *Codec
	counts [][]uint64
	masks  []uint64 // per field mask, for schemas of at most 8 fields
}

// NewTally returns an empty tally for s.
func NewTally(s *snapshot.Schema) (*Tally, error) {
	c, err := NewCodec(s)
	if err != nil {
		return nil, err
	}
	t := &Tally{c: c, counts: make([][]uint64, len(s.Fields))}
	for f, fd := range s.Fields {
		t.counts[f] = make([]uint64, int(fd.Bits)+1)
	}
	if len(s.Fields) <= 8 {
		t.masks = make([]uint64, 1<<len(s.Fields))
	}
	return t, nil
}

// Add counts the residuals of a delta of cur against base, gap ticks older.
func (t *Tally) Add(base, cur *snapshot.Snapshot, gap uint32) {
	c := t.c
	c.analyse(base, cur)
	c.residuals(base, cur, gap) // computes them for coded fields too
	resid := c.resid
	for _, ch := range c.changed {
		if t.masks != nil {
			t.masks[ch.mask]++
		}
		for m := ch.mask; m != 0; m &= m - 1 {
			f := bits.TrailingZeros32(m)
			t.counts[f][bits.Len32(resid[0])]++
			resid = resid[1:]
		}
	}
}

// Counts returns, for field f, how many residuals had each bit length
// (0 to the field's width). The slice is the tally's own.
func (t *Tally) Counts(f int) []uint64 { return t.counts[f] }

// Lengths returns codeword lengths for field f's residual code, trained on
// the counts: a Huffman code of at most maxLen bits (at most
// bitpack.MaxCodeLen) in which every bit length, met or not, has a codeword,
// so that no value is ever impossible to send.
func (t *Tally) Lengths(f int, maxLen uint8) ([]uint8, error) {
	freq := make([]uint64, len(t.counts[f]))
	for n, k := range t.counts[f] {
		freq[n] = k + 1
	}
	return bitpack.HuffmanLengths(freq, maxLen)
}

// MaskLengths returns codeword lengths for the schema's mask code
// (snapshot.Schema.MaskCode), trained on the counts of each field mask:
// every mask but 0 gets a codeword. It is nil for a schema of more than 8
// fields.
func (t *Tally) MaskLengths(maxLen uint8) ([]uint8, error) {
	if t.masks == nil {
		return nil, nil
	}
	freq := make([]uint64, len(t.masks))
	for m, k := range t.masks[1:] {
		freq[m+1] = k + 1
	}
	return bitpack.HuffmanLengths(freq, maxLen)
}

// MaskCounts returns how many changed entities had each field mask (nil
// for a schema of more than 8 fields). The slice is the tally's own.
func (t *Tally) MaskCounts() []uint64 { return t.masks }

// Bits returns what field f's residuals cost with code: codewords plus the
// bits below each residual's leading one. With a nil code it returns the
// cost of the ideal code for the counts (their entropy plus those bits).
func (t *Tally) Bits(f int, code *bitpack.Code) float64 {
	var total, sum float64
	for n, k := range t.counts[f] {
		total += float64(k)
		sum += float64(k) * float64(max(n-1, 0))
	}
	for n, k := range t.counts[f] {
		if k == 0 {
			continue
		}
		if code != nil {
			sum += float64(k) * float64(code.Len(n))
		} else {
			sum -= float64(k) * math.Log2(float64(k)/total)
		}
	}
	return sum
}

// MaskBits returns what the counted field masks cost with code, or with
// the ideal code for the counts (their entropy) when code is nil.
func (t *Tally) MaskBits(code *bitpack.Code) float64 {
	var total, sum float64
	for _, k := range t.masks {
		total += float64(k)
	}
	for m, k := range t.masks {
		if k == 0 {
			continue
		}
		if code != nil {
			sum += float64(k) * float64(code.Len(m))
		} else {
			sum -= float64(k) * math.Log2(float64(k)/total)
		}
	}
	return sum
}
