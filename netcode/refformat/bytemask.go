package refformat

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// ByteMask is the byte-aligned delta format with a changed bitmask and
// per-entity field masks described in the package documentation. Full
// packets are the same as Full's.
//
// Schema, when set, fixes the wire layout, and snapshots must have the same
// field widths; when nil, each snapshot's own schema is used.
type ByteMask struct {
	Schema *snapshot.Schema
}

var _ snapstream.Format = ByteMask{}

// AppendFull appends a full packet carrying cur, as Full does.
func (f ByteMask) AppendFull(dst []byte, tick uint32, cur *snapshot.Snapshot) []byte {
	return Full(f).AppendFull(dst, tick, cur)
}

// deltaOK reports whether cur can be sent as a delta against base.
func deltaOK(base, cur *snapshot.Snapshot) bool {
	return base != nil && base.Len() == cur.Len() &&
		sameFields(base.Schema(), cur.Schema()) && sequential(base) && sequential(cur)
}

// AppendDelta appends a delta carrying cur against base, the snapshot of
// tick baseline. It appends a full packet instead when the format cannot
// express the delta: base is nil, baseline is not 1 to 255 ticks before tick,
// the entity counts or layouts differ, or either snapshot's ids are not
// 0..N-1. It does not compare the delta's size with the full packet's; the
// caller decides (ByteMaskDeltaSize and FullSize tell without encoding).
func (f ByteMask) AppendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	l := encodeLayout(f.Schema, cur)
	if baseline == 0 || baseline >= tick || tick-baseline > 255 || !deltaOK(base, cur) {
		return appendFull(dst, tick, cur, &l)
	}
	n := cur.Len()
	dst = appendHeader(dst, tick, uint8(tick-baseline), n)
	bitmask := len(dst)
	for range (n + 7) / 8 {
		dst = append(dst, 0)
	}
	for i := range n {
		b, c := base.Row(i), cur.Row(i)
		var mask uint32
		for fi := range l.fields {
			if b[fi] != c[fi] {
				mask |= 1 << fi
			}
		}
		if mask == 0 {
			continue
		}
		dst[bitmask+i/8] |= 1 << (i % 8)
		dst = appendValue(dst, mask, uint8(l.maskBytes))
		for fi := range l.fields {
			if mask&(1<<fi) != 0 {
				dst = appendValue(dst, c[fi], l.width[fi])
			}
		}
	}
	return dst
}

// ByteMaskDeltaSize returns the length of the delta ByteMask.AppendDelta
// writes for cur against base, without encoding it:
// 7 + ceil(N/8) + sum over changed entities of (field mask bytes + bytes of
// the changed fields). When the format cannot express the delta (see
// AppendDelta; the tick distance is not checked here) it returns FullSize(cur).
func ByteMaskDeltaSize(base, cur *snapshot.Snapshot) int {
	if !deltaOK(base, cur) {
		return FullSize(cur)
	}
	l := layoutOf(cur.Schema())
	n := cur.Len()
	size := HeaderSize + (n+7)/8
	for i := range n {
		b, c := base.Row(i), cur.Row(i)
		changed := false
		for fi := range l.fields {
			if b[fi] != c[fi] {
				size += int(l.width[fi])
				changed = true
			}
		}
		if changed {
			size += l.maskBytes
		}
	}
	return size
}

// ReadHeader reads the 7-byte header. It rejects packets shorter than that,
// tick 0, and a baseline at or before tick 0 (back >= tick).
func (f ByteMask) ReadHeader(p []byte, newest uint32) (snapstream.Header, error) {
	h, err := readHeader(p)
	if err != nil {
		return snapstream.Header{}, err
	}
	return h.public(), nil
}

// Decode decodes p into out. For a delta, base must be the snapshot of
// h.Baseline, with N entities, ids 0..N-1 and out's layout; out must not be base.
func (f ByteMask) Decode(p []byte, h snapstream.Header, base, out *snapshot.Snapshot) error {
	ph, err := checkHeader(p, h, out)
	if err != nil {
		return err
	}
	l, err := decodeLayout(f.Schema, out)
	if err != nil {
		return err
	}
	if ph.back == 0 {
		return decodeFull(p[HeaderSize:], ph.n, &l, out)
	}
	n := ph.n
	switch {
	case base == nil:
		return fmt.Errorf("%w: delta without a baseline", ErrBaseline)
	case base == out:
		return fmt.Errorf("%w: decoding into the baseline itself", ErrBaseline)
	case base.Len() != n:
		return fmt.Errorf("%w: delta has %d entities, baseline %d", ErrBaseline, n, base.Len())
	case !sameFields(base.Schema(), out.Schema()):
		return fmt.Errorf("%w: baseline's fields differ from the output's", ErrBaseline)
	case !sequential(base):
		return fmt.Errorf("%w: baseline ids are not 0..N-1", ErrBaseline)
	}
	body := p[HeaderSize:]
	nb := (n + 7) / 8
	if len(body) < nb {
		return fmt.Errorf("%w: bitmask needs %d bytes, %d present", ErrShort, nb, len(body))
	}
	bitmask, body := body[:nb], body[nb:]
	if n%8 != 0 && bitmask[nb-1]>>(n%8) != 0 {
		return fmt.Errorf("%w: bitmask bits set past entity %d", ErrMalformed, n-1)
	}
	// Each changed entity takes at least its field mask and one value byte.
	if changed := popcount(bitmask); changed*(l.maskBytes+1) > len(body) {
		return fmt.Errorf("%w: %d changed entities, %d bytes left", ErrShort, changed, len(body))
	}
	out.Reset()
	off := 0
	for i := range n {
		row := out.AppendUnchecked(snapshot.EntityID{Index: uint16(i)})
		b := base.Row(i)
		copy(row, b)
		if bitmask[i/8]&(1<<(i%8)) == 0 {
			continue
		}
		if len(body)-off < l.maskBytes {
			return fmt.Errorf("%w: field mask of entity %d", ErrShort, i)
		}
		mask := readValue(body[off:], uint8(l.maskBytes))
		off += l.maskBytes
		if mask == 0 {
			return fmt.Errorf("%w: entity %d marked changed with an empty field mask", ErrMalformed, i)
		}
		if l.fields < 32 && mask>>l.fields != 0 {
			return fmt.Errorf("%w: entity %d field mask %#x names fields past %d", ErrMalformed, i, mask, l.fields-1)
		}
		for fi := range l.fields {
			if mask&(1<<fi) == 0 {
				continue
			}
			w := int(l.width[fi])
			if len(body)-off < w {
				return fmt.Errorf("%w: entity %d field %d", ErrShort, i, fi)
			}
			v := readValue(body[off:], uint8(w))
			off += w
			if v > l.max[fi] {
				return fmt.Errorf("%w: entity %d field %d = %d (max %d)", ErrRange, i, fi, v, l.max[fi])
			}
			if v == b[fi] {
				return fmt.Errorf("%w: entity %d field %d sent unchanged", ErrMalformed, i, fi)
			}
			row[fi] = v
		}
	}
	if off != len(body) {
		return fmt.Errorf("%w: %d after the last entity", ErrTrailing, len(body)-off)
	}
	return nil
}

// FullLen returns the length of a full packet carrying cur.
func (f ByteMask) FullLen(cur *snapshot.Snapshot) int { return FullSize(cur) }
