package delta

import (
	"fmt"
	"math/bits"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// A schema whose fields all have a NewCode codes a delta's new entities
// against guesses (see the package doc, New entities): the section of new
// entities holds only their ids, and their rows follow the changes, so
// that a guess may use the surviving entities' current rows.

const (
	spawnAgeOrder = 1   // gamma order of a spawn's age
	maxSpawnAge   = 255 // the oldest spawn a delta names
)

// maker is an entity that can make others (snapshot.Spawner.Spawns): its
// index in the current (encoder) or decoded (decoder) snapshot, and in the
// baseline.
type maker struct {
	now, then int32
}

// newGuess is how a new entity is coded: against the entity before it in
// slot order (maker -1), or as made by maker, age ticks ago.
type newGuess struct {
	maker int32
	age   uint32
}

// newRowLen returns the bits of row coded against guess with the fields'
// new-entity codes: NewCode (made 0) or SpawnCode (made 1), or -1 if a
// field a made entity does not write differs from its guess.
func (c *Codec) newRowLen(row, guess []uint32, made int) int {
	n := 0
	enc := &c.newFlat[made]
	fbits, fmasks := c.bits[:len(row)], c.fmasks[:len(row)]
	guess = guess[:len(row)]
	exact := c.exact
	if made == 0 {
		exact = 0
	}
	for f, v := range row {
		d := v - guess[f]
		if exact>>f&1 != 0 {
			if d&fmasks[f] != 0 {
				return -1
			}
			continue
		}
		sh := 32 - fbits[f]
		b := bits.Len32(bitpack.Zigzag(int32(d<<sh) >> sh))
		n += int(enc[f&31*33+b]>>16) + max(b-1, 0)
	}
	return n
}

// before returns the row before position i of s in slot order, or a row of
// zeros for the first.
func (c *Codec) before(s *snapshot.Snapshot, i int) []uint32 {
	if i == 0 {
		return c.zeroRow
	}
	return s.Row(i - 1)
}

// chooseNew picks the cheapest guess for the new entity at index j of cur,
// leaving the guessed row in c.spawnRow when it names a maker.
func (c *Codec) chooseNew(base, cur *snapshot.Snapshot, gap uint32, j int) (newGuess, int) {
	row := cur.Row(j)
	best := newGuess{maker: -1}
	cost := c.newRowLen(row, c.before(cur, j), 0)
	if len(c.makers) == 0 {
		return best, cost
	}
	cost++ // the bit that says which guess
	idxBits := bits.Len(uint(len(c.makers) - 1))
	for m, mk := range c.makers {
		now := cur.Row(int(mk.now))
		est, ok := c.spawner.Age(now, row)
		if !ok {
			continue
		}
		then := base.Row(int(mk.then))
		// The cost is about unimodal in the age: from the estimate, climb
		// down the side that is cheaper.
		est = min(est, maxSpawnAge)
		at := c.spawnCost(now, then, row, gap, est, idxBits)
		best, cost = c.keepCheaper(best, cost, m, est, at)
		for _, dir := range [2]int{1, -1} {
			a, prev := int(est)+dir, at
			for ; a >= 0 && a <= maxSpawnAge; a += dir {
				n := c.spawnCost(now, then, row, gap, uint32(a), idxBits)
				if n < 0 || (prev >= 0 && n >= prev) {
					break
				}
				best, cost = c.keepCheaper(best, cost, m, uint32(a), n)
				prev = n
			}
			if a != int(est)+dir {
				break // the climb went this way: the other goes up
			}
		}
	}
	return best, cost
}

// spawnCost returns the bits of the new entity row coded as made by the
// maker whose rows are now and then, age ticks ago, or -1 if it cannot be
// (a field it does not write differs from the guess). It leaves the guess
// in c.spawnTry.
func (c *Codec) spawnCost(now, then, row []uint32, gap, age uint32, idxBits int) int {
	c.spawner.Spawn(now, then, gap, age, row, c.spawnTry)
	n := c.newRowLen(row, c.spawnTry, 1)
	if n < 0 {
		return -1
	}
	return n + 1 + idxBits + bitpack.GammaLen(age, spawnAgeOrder)
}

// keepCheaper returns maker m at age with n bits if n is below cost (and
// not -1), keeping its guess in c.spawnRow; else best and cost.
func (c *Codec) keepCheaper(best newGuess, cost, m int, age uint32, n int) (newGuess, int) {
	if n < 0 || n >= cost {
		return best, cost
	}
	copy(c.spawnRow, c.spawnTry)
	return newGuess{maker: int32(m), age: age}, n
}

// addMaker lists a surviving entity, at index now of the current snapshot
// and then of the baseline, as a maker if its row says it can make others.
func (c *Codec) addMaker(row []uint32, now, then int32) {
	if c.spawner != nil && c.spawner.Spawns(row) {
		c.makers = append(c.makers, maker{now: now, then: then})
	}
}

// writeNewRows writes the rows of the delta's new entities, each against
// its cheapest guess.
func (c *Codec) writeNewRows(w *bitpack.Writer, base, cur *snapshot.Snapshot, gap uint32) {
	idxBits := uint(0)
	if len(c.makers) > 0 {
		idxBits = uint(bits.Len(uint(len(c.makers) - 1)))
	}
	for _, j := range c.newIdx {
		g, _ := c.chooseNew(base, cur, gap, int(j))
		guess, codes := c.before(cur, int(j)), c.newCodes[0]
		if len(c.makers) > 0 {
			w.WriteBool(g.maker >= 0)
			if g.maker >= 0 {
				w.Write(uint32(g.maker), idxBits)
				w.WriteGamma(g.age, spawnAgeOrder)
				guess, codes = c.spawnRow, c.newCodes[1]
			}
		}
		row := cur.Row(int(j))
		for f := len(row) - 1; f >= 0; f-- {
			if codes[f] == nil {
				continue // exactly the guess
			}
			sh := 32 - c.bits[f]
			w.WriteLengthCode(codes[f], bitpack.Zigzag(int32((row[f]-guess[f])<<sh)>>sh))
		}
	}
}

// readNewRows reads the rows of the new entities into out, where merge
// placed them (c.newOut), once the survivors hold their current rows.
func (c *Codec) readNewRows(r *bitpack.Reader, base, out *snapshot.Snapshot, gap uint32, nsurv int) error {
	c.makers = c.makers[:0]
	if c.spawner != nil {
		for s := range nsurv {
			c.addMaker(out.Row(int(c.sout[s])), c.sout[s], c.sbase[s])
		}
	}
	idxBits := uint(0)
	if len(c.makers) > 0 {
		idxBits = uint(bits.Len(uint(len(c.makers) - 1)))
	}
	fmasks := c.fmasks
	for _, oi := range c.newOut {
		guess := c.before(out, int(oi))
		var mk *maker
		var age uint32
		codes := c.newCodes[0]
		if len(c.makers) > 0 && r.ReadBool() {
			m := r.Read(idxBits)
			age = r.ReadGamma(spawnAgeOrder)
			if r.Err() != nil {
				return fmt.Errorf("%w: new entity's maker: %w", ErrMalformed, r.Err())
			}
			if int(m) >= len(c.makers) || age > maxSpawnAge {
				return fmt.Errorf("%w: new entity made by %d of %d, %d ticks ago", ErrMalformed, m, len(c.makers), age)
			}
			mk = &c.makers[m]
			guess, codes = c.spawnRow, c.newCodes[1]
		}
		row := out.Row(int(oi))
		// Last field first: the maker's guess of a field may use the
		// fields after it.
		for f := len(row) - 1; f >= 0; f-- {
			if mk != nil {
				c.spawner.Spawn(out.Row(int(mk.now)), base.Row(int(mk.then)), gap, age, row, c.spawnRow)
			}
			var d uint32 // a field a made entity does not write: the guess
			if codes[f] != nil {
				d = uint32(bitpack.Unzigzag(r.ReadLengthCode(codes[f])))
			}
			row[f] = (guess[f] + d) & fmasks[f]
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: new entity: %w", ErrMalformed, r.Err())
		}
	}
	return nil
}
