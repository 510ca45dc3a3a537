package delta

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Decode decodes packet p, whose header ReadHeader returned as h, into out.
// For a delta, base must be the snapshot of h.Baseline; out must not be base.
// On error out holds no meaningful state.
func (c *Codec) Decode(p []byte, h snapstream.Header, base, out *snapshot.Snapshot) error {
	r := bitpack.NewReader(p)
	kind := r.Read(1)
	if r.Err() != nil {
		return fmt.Errorf("%w: empty packet", ErrMalformed)
	}
	if (kind == kindFull) != h.Full() {
		return ErrKind
	}
	var err error
	if kind == kindFull {
		r.Read(tickBits)
		err = c.decodeFull(&r, out)
	} else {
		if base == nil || base == out || !base.Schema().SameLayout(c.schema) {
			return fmt.Errorf("%w: no usable baseline snapshot", ErrBaseline)
		}
		r.Read(deltaTickBits)
		if age := r.ReadGamma(ageOrder) + 1; r.Err() == nil && uint64(age) != uint64(h.Tick)-uint64(h.Baseline) {
			return fmt.Errorf("%w: packet age %d, header %d-%d", ErrBaseline, age, h.Tick, h.Baseline)
		}
		err = c.decodeDelta(&r, base, out)
	}
	if err != nil {
		return err
	}
	if !r.AtPadding() {
		return fmt.Errorf("%w: trailing bits", ErrMalformed)
	}
	return nil
}

func (c *Codec) decodeDelta(r *bitpack.Reader, base, out *snapshot.Snapshot) error {
	nb := base.Len()
	c.fit(nb)
	status := c.status[:nb]
	clear(status)
	nremoved, err := readSet(r, status, removed, 255)
	if err != nil {
		return fmt.Errorf("removed set: %w", err)
	}
	c.newIDs, c.newVals, err = c.readEntities(r, newOrder, c.schema.MaxEntities-(nb-nremoved), c.newIDs[:0], c.newVals[:0])
	if err != nil {
		return fmt.Errorf("new entities: %w", err)
	}
	nchanged, err := readSet(r, status, changed, removed)
	if err != nil {
		return fmt.Errorf("changed set: %w", err)
	}

	p := &c.plan
	nf := uint(len(c.bits))
	if nchanged > 0 {
		for f, fb := range c.bits {
			width := uint8(r.Read(uint(c.wbits[f])))
			if width >= fb {
				return fmt.Errorf("%w: field %d small width %d of %d bits", ErrMalformed, f, width, fb)
			}
			p.width[f] = width
			p.allSmall[f] = width > 0 && r.ReadBool()
		}
		p.maskMode = nf > 1 && r.ReadBool()
		if p.maskMode {
			p.common = r.Read(nf)
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: field coding: %w", ErrMalformed, r.Err())
		}
	}

	// Merge the surviving baseline entities, with their changes applied, and
	// the new entities, in slot order.
	out.Reset()
	bids := base.IDs()
	full := fieldMask(uint8(nf))
	k := 0
	for i := 0; i <= nb; i++ {
		// Emit every new entity that sorts before baseline entity i.
		for k < len(c.newIDs) && (i == nb || c.newIDs[k].Index <= bids[i].Index) {
			if i < nb && c.newIDs[k].Index == bids[i].Index && status[i] != removed {
				return fmt.Errorf("%w: new entity %v in a slot the baseline still holds", ErrMalformed, c.newIDs[k])
			}
			copy(out.AppendUnchecked(c.newIDs[k]), c.newVals[k*int(nf):(k+1)*int(nf)])
			k++
		}
		if i == nb {
			break
		}
		if status[i] == removed {
			continue
		}
		row := out.AppendUnchecked(bids[i])
		copy(row, base.Row(i))
		if status[i] != changed {
			continue
		}
		m := uint32(1)
		if nf > 1 {
			if p.maskMode && r.ReadBool() {
				m = p.common
			} else {
				m = r.Read(nf)
			}
		}
		if m == 0 || m&^full != 0 {
			return fmt.Errorf("%w: field mask %#x", ErrMalformed, m)
		}
		for f, fb := range c.bits {
			if m&(1<<f) == 0 {
				continue
			}
			width := p.width[f]
			if width > 0 && (p.allSmall[f] || r.ReadBool()) {
				d := bitpack.Unzigzag(r.Read(uint(width)))
				row[f] = (row[f] + uint32(d)) & fieldMask(fb)
			} else {
				row[f] = r.Read(uint(fb))
			}
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: changed entity: %w", ErrMalformed, r.Err())
		}
	}
	return nil
}
