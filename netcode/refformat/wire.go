package refformat

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// HeaderSize is the size of every packet's header: tick, back and N.
const HeaderSize = 7

// MaxWireEntities is the most entities a packet can carry (N is a uint16).
const MaxWireEntities = 1<<16 - 1

// layout is the byte layout of a schema's rows. It lives on the stack.
type layout struct {
	fields      int
	width       [32]uint8  // bytes per field: ceil(bits/8)
	max         [32]uint32 // largest value per field
	entityBytes int        // sum of width
	maskBytes   int        // ceil(fields/8)
}

func layoutOf(s *snapshot.Schema) layout {
	var l layout
	l.fields = min(len(s.Fields), 32)
	for f := range l.fields {
		l.width[f] = (s.Fields[f].Bits + 7) / 8
		l.max[f] = s.Fields[f].Max()
		l.entityBytes += int(l.width[f])
	}
	l.maskBytes = (l.fields + 7) / 8
	return l
}

// sameFields reports whether two schemas have the same field widths.
func sameFields(a, b *snapshot.Schema) bool {
	if a == b {
		return true
	}
	if len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Fields {
		if a.Fields[i].Bits != b.Fields[i].Bits {
			return false
		}
	}
	return true
}

// encodeLayout returns the layout to encode s with: the format's schema when
// set (s must match it), else s's own. A mismatch is a programming error.
func encodeLayout(format *snapshot.Schema, s *snapshot.Snapshot) layout {
	if format != nil {
		if !sameFields(format, s.Schema()) {
			panic("refformat: snapshot schema does not match the format's")
		}
		return layoutOf(format)
	}
	return layoutOf(s.Schema())
}

// decodeLayout returns the layout to decode into out with, checking out's
// schema against the format's when set.
func decodeLayout(format *snapshot.Schema, out *snapshot.Snapshot) (layout, error) {
	if format != nil && !sameFields(format, out.Schema()) {
		return layout{}, fmt.Errorf("%w: output snapshot's fields differ from the format's", ErrSchema)
	}
	return layoutOf(out.Schema()), nil
}

// sequential reports whether s holds ids 0..N-1 with generation 0.
func sequential(s *snapshot.Snapshot) bool {
	for i, id := range s.IDs() {
		if id != (snapshot.EntityID{Index: uint16(i)}) {
			return false
		}
	}
	return true
}

func appendHeader(dst []byte, tick uint32, back uint8, n int) []byte {
	if n > MaxWireEntities {
		panic(fmt.Sprintf("refformat: %d entities do not fit a packet (max %d)", n, MaxWireEntities))
	}
	dst = binary.LittleEndian.AppendUint32(dst, tick)
	dst = append(dst, back)
	return binary.LittleEndian.AppendUint16(dst, uint16(n))
}

// appendValue appends v in w bytes, little-endian.
func appendValue(dst []byte, v uint32, w uint8) []byte {
	for range w {
		dst = append(dst, byte(v))
		v >>= 8
	}
	return dst
}

// readValue reads a w-byte little-endian value from the start of p (len(p) >= w).
func readValue(p []byte, w uint8) uint32 {
	var v uint32
	for i := int(w) - 1; i >= 0; i-- {
		v = v<<8 | uint32(p[i])
	}
	return v
}

// appendFull appends a full packet: header with back 0, then every row.
func appendFull(dst []byte, tick uint32, cur *snapshot.Snapshot, l *layout) []byte {
	n := cur.Len()
	dst = appendHeader(dst, tick, 0, n)
	for i := range n {
		row := cur.Row(i)
		for f := range l.fields {
			dst = appendValue(dst, row[f], l.width[f])
		}
	}
	return dst
}

// header is a parsed packet header.
type header struct {
	tick uint32
	back uint8
	n    int
}

func (h header) public() snapstream.Header {
	if h.back == 0 {
		return snapstream.Header{Tick: h.tick}
	}
	return snapstream.Header{Tick: h.tick, Baseline: h.tick - uint32(h.back)}
}

func readHeader(p []byte) (header, error) {
	if len(p) < HeaderSize {
		return header{}, fmt.Errorf("%w: %d bytes, header needs %d", ErrShort, len(p), HeaderSize)
	}
	h := header{
		tick: binary.LittleEndian.Uint32(p),
		back: p[4],
		n:    int(binary.LittleEndian.Uint16(p[5:])),
	}
	if h.tick == 0 {
		return header{}, fmt.Errorf("%w: tick 0", ErrMalformed)
	}
	// A baseline must be a real tick (>= 1), so back < tick.
	if h.back != 0 && uint32(h.back) >= h.tick {
		return header{}, fmt.Errorf("%w: baseline %d ticks back from tick %d", ErrMalformed, h.back, h.tick)
	}
	return h, nil
}

// checkHeader parses p's header, checks it against h (what ReadHeader gave)
// and N against out's room.
func checkHeader(p []byte, h snapstream.Header, out *snapshot.Snapshot) (header, error) {
	ph, err := readHeader(p)
	if err != nil {
		return header{}, err
	}
	if ph.public() != h {
		return header{}, fmt.Errorf("%w: header %+v does not match the packet's %+v", ErrMalformed, h, ph.public())
	}
	if ph.n > out.Schema().MaxEntities {
		return header{}, fmt.Errorf("%w: %d entities, room for %d", ErrTooMany, ph.n, out.Schema().MaxEntities)
	}
	return ph, nil
}

// decodeFull decodes the body of a full packet of n entities into out.
func decodeFull(body []byte, n int, l *layout, out *snapshot.Snapshot) error {
	need := n * l.entityBytes
	if len(body) < need {
		return fmt.Errorf("%w: %d entities need %d bytes, %d present", ErrShort, n, need, len(body))
	}
	if len(body) > need {
		return fmt.Errorf("%w: %d after %d entities", ErrTrailing, len(body)-need, n)
	}
	out.Reset()
	off := 0
	for i := range n {
		row := out.AppendUnchecked(snapshot.EntityID{Index: uint16(i)})
		for f := range l.fields {
			w := l.width[f]
			v := readValue(body[off:off+int(w)], w)
			if v > l.max[f] {
				return fmt.Errorf("%w: entity %d field %d = %d (max %d)", ErrRange, i, f, v, l.max[f])
			}
			row[f] = v
			off += int(w)
		}
	}
	return nil
}

// FullSize returns the size of a full packet carrying s: 7 + N * (bytes per entity).
func FullSize(s *snapshot.Snapshot) int {
	l := layoutOf(s.Schema())
	return HeaderSize + s.Len()*l.entityBytes
}

// popcount returns the number of set bits in p.
func popcount(p []byte) int {
	n := 0
	for _, b := range p {
		n += bits.OnesCount8(b)
	}
	return n
}
