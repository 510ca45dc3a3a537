package delta

import (
	"fmt"
	"math/bits"

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
	w := bitpack.NewWriter(dst)
	w.Write(kindDelta, 1)
	w.Write(tick, deltaTickBits)
	w.WriteGamma(tick-baseline-1, ageOrder)

	nb := base.Len()
	writeSet(&w, c.removed, nb)
	c.writeEntities(&w, newOrder, cur, c.newIdx)
	writeSet(&w, c.chgPos, nb-len(c.removed))
	if len(c.changed) == 0 {
		return w.Bytes()
	}
	c.residuals(base, cur, tick-baseline)

	// How this packet codes its changes: only present when there are some.
	p := &c.plan
	for f, kb := range c.kbits {
		if kb > 0 && c.bits[f] > rawBits {
			w.Write(uint32(p.order[f]), uint(kb))
		}
	}
	nf := uint(len(c.bits))
	if nf > 1 {
		w.WriteBool(p.maskMode)
		if p.maskMode {
			w.Write(p.common, nf)
		}
	}

	resid := c.resid
	for _, ch := range c.changed {
		m := ch.mask
		if nf > 1 {
			switch {
			case !p.maskMode:
				w.Write(m, nf)
			case m == p.common:
				w.Write(1, 1)
			default:
				w.Write(m<<1, nf+1) // the "common" bit 0, then the mask
			}
		}
		for ; m != 0; m &= m - 1 {
			f := bits.TrailingZeros32(m)
			z := resid[0]
			resid = resid[1:]
			if code := c.codes[f]; code != nil {
				writeCoded(&w, code, z)
				continue
			}
			if c.bits[f] <= rawBits {
				w.Write(uint32(bitpack.Unzigzag(z)), uint(c.bits[f])) // the wrapped difference
				continue
			}
			w.WriteGamma(z, uint(p.order[f]))
		}
	}
	return w.Bytes()
}

// writeCoded writes residual z with code: the codeword of its bit length
// c, then its c-1 bits below the leading one.
func writeCoded(w *bitpack.Writer, code *bitpack.Code, z uint32) {
	n := bits.Len32(z)
	word, l := code.Word(n)
	if n < 2 {
		w.Write(word, l)
		return
	}
	extra := uint(n - 1)
	low := z & (1<<extra - 1)
	if l+extra <= 32 {
		w.Write(word|low<<l, l+extra)
		return
	}
	w.Write(word, l)
	w.Write(low, extra)
}

// analyse merges base and cur in slot order and lists the removed, the new
// and the changed entities with their field masks.
func (c *Codec) analyse(base, cur *snapshot.Snapshot) {
	nb, nc := base.Len(), cur.Len()
	c.fit(nb)
	c.removed, c.chgPos, c.changed, c.newIdx = c.removed[:0], c.chgPos[:0], c.changed[:0], c.newIdx[:0]
	bids, cids := base.IDs(), cur.IDs()
	i, j, surv := 0, 0, int32(0)
	for i < nb && j < nc {
		bi, cj := bids[i], cids[j]
		if bi == cj {
			brow, crow := base.Row(i), cur.Row(j)
			crow = crow[:len(brow)]
			var d uint32
			for f, v := range brow {
				d |= v ^ crow[f]
			}
			if d != 0 {
				var m uint32
				for f, v := range brow {
					if v != crow[f] {
						m |= 1 << f
					}
				}
				c.changed = append(c.changed, change{base: int32(i), cur: int32(j), mask: m})
				c.chgPos = append(c.chgPos, surv)
			}
			i, j, surv = i+1, j+1, surv+1
			continue
		}
		switch {
		case bi.Index < cj.Index:
			c.removed = append(c.removed, int32(i))
			i++
		case cj.Index < bi.Index:
			c.newIdx = append(c.newIdx, int32(j))
			j++
		default: // the slot's occupant changed
			c.removed = append(c.removed, int32(i))
			c.newIdx = append(c.newIdx, int32(j))
			i, j = i+1, j+1
		}
	}
	for ; i < nb; i++ {
		c.removed = append(c.removed, int32(i))
	}
	for ; j < nc; j++ {
		c.newIdx = append(c.newIdx, int32(j))
	}
}

// residuals computes the zigzagged residual of every changed field against
// its prediction, in packet order, and plans the generic fields' gamma
// orders and the mask mode.
func (c *Codec) residuals(base, cur *snapshot.Snapshot, gap uint32) {
	nf := len(c.bits)
	useMaskHist := nf > 1 && nf <= 8
	if useMaskHist {
		c.maskHist = [256]uint16{}
	}
	for f, code := range c.codes {
		if code == nil {
			c.rhist[f] = [33]uint32{}
		}
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
			if c.codes[f] == nil {
				c.rhist[f][bits.Len32(z)]++
			}
		}
		if useMaskHist {
			c.maskHist[ch.mask]++
		}
	}
	c.planOrders()
	c.planMasks(useMaskHist)
}

// planOrders picks, per generic field, the gamma order that codes this
// packet's residuals of the field in the fewest bits.
func (c *Codec) planOrders() {
	p := &c.plan
	for f, code := range c.codes {
		if code != nil || c.bits[f] <= rawBits {
			continue
		}
		h := &c.rhist[f]
		best, bestCost := 0, -1
		for k := 0; k < int(c.bits[f]) && k < 1<<c.kbits[f]; k++ {
			// gamma(k) of a value of bit length n: k+1 bits up to n = k,
			// then about 2n-1-k.
			cost := 0
			for n, cnt := range h[:c.bits[f]+1] {
				if cnt == 0 {
					continue
				}
				if n <= k {
					cost += int(cnt) * (k + 1)
				} else {
					cost += int(cnt) * (2*n - 1 - k)
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
func (c *Codec) planMasks(useHist bool) {
	p := &c.plan
	p.maskMode, p.common = false, 0
	if !useHist {
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

// setOrderBits is the width of a set's gap order (0..3).
const setOrderBits = 2

// writeSet writes the set of positions pos (increasing, below universe):
// as a bitmask over the universe, or as a count and gaps, whichever is
// shorter.
func writeSet(w *bitpack.Writer, pos []int32, universe int) {
	var costs [1 << setOrderBits]int
	prev := int32(-1)
	for _, p := range pos {
		addGammaCosts(costs[:], uint32(p-prev-1))
		prev = p
	}
	k, gapCost := bestOrder(costs[:])
	gapCost += bitpack.GammaLen(uint32(len(pos)), 0) + setOrderBits
	if universe <= gapCost {
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
	w.WriteGamma(uint32(len(pos)), 0)
	if len(pos) == 0 {
		return
	}
	w.Write(uint32(k), setOrderBits)
	prev = -1
	for _, p := range pos {
		w.WriteGamma(uint32(p-prev-1), k)
		prev = p
	}
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
	k := uint(r.Read(setOrderBits))
	prev := int64(-1)
	for range count {
		p := prev + 1 + int64(r.ReadGamma(k))
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
