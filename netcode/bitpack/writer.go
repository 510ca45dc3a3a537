package bitpack

import (
	"encoding/binary"
	"math/bits"
)

// Writer packs values LSB-first and appends them to a byte slice.
// The zero Writer appends to a nil slice; use Reset to write into a buffer.
type Writer struct {
	buf []byte
	acc uint64 // pending bits, the oldest in the low end
	n   uint   // number of pending bits, always < 32 between calls
}

// NewWriter returns a Writer that appends to dst.
func NewWriter(dst []byte) Writer { return Writer{buf: dst} }

// Reset makes the writer append to dst, dropping anything pending.
func (w *Writer) Reset(dst []byte) { *w = Writer{buf: dst} }

// Write appends the low n bits of v (n from 0 to 32). Bits of v above n are ignored.
func (w *Writer) Write(v uint32, n uint) {
	w.acc |= uint64(v&mask(n)) << (w.n & 63) // w.n < 32: the mask spares Go's check of the shift
	w.n += n
	if w.n >= 32 {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(w.acc))
		w.acc >>= 32
		w.n -= 32
	}
}

// WriteBool appends one bit.
func (w *Writer) WriteBool(b bool) {
	var v uint32
	if b {
		v = 1
	}
	w.Write(v, 1)
}

// WriteGamma appends v as an Exp-Golomb code of order k (k from 0 to 31):
// small values take few bits, any 32-bit value fits. It costs
// 2*floor(log2(v>>k + 1)) + k + 1 bits; GammaLen tells without writing.
func (w *Writer) WriteGamma(v uint32, k uint) {
	x := uint64(v) + 1<<k
	nb := uint(bits.Len64(x)) // k+1 .. 33
	prefix := nb - 1 - k      // zeros before the stop bit
	w.Write(0, prefix)
	w.Write(1, 1)
	// The value bits below the leading one: nb-1 of them, up to 32.
	low := x & (1<<(nb-1) - 1)
	if nb-1 > 31 {
		w.Write(uint32(low), 16)
		w.Write(uint32(low>>16), nb-1-16)
		return
	}
	w.Write(uint32(low), nb-1)
}

// BitLen returns the number of bits written since the last Reset, plus the
// bits of the buffer it started with.
func (w *Writer) BitLen() int { return len(w.buf)*8 + int(w.n) }

// Bytes flushes the pending bits (zero-padded to a whole byte) and returns the
// buffer. Writing after Bytes continues at the next byte boundary.
func (w *Writer) Bytes() []byte {
	for w.n > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		if w.n < 8 {
			w.n = 0
		} else {
			w.n -= 8
		}
	}
	w.acc = 0
	return w.buf
}

// GammaLen returns the bits WriteGamma(v, k) writes.
func GammaLen(v uint32, k uint) int {
	nb := bits.Len64(uint64(v) + 1<<k)
	return 2*nb - 1 - int(k)
}

// Zigzag maps signed to unsigned so that small magnitudes stay small:
// 0, -1, 1, -2, 2 ... become 0, 1, 2, 3, 4 ...
func Zigzag(d int32) uint32 { return uint32(d<<1) ^ uint32(d>>31) }

// Unzigzag undoes Zigzag.
func Unzigzag(z uint32) int32 { return int32(z>>1) ^ -int32(z&1) }

// Len returns the bits needed to hold v (0 for 0).
func Len(v uint32) uint { return uint(bits.Len32(v)) }

func mask(n uint) uint32 {
	if n >= 32 {
		return ^uint32(0)
	}
	return 1<<n - 1
}

// WriteRice appends v as a Rice code of parameter k (0 to 31): v>>k in
// unary (that many zero bits, then a one bit), then the low k bits of v.
// It suits values spread geometrically, such as the gaps between the
// members of a random set; RiceLen tells its length without writing.
func (w *Writer) WriteRice(v uint32, k uint) {
	q := uint(v >> k)
	for ; q >= 32; q -= 32 {
		w.Write(0, 32)
	}
	low := v & mask(k)
	if q+1+k <= 32 {
		w.Write(1<<q|low<<(q+1), q+1+k)
		return
	}
	w.Write(1<<q, q+1)
	w.Write(low, k)
}

// RiceLen returns the bits WriteRice(v, k) writes.
func RiceLen(v uint32, k uint) int { return int(v>>k) + 1 + int(k) }

// WriteStream appends the first n bits of p, a stream written apart (by
// another Writer, or bytes filled least significant bit first).
func (w *Writer) WriteStream(p []byte, n int) {
	acc, k, buf := w.acc, w.n, w.buf // in registers for the loop
	for ; n >= 32; n -= 32 {
		acc |= uint64(binary.LittleEndian.Uint32(p)) << (k & 63)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(acc))
		acc >>= 32
		p = p[4:]
	}
	w.acc, w.buf = acc, buf
	for ; n > 0; n -= 8 {
		w.Write(uint32(p[0]), uint(min(n, 8)))
		p = p[1:]
	}
}
