package delta

import (
	"fmt"
	"math/bits"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

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
	c.writeSet(&w, c.status[:nb], removed, 255)
	c.writeEntities(&w, newOrder, cur, c.newIdx)
	if c.writeSet(&w, c.status[:nb], changed, removed) == 0 {
		return w.Bytes()
	}

	// How this packet codes its changes: only present when there are some.
	p := &c.plan
	for f := range c.bits {
		w.Write(uint32(p.width[f]), uint(c.wbits[f]))
		if p.width[f] > 0 {
			w.WriteBool(p.allSmall[f])
		}
	}
	nf := uint(len(c.bits))
	if nf > 1 {
		w.WriteBool(p.maskMode)
		if p.maskMode {
			w.Write(p.common, nf)
		}
	}

	for i := range nb {
		if c.status[i] != changed {
			continue
		}
		m := c.fmask[i]
		if nf > 1 {
			if p.maskMode {
				w.WriteBool(m == p.common)
				if m != p.common {
					w.Write(m, nf)
				}
			} else {
				w.Write(m, nf)
			}
		}
		brow, crow := base.Row(i), cur.Row(int(c.partner[i]))
		for f := range c.bits {
			if m&(1<<f) == 0 {
				continue
			}
			fb := c.bits[f]
			width := p.width[f]
			if width == 0 {
				w.Write(crow[f], uint(fb))
				continue
			}
			z := bitpack.Zigzag(wrapDiff(crow[f], brow[f], fb))
			small := bitpack.Len(z) <= uint(width)
			if !p.allSmall[f] {
				w.WriteBool(small)
			}
			if small {
				w.Write(z, uint(width))
			} else {
				w.Write(crow[f], uint(fb))
			}
		}
	}
	return w.Bytes()
}

// analyse merges base and cur in slot order, fills the status, mask and
// partner of every baseline entity and the list of new entities, and plans
// the field widths and mask mode.
func (c *Codec) analyse(base, cur *snapshot.Snapshot) {
	nf := len(c.bits)
	for f := range nf {
		c.hist[f] = [33]uint32{}
	}
	useMaskHist := nf > 1 && nf <= 8
	if useMaskHist {
		c.maskHist = [256]uint16{}
	}
	c.newIdx = c.newIdx[:0]
	nb, nc := base.Len(), cur.Len()
	c.fit(nb)
	bids, cids := base.IDs(), cur.IDs()
	i, j := 0, 0
	for i < nb || j < nc {
		switch {
		case j >= nc || (i < nb && bids[i].Index < cids[j].Index):
			c.status[i] = removed
			i++
		case i >= nb || cids[j].Index < bids[i].Index:
			c.newIdx = append(c.newIdx, int32(j))
			j++
		default:
			if bids[i].Generation != cids[j].Generation {
				c.status[i] = removed
				c.newIdx = append(c.newIdx, int32(j))
			} else {
				brow, crow := base.Row(i), cur.Row(j)
				var m uint32
				for f := range nf {
					if brow[f] != crow[f] {
						m |= 1 << f
						z := bitpack.Zigzag(wrapDiff(crow[f], brow[f], c.bits[f]))
						c.hist[f][bits.Len32(z)]++
					}
				}
				c.fmask[i] = m
				c.partner[i] = int32(j)
				if m == 0 {
					c.status[i] = unchanged
				} else {
					c.status[i] = changed
					if useMaskHist {
						c.maskHist[m]++
					}
				}
			}
			i++
			j++
		}
	}
	c.planWidths()
	c.planMasks(useMaskHist)
}

// planWidths picks, per field, the small-delta width that codes this
// packet's changes of the field in the fewest bits.
func (c *Codec) planWidths() {
	p := &c.plan
	for f, fb := range c.bits {
		h := &c.hist[f]
		total, maxLen := 0, 0
		for l := 0; l <= int(fb); l++ {
			if h[l] > 0 {
				total += int(h[l])
				maxLen = l
			}
		}
		// Width 0: every change absolute.
		best, bestCost, bestAll := 0, total*int(fb), false
		if maxLen < int(fb) && maxLen > 0 && total > 0 {
			if cost := total * maxLen; cost < bestCost {
				best, bestCost, bestAll = maxLen, cost, true
			}
		}
		fits := 0
		for width := 1; width < int(fb) && width < 1<<c.wbits[f]; width++ {
			fits += int(h[width])
			if width == 1 {
				fits += int(h[0]) // (a zero change never occurs; kept for safety)
			}
			cost := total + fits*width + (total-fits)*int(fb)
			if cost < bestCost {
				best, bestCost, bestAll = width, cost, false
			}
		}
		if best >= 1<<c.wbits[f] {
			best, bestAll = 0, false
		}
		p.width[f] = uint8(best)
		p.allSmall[f] = bestAll
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

// writeSet writes the positions of status whose status is member, counting
// positions over the universe of entries not equal to skip: as a bitmask over
// the universe, or as a count and gaps, whichever is shorter. It returns the
// number of members.
func (c *Codec) writeSet(w *bitpack.Writer, status []uint8, member, skip uint8) int {
	universe, count := 0, 0
	var costs [1 << setOrderBits]int
	prev := -1
	for _, s := range status {
		if s == skip {
			continue
		}
		if s == member {
			addGammaCosts(costs[:], uint32(universe-prev-1))
			prev = universe
			count++
		}
		universe++
	}
	k, gapCost := bestOrder(costs[:])
	gapCost += bitpack.GammaLen(uint32(count), 0) + setOrderBits
	if universe <= gapCost {
		w.WriteBool(true) // bitmask
		for _, s := range status {
			if s != skip {
				w.WriteBool(s == member)
			}
		}
		return count
	}
	w.WriteBool(false)
	w.WriteGamma(uint32(count), 0)
	if count == 0 {
		return 0
	}
	w.Write(uint32(k), setOrderBits)
	universe, prev = 0, -1
	for _, s := range status {
		if s == skip {
			continue
		}
		if s == member {
			w.WriteGamma(uint32(universe-prev-1), k)
			prev = universe
		}
		universe++
	}
	return count
}

// readSet reads a set written by writeSet and marks its members in status
// (over the entries not equal to skip) as member. It returns the number of members.
func readSet(r *bitpack.Reader, status []uint8, member, skip uint8) (int, error) {
	if r.ReadBool() {
		universe := 0
		for _, s := range status {
			if s != skip {
				universe++
			}
		}
		if universe > r.Remaining() {
			return 0, fmt.Errorf("%w: set bitmask of %d bits, %d left", ErrMalformed, universe, r.Remaining())
		}
		count := 0
		for i, s := range status {
			if s != skip && r.ReadBool() {
				status[i] = member
				count++
			}
		}
		return count, r.Err()
	}
	count := r.ReadGamma(0)
	if r.Err() != nil {
		return 0, fmt.Errorf("%w: set count: %w", ErrMalformed, r.Err())
	}
	if count == 0 {
		return 0, nil
	}
	if int64(count) > int64(len(status)) {
		return 0, fmt.Errorf("%w: set of %d in %d", ErrMalformed, count, len(status))
	}
	k := uint(r.Read(setOrderBits))
	pos := 0 // index into status; only moves forward
	for range count {
		gap := r.ReadGamma(k)
		if r.Err() != nil {
			return 0, fmt.Errorf("%w: set gap: %w", ErrMalformed, r.Err())
		}
		// Advance gap+1 positions of the universe.
		for step := int64(gap) + 1; ; pos++ {
			if pos >= len(status) {
				return 0, fmt.Errorf("%w: set position beyond its universe", ErrMalformed)
			}
			if status[pos] != skip {
				if step--; step == 0 {
					break
				}
			}
		}
		status[pos] = member
		pos++
	}
	return int(count), nil
}
