package delta

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// AppendFull appends a packet that carries every entity of cur with no baseline.
func (e *Encoder) AppendFull(dst []byte, tick uint32, cur *snapshot.Snapshot) []byte {
	w := bitpack.NewWriter(dst)
	w.Write(kindFull, 1)
	w.Write(tick, tickBits)
	e.t.writeEntities(&w, countOrder, cur, nil, true)
	return w.Bytes()
}

// FullLen returns the length AppendFull would produce, without encoding.
func (e *Encoder) FullLen(cur *snapshot.Snapshot) int {
	n := 1 + tickBits + bitpack.GammaLen(uint32(cur.Len()), countOrder) + e.t.entitiesLen(cur, nil)
	return (n + 7) / 8
}

// FullLenAtLeast bounds FullLen from below without walking cur: every
// entity's slot gap takes at least one bit. It makes Codec a
// snapstream.FullBounder.
func (e *Encoder) FullLenAtLeast(cur *snapshot.Snapshot) int {
	n := cur.Len()
	bits := 1 + tickBits + bitpack.GammaLen(uint32(n), countOrder)
	if n > 0 {
		bits += orderBits + n*(1+int(e.t.schema.GenerationBits)+e.t.schema.EntityBits())
	}
	return (bits + 7) / 8
}

// writeEntities writes the count (coded gamma(order)), the slot-gap order and
// the entities' ids, with their rows at full width if rows is true: all of
// s, or the entities of s at the indices idx when idx is not nil.
func (t *Tables) writeEntities(w *bitpack.Writer, order uint, s *snapshot.Snapshot, idx []int32, rows bool) {
	n := s.Len()
	if idx != nil {
		n = len(idx)
	}
	w.WriteGamma(uint32(n), order)
	if n == 0 {
		return
	}
	k, _ := t.slotGapOrder(s, idx)
	w.Write(uint32(k), orderBits)
	prev := int32(-1)
	gbits := uint(t.schema.GenerationBits)
	for e := range n {
		i := e
		if idx != nil {
			i = int(idx[e])
		}
		id := s.ID(i)
		w.WriteGamma(uint32(int32(id.Index)-prev-1), k)
		prev = int32(id.Index)
		w.Write(uint32(id.Generation), gbits)
		if !rows {
			continue
		}
		for f, v := range s.Row(i) {
			w.Write(v, uint(t.bits[f]))
		}
	}
}

// entitiesLen returns the bits writeEntities writes, less the count.
func (t *Tables) entitiesLen(s *snapshot.Snapshot, idx []int32) int {
	n := s.Len()
	if idx != nil {
		n = len(idx)
	}
	if n == 0 {
		return 0
	}
	_, gaps := t.slotGapOrder(s, idx)
	return orderBits + gaps + n*(int(t.schema.GenerationBits)+t.schema.EntityBits())
}

func (t *Tables) slotGapOrder(s *snapshot.Snapshot, idx []int32) (uint, int) {
	var costs [8]int
	prev := int32(-1)
	n := s.Len()
	if idx != nil {
		n = len(idx)
	}
	for e := range n {
		i := e
		if idx != nil {
			i = int(idx[e])
		}
		slot := int32(s.ID(i).Index)
		addGammaCosts(costs[:], uint32(slot-prev-1))
		prev = slot
	}
	return bestOrder(costs[:])
}

// readEntities reads what writeEntities wrote into ids and vals (appending),
// allowing at most limit entities.
func (t *Tables) readEntities(r *bitpack.Reader, order uint, limit int, ids []snapshot.EntityID, vals []uint32, rows bool) ([]snapshot.EntityID, []uint32, error) {
	n := r.ReadGamma(order)
	if r.Err() != nil {
		return ids, vals, fmt.Errorf("%w: entity count: %w", ErrMalformed, r.Err())
	}
	if int64(n) > int64(limit) {
		return ids, vals, fmt.Errorf("%w: %d entities, room for %d", ErrTooMany, n, limit)
	}
	if n == 0 {
		return ids, vals, nil
	}
	per := 1 + int(t.schema.GenerationBits) + t.schema.EntityBits()
	if !rows { // each field of a row coded later takes a bit at least
		per = 1 + int(t.schema.GenerationBits) + len(t.bits)
	}
	if int(n)*per > r.Remaining() {
		return ids, vals, fmt.Errorf("%w: %d entities need more than %d bits", ErrMalformed, n, r.Remaining())
	}
	k := uint(r.Read(orderBits))
	prev := int64(-1)
	gbits := uint(t.schema.GenerationBits)
	maxSlot := int64(1)<<t.schema.IndexBits - 1
	for range n {
		slot := prev + 1 + int64(r.ReadGamma(k))
		if slot > maxSlot {
			return ids, vals, fmt.Errorf("%w: slot %d beyond %d", ErrMalformed, slot, maxSlot)
		}
		prev = slot
		ids = append(ids, snapshot.EntityID{Index: uint16(slot), Generation: uint16(r.Read(gbits))})
		for f := range t.bits {
			if !rows {
				break
			}
			vals = append(vals, r.Read(uint(t.bits[f])))
		}
		if r.Err() != nil {
			return ids, vals, fmt.Errorf("%w: entity: %w", ErrMalformed, r.Err())
		}
	}
	return ids, vals, nil
}

// decodeFull reads a full snapshot's entities into out.
func (d *Decoder) decodeFull(r *bitpack.Reader, out *snapshot.Snapshot) error {
	out.Reset()
	var err error
	d.newIDs, d.newVals, err = d.t.readEntities(r, countOrder, d.t.schema.MaxEntities, d.newIDs[:0], d.newVals[:0], true)
	if err != nil {
		return err
	}
	nf := len(d.t.bits)
	for e, id := range d.newIDs {
		copy(out.AppendUnchecked(id), d.newVals[e*nf:e*nf+nf])
	}
	return nil
}

// bestOrder returns the gamma order (the index into costs) with the fewest
// bits, and that many bits.
func bestOrder(costs []int) (uint, int) {
	best, bestCost := uint(0), costs[0]
	for k := 1; k < len(costs); k++ {
		if costs[k] < bestCost {
			best, bestCost = uint(k), costs[k]
		}
	}
	return best, bestCost
}

// addGammaCosts adds to costs[k] the length of v coded gamma(k), for every k.
func addGammaCosts(costs []int, v uint32) {
	for k := range costs {
		costs[k] += bitpack.GammaLen(v, uint(k))
	}
}
