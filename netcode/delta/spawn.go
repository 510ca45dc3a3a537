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
func (t *Tables) newRowLen(row, guess []uint32, made int) int {
	n := 0
	enc := &t.newFlat[made]
	fbits, fmasks := t.bits[:len(row)], t.fmasks[:len(row)]
	guess = guess[:len(row)]
	exact := t.exact
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
func (t *Tables) before(s *snapshot.Snapshot, i int) []uint32 {
	if i == 0 {
		return t.zeroRow
	}
	return s.Row(i - 1)
}

// chooseNew picks the cheapest guess for the new entity at index j of cur,
// leaving the guessed row in e.spawnRow when it names a maker.
func (e *Encoder) chooseNew(base, cur *snapshot.Snapshot, gap uint32, j int) (newGuess, int) {
	row := cur.Row(j)
	best := newGuess{maker: -1}
	cost := e.t.newRowLen(row, e.t.before(cur, j), 0)
	if len(e.makers) == 0 {
		return best, cost
	}
	cost++ // the bit that says which guess
	idxBits := bits.Len(uint(len(e.makers) - 1))
	for m, mk := range e.makers {
		now := cur.Row(int(mk.now))
		est, ok := e.t.spawner.Age(now, row)
		if !ok {
			continue
		}
		then := base.Row(int(mk.then))
		// The cost is about unimodal in the age: from the estimate, climb
		// down the side that is cheaper.
		est = min(est, maxSpawnAge)
		at := e.spawnCost(now, then, row, gap, est, idxBits)
		best, cost = e.keepCheaper(best, cost, m, est, at)
		for _, dir := range [2]int{1, -1} {
			a, prev := int(est)+dir, at
			for ; a >= 0 && a <= maxSpawnAge; a += dir {
				n := e.spawnCost(now, then, row, gap, uint32(a), idxBits)
				if n < 0 || (prev >= 0 && n >= prev) {
					break
				}
				best, cost = e.keepCheaper(best, cost, m, uint32(a), n)
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
// in e.spawnTry.
func (e *Encoder) spawnCost(now, then, row []uint32, gap, age uint32, idxBits int) int {
	e.t.spawner.Spawn(now, then, gap, age, row, e.spawnTry)
	n := e.t.newRowLen(row, e.spawnTry, 1)
	if n < 0 {
		return -1
	}
	return n + 1 + idxBits + bitpack.GammaLen(age, spawnAgeOrder)
}

// keepCheaper returns maker m at age with n bits if n is below cost (and
// not -1), keeping its guess in e.spawnRow; else best and cost.
func (e *Encoder) keepCheaper(best newGuess, cost, m int, age uint32, n int) (newGuess, int) {
	if n < 0 || n >= cost {
		return best, cost
	}
	copy(e.spawnRow, e.spawnTry)
	return newGuess{maker: int32(m), age: age}, n
}

// spawns reports whether a surviving entity whose row is row can make
// others, so that it is one of a packet's makers.
func (t *Tables) spawns(row []uint32) bool {
	return t.spawner != nil && t.spawner.Spawns(row)
}

// writeNewRows writes the rows of the delta's new entities, each against
// its cheapest guess.
func (e *Encoder) writeNewRows(w *bitpack.Writer, base, cur *snapshot.Snapshot, gap uint32) {
	idxBits := uint(0)
	if len(e.makers) > 0 {
		idxBits = uint(bits.Len(uint(len(e.makers) - 1)))
	}
	z := &e.sections
	for _, j := range e.newIdx {
		start := w.BitLen()
		g, _ := e.chooseNew(base, cur, gap, int(j))
		guess, codes := e.t.before(cur, int(j)), e.t.newCodes[0]
		if len(e.makers) > 0 {
			w.WriteBool(g.maker >= 0)
			if g.maker >= 0 {
				w.Write(uint32(g.maker), idxBits)
				w.WriteGamma(g.age, spawnAgeOrder)
				guess, codes = e.spawnRow, e.t.newCodes[1]
			}
		}
		row := cur.Row(int(j))
		for f := len(row) - 1; f >= 0; f-- {
			if codes[f] == nil {
				continue // exactly the guess
			}
			sh := 32 - e.t.bits[f]
			w.WriteLengthCode(codes[f], bitpack.Zigzag(int32((row[f]-guess[f])<<sh)>>sh))
		}
		if g.maker >= 0 {
			z.made++
			z.madeBits += w.BitLen() - start
		}
	}
}

// readNewRows reads the rows of the new entities into out, where merge
// placed them (d.newOut), once the survivors hold their current rows.
func (d *Decoder) readNewRows(r *bitpack.Reader, base, out *snapshot.Snapshot, gap uint32, nsurv int) error {
	d.makers = d.makers[:0]
	if d.t.spawner != nil {
		for s := range nsurv {
			if d.t.spawns(out.Row(int(d.sout[s]))) {
				d.makers = append(d.makers, maker{now: d.sout[s], then: d.sbase[s]})
			}
		}
	}
	idxBits := uint(0)
	if len(d.makers) > 0 {
		idxBits = uint(bits.Len(uint(len(d.makers) - 1)))
	}
	fmasks := d.t.fmasks
	for _, oi := range d.newOut {
		guess := d.t.before(out, int(oi))
		var mk *maker
		var age uint32
		codes := d.t.newCodes[0]
		if len(d.makers) > 0 && r.ReadBool() {
			m := r.Read(idxBits)
			age = r.ReadGamma(spawnAgeOrder)
			if r.Err() != nil {
				return fmt.Errorf("%w: new entity's maker: %w", ErrMalformed, r.Err())
			}
			if int(m) >= len(d.makers) || age > maxSpawnAge {
				return fmt.Errorf("%w: new entity made by %d of %d, %d ticks ago", ErrMalformed, m, len(d.makers), age)
			}
			mk = &d.makers[m]
			guess, codes = d.spawnRow, d.t.newCodes[1]
		}
		row := out.Row(int(oi))
		// Last field first: the maker's guess of a field may use the
		// fields after it.
		for f := len(row) - 1; f >= 0; f-- {
			if mk != nil {
				d.t.spawner.Spawn(out.Row(int(mk.now)), base.Row(int(mk.then)), gap, age, row, d.spawnRow)
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
