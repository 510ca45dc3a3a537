package bitpack

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// Codes of many shapes (short, long, incomplete, with unused symbols)
// round-trip every symbol, interleaved with plain values.
func TestCodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := [][]uint8{
		{1},          // one symbol, incomplete
		{1, 1},       // a bit
		{2, 2, 2, 2}, // two bits
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12},
		{0, 3, 0, 3, 2, 2, 0, 3}, // unused symbols
		{12, 12, 12, 12, 1},      // incomplete, long codewords
	}
	for range 20 { // random Huffman codes up to MaxCodeLen bits
		freq := make([]uint64, 1+rng.IntN(200))
		for i := range freq {
			freq[i] = uint64(rng.ExpFloat64() * 1000)
		}
		freq[0]++
		l, err := HuffmanLengths(freq, uint8(max(8, bits.Len(uint(len(freq))))+rng.IntN(4)))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, l)
	}
	for ci, lengths := range cases {
		c, err := NewCode(lengths...)
		if err != nil {
			t.Fatalf("case %d: %v", ci, err)
		}
		var syms []int
		for s, l := range lengths {
			if l > 0 {
				syms = append(syms, s)
			}
		}
		var w Writer
		var want []int
		for range 500 {
			s := syms[rng.IntN(len(syms))]
			want = append(want, s)
			w.WriteCode(c, s)
			w.Write(uint32(s), 5) // something else between codewords
		}
		r := NewReader(w.Bytes())
		for i, s := range want {
			if got := r.ReadCode(c); got != s || r.Read(5) != uint32(s)&31 {
				t.Fatalf("case %d, symbol %d: read %d, wrote %d (%v)", ci, i, got, s, r.Err())
			}
		}
		if !r.AtPadding() {
			t.Fatalf("case %d: bits left over", ci)
		}
	}
}

// Canonical codewords: shorter first, then by symbol; on the wire the
// codeword's most significant bit comes first.
func TestCodeIsCanonical(t *testing.T) {
	c := MustCode(2, 1, 3, 3) // codewords 10, 0, 110, 111
	for s, want := range []struct{ word, n uint32 }{{0b10, 2}, {0b0, 1}, {0b110, 3}, {0b111, 3}} {
		w, n := c.Word(s)
		if uint32(n) != want.n || reverse(w, n) != want.word {
			t.Errorf("symbol %d: codeword %b (%d bits), want %b", s, reverse(w, n), n, want.word)
		}
	}
	var w Writer
	w.WriteCode(c, 2) // 1, 1, 0 in stream order
	if b := w.Bytes(); b[0] != 0b011 {
		t.Fatalf("stream %08b, want 00000011", b[0])
	}
}

func TestCodeRejects(t *testing.T) {
	for _, lengths := range [][]uint8{
		nil,
		{0, 0},
		{1, 1, 1},           // not a prefix code
		{13, 1},             // too long
		make([]uint8, 5000), // too many symbols
	} {
		if _, err := NewCode(lengths...); !errors.Is(err, ErrTable) {
			t.Errorf("NewCode(%v): %v, want ErrTable", lengths, err)
		}
	}
	// An incomplete code: the codewords no symbol has are an error, and a
	// codeword cut by the end of input is short.
	c := MustCode(1, 0, 2) // 0, (none), 10: 11 is unused
	r := NewReader([]byte{0b11})
	if r.ReadCode(c); !errors.Is(r.Err(), ErrCode) {
		t.Errorf("unused codeword: %v", r.Err())
	}
	long := MustCode(1, 12, 12) // 0, then 1 + eleven bits
	r = NewReader([]byte{0xff})
	if r.ReadCode(long); !errors.Is(r.Err(), ErrShort) {
		t.Errorf("cut codeword: %v", r.Err())
	}
	r = NewReader(nil)
	if r.ReadLengthCode(long); !errors.Is(r.Err(), ErrShort) {
		t.Errorf("empty input: %v", r.Err())
	}
}

// HuffmanLengths gives optimal lengths when they fit, and flattens them to
// fit maxLen when they would not, keeping a prefix code.
func TestHuffmanLengths(t *testing.T) {
	got, err := HuffmanLengths([]uint64{8, 4, 2, 1, 1, 0}, 12)
	if err != nil || !slices.Equal(got, []uint8{1, 2, 3, 4, 4, 0}) {
		t.Fatalf("lengths %v, %v", got, err)
	}
	fib := []uint64{1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584}
	got, err = HuffmanLengths(fib, 6)
	if err != nil || slices.Max(got) > 6 {
		t.Fatalf("limited lengths %v, %v", got, err)
	}
	if _, err := NewCode(got...); err != nil {
		t.Fatalf("limited lengths %v: %v", got, err)
	}
	if _, err := HuffmanLengths(make([]uint64, 3), 4); !errors.Is(err, ErrTable) {
		t.Errorf("no frequencies: %v", err)
	}
	if _, err := HuffmanLengths([]uint64{1, 1, 1, 1, 1}, 2); !errors.Is(err, ErrTable) {
		t.Errorf("5 symbols in 2 bits: %v", err)
	}
}

// Length codes and Rice codes round-trip any 32-bit value.
func TestLengthAndRiceCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lengths := make([]uint8, 33)
	for i := range lengths {
		lengths[i] = 7
	}
	lengths[0], lengths[1] = 1, 2 // 1, 2, 31 sevens and a hole: a prefix code
	c := MustCode(lengths...)
	var w Writer
	var vals []uint32
	var ks []uint
	for i := range 2000 {
		v := rng.Uint32() >> rng.IntN(33)
		if i < 3 {
			v = []uint32{0, 1, 1<<32 - 1}[i]
		}
		k := uint(rng.IntN(32))
		vals, ks = append(vals, v), append(ks, k)
		w.WriteLengthCode(c, v)
		before := w.BitLen()
		w.WriteRice(v>>min(24, 32-k), k) // keep the unary part short
		if w.BitLen()-before != RiceLen(v>>min(24, 32-k), k) {
			t.Fatalf("RiceLen(%d, %d) = %d, wrote %d", v>>min(24, 32-k), k, RiceLen(v>>min(24, 32-k), k), w.BitLen()-before)
		}
	}
	w.WriteRice(1000, 0) // a unary part longer than 32 bits
	r := NewReader(w.Bytes())
	for i, v := range vals {
		if got := r.ReadLengthCode(c); got != v {
			t.Fatalf("value %d: length code read %d, wrote %d (%v)", i, got, v, r.Err())
		}
		if got := r.ReadRice(ks[i]); got != v>>min(24, 32-ks[i]) {
			t.Fatalf("value %d: Rice read %d, wrote %d (%v)", i, got, v>>min(24, 32-ks[i]), r.Err())
		}
	}
	if got := r.ReadRice(0); got != 1000 || !r.AtPadding() {
		t.Fatalf("long Rice code: %d, %v", got, r.Err())
	}
	// A Rice code of more than 32 bits of value is an error.
	w.Reset(nil)
	w.Write(0, 32)
	w.Write(1, 1)
	w.Write(0, 31)
	if r := NewReader(w.Bytes()); r.ReadRice(31) != 0 || !errors.Is(r.Err(), ErrCode) {
		t.Fatalf("oversized Rice code: %v", r.Err())
	}
}

// WriteStream joins a stream written apart at any bit offset.
func TestWriteStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for run := range 100 {
		var part Writer
		var vals []uint32
		for range rng.IntN(40) {
			v := rng.Uint32() & 0x7ff
			vals = append(vals, v)
			part.Write(v, 11)
		}
		bits := part.BitLen()
		lead := uint(rng.IntN(40))
		var w Writer
		w.Write(0x5555_5555, min(lead, 32))
		w.Write(1, lead-min(lead, 32))
		w.WriteStream(part.Bytes(), bits)
		w.Write(0b101, 3)
		r := NewReader(w.Bytes())
		r.Read(min(lead, 32))
		r.Read(lead - min(lead, 32))
		for i, v := range vals {
			if got := r.Read(11); got != v {
				t.Fatalf("run %d, value %d: %d, wrote %d", run, i, got, v)
			}
		}
		if r.Read(3) != 0b101 || !r.AtPadding() {
			t.Fatalf("run %d: the stream's end is off", run)
		}
	}
}
