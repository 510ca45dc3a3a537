package delta

import (
	"fmt"
	"math/bits"

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
		if base == nil || base == out || !base.Schema().SameLayout(c.schema) || !out.Schema().SameLayout(c.schema) {
			return fmt.Errorf("%w: no usable baseline snapshot", ErrBaseline)
		}
		if c.check {
			n := len(p) - 1
			if n < 1 || Check(p[:n]) != p[n] {
				return fmt.Errorf("%w: check byte", ErrMalformed)
			}
			r.Reset(p[:n])
			r.Read(1)
		}
		r.Read(deltaTickBits)
		if age := r.ReadGamma(ageOrder) + 1; r.Err() == nil && uint64(age) != uint64(h.Tick)-uint64(h.Baseline) {
			return fmt.Errorf("%w: packet age %d, header %d-%d", ErrBaseline, age, h.Tick, h.Baseline)
		}
		err = c.decodeDelta(&r, h.Tick-h.Baseline, base, out)
	}
	if err != nil {
		return err
	}
	if !r.AtPadding() {
		return fmt.Errorf("%w: trailing bits", ErrMalformed)
	}
	return nil
}

func (c *Codec) decodeDelta(r *bitpack.Reader, gap uint32, base, out *snapshot.Snapshot) error {
	nb := base.Len()
	c.fit(nb)
	var err error
	c.removed, err = readSet(r, c.removed[:0], nb)
	if err != nil {
		return fmt.Errorf("removed set: %w", err)
	}
	nsurv := nb - len(c.removed)
	c.newIDs, c.newVals, err = c.readEntities(r, newOrder, c.schema.MaxEntities-nsurv, c.newIDs[:0], c.newVals[:0], !c.spawnMode)
	if err != nil {
		return fmt.Errorf("new entities: %w", err)
	}
	c.chgPos, err = readSet(r, c.chgPos[:0], nsurv)
	if err != nil {
		return fmt.Errorf("changed set: %w", err)
	}

	p := &c.plan
	nf := uint(len(c.bits))
	if len(c.chgPos) > 0 {
		for f, kb := range c.kbits {
			if kb > 0 {
				k := uint8(r.Read(uint(kb)))
				if k >= c.bits[f] {
					return fmt.Errorf("%w: field %d gamma order %d of %d bits", ErrMalformed, f, k, c.bits[f])
				}
				p.order[f] = k
			}
		}
		p.maskMode = nf > 1 && c.maskDec == nil && r.ReadBool()
		if p.maskMode {
			p.common = r.Read(nf)
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: field coding: %w", ErrMalformed, r.Err())
		}
	}

	// The surviving baseline entities and the new ones, in slot order; then
	// the changes on top.
	identity := len(c.removed) == 0 && len(c.newIDs) == 0 && out.Schema() == base.Schema()
	if identity {
		out.CopyFrom(base)
	} else if err := c.merge(base, out); err != nil {
		return err
	}
	full := fieldMask(uint8(nf))
	fbits, fmasks, pr := c.bits[:nf], c.fmasks[:nf], c.predRow[:nf]
	bv, ov := base.Values(), out.Values()
	if c.mover != nil {
		c.fillMoved(bv, ov, gap, nsurv, identity)
	}
	for _, sp := range c.chgPos {
		bi, oi := int(sp), int(sp)
		if !identity {
			bi, oi = int(c.sbase[sp]), int(c.sout[sp])
		}
		bo, oo := bi*int(nf), oi*int(nf)
		brow, row := bv[bo:bo+int(nf):bo+int(nf)], ov[oo:oo+int(nf):oo+int(nf)]
		k := c.context(brow)
		codes := c.ctxCodes[k*int(nf) : (k+1)*int(nf)]
		m := uint32(1)
		switch {
		case nf == 1:
		case c.maskDec != nil:
			m = uint32(r.ReadCode(c.ctxMaskDec[k]))
		default:
			if p.maskMode && r.ReadBool() {
				m = p.common
			} else {
				m = r.Read(nf)
			}
		}
		if m == 0 || m&^full != 0 {
			return fmt.Errorf("%w: field mask %#x", ErrMalformed, m)
		}
		pred := brow
		if c.pred != nil {
			c.pred.Predict(brow, gap, m, pr)
			pred = pr
		}
		for ; m != 0; m &= m - 1 {
			f := bits.TrailingZeros32(m)
			var d uint32 // the wrapped difference from the prediction
			switch code := codes[f]; {
			case code != nil:
				d = uint32(bitpack.Unzigzag(r.ReadLengthCode(code)))
			case fbits[f] <= rawBits:
				d = r.Read(uint(fbits[f]))
			default:
				d = uint32(bitpack.Unzigzag(r.ReadGamma(uint(p.order[f]))))
			}
			v := (pred[f] + d) & fmasks[f]
			if v == row[f] && r.Err() == nil {
				// The mask names the fields that differ from the baseline
				// (or, for an entity the Predictor moves, the prediction,
				// which row holds): a packet that says otherwise is not
				// one an encoder wrote.
				return fmt.Errorf("%w: field %d in the mask keeps its baseline value", ErrMalformed, f)
			}
			row[f] = v
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: changed entity: %w", ErrMalformed, r.Err())
		}
	}
	if c.spawnMode && len(c.newIDs) > 0 {
		return c.readNewRows(r, base, out, gap, nsurv)
	}
	return nil
}

// fillMoved writes the prediction into the output row of every survivor
// the schema's Predictor moves: that is its row unless the delta changes
// it.
func (c *Codec) fillMoved(bv, ov []uint32, gap uint32, nsurv int, identity bool) {
	nf := len(c.bits)
	full := fieldMask(uint8(nf))
	pr, fm := c.predRow[:nf], c.fmasks[:nf]
	for s := range nsurv {
		bi, oi := s, s
		if !identity {
			bi, oi = int(c.sbase[s]), int(c.sout[s])
		}
		bo := bi * nf
		brow := bv[bo : bo+nf : bo+nf]
		if !c.mover.Moves(brow) {
			continue
		}
		c.pred.Predict(brow, gap, full, pr)
		oo := oi * nf
		row := ov[oo : oo+nf : oo+nf]
		for f, v := range pr {
			row[f] = v & fm[f]
		}
	}
}

// merge writes into out the baseline's survivors and the new entities, in
// slot order, and notes where each survivor came from and went.
func (c *Codec) merge(base, out *snapshot.Snapshot) error {
	out.Reset()
	bids := base.IDs()
	nb, nf := len(bids), len(c.bits)
	removed := c.removed
	c.newOut = c.newOut[:0]
	k, s := 0, 0
	for i := 0; i <= nb; i++ {
		// Emit every new entity that sorts before baseline entity i.
		for k < len(c.newIDs) && (i == nb || c.newIDs[k].Index <= bids[i].Index) {
			if i < nb && c.newIDs[k].Index == bids[i].Index && (len(removed) == 0 || removed[0] != int32(i)) {
				return fmt.Errorf("%w: new entity %v in a slot the baseline still holds", ErrMalformed, c.newIDs[k])
			}
			row := out.AppendUnchecked(c.newIDs[k])
			if c.spawnMode { // its row follows the changes
				clear(row)
				c.newOut = append(c.newOut, int32(out.Len()-1))
			} else {
				copy(row, c.newVals[k*nf:(k+1)*nf])
			}
			k++
		}
		if i == nb {
			break
		}
		if len(removed) > 0 && removed[0] == int32(i) {
			removed = removed[1:]
			continue
		}
		c.sbase[s], c.sout[s] = int32(i), int32(out.Len())
		s++
		copy(out.AppendUnchecked(bids[i]), base.Row(i))
	}
	return nil
}
