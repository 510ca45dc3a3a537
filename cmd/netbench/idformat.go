package main

import (
	"encoding/binary"
	"fmt"

	"github.com/sightline-game/sightline/netcode/refformat"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// viewFormat carries the byte-aligned reference formats (package refformat)
// over a client's view, whose entities enter and leave. The reference names
// entities by their position among N fixed records; a view's entities are
// named by id (slot and generation), so this adds the least the reference's
// own notes suggest, a 2-byte id (slot in the low IndexBits bits, generation
// above), and sends everything else as the reference does:
//
//	full:  the reference's full packet of the view's N entities (7-byte
//	       header: tick, back 0, N; every field of every entity, each in
//	       whole bytes), then the N ids, 2 bytes each, in slot order
//	delta: the 7-byte header (tick, back, N after decoding), then
//	       R (2 bytes) and the R ids that left since the baseline,
//	       A (2 bytes) and the A entities that entered: id and every field,
//	       then the reference's delta body over the N-A entities kept from
//	       the baseline, in slot order: a changed bitmask of ceil((N-A)/8)
//	       bytes, and per changed entity a field-mask byte and the changed
//	       fields
//
// An id whose slot holds another generation than in the baseline leaves
// and enters. With no delta (deltas false) it is the full-snapshot format.
// A viewFormat holds scratch space: give each sender and receiver its own.
type viewFormat struct {
	schema *snapshot.Schema
	deltas bool
	// The kept entities of baseline and view, with ids 0..K-1 as the
	// reference wants them, the decoded ones, and a packet being built.
	keptBase, keptCur, keptOut *snapshot.Snapshot
	keptIDs                    []snapshot.EntityID // the kept entities' real ids
	inner                      []byte
}

var _ snapstream.Format = (*viewFormat)(nil)

// idBytes is the size of an entity id on the wire.
const idBytes = 2

// countBytes is the size of the removed and entered counts of a delta.
const countBytes = 2

// newViewFormat returns the byte-aligned format of schema s: deltas as
// refformat.ByteMask sends them when deltas is set, else only full
// packets as refformat.Full. The schema's slot and generation must fit 16
// bits together.
func newViewFormat(s *snapshot.Schema, deltas bool) (*viewFormat, error) {
	if int(s.IndexBits)+int(s.GenerationBits) > 8*idBytes {
		return nil, fmt.Errorf("%w: %d slot and %d generation bits", errIDTooWide, s.IndexBits, s.GenerationBits)
	}
	return &viewFormat{
		schema: s, deltas: deltas,
		keptBase: snapshot.New(s), keptCur: snapshot.New(s), keptOut: snapshot.New(s),
	}, nil
}

// entityBytes is the size of one entity's fields in the reference layout.
func (f *viewFormat) entityBytes() int {
	n := 0
	for _, fd := range f.schema.Fields {
		n += int(fd.Bits+7) / 8
	}
	return n
}

func (f *viewFormat) packID(id snapshot.EntityID) uint16 {
	return id.Index | id.Generation<<f.schema.IndexBits
}

func (f *viewFormat) unpackID(v uint16) snapshot.EntityID {
	return snapshot.EntityID{Index: v & (1<<f.schema.IndexBits - 1), Generation: v >> f.schema.IndexBits}
}

// FullLen returns the size of a full packet carrying cur.
func (f *viewFormat) FullLen(cur *snapshot.Snapshot) int {
	return refformat.FullSize(cur) + idBytes*cur.Len()
}

// AppendFull appends a full packet carrying cur.
func (f *viewFormat) AppendFull(dst []byte, tick uint32, cur *snapshot.Snapshot) []byte {
	dst = refformat.Full{Schema: f.schema}.AppendFull(dst, tick, cur)
	for _, id := range cur.IDs() {
		dst = binary.LittleEndian.AppendUint16(dst, f.packID(id))
	}
	return dst
}

// AppendDelta appends cur as a delta against base, or a full packet when
// the format has no deltas or the baseline is more than 255 ticks back.
func (f *viewFormat) AppendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	if !f.deltas || baseline == 0 || baseline >= tick || tick-baseline > 255 {
		return f.AppendFull(dst, tick, cur)
	}
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, tick)
	dst = append(dst, byte(tick-baseline))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(cur.Len()))

	// Merge the two in slot order: removed ids now, entered and kept next.
	f.keptBase.Reset()
	f.keptCur.Reset()
	bids, cids := base.IDs(), cur.IDs()
	at := len(dst)
	dst = append(dst, 0, 0)
	removed := 0
	for i, j := 0, 0; i < len(bids); i++ {
		for j < len(cids) && cids[j].Index < bids[i].Index {
			j++
		}
		if j < len(cids) && cids[j] == bids[i] {
			k := uint16(f.keptBase.Len())
			copy(f.keptBase.AppendUnchecked(snapshot.EntityID{Index: k}), base.Row(i))
			copy(f.keptCur.AppendUnchecked(snapshot.EntityID{Index: k}), cur.Row(j))
			continue
		}
		dst = binary.LittleEndian.AppendUint16(dst, f.packID(bids[i]))
		removed++
	}
	binary.LittleEndian.PutUint16(dst[at:], uint16(removed))
	at = len(dst)
	dst = append(dst, 0, 0)
	entered := 0
	for i, j := 0, 0; j < len(cids); j++ {
		for i < len(bids) && bids[i].Index < cids[j].Index {
			i++
		}
		if i < len(bids) && bids[i] == cids[j] {
			continue
		}
		dst = binary.LittleEndian.AppendUint16(dst, f.packID(cids[j]))
		dst = appendRow(dst, f.schema, cur.Row(j))
		entered++
	}
	binary.LittleEndian.PutUint16(dst[at:], uint16(entered))

	f.inner = refformat.ByteMask{Schema: f.schema}.AppendDelta(f.inner[:0], tick, baseline, f.keptBase, f.keptCur)
	if len(f.inner) < refformat.HeaderSize || f.inner[4] == 0 {
		// The reference could not express it: not expected with ids 0..K-1.
		return f.AppendFull(dst[:start], tick, cur)
	}
	return append(dst, f.inner[refformat.HeaderSize:]...)
}

// appendRow appends a row's fields in whole bytes, little-endian, as the
// reference does.
func appendRow(dst []byte, s *snapshot.Schema, row []uint32) []byte {
	for f, fd := range s.Fields {
		v := row[f]
		for range (fd.Bits + 7) / 8 {
			dst = append(dst, byte(v))
			v >>= 8
		}
	}
	return dst
}

// ReadHeader reads the reference's 7-byte header.
func (f *viewFormat) ReadHeader(p []byte, newest uint32) (snapstream.Header, error) {
	h, err := refformat.ByteMask{Schema: f.schema}.ReadHeader(p, newest)
	if err != nil {
		return h, err
	}
	if !f.deltas && !h.Full() {
		return snapstream.Header{}, fmt.Errorf("%w: a delta in the full-only format", errMalformed)
	}
	return h, nil
}

// Decode decodes p into out; base is the snapshot of h.Baseline for a delta.
func (f *viewFormat) Decode(p []byte, h snapstream.Header, base, out *snapshot.Snapshot) error {
	if len(p) < refformat.HeaderSize {
		return fmt.Errorf("%w: %d bytes", errShort, len(p))
	}
	n := int(binary.LittleEndian.Uint16(p[5:]))
	if n > out.Schema().MaxEntities {
		return fmt.Errorf("%w: %d entities", errMalformed, n)
	}
	if h.Full() {
		return f.decodeFull(p, h, n, out)
	}
	if base == nil || base == out {
		return fmt.Errorf("%w: no baseline to decode onto", errMalformed)
	}
	return f.decodeDelta(p, h, n, base, out)
}

func (f *viewFormat) decodeFull(p []byte, h snapstream.Header, n int, out *snapshot.Snapshot) error {
	body := refformat.HeaderSize + n*f.entityBytes()
	if len(p) != body+idBytes*n {
		return fmt.Errorf("%w: %d bytes for %d entities", errShort, len(p), n)
	}
	if err := (refformat.Full{Schema: f.schema}).Decode(p[:body], h, nil, f.keptOut); err != nil {
		return err
	}
	out.Reset()
	ids := p[body:]
	for i := range n {
		id := f.unpackID(binary.LittleEndian.Uint16(ids[idBytes*i:]))
		if i > 0 && id.Index <= out.ID(i-1).Index {
			return fmt.Errorf("%w: id %v after %v", errMalformed, id, out.ID(i-1))
		}
		copy(out.AppendUnchecked(id), f.keptOut.Row(i))
	}
	return nil
}

func (f *viewFormat) decodeDelta(p []byte, h snapstream.Header, n int, base, out *snapshot.Snapshot) error {
	q := p[refformat.HeaderSize:]
	// The ids that left, in slot order, each in the baseline.
	if len(q) < countBytes {
		return fmt.Errorf("%w: removed count", errShort)
	}
	removed := int(binary.LittleEndian.Uint16(q))
	q = q[countBytes:]
	if removed > base.Len() || len(q) < idBytes*removed {
		return fmt.Errorf("%w: %d removed of %d", errMalformed, removed, base.Len())
	}
	gone, q := q[:idBytes*removed], q[idBytes*removed:]
	f.keptBase.Reset()
	f.keptIDs = f.keptIDs[:0]
	r := 0
	for i, id := range base.IDs() {
		if r < removed && f.unpackID(binary.LittleEndian.Uint16(gone[idBytes*r:])) == id {
			r++
			continue
		}
		copy(f.keptBase.AppendUnchecked(snapshot.EntityID{Index: uint16(f.keptBase.Len())}), base.Row(i))
		f.keptIDs = append(f.keptIDs, id)
	}
	if r != removed {
		return fmt.Errorf("%w: a removed id is not in the baseline", errMalformed)
	}
	// The entities that entered.
	if len(q) < countBytes {
		return fmt.Errorf("%w: entered count", errShort)
	}
	entered := int(binary.LittleEndian.Uint16(q))
	q = q[countBytes:]
	size := idBytes + f.entityBytes()
	if entered > n || len(q) < size*entered || n-entered != f.keptBase.Len() {
		return fmt.Errorf("%w: %d entered, %d kept, %d in all", errMalformed, entered, f.keptBase.Len(), n)
	}
	news, q := q[:size*entered], q[size*entered:]
	// The kept entities, as the reference decodes them.
	f.inner = append(f.inner[:0], p[:refformat.HeaderSize]...)
	binary.LittleEndian.PutUint16(f.inner[5:], uint16(f.keptBase.Len()))
	f.inner = append(f.inner, q...)
	if err := (refformat.ByteMask{Schema: f.schema}).Decode(f.inner, h, f.keptBase, f.keptOut); err != nil {
		return err
	}
	// Kept and entered together, in slot order.
	out.Reset()
	k, last := 0, -1
	for e := 0; e <= entered; e++ {
		limit := 1 << f.schema.IndexBits
		var id snapshot.EntityID
		if e < entered {
			id = f.unpackID(binary.LittleEndian.Uint16(news[size*e:]))
			limit = int(id.Index)
		}
		for ; k < len(f.keptIDs) && int(f.keptIDs[k].Index) < limit; k++ {
			if int(f.keptIDs[k].Index) <= last {
				return fmt.Errorf("%w: kept id %v out of order", errMalformed, f.keptIDs[k])
			}
			last = int(f.keptIDs[k].Index)
			copy(out.AppendUnchecked(f.keptIDs[k]), f.keptOut.Row(k))
		}
		if e == entered {
			break
		}
		if int(id.Index) <= last || (k < len(f.keptIDs) && f.keptIDs[k].Index == id.Index) {
			return fmt.Errorf("%w: entered id %v out of order", errMalformed, id)
		}
		last = int(id.Index)
		if err := readRow(out.AppendUnchecked(id), f.schema, news[size*e+idBytes:size*(e+1)]); err != nil {
			return err
		}
	}
	return nil
}

// readRow reads a row written by appendRow from p, which holds exactly it.
func readRow(row []uint32, s *snapshot.Schema, p []byte) error {
	off := 0
	for f, fd := range s.Fields {
		w := int(fd.Bits+7) / 8
		var v uint32
		for b := w - 1; b >= 0; b-- {
			v = v<<8 | uint32(p[off+b])
		}
		off += w
		if v > fd.Max() {
			return fmt.Errorf("%w: field %s = %d", errMalformed, fd.Name, v)
		}
		row[f] = v
	}
	return nil
}
