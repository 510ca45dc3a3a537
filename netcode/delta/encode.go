package delta

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// An Encoder writes the packets of one stream (AppendFull, AppendDelta):
// the Tables it codes with and scratch of its own, grown to the largest
// snapshot it meets and then reused: an encoder meets a player's view, far
// below the schema's maximum. Make one with NewEncoder. It is not safe for
// concurrent use; encoders that share Tables are independent.
type Encoder struct {
	t *Tables

	// What analyse (or take) and moveChanges found, per delta:
	removed  []int32  // positions in the baseline of removed entities
	newIdx   []int32  // indices in cur of new entities
	chgPos   []int32  // positions among the baseline's survivors of changed entities
	changed  []change // changed entities, in slot order
	moved    []change // changed entities with movers, being listed
	movedPos []int32  // their positions among the survivors
	makers   []maker  // surviving entities that can make others, in slot order (listed when there are new entities)
	maskHist [256]uint16
	cmp      snapshot.Changes // the changes analyse found by the plain comparison

	// How the delta codes them:
	plan     plan
	rhist    [32][33]uint32 // per generic field: residuals by bit length
	resid    []uint32       // zigzagged residuals of the changed fields, in order (generic coding)
	predRow  []uint32       // one predicted row
	side     []byte         // the changes, packed apart (see writeChanges)
	spawnRow []uint32       // the guess of the new entity's chosen maker
	spawnTry []uint32       // a maker's guess being tried

	sections sections // where the last delta's sections began (LastSizes)
}

// change is one changed entity: where it is in the baseline and in the
// current snapshot, and which fields differ.
type change struct {
	base, cur int32
	mask      uint32
}

// plan is how one delta codes its changes: the encoder decides it, the
// decoder reads it from the packet's coding section.
type plan struct {
	order    [32]uint8 // gamma order per generic field
	maskMode bool      // common-mask coding on
	common   uint32
}

// NewEncoder returns an encoder that codes with t.
func NewEncoder(t *Tables) *Encoder {
	e := new(Encoder)
	e.init(t)
	return e
}

// init makes e an encoder that codes with t, with empty scratch.
func (e *Encoder) init(t *Tables) {
	nf := len(t.bits)
	*e = Encoder{
		t:        t,
		predRow:  make([]uint32, nf),
		spawnRow: make([]uint32, nf),
		spawnTry: make([]uint32, nf),
		// Never nil: writeEntities reads a nil list as "every entity".
		newIdx: make([]int32, 0, 64),
	}
}

// Tables returns the tables e codes with.
func (e *Encoder) Tables() *Tables { return e.t }

// Schema returns the schema e codes.
func (e *Encoder) Schema() *snapshot.Schema { return e.t.schema }

// fit makes the per-baseline-entity scratch hold n entities. It grows by
// doubling (from 64), so an encoder that meets views of a steady size
// stops allocating after its first packets. The contents are not kept.
func (e *Encoder) fit(n int) {
	if n <= cap(e.removed) {
		return
	}
	n = max(n, 2*cap(e.removed), 64)
	e.removed = make([]int32, 0, n)
	e.chgPos = make([]int32, 0, n)
	e.changed = make([]change, 0, n)
	if e.t.mover != nil {
		e.moved = make([]change, 0, n)
		e.movedPos = make([]int32, 0, n)
	}
	e.resid = make([]uint32, 0, n*len(e.t.bits))
}

// AppendDelta appends a packet that carries cur as a delta against base, the
// snapshot of tick baseline. The receiver must hold that snapshot; the sender
// makes sure of it by only naming acknowledged ticks. baseline must be
// below tick and at most 32767 ticks older.
func (e *Encoder) AppendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	e.analyse(base, cur)
	return e.appendDelta(dst, tick, baseline, base, cur)
}

// AppendDeltaChanges is AppendDelta for a caller that knows how cur
// differs from base: ch, which must be exact (snapshot.Changes). The
// packet is the one AppendDelta writes; the encoder only skips comparing the
// snapshots. It makes Codec a snapstream.ChangesAppender.
func (e *Encoder) AppendDeltaChanges(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot, ch *snapshot.Changes) []byte {
	e.take(base, cur, ch)
	return e.appendDelta(dst, tick, baseline, base, cur)
}

// appendDelta writes the delta once analyse or take has listed the changes.
func (e *Encoder) appendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	if e.t.mover != nil {
		e.moveChanges(base, cur, tick-baseline)
	}
	start := len(dst)
	w := bitpack.NewWriter(dst)
	e.sections.start = w.BitLen()
	w.Write(kindDelta, 1)
	w.Write(tick, deltaTickBits)
	w.WriteGamma(tick-baseline-1, ageOrder)

	nb := base.Len()
	z := &e.sections
	z.made, z.madeBits = 0, 0
	clear(z.byContext[:])
	z.removed = w.BitLen()
	writeSet(&w, e.removed, nb)
	z.new = w.BitLen()
	e.t.writeEntities(&w, newOrder, cur, e.newIdx, !e.t.spawnMode)
	z.changed = w.BitLen()
	e.appendChanges(&w, base, cur, tick-baseline)
	if e.t.spawnMode && len(e.newIdx) > 0 {
		e.writeNewRows(&w, base, cur, tick-baseline)
	}
	z.end = w.BitLen()
	return e.appendCheck(w.Bytes(), start)
}

// appendChanges writes the changed set and the changes.
func (e *Encoder) appendChanges(w *bitpack.Writer, base, cur *snapshot.Snapshot, gap uint32) {
	z := &e.sections
	universe := base.Len() - len(e.removed)
	bitmask, k := planSet(e.chgPos, universe)
	if !e.t.generic && !bitmask && len(e.changed) > 0 {
		// The usual case: the changed set's gaps and the changes go into
		// the side buffer together (see writeChanges).
		w.Write(0, 1)
		w.WriteGamma(uint32(len(e.chgPos)), 0)
		w.Write(uint32(k), riceBits)
		e.planMasks()
		setEnd, codingEnd := e.writeChanges(w, base, cur, gap, k)
		z.coding, z.changes, z.newRows = setEnd, codingEnd, w.BitLen()
		return
	}
	writeSetAs(w, e.chgPos, universe, bitmask, k)
	z.coding = w.BitLen()
	z.changes, z.newRows = z.coding, z.coding
	if len(e.changed) == 0 {
		return
	}
	if e.t.generic {
		e.residuals(base, cur, gap)
	}
	e.planMasks()
	e.writeCoding(w)
	z.changes = w.BitLen()
	if e.t.generic {
		e.writeChangesGeneric(w)
	} else {
		e.writeChanges(w, base, cur, gap, -1)
	}
	z.newRows = w.BitLen()
}

// appendCheck appends the check byte of the packet p[start:], if the
// schema asks for one.
func (e *Encoder) appendCheck(p []byte, start int) []byte {
	if !e.t.check {
		return p
	}
	return append(p, Check(p[start:]))
}

// writeCoding writes how the packet codes its changes: the generic fields'
// gamma orders and, without a mask code, the mask mode.
func (e *Encoder) writeCoding(w *bitpack.Writer) {
	p := &e.plan
	for f, kb := range e.t.kbits {
		if kb > 0 {
			w.Write(uint32(p.order[f]), uint(kb))
		}
	}
	nf := uint(len(e.t.bits))
	if nf > 1 && e.t.maskEnc == nil {
		w.WriteBool(p.maskMode)
		if p.maskMode {
			w.Write(p.common, nf)
		}
	}
}

// writeMask writes a changed entity's field mask.
func (e *Encoder) writeMask(w *bitpack.Writer, m uint32) {
	nf := uint(len(e.t.bits))
	switch {
	case nf == 1:
	case e.t.maskEnc != nil:
		cw := e.t.maskEnc[m]
		w.Write(cw&0xffff, uint(cw>>16))
	case !e.plan.maskMode:
		w.Write(m, nf)
	case m == e.plan.common:
		w.Write(1, 1)
	default:
		w.Write(m<<1, nf+1) // the "common" bit 0, then the mask
	}
}

// writeChanges writes the changed entities when every field has a code,
// computing residuals as it goes. It packs the bits into the encoder's side
// buffer without a branch per value (an unconditional 8-byte store, then
// an advance by the whole bytes written) and joins them to w at the end.
// With riceK >= 0 the changed set's gaps, coded Rice(riceK), and the
// packet's coding come first. It returns where in w the gaps and the
// coding ended. Every shift by a variable count is masked to the count's
// range (n & 63 where n < 64): Go otherwise checks each one for a count of
// the word's width or more, three instructions a shift, and in this loop
// that was a sixth of its instructions.
func (e *Encoder) writeChanges(w *bitpack.Writer, base, cur *snapshot.Snapshot, gap uint32, riceK int) (setEnd, codingEnd int) {
	nf := len(e.t.bits)
	bv, cv := base.Values(), cur.Values()
	fbits, pr, maskEnc := e.t.bits[:nf], e.predRow[:nf], e.t.maskEnc
	ctxMask, ctxEnc, cx := e.t.ctxMask, e.t.ctxEnc, e.t.ctx
	enc := ctxEnc[0]
	maskBits := 0
	p := &e.plan
	// Per entity at most a 12-bit mask codeword (or nf+1 bits), 12+31 bits
	// a field and a gap of at most 64 bits; 8 bytes of room for a store.
	need := len(e.changed)*(8+max(nf+1, bitpack.MaxCodeLen)+nf*(bitpack.MaxCodeLen+31))/8 + 64
	if cap(e.side) < need {
		e.side = make([]byte, need)
	}
	buf := e.side[:cap(e.side)]
	pos := 0
	var acc uint64 // pending bits, the oldest lowest
	var n uint     // how many, below 8 after each store
	start := w.BitLen()
	if riceK >= 0 {
		pos, acc, n = packRiceGaps(buf, e.chgPos, uint(riceK))
	}
	setEnd = start + 8*pos + int(n)
	if nf > 1 && maskEnc == nil && riceK >= 0 { // the mask mode
		if p.maskMode {
			acc |= uint64(1|p.common<<1) << (n & 63)
			n += 1 + uint(nf)
		} else {
			n++
		}
	}
	codingEnd = start + 8*pos + int(n)
	byContext := &e.sections.byContext
	for _, ch := range e.changed {
		m := ch.mask
		bo, co := int(ch.base)*nf, int(ch.cur)*nf
		brow, crow := bv[bo:bo+nf:bo+nf], cv[co:co+nf:co+nf]
		at := 8*pos + int(n)
		k := 0
		if cx != nil {
			k = e.t.context(brow)
			enc = ctxEnc[k]
		}
		switch {
		case nf == 1:
		case maskEnc != nil:
			cw := ctxMask[k<<nf|int(m)]
			acc |= uint64(cw&0xffff) << (n & 63)
			n += uint(cw >> 16)
			maskBits += int(cw >> 16)
		case !p.maskMode:
			acc |= uint64(m) << (n & 63)
			n += uint(nf)
		case m == p.common:
			acc |= 1 << (n & 63)
			n++
		default:
			acc |= uint64(m<<1) << (n & 63) // the "common" bit 0, then the mask
			n += uint(nf) + 1
		}
		pred := brow
		if e.t.pred != nil {
			e.t.pred.Predict(brow, gap, m, pr)
			pred = pr
		}
		for ; m != 0; m &= m - 1 {
			// Store what is pending: n < 8+32 here, so acc holds it all.
			binary.LittleEndian.PutUint64(buf[pos:pos+8], acc)
			pos += int(n >> 3)
			acc >>= n & 56
			n &= 7
			f := bits.TrailingZeros32(m)
			sh := (32 - fbits[f]) & 31
			z := bitpack.Zigzag(int32((crow[f]-pred[f])<<sh) >> sh)
			// The codeword of z's bit length b, then the b-1 bits of z
			// below its leading one: bitpack's WriteLengthCode, inline.
			// The table holds the codeword, its length and the whole
			// length; z without its leading one is z ^ 1<<b>>1 (0 if z is).
			b := uint(bits.Len32(z))
			cw := enc[f&31*33+int(b)]
			low := uint64(z) ^ 1<<(b&63)>>1
			acc |= (uint64(cw&0xffff) | low<<(cw>>16&63)) << (n & 63)
			n += uint(cw >> 24) // at most 7+12+31 bits
		}
		binary.LittleEndian.PutUint64(buf[pos:pos+8], acc)
		pos += int(n >> 3)
		acc >>= n & 56
		n &= 7
		c := &byContext[k&(maxContexts-1)]
		c.Entities++
		c.Bits += 8*pos + int(n) - at
	}
	buf[pos] = byte(acc)
	w.WriteStream(buf, 8*pos+int(n))
	e.sections.maskBits = maskBits
	return setEnd, codingEnd
}

// writeChangesGeneric writes the changed entities with the residuals
// residuals computed, for schemas with generic fields.
func (e *Encoder) writeChangesGeneric(w *bitpack.Writer) {
	resid := e.resid
	for _, ch := range e.changed {
		m := ch.mask
		e.writeMask(w, m)
		for ; m != 0; m &= m - 1 {
			f := bits.TrailingZeros32(m)
			z := resid[0]
			resid = resid[1:]
			switch {
			case e.t.codes[f] != nil:
				w.WriteLengthCode(e.t.codes[f], z)
			case e.t.bits[f] <= rawBits:
				w.Write(uint32(bitpack.Unzigzag(z)), uint(e.t.bits[f])) // the wrapped difference
			default:
				w.WriteGamma(z, uint(e.plan.order[f]))
			}
		}
	}
}

// analyse merges base and cur in slot order and lists the removed, the new
// and the changed entities with their field masks.
func (e *Encoder) analyse(base, cur *snapshot.Snapshot) {
	e.fit(base.Len())
	e.removed, e.chgPos, e.changed, e.newIdx = e.removed[:0], e.chgPos[:0], e.changed[:0], e.newIdx[:0]
	e.makers = e.makers[:0]
	useMaskHist := len(e.t.bits) > 1 && len(e.t.bits) <= 8 && e.t.maskEnc == nil
	if useMaskHist {
		e.maskHist = [256]uint16{}
	}
	bids, cids := base.IDs(), cur.IDs()
	if sameIDs(bids, cids) {
		e.diffRows(base.Values(), cur.Values(), useMaskHist)
		return // the usual case: the same entities
	}
	// Entities came or went: the plain comparison, then as if handed it.
	e.cmp.Compare(base, cur)
	e.take(base, cur, &e.cmp)
}

// take lists the changes ch names, as analyse would have found them, and
// the makers among the survivors when there are new entities to guess.
func (e *Encoder) take(base, cur *snapshot.Snapshot, ch *snapshot.Changes) {
	e.fit(base.Len())
	e.removed = append(e.removed[:0], ch.Removed...)
	e.newIdx = append(e.newIdx[:0], ch.New...)
	e.chgPos, e.changed, e.makers = e.chgPos[:0], e.changed[:0], e.makers[:0]
	useMaskHist := len(e.t.bits) > 1 && len(e.t.bits) <= 8 && e.t.maskEnc == nil
	if useMaskHist {
		e.maskHist = [256]uint16{}
	}
	for _, x := range ch.Changed {
		e.addChange(x.Base, x.Cur, x.Survivor, x.Fields, useMaskHist)
	}
	if e.t.spawner == nil || len(e.newIdx) == 0 {
		return
	}
	// The survivors, in slot order: every entity of both but the removed
	// and the new.
	removed, added := e.removed, e.newIdx
	for i, j := int32(0), int32(0); i < int32(base.Len()) && j < int32(cur.Len()); {
		switch {
		case len(removed) > 0 && removed[0] == i:
			removed, i = removed[1:], i+1
		case len(added) > 0 && added[0] == j:
			added, j = added[1:], j+1
		default:
			if e.t.spawns(cur.Row(int(j))) {
				e.makers = append(e.makers, maker{now: j, then: i})
			}
			i, j = i+1, j+1
		}
	}
}

// moveChanges lists again, for a schema whose Predictor is a Mover, the
// changes of the survivors it moves: against their prediction rather than
// their baseline row. analyse has listed the changes against the baseline.
func (e *Encoder) moveChanges(base, cur *snapshot.Snapshot, gap uint32) {
	nf := len(e.t.bits)
	full := fieldMask(uint8(nf))
	bv, cv := base.Values(), cur.Values()
	bids, cids := base.IDs(), cur.IDs()
	pr, fm := e.predRow[:nf], e.t.fmasks[:nf]
	moved, pos := e.moved[:0], e.movedPos[:0]
	changed := e.changed
	i, j, surv := 0, 0, int32(0)
	for i < len(bids) && j < len(cids) {
		bi, cj := bids[i], cids[j]
		if bi != cj {
			if bi.Index <= cj.Index {
				i++
			}
			if cj.Index <= bi.Index {
				j++
			}
			continue
		}
		var ch change
		listed := len(changed) > 0 && changed[0].base == int32(i)
		if listed {
			ch, changed = changed[0], changed[1:]
		}
		bo, co := i*nf, j*nf
		brow := bv[bo : bo+nf : bo+nf]
		if e.t.mover.Moves(brow) {
			crow := cv[co : co+nf : co+nf]
			e.t.pred.Predict(brow, gap, full, pr)
			var m uint32
			for f, v := range crow {
				m |= neq(v, pr[f]&fm[f]) << f
			}
			ch, listed = change{base: int32(i), cur: int32(j), mask: m}, m != 0
		}
		if listed {
			moved = append(moved, ch)
			pos = append(pos, surv)
		}
		i, j, surv = i+1, j+1, surv+1
	}
	e.changed, e.moved = moved, e.changed
	e.chgPos, e.movedPos = pos, e.chgPos
	if len(e.t.bits) > 1 && len(e.t.bits) <= 8 && e.t.maskEnc == nil {
		e.maskHist = [256]uint16{}
		for _, ch := range e.changed {
			e.maskHist[ch.mask]++
		}
	}
}

// sameIDs reports whether a and b list the same ids, comparing their bytes
// in one call: an EntityID is two uint16 and no padding, so equal bytes are
// equal ids on any platform, and the comparison runs many ids a step.
func sameIDs(a, b []snapshot.EntityID) bool {
	return len(a) == len(b) && bytes.Equal(idBytes(a), idBytes(b))
}

// idBytes returns the memory of ids as bytes, for comparing only.
func idBytes(ids []snapshot.EntityID) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(ids))), len(ids)*int(unsafe.Sizeof(snapshot.EntityID{})))
}

// diffRows lists the changed rows of two snapshots that hold the same
// entities, given their values. It compares the values eight at a time,
// whatever the row width, and looks closer only where some differ: the
// differing values of a group become bits of a small mask, each of which
// names an entity and a field.
func (e *Encoder) diffRows(bv, cv []uint32, useMaskHist bool) {
	cv = cv[:len(bv)]
	nf := uint32(len(e.t.bits))
	whole, rowMask := 8%nf == 0, uint32(1)<<nf-1
	last := ^uint32(0) // the entity of the last change listed
	k := 0
	for ; k+8 <= len(bv); k += 8 {
		b, v := bv[k:k+8:k+8], cv[k:k+8:k+8]
		if (b[0]^v[0])|(b[1]^v[1])|(b[2]^v[2])|(b[3]^v[3])|(b[4]^v[4])|(b[5]^v[5])|(b[6]^v[6])|(b[7]^v[7]) == 0 {
			continue
		}
		nib := neq(b[0], v[0]) | neq(b[1], v[1])<<1 | neq(b[2], v[2])<<2 | neq(b[3], v[3])<<3 |
			neq(b[4], v[4])<<4 | neq(b[5], v[5])<<5 | neq(b[6], v[6])<<6 | neq(b[7], v[7])<<7
		if whole {
			// Rows of 1, 2, 4 or 8 values: the group holds whole rows.
			for ent := uint32(k) / nf; nib != 0; ent, nib = ent+1, nib>>(nf&31) {
				if part := nib & rowMask; part != 0 {
					e.addChange(int32(ent), int32(ent), int32(ent), part, useMaskHist)
				}
			}
			continue
		}
		last = e.markChanges(uint32(k), nib, last, useMaskHist)
	}
	if whole { // the last, short group: whole rows too
		var nib uint32
		for j := k; j < len(bv); j++ {
			nib |= neq(bv[j], cv[j]) << (j - k)
		}
		for ent := uint32(k) / nf; nib != 0; ent, nib = ent+1, nib>>(nf&31) {
			if part := nib & rowMask; part != 0 {
				e.addChange(int32(ent), int32(ent), int32(ent), part, useMaskHist)
			}
		}
		return
	}
	for ; k < len(bv); k++ {
		last = e.markChanges(uint32(k), neq(bv[k], cv[k]), last, useMaskHist)
	}
	if useMaskHist && len(e.changed) > 0 {
		e.maskHist[e.changed[len(e.changed)-1].mask]++
	}
}

// neq is 1 if a != b, else 0, without a branch.
func neq(a, b uint32) uint32 {
	x := a ^ b
	return (x | -x) >> 31
}

// markChanges notes the differing values of a group starting at value k:
// bit i of diff set says value k+i differs. last is the entity of the last
// change listed; markChanges returns the new last. It takes one step per
// entity, whatever the number of its values that differ.
func (e *Encoder) markChanges(k, diff, last uint32, useMaskHist bool) uint32 {
	nf := uint32(len(e.t.bits))
	rowMask := uint32(1<<nf - 1) // nf = 32 gives all ones too
	for diff != 0 {
		j := k + uint32(bits.TrailingZeros32(diff))
		ent := uint32(uint64(j) * e.t.recip >> 32) // j / nf
		var part uint32                            // the entity's differing fields
		if start := ent * nf; start >= k {
			part = diff >> (start - k)
			diff &^= rowMask << (start - k)
		} else { // the entity began before the group
			part = diff << (k - start)
			diff &^= rowMask >> (k - start)
		}
		part &= rowMask
		if ent == last {
			e.changed[len(e.changed)-1].mask |= part
			continue
		}
		if useMaskHist && len(e.changed) > 0 {
			e.maskHist[e.changed[len(e.changed)-1].mask]++
		}
		e.changed = append(e.changed, change{base: int32(ent), cur: int32(ent), mask: part})
		e.chgPos = append(e.chgPos, int32(ent))
		last = ent
	}
	return last
}

func (e *Encoder) addChange(bi, ci, surv int32, m uint32, useMaskHist bool) {
	e.changed = append(e.changed, change{base: bi, cur: ci, mask: m})
	e.chgPos = append(e.chgPos, surv)
	if useMaskHist {
		e.maskHist[m]++
	}
}

// residuals computes the zigzagged residual of every changed field against
// its prediction, in packet order, and plans the generic fields' gamma
// orders.
func (e *Encoder) residuals(base, cur *snapshot.Snapshot, gap uint32) {
	for f := range e.t.bits {
		e.rhist[f] = [33]uint32{}
	}
	e.resid = e.resid[:0]
	for _, ch := range e.changed {
		brow, crow := base.Row(int(ch.base)), cur.Row(int(ch.cur))
		pred := brow
		if e.t.pred != nil {
			e.t.pred.Predict(brow, gap, ch.mask, e.predRow)
			pred = e.predRow
		}
		for m := ch.mask; m != 0; m &= m - 1 {
			f := bits.TrailingZeros32(m)
			z := bitpack.Zigzag(wrapDiff(crow[f], pred[f], e.t.bits[f]))
			e.resid = append(e.resid, z)
			e.rhist[f][bits.Len32(z)]++
		}
	}
	e.planOrders()
}

// planOrders picks, per generic field, the gamma order that codes this
// packet's residuals of the field in the fewest bits.
func (e *Encoder) planOrders() {
	p := &e.plan
	for f, kb := range e.t.kbits {
		if kb == 0 {
			continue
		}
		h := &e.rhist[f]
		best, bestCost := 0, -1
		for k := 0; k < int(e.t.bits[f]) && k < 1<<e.t.kbits[f]; k++ {
			cost := 0
			for n, cnt := range h[:e.t.bits[f]+1] {
				if cnt > 0 {
					cost += int(cnt) * gammaLenOfBitLen(n, k)
				}
			}
			if bestCost < 0 || cost < bestCost {
				best, bestCost = k, cost
			}
		}
		p.order[f] = uint8(best)
	}
}

// planMasks decides whether naming the packet's most common field mask with
// one bit is cheaper than writing every mask in full.
func (e *Encoder) planMasks() {
	p := &e.plan
	p.maskMode, p.common = false, 0
	if len(e.t.bits) <= 1 || len(e.t.bits) > 8 || e.t.maskEnc != nil {
		return
	}
	nf := len(e.t.bits)
	var total, top int
	for m, n := range e.maskHist[:1<<nf] {
		total += int(n)
		if int(n) > top {
			top, p.common = int(n), uint32(m)
		}
	}
	plain := total * nf
	coded := nf + top + (total-top)*(1+nf)
	p.maskMode = coded < plain
}

// gammaLenOfBitLen returns about how long gamma(k) codes a value of bit
// length n are: exactly k+1 up to n = k, then 2n-1-k or one bit more
// (close enough to choose an order; the packet says which was chosen).
func gammaLenOfBitLen(n, k int) int {
	if n <= k {
		return k + 1
	}
	return 2*n - 1 - k
}
