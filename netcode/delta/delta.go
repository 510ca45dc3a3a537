package delta

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// rawBits is the widest generic field written raw: its wrapped difference
// in bits_f bits, shorter than any gamma code can be.
const rawBits = 2

// AppendDelta appends a packet that carries cur as a delta against base, the
// snapshot of tick baseline. The receiver must hold that snapshot; the sender
// makes sure of it by only naming acknowledged ticks. baseline must be
// below tick and at most 32767 ticks older.
func (c *Codec) AppendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	c.analyse(base, cur)
	return c.appendDelta(dst, tick, baseline, base, cur)
}

// AppendDeltaChanges is AppendDelta for a caller that knows how cur
// differs from base: ch, which must be exact (snapshot.Changes). The
// packet is the one AppendDelta writes; the codec only skips comparing the
// snapshots. It implements snapstream.ChangesAppender.
func (c *Codec) AppendDeltaChanges(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot, ch *snapshot.Changes) []byte {
	c.take(base, cur, ch)
	return c.appendDelta(dst, tick, baseline, base, cur)
}

// appendDelta writes the delta once analyse or take has listed the changes.
func (c *Codec) appendDelta(dst []byte, tick, baseline uint32, base, cur *snapshot.Snapshot) []byte {
	if c.mover != nil {
		c.moveChanges(base, cur, tick-baseline)
	}
	start := len(dst)
	w := bitpack.NewWriter(dst)
	c.sizes.start = w.BitLen()
	w.Write(kindDelta, 1)
	w.Write(tick, deltaTickBits)
	w.WriteGamma(tick-baseline-1, ageOrder)

	nb := base.Len()
	z := &c.sizes
	z.at[0] = w.BitLen()
	writeSet(&w, c.removed, nb)
	z.at[1] = w.BitLen()
	c.writeEntities(&w, newOrder, cur, c.newIdx, !c.spawnMode)
	z.at[2] = w.BitLen()
	c.appendChanges(&w, base, cur, tick-baseline)
	if c.spawnMode && len(c.newIdx) > 0 {
		c.writeNewRows(&w, base, cur, tick-baseline)
	}
	z.at[6] = w.BitLen()
	return c.appendCheck(w.Bytes(), start)
}

// appendChanges writes the changed set and the changes.
func (c *Codec) appendChanges(w *bitpack.Writer, base, cur *snapshot.Snapshot, gap uint32) {
	z := &c.sizes
	universe := base.Len() - len(c.removed)
	bitmask, k := planSet(c.chgPos, universe)
	if !c.generic && !bitmask && len(c.changed) > 0 {
		// The usual case: the changed set's gaps and the changes go into
		// the side buffer together (see writeChanges).
		w.Write(0, 1)
		w.WriteGamma(uint32(len(c.chgPos)), 0)
		w.Write(uint32(k), riceBits)
		c.planMasks()
		setEnd, codingEnd := c.writeChanges(w, base, cur, gap, k)
		z.at[3], z.at[4], z.at[5] = setEnd, codingEnd, w.BitLen()
		return
	}
	writeSetAs(w, c.chgPos, universe, bitmask, k)
	z.at[3] = w.BitLen()
	z.at[4], z.at[5] = z.at[3], z.at[3]
	if len(c.changed) == 0 {
		return
	}
	if c.generic {
		c.residuals(base, cur, gap)
	}
	c.planMasks()
	c.writeCoding(w)
	z.at[4] = w.BitLen()
	if c.generic {
		c.writeChangesGeneric(w)
	} else {
		c.writeChanges(w, base, cur, gap, -1)
	}
	z.at[5] = w.BitLen()
}

// appendCheck appends the check byte of the packet p[start:], if the
// schema asks for one.
func (c *Codec) appendCheck(p []byte, start int) []byte {
	if !c.check {
		return p
	}
	return append(p, Check(p[start:]))
}

// writeCoding writes how the packet codes its changes: the generic fields'
// gamma orders and, without a mask code, the mask mode.
func (c *Codec) writeCoding(w *bitpack.Writer) {
	p := &c.plan
	for f, kb := range c.kbits {
		if kb > 0 {
			w.Write(uint32(p.order[f]), uint(kb))
		}
	}
	nf := uint(len(c.bits))
	if nf > 1 && c.maskEnc == nil {
		w.WriteBool(p.maskMode)
		if p.maskMode {
			w.Write(p.common, nf)
		}
	}
}

// Sizes says where the bits of a delta went.
type Sizes struct {
	Header    int // kind, tick and age
	Removed   int // the removed set
	New       int // the new entities: their ids and rows
	Changed   int // the changed set
	Coding    int // the packet's gamma orders and mask mode
	Masks     int // the changed entities' field masks
	Residuals int // the changed fields' values
	Padding   int // up to the last whole byte
	Check     int // the check byte, if the schema asks for one
}

// sizes notes the bit positions where the sections of the last delta began.
type sizes struct {
	start int
	at    [7]int // removed, new, changed, coding, changes, new rows, end
	masks int    // the bits of the changed entities' mask codewords, with a mask code
}

// LastSizes returns where the bits of the last packet AppendDelta wrote
// went. It is for measuring, not for the hot path.
func (c *Codec) LastSizes() Sizes {
	z := &c.sizes
	s := Sizes{
		Header:  z.at[0] - z.start,
		Removed: z.at[1] - z.at[0],
		New:     z.at[2] - z.at[1] + z.at[6] - z.at[5],
		Changed: z.at[3] - z.at[2],
		Coding:  z.at[4] - z.at[3],
	}
	nf := len(c.bits)
	if z.at[5] > z.at[4] {
		for _, ch := range c.changed {
			switch {
			case nf == 1:
			case c.maskEnc != nil && c.generic:
				s.Masks += int(c.maskEnc[ch.mask] >> 16)
			case c.maskEnc != nil: // per context: counted as written
				s.Masks = z.masks
			case !c.plan.maskMode:
				s.Masks += nf
			case ch.mask == c.plan.common:
				s.Masks++
			default:
				s.Masks += nf + 1
			}
		}
	}
	s.Residuals = z.at[5] - z.at[4] - s.Masks
	s.Padding = (8 - z.at[6]%8) % 8
	if c.check {
		s.Check = 8
	}
	return s
}

// writeMask writes a changed entity's field mask.
func (c *Codec) writeMask(w *bitpack.Writer, m uint32) {
	nf := uint(len(c.bits))
	switch {
	case nf == 1:
	case c.maskEnc != nil:
		e := c.maskEnc[m]
		w.Write(e&0xffff, uint(e>>16))
	case !c.plan.maskMode:
		w.Write(m, nf)
	case m == c.plan.common:
		w.Write(1, 1)
	default:
		w.Write(m<<1, nf+1) // the "common" bit 0, then the mask
	}
}

// writeChanges writes the changed entities when every field has a code,
// computing residuals as it goes. It packs the bits into the codec's side
// buffer without a branch per value (an unconditional 8-byte store, then
// an advance by the whole bytes written) and joins them to w at the end.
// With riceK >= 0 the changed set's gaps, coded Rice(riceK), and the
// packet's coding come first. It returns where in w the gaps and the
// coding ended. Every shift by a variable count is masked to the count's
// range (n & 63 where n < 64): Go otherwise checks each one for a count of
// the word's width or more, three instructions a shift, and in this loop
// that was a sixth of its instructions.
func (c *Codec) writeChanges(w *bitpack.Writer, base, cur *snapshot.Snapshot, gap uint32, riceK int) (setEnd, codingEnd int) {
	nf := len(c.bits)
	bv, cv := base.Values(), cur.Values()
	fbits, pr, maskEnc := c.bits[:nf], c.predRow[:nf], c.maskEnc
	ctxMask, ctxEnc, cx := c.ctxMask, c.ctxEnc, c.ctx
	enc := ctxEnc[0]
	maskBits := 0
	p := &c.plan
	// Per entity at most a 12-bit mask codeword (or nf+1 bits), 12+31 bits
	// a field and a gap of at most 64 bits; 8 bytes of room for a store.
	need := len(c.changed)*(8+max(nf+1, bitpack.MaxCodeLen)+nf*(bitpack.MaxCodeLen+31))/8 + 64
	if cap(c.side) < need {
		c.side = make([]byte, need)
	}
	buf := c.side[:cap(c.side)]
	pos := 0
	var acc uint64 // pending bits, the oldest lowest
	var n uint     // how many, below 8 after each store
	start := w.BitLen()
	if riceK >= 0 {
		k := uint(riceK)
		prev := int32(-1)
		for _, sp := range c.chgPos {
			g := uint32(sp - prev - 1)
			prev = sp
			q := uint(g >> k)
			for ; q >= 40; q -= 40 { // a long run of zeros
				n += 40
				binary.LittleEndian.PutUint64(buf[pos:pos+8], acc)
				pos += int(n >> 3)
				acc >>= n & 56
				n &= 7
			}
			acc |= (1<<(q&63) | uint64(g&(1<<k-1))<<((q+1)&63)) << (n & 63)
			n += q + 1 + k // at most 7+40+15 bits
			binary.LittleEndian.PutUint64(buf[pos:pos+8], acc)
			pos += int(n >> 3)
			acc >>= n & 56
			n &= 7
		}
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
	for _, ch := range c.changed {
		m := ch.mask
		bo, co := int(ch.base)*nf, int(ch.cur)*nf
		brow, crow := bv[bo:bo+nf:bo+nf], cv[co:co+nf:co+nf]
		k := 0
		if cx != nil {
			k = c.context(brow)
			enc = ctxEnc[k]
		}
		switch {
		case nf == 1:
		case maskEnc != nil:
			e := ctxMask[k<<nf|int(m)]
			acc |= uint64(e&0xffff) << (n & 63)
			n += uint(e >> 16)
			maskBits += int(e >> 16)
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
		if c.pred != nil {
			c.pred.Predict(brow, gap, m, pr)
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
			e := enc[f&31*33+int(b)]
			low := uint64(z) ^ 1<<(b&63)>>1
			acc |= (uint64(e&0xffff) | low<<(e>>16&63)) << (n & 63)
			n += uint(e >> 24) // at most 7+12+31 bits
		}
		binary.LittleEndian.PutUint64(buf[pos:pos+8], acc)
		pos += int(n >> 3)
		acc >>= n & 56
		n &= 7
	}
	buf[pos] = byte(acc)
	w.WriteStream(buf, 8*pos+int(n))
	c.sizes.masks = maskBits
	return setEnd, codingEnd
}

// writeChangesGeneric writes the changed entities with the residuals
// residuals computed, for schemas with generic fields.
func (c *Codec) writeChangesGeneric(w *bitpack.Writer) {
	resid := c.resid
	for _, ch := range c.changed {
		m := ch.mask
		c.writeMask(w, m)
		for ; m != 0; m &= m - 1 {
			f := bits.TrailingZeros32(m)
			z := resid[0]
			resid = resid[1:]
			switch {
			case c.codes[f] != nil:
				w.WriteLengthCode(c.codes[f], z)
			case c.bits[f] <= rawBits:
				w.Write(uint32(bitpack.Unzigzag(z)), uint(c.bits[f])) // the wrapped difference
			default:
				w.WriteGamma(z, uint(c.plan.order[f]))
			}
		}
	}
}

// packCode returns code's codewords, one per symbol, as word | length<<16.
func packCode(code *bitpack.Code) []uint32 {
	enc := make([]uint32, code.Symbols())
	for s := range enc {
		word, l := code.Word(s)
		enc[s] = word | uint32(l)<<16
	}
	return enc
}

// packLengthCode fills dst, one entry per bit length n, with the codeword
// of n in code and what the whole of a value of that length costs:
// word | length<<16 | (length+max(n-1, 0))<<24, the codeword then the n-1
// bits below the value's leading one. Lengths past code's symbols cost
// their extra bits only.
func packLengthCode(dst []uint32, code *bitpack.Code) {
	for n := range dst {
		var word uint32
		var l uint
		if n < code.Symbols() {
			word, l = code.Word(n)
		}
		dst[n] = word | uint32(l)<<16 | (uint32(l)+uint32(max(n-1, 0)))<<24
	}
}

// analyse merges base and cur in slot order and lists the removed, the new
// and the changed entities with their field masks.
func (c *Codec) analyse(base, cur *snapshot.Snapshot) {
	c.fit(base.Len())
	c.removed, c.chgPos, c.changed, c.newIdx = c.removed[:0], c.chgPos[:0], c.changed[:0], c.newIdx[:0]
	c.makers = c.makers[:0]
	useMaskHist := len(c.bits) > 1 && len(c.bits) <= 8 && c.maskEnc == nil
	if useMaskHist {
		c.maskHist = [256]uint16{}
	}
	bids, cids := base.IDs(), cur.IDs()
	if sameIDs(bids, cids) {
		c.diffRows(base.Values(), cur.Values(), useMaskHist)
		return // the usual case: the same entities
	}
	// Entities came or went: the plain comparison, then as if handed it.
	c.cmp.Compare(base, cur)
	c.take(base, cur, &c.cmp)
}

// take lists the changes ch names, as analyse would have found them, and
// the makers among the survivors when there are new entities to guess.
func (c *Codec) take(base, cur *snapshot.Snapshot, ch *snapshot.Changes) {
	c.fit(base.Len())
	c.removed = append(c.removed[:0], ch.Removed...)
	c.newIdx = append(c.newIdx[:0], ch.New...)
	c.chgPos, c.changed, c.makers = c.chgPos[:0], c.changed[:0], c.makers[:0]
	useMaskHist := len(c.bits) > 1 && len(c.bits) <= 8 && c.maskEnc == nil
	if useMaskHist {
		c.maskHist = [256]uint16{}
	}
	for _, x := range ch.Changed {
		c.addChange(x.Base, x.Cur, x.Survivor, x.Fields, useMaskHist)
	}
	if c.spawner == nil || len(c.newIdx) == 0 {
		return
	}
	// The survivors, in slot order: every entity of both but the removed
	// and the new.
	removed, added := c.removed, c.newIdx
	for i, j := int32(0), int32(0); i < int32(base.Len()) && j < int32(cur.Len()); {
		switch {
		case len(removed) > 0 && removed[0] == i:
			removed, i = removed[1:], i+1
		case len(added) > 0 && added[0] == j:
			added, j = added[1:], j+1
		default:
			c.addMaker(cur.Row(int(j)), j, i)
			i, j = i+1, j+1
		}
	}
}

// moveChanges lists again, for a schema whose Predictor is a Mover, the
// changes of the survivors it moves: against their prediction rather than
// their baseline row. analyse has listed the changes against the baseline.
func (c *Codec) moveChanges(base, cur *snapshot.Snapshot, gap uint32) {
	nf := len(c.bits)
	full := fieldMask(uint8(nf))
	bv, cv := base.Values(), cur.Values()
	bids, cids := base.IDs(), cur.IDs()
	pr, fm := c.predRow[:nf], c.fmasks[:nf]
	moved, pos := c.moved[:0], c.movedPos[:0]
	changed := c.changed
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
		if c.mover.Moves(brow) {
			crow := cv[co : co+nf : co+nf]
			c.pred.Predict(brow, gap, full, pr)
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
	c.changed, c.moved = moved, c.changed
	c.chgPos, c.movedPos = pos, c.chgPos
	if len(c.bits) > 1 && len(c.bits) <= 8 && c.maskEnc == nil {
		c.maskHist = [256]uint16{}
		for _, ch := range c.changed {
			c.maskHist[ch.mask]++
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
func (c *Codec) diffRows(bv, cv []uint32, useMaskHist bool) {
	cv = cv[:len(bv)]
	nf := uint32(len(c.bits))
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
			for e := uint32(k) / nf; nib != 0; e, nib = e+1, nib>>(nf&31) {
				if part := nib & rowMask; part != 0 {
					c.addChange(int32(e), int32(e), int32(e), part, useMaskHist)
				}
			}
			continue
		}
		last = c.markChanges(uint32(k), nib, last, useMaskHist)
	}
	if whole { // the last, short group: whole rows too
		var nib uint32
		for j := k; j < len(bv); j++ {
			nib |= neq(bv[j], cv[j]) << (j - k)
		}
		for e := uint32(k) / nf; nib != 0; e, nib = e+1, nib>>(nf&31) {
			if part := nib & rowMask; part != 0 {
				c.addChange(int32(e), int32(e), int32(e), part, useMaskHist)
			}
		}
		return
	}
	for ; k < len(bv); k++ {
		last = c.markChanges(uint32(k), neq(bv[k], cv[k]), last, useMaskHist)
	}
	if useMaskHist && len(c.changed) > 0 {
		c.maskHist[c.changed[len(c.changed)-1].mask]++
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
func (c *Codec) markChanges(k, diff, last uint32, useMaskHist bool) uint32 {
	nf := uint32(len(c.bits))
	rowMask := uint32(1<<nf - 1) // nf = 32 gives all ones too
	for diff != 0 {
		j := k + uint32(bits.TrailingZeros32(diff))
		e := uint32(uint64(j) * c.recip >> 32) // j / nf
		var part uint32                        // the entity's differing fields
		if start := e * nf; start >= k {
			part = diff >> (start - k)
			diff &^= rowMask << (start - k)
		} else { // the entity began before the group
			part = diff << (k - start)
			diff &^= rowMask >> (k - start)
		}
		part &= rowMask
		if e == last {
			c.changed[len(c.changed)-1].mask |= part
			continue
		}
		if useMaskHist && len(c.changed) > 0 {
			c.maskHist[c.changed[len(c.changed)-1].mask]++
		}
		c.changed = append(c.changed, change{base: int32(e), cur: int32(e), mask: part})
		c.chgPos = append(c.chgPos, int32(e))
		last = e
	}
	return last
}

func (c *Codec) addChange(bi, ci, surv int32, m uint32, useMaskHist bool) {
	c.changed = append(c.changed, change{base: bi, cur: ci, mask: m})
	c.chgPos = append(c.chgPos, surv)
	if useMaskHist {
		c.maskHist[m]++
	}
}

// residuals computes the zigzagged residual of every changed field against
// its prediction, in packet order, and plans the generic fields' gamma
// orders.
func (c *Codec) residuals(base, cur *snapshot.Snapshot, gap uint32) {
	for f := range c.bits {
		c.rhist[f] = [33]uint32{}
	}
	c.resid = c.resid[:0]
	for _, ch := range c.changed {
		brow, crow := base.Row(int(ch.base)), cur.Row(int(ch.cur))
		pred := brow
		if c.pred != nil {
			c.pred.Predict(brow, gap, ch.mask, c.predRow)
			pred = c.predRow
		}
		for m := ch.mask; m != 0; m &= m - 1 {
			f := bits.TrailingZeros32(m)
			z := bitpack.Zigzag(wrapDiff(crow[f], pred[f], c.bits[f]))
			c.resid = append(c.resid, z)
			c.rhist[f][bits.Len32(z)]++
		}
	}
	c.planOrders()
}

// planOrders picks, per generic field, the gamma order that codes this
// packet's residuals of the field in the fewest bits.
func (c *Codec) planOrders() {
	p := &c.plan
	for f, kb := range c.kbits {
		if kb == 0 {
			continue
		}
		h := &c.rhist[f]
		best, bestCost := 0, -1
		for k := 0; k < int(c.bits[f]) && k < 1<<c.kbits[f]; k++ {
			cost := 0
			for n, cnt := range h[:c.bits[f]+1] {
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
func (c *Codec) planMasks() {
	p := &c.plan
	p.maskMode, p.common = false, 0
	if len(c.bits) <= 1 || len(c.bits) > 8 || c.maskEnc != nil {
		return
	}
	nf := len(c.bits)
	var total, top int
	for m, n := range c.maskHist[:1<<nf] {
		total += int(n)
		if int(n) > top {
			top, p.common = int(n), uint32(m)
		}
	}
	plain := total * nf
	coded := nf + top + (total-top)*(1+nf)
	p.maskMode = coded < plain
}

// riceBits is the width of a set's Rice parameter (0..15).
const riceBits = 4

// writeSet writes the set of positions pos (increasing, below universe):
// as a bitmask over the universe, or as a count and gaps coded Rice(k),
// whichever is shorter.
func writeSet(w *bitpack.Writer, pos []int32, universe int) {
	bitmask, k := planSet(pos, universe)
	writeSetAs(w, pos, universe, bitmask, k)
}

// planSet chooses how to write a set: as a bitmask, or as gaps coded
// Rice(k).
func planSet(pos []int32, universe int) (bitmask bool, k int) {
	count := len(pos)
	gapCost := 0
	if count > 0 {
		// The gaps sum to the last position less count-1. Rice(k) costs
		// count*(1+k) bits plus the sum of the gaps shifted right by k,
		// about sum>>k: choose k by that estimate.
		sum := int(pos[count-1]) + 1 - count
		gapCost = -1
		for kk := range 1 << riceBits {
			if cost := count*(1+kk) + sum>>kk; gapCost < 0 || cost < gapCost {
				k, gapCost = kk, cost
			}
		}
		gapCost += riceBits
	}
	gapCost += bitpack.GammaLen(uint32(count), 0)
	return universe <= gapCost, k
}

// writeSetAs writes a set as planSet chose.
func writeSetAs(w *bitpack.Writer, pos []int32, universe int, bitmask bool, k int) {
	count := len(pos)
	if bitmask {
		w.Write(1, 1) // bitmask
		next := int32(0)
		for _, p := range pos {
			for p-next >= 32 {
				w.Write(0, 32)
				next += 32
			}
			w.Write(1<<(p-next), uint(p-next+1)) // zeros up to p, then its one
			next = p + 1
		}
		for rest := int32(universe) - next; rest > 0; rest -= 32 {
			w.Write(0, uint(min(rest, 32)))
		}
		return
	}
	w.Write(0, 1)
	w.WriteGamma(uint32(count), 0)
	if count == 0 {
		return
	}
	w.Write(uint32(k), riceBits)
	prev := int32(-1)
	kk := uint(k)
	for _, p := range pos {
		g := uint32(p - prev - 1)
		prev = p
		if q := uint(g >> kk); q+1+kk <= 32 { // the usual case, in one write
			w.Write(1<<q|(g&(1<<kk-1))<<(q+1), q+1+kk)
			continue
		}
		w.WriteRice(g, kk)
	}
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

// readSet reads a set written by writeSet over universe positions and
// appends its members to pos, which must have room for universe of them.
func readSet(r *bitpack.Reader, pos []int32, universe int) ([]int32, error) {
	if r.ReadBool() {
		if universe > r.Remaining() {
			return pos, fmt.Errorf("%w: set bitmask of %d bits, %d left", ErrMalformed, universe, r.Remaining())
		}
		for at := 0; at < universe; at += 32 {
			v := r.Read(uint(min(universe-at, 32)))
			for ; v != 0; v &= v - 1 {
				pos = append(pos, int32(at+bits.TrailingZeros32(v)))
			}
		}
		return pos, r.Err()
	}
	count := r.ReadGamma(0)
	if r.Err() != nil {
		return pos, fmt.Errorf("%w: set count: %w", ErrMalformed, r.Err())
	}
	if count == 0 {
		return pos, nil
	}
	if int64(count) > int64(universe) {
		return pos, fmt.Errorf("%w: set of %d in %d", ErrMalformed, count, universe)
	}
	k := uint(r.Read(riceBits))
	prev := int64(-1)
	for range count {
		p := prev + 1 + int64(r.ReadRice(k))
		if r.Err() != nil {
			return pos, fmt.Errorf("%w: set gap: %w", ErrMalformed, r.Err())
		}
		if p >= int64(universe) {
			return pos, fmt.Errorf("%w: set position beyond its universe", ErrMalformed)
		}
		pos = append(pos, int32(p))
		prev = p
	}
	return pos, nil
}
