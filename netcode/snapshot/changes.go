package snapshot

// Changes says how a snapshot differs from a baseline snapshot, both kept
// in slot order: the baseline's entities that are gone, the snapshot's
// entities that are new, and the survivors (entities of both) whose values
// differ. A sender that builds each view beside its baseline knows this as
// it goes, and can hand it to a codec that takes it
// (snapstream.ChangesAppender) rather than have the codec compare the two
// snapshots again.
//
// Changes handed to a codec must be exact: an entity left out is sent as
// unchanged, whatever its values.
type Changes struct {
	// Removed lists, in increasing order, the baseline's indices of the
	// entities not in the snapshot, and of those whose slot holds another
	// generation now.
	Removed []int32
	// New lists, in increasing order, the snapshot's indices of the
	// entities not in the baseline: a slot that holds another generation
	// is removed and new.
	New []int32
	// Changed lists the survivors whose values differ, in slot order.
	Changed []Change
}

// Change is a surviving entity whose values differ from the baseline's.
type Change struct {
	Base, Cur int32  // its index in the baseline and in the snapshot
	Survivor  int32  // its place among the survivors in slot order, from 0
	Fields    uint32 // bit f is set when field f differs
}

// Reset empties c, keeping its storage.
func (c *Changes) Reset() {
	c.Removed, c.New, c.Changed = c.Removed[:0], c.New[:0], c.Changed[:0]
}

// Compare sets c to how cur differs from base. It is the plain way to
// fill Changes, for callers that do not build cur beside base; both must
// be of one schema.
func (c *Changes) Compare(base, cur *Snapshot) {
	c.Reset()
	nf := len(base.schema.Fields)
	bids, cids := base.ids, cur.ids
	i, j, surv := 0, 0, int32(0)
	for i < len(bids) && j < len(cids) {
		bi, cj := bids[i], cids[j]
		switch {
		case bi == cj:
			brow, crow := base.values[i*nf:i*nf+nf], cur.values[j*nf:j*nf+nf]
			var m uint32
			for f, v := range brow {
				if v != crow[f] {
					m |= 1 << f
				}
			}
			if m != 0 {
				c.Changed = append(c.Changed, Change{Base: int32(i), Cur: int32(j), Survivor: surv, Fields: m})
			}
			i, j, surv = i+1, j+1, surv+1
		case bi.Index < cj.Index:
			c.Removed = append(c.Removed, int32(i))
			i++
		case cj.Index < bi.Index:
			c.New = append(c.New, int32(j))
			j++
		default: // the slot's occupant changed
			c.Removed = append(c.Removed, int32(i))
			c.New = append(c.New, int32(j))
			i, j = i+1, j+1
		}
	}
	for ; i < len(bids); i++ {
		c.Removed = append(c.Removed, int32(i))
	}
	for ; j < len(cids); j++ {
		c.New = append(c.New, int32(j))
	}
}
