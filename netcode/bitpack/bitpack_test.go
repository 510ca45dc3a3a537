package bitpack

import (
	"errors"
	"math/rand/v2"
	"testing"
)

func TestRoundTripRandomWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type item struct {
		v uint32
		n uint
	}
	for run := range 200 {
		items := make([]item, rng.IntN(300))
		var w Writer
		w.Reset(make([]byte, 0, 3)) // a small buffer must grow
		total := 0
		for i := range items {
			n := uint(rng.IntN(33))
			v := rng.Uint32() & mask(n)
			items[i] = item{v, n}
			w.Write(v, n)
			total += int(n)
		}
		if w.BitLen() != total {
			t.Fatalf("run %d: BitLen %d, wrote %d bits", run, w.BitLen(), total)
		}
		b := w.Bytes()
		if len(b) != (total+7)/8 {
			t.Fatalf("run %d: %d bytes for %d bits", run, len(b), total)
		}
		r := NewReader(b)
		for i, it := range items {
			if got := r.Read(it.n); got != it.v {
				t.Fatalf("run %d item %d: read %#x, wrote %#x (%d bits)", run, i, got, it.v, it.n)
			}
		}
		if r.Err() != nil || !r.AtPadding() {
			t.Fatalf("run %d: err %v, at padding %v", run, r.Err(), r.AtPadding())
		}
	}
}

func TestLSBFirstLayout(t *testing.T) {
	var w Writer
	w.Write(1, 1)      // bit 0
	w.Write(0b10, 2)   // bits 1-2: 0,1
	w.Write(0x1f, 5)   // bits 3-7
	w.Write(0xabc, 12) // next byte and a half
	got := w.Bytes()
	want := []byte{0b11111101, 0xbc, 0x0a}
	if string(got) != string(want) {
		t.Fatalf("bytes %08b, want %08b", got, want)
	}
}

func TestWriterAppendsToCallerBuffer(t *testing.T) {
	w := NewWriter([]byte{0xee})
	w.Write(0x5, 4)
	if b := w.Bytes(); len(b) != 2 || b[0] != 0xee || b[1] != 0x05 {
		t.Fatalf("got %x", b)
	}
}

func TestReadPastEnd(t *testing.T) {
	r := NewReader([]byte{0xff, 0x01})
	if v := r.Read(9); v != 0x1ff || r.Err() != nil {
		t.Fatalf("read %#x err %v", v, r.Err())
	}
	if r.Remaining() != 7 {
		t.Fatalf("remaining %d, want 7", r.Remaining())
	}
	if v := r.Read(8); v != 0 || !errors.Is(r.Err(), ErrShort) {
		t.Fatalf("read %#x err %v, want ErrShort", v, r.Err())
	}
	// sticky
	if v := r.Read(1); v != 0 || !errors.Is(r.Err(), ErrShort) {
		t.Fatalf("after error: %#x %v", v, r.Err())
	}
	var empty Reader
	if empty.Read(1); !errors.Is(empty.Err(), ErrShort) {
		t.Fatal("empty reader must fail")
	}
	if z := NewReader(nil); z.Read(0) != 0 || z.Err() != nil {
		t.Fatal("zero-width read of empty input must succeed")
	}
}

func TestGamma(t *testing.T) {
	values := []uint32{0, 1, 2, 3, 7, 8, 100, 255, 256, 1<<16 - 1, 1 << 20, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1}
	for k := uint(0); k < 32; k++ {
		var w Writer
		for _, v := range values {
			before := w.BitLen()
			w.WriteGamma(v, k)
			if got := w.BitLen() - before; got != GammaLen(v, k) {
				t.Fatalf("k=%d v=%d: wrote %d bits, GammaLen %d", k, v, got, GammaLen(v, k))
			}
		}
		r := NewReader(w.Bytes())
		for _, v := range values {
			if got := r.ReadGamma(k); got != v || r.Err() != nil {
				t.Fatalf("k=%d: read %d (err %v), want %d", k, got, r.Err(), v)
			}
		}
	}
	if GammaLen(0, 0) != 1 || GammaLen(1, 0) != 3 || GammaLen(2, 0) != 3 || GammaLen(3, 0) != 5 || GammaLen(0, 3) != 4 {
		t.Fatal("GammaLen disagrees with the Exp-Golomb code lengths")
	}
}

func TestGammaMalformed(t *testing.T) {
	// 40 zero bits: a prefix longer than any 32-bit value needs.
	r := NewReader(make([]byte, 5))
	if r.ReadGamma(0); !errors.Is(r.Err(), ErrCode) {
		t.Fatalf("err %v, want ErrCode", r.Err())
	}
	r = NewReader([]byte{0, 0})
	if r.ReadGamma(0); !errors.Is(r.Err(), ErrShort) {
		t.Fatalf("err %v, want ErrShort", r.Err())
	}
}

func TestZigzag(t *testing.T) {
	cases := []struct {
		d int32
		z uint32
	}{{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {2, 4}, {1<<31 - 1, 1<<32 - 2}, {-1 << 31, 1<<32 - 1}}
	for _, c := range cases {
		if got := Zigzag(c.d); got != c.z {
			t.Errorf("Zigzag(%d) = %d, want %d", c.d, got, c.z)
		}
		if got := Unzigzag(c.z); got != c.d {
			t.Errorf("Unzigzag(%d) = %d, want %d", c.z, got, c.d)
		}
	}
}

func TestAtPaddingRejectsTrailingData(t *testing.T) {
	r := NewReader([]byte{0x01, 0x00})
	r.Read(1)
	if r.AtPadding() {
		t.Fatal("a whole unread byte is not padding")
	}
	r = NewReader([]byte{0x03})
	r.Read(1)
	if r.AtPadding() {
		t.Fatal("a set bit is not padding")
	}
}

// fuzzCode has short and long codewords and unused ones.
var fuzzCode = MustCode(1, 3, 3, 5, 0, 9, 12, 12, 12, 10, 11, 7, 6, 6, 6, 6, 0, 0, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12)

func FuzzReader(f *testing.F) {
	f.Add([]byte{0xff, 0x00, 0x12}, []byte{1, 8, 32, 0})
	f.Add([]byte{}, []byte{5})
	f.Fuzz(func(t *testing.T, data, widths []byte) {
		r := NewReader(data)
		read := 0
		for _, w := range widths {
			n := uint(w) % 34
			switch {
			case n == 33 && w%4 == 0:
				r.ReadGamma(uint(w) % 4)
			case n == 33 && w%4 == 1:
				r.ReadRice(uint(w) % 32)
			case n == 33 && w%4 == 2:
				r.ReadCode(fuzzCode)
			case n == 33:
				r.ReadLengthCode(fuzzCode)
			default:
				r.Read(n)
				read += int(n)
			}
			if r.Err() != nil {
				break
			}
		}
		if r.Err() == nil && read > len(data)*8 {
			t.Fatalf("read %d bits from %d bytes without error", read, len(data))
		}
		if r.Remaining() < 0 {
			t.Fatal("negative remaining")
		}
	})
}

func BenchmarkWriteRead(b *testing.B) {
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		w := NewWriter(buf[:0])
		for i := range 512 {
			w.Write(uint32(i), 13)
			w.WriteGamma(uint32(i&31), 1)
		}
		out := w.Bytes()
		r := NewReader(out)
		for range 512 {
			r.Read(13)
			r.ReadGamma(1)
		}
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1024, "ns/value")
}
