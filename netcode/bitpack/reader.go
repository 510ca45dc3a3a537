package bitpack

import (
	"encoding/binary"
	"math/bits"
)

// Reader unpacks values written by Writer. Its errors are sticky: after the
// first failed read every read returns 0 and Err reports the failure, so a
// decoder may read a whole record and check once.
type Reader struct {
	b   []byte
	pos int    // next byte of b to load
	acc uint64 // loaded, unread bits, the next one in the low end
	n   uint   // number of loaded, unread bits
	err error
}

// NewReader returns a Reader over b.
func NewReader(b []byte) Reader { return Reader{b: b} }

// Reset makes the reader read b from its start.
func (r *Reader) Reset(b []byte) { *r = Reader{b: b} }

// Err returns the first error a read met, or nil.
func (r *Reader) Err() error { return r.err }

// Remaining returns the number of unread bits, padding included.
func (r *Reader) Remaining() int { return (len(r.b)-r.pos)*8 + int(r.n) }

// fill loads bytes until at least n bits (n at most 56) are buffered or the
// input ends. With eight bytes left it loads as many as fit in one step.
func (r *Reader) fill(n uint) {
	if r.n < n && r.pos+8 <= len(r.b) {
		k := (63 - r.n) >> 3 // whole bytes that fit
		w := binary.LittleEndian.Uint64(r.b[r.pos:])
		r.acc |= w << (r.n & 63) & (1<<((r.n+8*k)&63) - 1) // counts below 64: masked, Go checks no shift
		r.pos += int(k)
		r.n += 8 * k
		return
	}
	for r.n < n && r.pos < len(r.b) {
		r.acc |= uint64(r.b[r.pos]) << (r.n & 63)
		r.pos++
		r.n += 8
	}
}

// Read returns the next n bits (n from 0 to 32).
func (r *Reader) Read(n uint) uint32 {
	if r.err != nil {
		return 0
	}
	if r.n < n {
		r.fill(n)
		if r.n < n {
			r.err = ErrShort
			return 0
		}
	}
	v := uint32(r.acc & uint64(mask(n)))
	r.acc >>= n & 63
	r.n -= n
	return v
}

// ReadBool returns the next bit.
func (r *Reader) ReadBool() bool { return r.Read(1) == 1 }

// ReadGamma returns the next Exp-Golomb code of order k.
func (r *Reader) ReadGamma(k uint) uint32 {
	prefix := uint(0)
	for r.Read(1) == 0 {
		if r.err != nil {
			return 0
		}
		prefix++
		if prefix+k > 32 {
			r.err = ErrCode
			return 0
		}
	}
	nb := prefix + k // value bits below the leading one
	var low uint64
	if nb > 16 {
		low = uint64(r.Read(16)) | uint64(r.Read(nb-16))<<16
	} else {
		low = uint64(r.Read(nb))
	}
	x := low | 1<<nb
	v := x - 1<<k
	if v > 1<<32-1 {
		r.err = ErrCode
		return 0
	}
	return uint32(v)
}

// ReadRice returns the next Rice code of parameter k (see WriteRice). A
// code whose value does not fit 32 bits is ErrCode.
func (r *Reader) ReadRice(k uint) uint32 {
	if r.err != nil {
		return 0
	}
	var q uint64 // zeros before the one
	for {
		r.fill(56)
		if r.n == 0 {
			r.err = ErrShort
			return 0
		}
		if r.acc == 0 { // only zeros loaded: all of them belong to q
			q += uint64(r.n)
			r.n = 0
			if q > 1<<32 {
				r.err = ErrCode
				return 0
			}
			continue
		}
		z := uint(bits.TrailingZeros64(r.acc)) // below r.n: bits above it are 0
		q += uint64(z)
		r.acc >>= z + 1
		r.n -= z + 1
		break
	}
	v := q<<k | uint64(r.Read(k))
	if v > 1<<32-1 {
		r.err = ErrCode
		return 0
	}
	return uint32(v)
}

// AtPadding reports whether everything unread is the zero padding of the last
// byte: the check that a packet has no trailing data.
func (r *Reader) AtPadding() bool {
	return r.err == nil && r.pos == len(r.b) && r.n < 8 && r.acc == 0
}
