// Package train makes a schema's prefix codes from recorded traffic: a
// Tally counts what deltas of the schema code (delta.Encoder.Symbols)
// and turns the counts into codeword lengths for snapshot.Field.Code,
// NewCode and SpawnCode, snapshot.Schema.MaskCode and the context codes
// (snapshot.Schema.Contexts). Training runs offline, in tests and tools;
// the codes it makes are part of the protocol, and package delta codes
// with them without importing this one.
package train

import (
	"math"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Tally counts what deltas of a schema code, to train the schema's residual
// codes (snapshot.Field.Code) on recorded traffic: per field, how many
// changed values had a residual of each bit length, with the schema's
// predictor. Feed it the (baseline, current, gap) triples a real sender
// meets, then take Lengths into the schema. It is not safe for concurrent use.
type Tally struct {
	enc    *delta.Encoder // whose symbols it counts
	counts [][]uint64
	masks  []uint64      // per field mask, for schemas of at most 8 fields
	news   [2][][]uint64 // per field, against the entity before and as made
	made   [2]uint64     // new entities coded against the entity before them, and as made by a maker
	cx     snapshot.Contexter
	ctx    []ctxTally // per context of the schema's Contexter, if any
}

// ctxTally is what a Tally counts for one context.
type ctxTally struct {
	counts [][]uint64
	masks  []uint64
}

// NewTally returns an empty tally for s.
func NewTally(s *snapshot.Schema) (*Tally, error) {
	tables, err := delta.NewTables(s)
	if err != nil {
		return nil, err
	}
	t := &Tally{enc: delta.NewEncoder(tables), counts: make([][]uint64, len(s.Fields)), news: [2][][]uint64{make([][]uint64, len(s.Fields)), make([][]uint64, len(s.Fields))}}
	for f, fd := range s.Fields {
		t.counts[f] = make([]uint64, int(fd.Bits)+1)
		t.news[0][f] = make([]uint64, int(fd.Bits)+1)
		t.news[1][f] = make([]uint64, int(fd.Bits)+1)
	}
	if len(s.Fields) <= 8 {
		t.masks = make([]uint64, 1<<len(s.Fields))
	}
	if cx, ok := s.Predictor.(snapshot.Contexter); ok {
		t.cx = cx
		t.ctx = make([]ctxTally, cx.Contexts())
		for k := range t.ctx {
			t.ctx[k].counts = make([][]uint64, len(s.Fields))
			for f, fd := range s.Fields {
				t.ctx[k].counts[f] = make([]uint64, int(fd.Bits)+1)
			}
			if t.masks != nil {
				t.ctx[k].masks = make([]uint64, len(t.masks))
			}
		}
	}
	return t, nil
}

// Add counts the symbols of a delta of cur against base, gap ticks older:
// its masks and residuals, and its new entities' rows (with new-entity
// codes).
func (t *Tally) Add(base, cur *snapshot.Snapshot, gap uint32) {
	t.enc.Symbols(base, cur, gap, t.count)
}

// count counts one symbol of a delta.
func (t *Tally) count(y delta.Symbol) {
	switch y.Kind {
	case delta.SymbolChange:
		var ct *ctxTally
		if t.cx != nil {
			ct = &t.ctx[y.Context]
		}
		switch {
		case y.Field >= 0:
			t.counts[y.Field][y.Value]++
			if ct != nil {
				ct.counts[y.Field][y.Value]++
			}
		case t.masks != nil:
			t.masks[y.Value]++
			if ct != nil {
				ct.masks[y.Value]++
			}
		}
	case delta.SymbolNew, delta.SymbolMade:
		k := b2i(y.Kind == delta.SymbolMade)
		if y.Field < 0 {
			t.made[k]++
		} else {
			t.news[k][y.Field][y.Value]++
		}
	}
}

// Symbols calls fn with the symbols of the changed entities of a delta of
// cur against base, gap ticks older, in the packet's order: per entity its
// mask, then each changed field's residual length (delta.SymbolChange; see
// delta.Encoder.Symbols for a delta's every symbol). It counts nothing, so
// that another way of coding them can be measured on the traffic Add
// trained the codes on.
func (t *Tally) Symbols(base, cur *snapshot.Snapshot, gap uint32, fn func(delta.Symbol)) {
	t.enc.Symbols(base, cur, gap, func(y delta.Symbol) {
		if y.Kind == delta.SymbolChange {
			fn(y)
		}
	})
}

// NewCounts returns, for field f, how many new entities' values differed
// from their guess by each bit length (0 to the field's width), with the
// guesses the schema's new-entity codes chose (see snapshot.Field.NewCode;
// nothing is counted for a schema without them): with made false those
// coded against the entity before them (NewCode), with made true those
// coded as made by another (SpawnCode). The slice is the tally's own.
func (t *Tally) NewCounts(f int, made bool) []uint64 { return t.news[b2i(made)][f] }

// NewLengths returns codeword lengths for field f's NewCode (made false)
// or SpawnCode (made true), trained on NewCounts like Lengths.
func (t *Tally) NewLengths(f int, made bool, maxLen uint8) ([]uint8, error) {
	counts := t.news[b2i(made)][f]
	freq := make([]uint64, len(counts))
	for n, k := range counts {
		freq[n] = k + 1
	}
	return bitpack.HuffmanLengths(freq, maxLen)
}

// NewBits is Bits for the new entities' values (NewCounts).
func (t *Tally) NewBits(f int, made bool, code *bitpack.Code) float64 {
	return lengthBits(t.news[b2i(made)][f], code)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Made returns how many new entities were coded against the entity before
// them in slot order, and how many as made by a maker (snapshot.Spawner).
func (t *Tally) Made() (before, made uint64) { return t.made[0], t.made[1] }

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
	return lengthBits(t.counts[f], code)
}

// lengthBits returns what values of the counted bit lengths cost with
// code, or with the ideal code for the counts when code is nil.
func lengthBits(counts []uint64, code *bitpack.Code) float64 {
	var total, sum float64
	for n, k := range counts {
		total += float64(k)
		sum += float64(k) * float64(max(n-1, 0))
	}
	for n, k := range counts {
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
func (t *Tally) MaskBits(code *bitpack.Code) float64 { return maskBits(t.masks, code) }

// maskBits returns what masks of the counts cost with code, or with the
// ideal code when code is nil.
func maskBits(masks []uint64, code *bitpack.Code) float64 {
	var total, sum float64
	for _, k := range masks {
		total += float64(k)
	}
	for m, k := range masks {
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

// Contexts returns how many contexts the schema's Predictor sorts changed
// entities into (see snapshot.Contexter): 0 if it is not a Contexter.
func (t *Tally) Contexts() int { return len(t.ctx) }

// ContextLengths is Lengths for the residuals of the changed entities of
// context k alone: the lengths of snapshot.Schema.Contexts[k].Fields[f].
func (t *Tally) ContextLengths(k, f int, maxLen uint8) ([]uint8, error) {
	return huffmanOf(t.ctx[k].counts[f], 0, maxLen)
}

// ContextBits is Bits for the residuals of context k alone.
func (t *Tally) ContextBits(k, f int, code *bitpack.Code) float64 {
	return lengthBits(t.ctx[k].counts[f], code)
}

// ContextCounts is Counts for the residuals of context k alone.
func (t *Tally) ContextCounts(k, f int) []uint64 { return t.ctx[k].counts[f] }

// ContextMaskCounts is MaskCounts for the masks of context k alone.
func (t *Tally) ContextMaskCounts(k int) []uint64 { return t.ctx[k].masks }

// ContextMaskLengths is MaskLengths for the masks of context k alone: the
// lengths of snapshot.Schema.Contexts[k].Mask.
func (t *Tally) ContextMaskLengths(k int, maxLen uint8) ([]uint8, error) {
	if t.masks == nil {
		return nil, nil
	}
	return huffmanOf(t.ctx[k].masks, 1, maxLen)
}

// ContextMaskBits is MaskBits for the masks of context k alone.
func (t *Tally) ContextMaskBits(k int, code *bitpack.Code) float64 {
	return maskBits(t.ctx[k].masks, code)
}

// huffmanOf returns the lengths of a Huffman code of at most maxLen bits
// for counts, every symbol from first on given a codeword.
func huffmanOf(counts []uint64, first int, maxLen uint8) ([]uint8, error) {
	freq := make([]uint64, len(counts))
	for n := first; n < len(counts); n++ {
		freq[n] = counts[n] + 1
	}
	return bitpack.HuffmanLengths(freq, maxLen)
}

// ContextChanges returns how many changed entities of context k were
// counted (0 for a schema of more than 8 fields).
func (t *Tally) ContextChanges(k int) uint64 {
	var n uint64
	for _, c := range t.ctx[k].masks {
		n += c
	}
	return n
}
