package delta

import (
	"fmt"
	"math/bits"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// A Decoder reads the packets of one stream (ReadHeader, Decode): the
// Tables it codes with and scratch of its own, grown to the largest
// baseline it meets and then reused. Make one with NewDecoder. It is not
// safe for concurrent use; decoders that share Tables are independent.
type Decoder struct {
	t *Tables

	// What the packet's sets and entity sections name:
	removed []int32 // positions in the baseline of removed entities
	chgPos  []int32 // positions among the baseline's survivors of changed entities
	newIDs  []snapshot.EntityID
	newVals []uint32 // the new entities' rows, at full width (without new-entity codes)
	plan    plan     // the packet's coding

	// Where the survivors and the new entities went (merge):
	sbase  []int32 // per survivor, its baseline index
	sout   []int32 // per survivor, its index in the output
	newOut []int32 // per new entity, its index in the output

	predRow  []uint32 // one predicted row
	makers   []maker  // surviving entities that can make others, in slot order
	spawnRow []uint32 // the guess of a new entity's maker
}

// NewDecoder returns a decoder that codes with t.
func NewDecoder(t *Tables) *Decoder {
	d := new(Decoder)
	d.init(t)
	return d
}

// init makes d a decoder that codes with t, with empty scratch.
func (d *Decoder) init(t *Tables) {
	nf := len(t.bits)
	*d = Decoder{t: t, predRow: make([]uint32, nf), spawnRow: make([]uint32, nf)}
}

// Tables returns the tables d codes with.
func (d *Decoder) Tables() *Tables { return d.t }

// Schema returns the schema d codes.
func (d *Decoder) Schema() *snapshot.Schema { return d.t.schema }

// fit makes the per-baseline-entity scratch hold n entities, growing by
// doubling (from 64) like Encoder.fit. The contents are not kept.
func (d *Decoder) fit(n int) {
	if n <= cap(d.removed) {
		return
	}
	n = max(n, 2*cap(d.removed), 64)
	d.removed = make([]int32, 0, n)
	d.chgPos = make([]int32, 0, n)
	d.sbase = make([]int32, n)
	d.sout = make([]int32, n)
}

// ReadHeader reads the tick and baseline of a packet. Deltas carry only the
// low 16 bits of their tick; newest, the receiver's newest decoded tick,
// supplies the rest. A delta cannot be read before any full snapshot.
func (d *Decoder) ReadHeader(p []byte, newest uint32) (snapstream.Header, error) {
	r := bitpack.NewReader(p)
	h, err := d.readHeader(&r, newest)
	return h, err
}

func (d *Decoder) readHeader(r *bitpack.Reader, newest uint32) (snapstream.Header, error) {
	kind := r.Read(1)
	if kind == kindFull {
		tick := r.Read(tickBits)
		if err := r.Err(); err != nil {
			return snapstream.Header{}, fmt.Errorf("%w: header: %w", ErrMalformed, err)
		}
		if tick == 0 {
			return snapstream.Header{}, fmt.Errorf("%w: tick 0", ErrMalformed)
		}
		return snapstream.Header{Tick: tick}, nil
	}
	low := uint16(r.Read(deltaTickBits))
	age := int64(r.ReadGamma(ageOrder)) + 1
	if err := r.Err(); err != nil {
		return snapstream.Header{}, fmt.Errorf("%w: header: %w", ErrMalformed, err)
	}
	if newest == 0 {
		return snapstream.Header{}, fmt.Errorf("%w: delta before any full snapshot", ErrBaseline)
	}
	tick := int64(newest) + int64(int16(low-uint16(newest)))
	base := tick - age
	if base <= 0 || tick > 1<<32-1 {
		return snapstream.Header{}, fmt.Errorf("%w: tick %d age %d", ErrBaseline, tick, age)
	}
	return snapstream.Header{Tick: uint32(tick), Baseline: uint32(base)}, nil
}

// Decode decodes packet p, whose header ReadHeader returned as h, into out.
// For a delta, base must be the snapshot of h.Baseline; out must not be base.
// On error out holds no meaningful state.
func (d *Decoder) Decode(p []byte, h snapstream.Header, base, out *snapshot.Snapshot) error {
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
		err = d.decodeFull(&r, out)
	} else {
		if base == nil || base == out || !base.Schema().SameLayout(d.t.schema) || !out.Schema().SameLayout(d.t.schema) {
			return fmt.Errorf("%w: no usable baseline snapshot", ErrBaseline)
		}
		if d.t.check {
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
		err = d.decodeDelta(&r, h.Tick-h.Baseline, base, out)
	}
	if err != nil {
		return err
	}
	if !r.AtPadding() {
		return fmt.Errorf("%w: trailing bits", ErrMalformed)
	}
	return nil
}

func (d *Decoder) decodeDelta(r *bitpack.Reader, gap uint32, base, out *snapshot.Snapshot) error {
	nb := base.Len()
	d.fit(nb)
	var err error
	d.removed, err = readSet(r, d.removed[:0], nb)
	if err != nil {
		return fmt.Errorf("removed set: %w", err)
	}
	nsurv := nb - len(d.removed)
	d.newIDs, d.newVals, err = d.t.readEntities(r, newOrder, d.t.schema.MaxEntities-nsurv, d.newIDs[:0], d.newVals[:0], !d.t.spawnMode)
	if err != nil {
		return fmt.Errorf("new entities: %w", err)
	}
	d.chgPos, err = readSet(r, d.chgPos[:0], nsurv)
	if err != nil {
		return fmt.Errorf("changed set: %w", err)
	}

	p := &d.plan
	nf := uint(len(d.t.bits))
	if len(d.chgPos) > 0 {
		for f, kb := range d.t.kbits {
			if kb > 0 {
				k := uint8(r.Read(uint(kb)))
				if k >= d.t.bits[f] {
					return fmt.Errorf("%w: field %d gamma order %d of %d bits", ErrMalformed, f, k, d.t.bits[f])
				}
				p.order[f] = k
			}
		}
		p.maskMode = nf > 1 && d.t.maskDec == nil && r.ReadBool()
		if p.maskMode {
			p.common = r.Read(nf)
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: field coding: %w", ErrMalformed, r.Err())
		}
	}

	// The surviving baseline entities and the new ones, in slot order; then
	// the changes on top.
	identity := len(d.removed) == 0 && len(d.newIDs) == 0 && out.Schema() == base.Schema()
	if identity {
		out.CopyFrom(base)
	} else if err := d.merge(base, out); err != nil {
		return err
	}
	full := fieldMask(uint8(nf))
	fbits, fmasks, pr := d.t.bits[:nf], d.t.fmasks[:nf], d.predRow[:nf]
	bv, ov := base.Values(), out.Values()
	if d.t.mover != nil {
		d.fillMoved(bv, ov, gap, nsurv, identity)
	}
	for _, sp := range d.chgPos {
		bi, oi := int(sp), int(sp)
		if !identity {
			bi, oi = int(d.sbase[sp]), int(d.sout[sp])
		}
		bo, oo := bi*int(nf), oi*int(nf)
		brow, row := bv[bo:bo+int(nf):bo+int(nf)], ov[oo:oo+int(nf):oo+int(nf)]
		k := d.t.context(brow)
		codes := d.t.ctxCodes[k*int(nf) : (k+1)*int(nf)]
		m := uint32(1)
		switch {
		case nf == 1:
		case d.t.maskDec != nil:
			m = uint32(r.ReadCode(d.t.ctxMaskDec[k]))
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
		if d.t.pred != nil {
			d.t.pred.Predict(brow, gap, m, pr)
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
	if d.t.spawnMode && len(d.newIDs) > 0 {
		return d.readNewRows(r, base, out, gap, nsurv)
	}
	return nil
}

// fillMoved writes the prediction into the output row of every survivor
// the schema's Predictor moves: that is its row unless the delta changes
// it.
func (d *Decoder) fillMoved(bv, ov []uint32, gap uint32, nsurv int, identity bool) {
	nf := len(d.t.bits)
	full := fieldMask(uint8(nf))
	pr, fm := d.predRow[:nf], d.t.fmasks[:nf]
	for s := range nsurv {
		bi, oi := s, s
		if !identity {
			bi, oi = int(d.sbase[s]), int(d.sout[s])
		}
		bo := bi * nf
		brow := bv[bo : bo+nf : bo+nf]
		if !d.t.mover.Moves(brow) {
			continue
		}
		d.t.pred.Predict(brow, gap, full, pr)
		oo := oi * nf
		row := ov[oo : oo+nf : oo+nf]
		for f, v := range pr {
			row[f] = v & fm[f]
		}
	}
}

// merge writes into out the baseline's survivors and the new entities, in
// slot order, and notes where each survivor came from and went.
func (d *Decoder) merge(base, out *snapshot.Snapshot) error {
	out.Reset()
	bids := base.IDs()
	nb, nf := len(bids), len(d.t.bits)
	removed := d.removed
	d.newOut = d.newOut[:0]
	k, s := 0, 0
	for i := 0; i <= nb; i++ {
		// Emit every new entity that sorts before baseline entity i.
		for k < len(d.newIDs) && (i == nb || d.newIDs[k].Index <= bids[i].Index) {
			if i < nb && d.newIDs[k].Index == bids[i].Index && (len(removed) == 0 || removed[0] != int32(i)) {
				return fmt.Errorf("%w: new entity %v in a slot the baseline still holds", ErrMalformed, d.newIDs[k])
			}
			row := out.AppendUnchecked(d.newIDs[k])
			if d.t.spawnMode { // its row follows the changes
				clear(row)
				d.newOut = append(d.newOut, int32(out.Len()-1))
			} else {
				copy(row, d.newVals[k*nf:(k+1)*nf])
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
		d.sbase[s], d.sout[s] = int32(i), int32(out.Len())
		s++
		copy(out.AppendUnchecked(bids[i]), base.Row(i))
	}
	return nil
}
