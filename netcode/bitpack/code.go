package bitpack

import (
	"fmt"
	"math/bits"
	"slices"
)

// MaxCodeLen is the longest codeword a Code may have, in bits.
const MaxCodeLen = 12

// Code is a static prefix code over the symbols 0 to n-1, given by the
// length of each symbol's codeword: a canonical code, so that the lengths
// alone define it and a table of them is all two ends must share.
//
// Codewords are assigned in the canonical order (shorter codewords first,
// then by symbol) as binary numbers, most significant bit first; the Writer,
// which packs least significant bit first, writes them bit-reversed, so the
// first bit of a codeword on the wire is its most significant one. A Code
// is immutable once made and safe for concurrent use.
type Code struct {
	lengths []uint8
	words   []uint32 // per symbol: its codeword, bit-reversed, ready for Write
	// Decoding looks the next bits up in two levels, so that the tables
	// stay small (a few hundred bytes) and in cache: table, indexed by the
	// next pbits bits, holds symbol<<4 | length for codewords of at most
	// pbits bits, 0 where no codeword starts, and sub<<4 | 15 where longer
	// codewords start; long holds their symbol<<4 | length, subtable sub
	// indexed by the sbits bits after the first pbits.
	table        []uint16
	long         []uint16
	maxLen       uint8
	pbits, sbits uint8
}

// primaryBits is the width of a Code's first-level table index.
const primaryBits = 8

// longEntry marks a first-level entry that leads to a subtable.
const longEntry = 15

// NewCode returns the canonical prefix code with the given codeword
// lengths: lengths[s] is the length of symbol s's codeword, 0 for a symbol
// that has none, at most MaxCodeLen. The lengths must satisfy Kraft's
// inequality (a code that does not use every codeword is allowed: reading
// an unused codeword is an error) and give at least one symbol a codeword.
func NewCode(lengths ...uint8) (*Code, error) {
	if len(lengths) == 0 || len(lengths) > 1<<(16-4) {
		return nil, fmt.Errorf("%w: %d symbols", ErrTable, len(lengths))
	}
	var count [MaxCodeLen + 1]int
	maxLen := uint8(0)
	kraft := 0 // in units of 2^-MaxCodeLen
	for s, l := range lengths {
		if l > MaxCodeLen {
			return nil, fmt.Errorf("%w: symbol %d has a %d-bit codeword (at most %d)", ErrTable, s, l, MaxCodeLen)
		}
		if l == 0 {
			continue
		}
		count[l]++
		kraft += 1 << (MaxCodeLen - l)
		maxLen = max(maxLen, l)
	}
	if maxLen == 0 {
		return nil, fmt.Errorf("%w: no symbol has a codeword", ErrTable)
	}
	if kraft > 1<<MaxCodeLen {
		return nil, fmt.Errorf("%w: the lengths do not make a prefix code", ErrTable)
	}
	// The first codeword of each length, canonically.
	var next [MaxCodeLen + 2]uint32
	code := uint32(0)
	for l := 1; l <= MaxCodeLen; l++ {
		code = (code + uint32(count[l-1])) << 1
		next[l] = code
	}
	pbits := min(maxLen, primaryBits)
	c := &Code{
		lengths: slices.Clone(lengths),
		words:   make([]uint32, len(lengths)),
		table:   make([]uint16, 1<<pbits),
		maxLen:  maxLen,
		pbits:   pbits,
		sbits:   maxLen - pbits,
	}
	for s, l := range lengths {
		if l == 0 {
			continue
		}
		w := reverse(next[l], uint(l))
		next[l]++
		c.words[s] = w
		entry := uint16(s)<<4 | uint16(l)
		if l <= pbits {
			for hi := uint32(0); hi < 1<<(pbits-l); hi++ {
				c.table[w|hi<<l] = entry
			}
			continue
		}
		// A long codeword: its first pbits bits lead to a subtable.
		first := w & (1<<pbits - 1)
		if c.table[first] == 0 {
			c.table[first] = uint16(len(c.long)>>c.sbits)<<4 | longEntry
			c.long = append(c.long, make([]uint16, 1<<c.sbits)...)
		}
		base := uint32(c.table[first]>>4) << c.sbits
		rest, rl := w>>pbits, l-pbits
		for hi := uint32(0); hi < 1<<(c.sbits-rl); hi++ {
			c.long[base+(rest|hi<<rl)] = entry
		}
	}
	return c, nil
}

// lookup returns the table entry of the codeword in the low bits of acc.
func (c *Code) lookup(acc uint64) uint16 {
	e := c.table[acc&(1<<c.pbits-1)]
	if e&15 == longEntry {
		e = c.long[int(e>>4)<<c.sbits|int(acc>>c.pbits)&(1<<c.sbits-1)]
	}
	return e
}

// MustCode is NewCode for tables written in code; it panics on invalid lengths.
func MustCode(lengths ...uint8) *Code {
	c, err := NewCode(lengths...)
	if err != nil {
		panic(err)
	}
	return c
}

// reverse returns the low n bits of v in reverse order.
func reverse(v uint32, n uint) uint32 {
	var r uint32
	for range n {
		r = r<<1 | v&1
		v >>= 1
	}
	return r
}

// Symbols returns the number of symbols of the code.
func (c *Code) Symbols() int { return len(c.lengths) }

// Len returns the length of symbol s's codeword: 0 if it has none.
func (c *Code) Len(s int) int { return int(c.lengths[s]) }

// Lengths returns a copy of the codeword lengths the code was made from.
func (c *Code) Lengths() []uint8 { return slices.Clone(c.lengths) }

// Word returns symbol s's codeword as Write takes it (bit-reversed) and its
// length; a caller may put more bits above the codeword and write both at
// once. The length is 0 for a symbol without a codeword.
func (c *Code) Word(s int) (uint32, uint) { return c.words[s], uint(c.lengths[s]) }

// WriteCode appends symbol s's codeword. s must have one.
func (w *Writer) WriteCode(c *Code, s int) {
	w.Write(c.words[s], uint(c.lengths[s]))
}

// ReadCode reads one codeword of c and returns its symbol. An unused
// codeword is ErrCode; a codeword cut short by the end of input is ErrShort.
func (r *Reader) ReadCode(c *Code) int {
	if r.err != nil {
		return 0
	}
	if r.n < uint(c.maxLen) {
		r.fill(uint(c.maxLen))
	}
	e := c.lookup(r.acc)
	l := uint(e & 15)
	switch {
	case l == 0:
		if r.n < uint(c.maxLen) {
			r.err = ErrShort // perhaps a valid codeword whose end is missing
		} else {
			r.err = ErrCode
		}
		return 0
	case l > r.n:
		r.err = ErrShort
		return 0
	}
	r.acc >>= l & 63
	r.n -= l
	return int(e >> 4)
}

// HuffmanLengths returns codeword lengths for symbols of the given
// frequencies: a Huffman code, made shallower if needed (by flattening the
// frequencies) so that no codeword is longer than maxLen. Symbols of
// frequency 0 get no codeword. Ties break by symbol, so the result is the
// same on every platform. maxLen must leave room for every symbol with a
// frequency (2^maxLen of them at least) and be at most MaxCodeLen.
func HuffmanLengths(freq []uint64, maxLen uint8) ([]uint8, error) {
	used := 0
	for _, f := range freq {
		if f > 0 {
			used++
		}
	}
	if maxLen > MaxCodeLen || used > 1<<maxLen || used == 0 {
		return nil, fmt.Errorf("%w: %d symbols in codewords of at most %d bits", ErrTable, used, maxLen)
	}
	f := slices.Clone(freq)
	for {
		lengths := huffman(f)
		if slices.Max(lengths) <= maxLen {
			return lengths, nil
		}
		for i := range f {
			if f[i] > 0 {
				f[i] = f[i]/2 + 1
			}
		}
	}
}

// huffman returns the Huffman codeword lengths of freq (0 for frequency 0;
// a lone symbol gets length 1).
func huffman(freq []uint64) []uint8 {
	type node struct {
		f      uint64
		min    int // smallest symbol below, for deterministic ties
		parent int
	}
	nodes := make([]node, 0, 2*len(freq))
	var live []int
	for s, f := range freq {
		if f > 0 {
			nodes = append(nodes, node{f: f, min: s, parent: -1})
			live = append(live, len(nodes)-1)
		}
	}
	lengths := make([]uint8, len(freq))
	if len(live) == 1 {
		lengths[nodes[0].min] = 1
		return lengths
	}
	less := func(a, b int) bool {
		if nodes[a].f != nodes[b].f {
			return nodes[a].f < nodes[b].f
		}
		return nodes[a].min < nodes[b].min
	}
	for len(live) > 1 {
		// Take the two least frequent live nodes.
		slices.SortFunc(live, func(a, b int) int {
			if less(a, b) {
				return -1
			}
			if less(b, a) {
				return 1
			}
			return 0
		})
		a, b := live[0], live[1]
		nodes = append(nodes, node{f: nodes[a].f + nodes[b].f, min: min(nodes[a].min, nodes[b].min), parent: -1})
		p := len(nodes) - 1
		nodes[a].parent, nodes[b].parent = p, p
		live = append(live[2:], p)
	}
	leaf := 0
	for s, f := range freq {
		if f == 0 {
			continue
		}
		d := uint8(0)
		for n := leaf; nodes[n].parent >= 0; n = nodes[n].parent {
			d++
		}
		lengths[s] = d
		leaf++
	}
	return lengths
}

// WriteLengthCode appends z as a length-coded value: the codeword of its bit
// length b (0 to 32; c needs a symbol for each length z may have), then the
// b-1 bits of z below its leading one. Small values cost little, and c,
// trained on the lengths a field's values have, spends short codewords on
// the usual lengths.
func (w *Writer) WriteLengthCode(c *Code, z uint32) {
	b := bits.Len32(z)
	word, l := c.words[b], uint(c.lengths[b])
	extra := uint(max(b-1, 0))
	if l+extra <= 32 {
		w.Write(word|(z&mask(extra))<<l, l+extra)
		return
	}
	w.Write(word, l)
	w.Write(z, extra) // Write drops the bits above extra: the leading one
}

// ReadLengthCode reads a value written by WriteLengthCode with c.
func (r *Reader) ReadLengthCode(c *Code) uint32 {
	if r.n < MaxCodeLen+31 {
		r.fill(56)
	}
	e := c.lookup(r.acc)
	l, b := uint(e&15), uint(e>>4)
	extra := uint(max(int(b)-1, 0))
	if l == 0 || b > 32 || l+extra > r.n || r.err != nil {
		return r.lengthCodeError(c, l, b)
	}
	// l < 16, extra < 32 and b <= 32 here: the shifts' counts are masked
	// to their ranges, which spares Go's check of each.
	v := uint32(r.acc>>(l&63)) & mask(extra)
	r.acc >>= (l + extra) & 63
	r.n -= l + extra
	if b == 0 {
		return 0
	}
	return v | 1<<((b-1)&31)
}

// lengthCodeError notes why a length code could not be read.
func (r *Reader) lengthCodeError(c *Code, l, b uint) uint32 {
	switch {
	case r.err != nil:
	case l == 0 && r.n < uint(c.maxLen):
		r.err = ErrShort
	case l == 0 || b > 32:
		r.err = ErrCode
	default:
		r.err = ErrShort
	}
	return 0
}
