package delta

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// AppendFull appends a packet that carries every entity of cur with no baseline.
func (c *Codec) AppendFull(dst []byte, tick uint32, cur *snapshot.Snapshot) []byte {
	w := bitpack.NewWriter(dst)
	w.Write(kindFull, 1)
	w.Write(tick, tickBits)
	c.writeEntities(&w, countOrder, cur, nil, true)
	return w.Bytes()
}

// FullLen returns the length AppendFull would produce, without encoding.
func (c *Codec) FullLen(cur *snapshot.Snapshot) int {
	n := 1 + tickBits + bitpack.GammaLen(uint32(cur.Len()), countOrder) + c.entitiesLen(cur, nil)
	return (n + 7) / 8
}

// FullLenAtLeast bounds FullLen from below without walking cur: every
// entity's slot gap takes at least one bit. It implements
// snapstream.FullBounder.
func (c *Codec) FullLenAtLeast(cur *snapshot.Snapshot) int {
	n := cur.Len()
	bits := 1 + tickBits + bitpack.GammaLen(uint32(n), countOrder)
	if n > 0 {
		bits += orderBits + n*(1+int(c.schema.GenerationBits)+c.schema.EntityBits())
	}
	return (bits + 7) / 8
}

// writeEntities writes the count (coded gamma(order)), the slot-gap order and
// the entities' ids, with their rows at full width if rows is true: all of
// s, or the entities of s at the indices idx when idx is not nil.
func (c *Codec) writeEntities(w *bitpack.Writer, order uint, s *snapshot.Snapshot, idx []int32, rows bool) {
	n := s.Len()
	if idx != nil {
		n = len(idx)
	}
	w.WriteGamma(uint32(n), order)
	if n == 0 {
		return
	}
	k, _ := c.slotGapOrder(s, idx)
	w.Write(uint32(k), orderBits)
	prev := int32(-1)
	gbits := uint(c.schema.GenerationBits)
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
			w.Write(v, uint(c.bits[f]))
		}
	}
}

// entitiesLen returns the bits writeEntities writes, less the count.
func (c *Codec) entitiesLen(s *snapshot.Snapshot, idx []int32) int {
	n := s.Len()
	if idx != nil {
		n = len(idx)
	}
	if n == 0 {
		return 0
	}
	_, gaps := c.slotGapOrder(s, idx)
	return orderBits + gaps + n*(int(c.schema.GenerationBits)+c.schema.EntityBits())
}

func (c *Codec) slotGapOrder(s *snapshot.Snapshot, idx []int32) (uint, int) {
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
func (c *Codec) readEntities(r *bitpack.Reader, order uint, limit int, ids []snapshot.EntityID, vals []uint32, rows bool) ([]snapshot.EntityID, []uint32, error) {
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
	per := 1 + int(c.schema.GenerationBits) + c.schema.EntityBits()
	if !rows { // each field of a row coded later takes a bit at least
		per = 1 + int(c.schema.GenerationBits) + len(c.bits)
	}
	if int(n)*per > r.Remaining() {
		return ids, vals, fmt.Errorf("%w: %d entities need more than %d bits", ErrMalformed, n, r.Remaining())
	}
	k := uint(r.Read(orderBits))
	prev := int64(-1)
	gbits := uint(c.schema.GenerationBits)
	maxSlot := int64(1)<<c.schema.IndexBits - 1
	for range n {
		slot := prev + 1 + int64(r.ReadGamma(k))
		if slot > maxSlot {
			return ids, vals, fmt.Errorf("%w: slot %d beyond %d", ErrMalformed, slot, maxSlot)
		}
		prev = slot
		ids = append(ids, snapshot.EntityID{Index: uint16(slot), Generation: uint16(r.Read(gbits))})
		for f := range c.bits {
			if !rows {
				break
			}
			vals = append(vals, r.Read(uint(c.bits[f])))
		}
		if r.Err() != nil {
			return ids, vals, fmt.Errorf("%w: entity: %w", ErrMalformed, r.Err())
		}
	}
	return ids, vals, nil
}

func (c *Codec) decodeFull(r *bitpack.Reader, out *snapshot.Snapshot) error {
	out.Reset()
	var err error
	c.newIDs, c.newVals, err = c.readEntities(r, countOrder, c.schema.MaxEntities, c.newIDs[:0], c.newVals[:0], true)
	if err != nil {
		return err
	}
	nf := len(c.bits)
	for e, id := range c.newIDs {
		copy(out.AppendUnchecked(id), c.newVals[e*nf:e*nf+nf])
	}
	return nil
}
