package interest

import (
	"math/bits"
	"slices"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Entities are the positions and ids of a tick's entities, as parallel
// arrays indexed by row (an entity's index in the tick's snapshot).
type Entities struct {
	Slots, Generations []uint16
	Xs, Ys             []uint32
}

// Load makes e the ids and positions of s's entities, the position being
// fields fx and fy of each row. It reuses e's storage.
func (e *Entities) Load(s *snapshot.Snapshot, fx, fy int) {
	e.Slots, e.Generations, e.Xs, e.Ys = e.Slots[:0], e.Generations[:0], e.Xs[:0], e.Ys[:0]
	for i, id := range s.IDs() {
		e.Slots = append(e.Slots, id.Index)
		e.Generations = append(e.Generations, id.Generation)
		e.Xs = append(e.Xs, s.Value(i, fx))
		e.Ys = append(e.Ys, s.Value(i, fy))
	}
}

// Area is one client's area of interest with hysteresis: an entity enters
// when it comes within Radius and leaves only when it is further than
// Radius+Margin. It remembers last tick's members by slot and generation, so
// a reused slot holds a new entity that must enter anew.
type Area struct {
	Radius, Margin uint32
	// The members of the newest update (cur) and of the one before (last),
	// in slot order: a few hundred bytes, where a table of every slot's
	// generation would not stay in the cache.
	cur, last []snapshot.EntityID
	rows      []uint64 // Query's scratch: a bit per row of the members
}

// lastGen returns the generation of the last update's member in slot s, if
// there is one. It halves the members without a branch on their slots:
// which half holds s is as good as random.
func (a *Area) lastGen(s uint16) (uint16, bool) {
	m := a.last
	if len(m) == 0 {
		return 0, false
	}
	lo, n := 0, len(m)
	for n > 1 {
		half := n / 2
		// lo moves up by half when that member's slot is at most s:
		// all ones when s - slot is not negative.
		up := ^((int(s) - int(m[lo+half].Index)) >> 63)
		lo += half & up
		n -= half
	}
	if m[lo].Index != s {
		return 0, false
	}
	return m[lo].Generation, true
}

// was reports whether the entity in slot s of generation gen was a member
// at the last update.
func (a *Area) was(s, gen uint16) bool {
	g, ok := a.lastGen(s)
	return ok && g == gen
}

// NewArea returns an area for entities of slots 0..slots-1. It keeps no
// table of the slots (its members are a list), so slots only documents the
// range.
func NewArea(radius, margin uint32, slots int) *Area {
	return &Area{Radius: radius, Margin: margin}
}

// Reach is the query radius that finds every possible member: Radius+Margin.
func (a *Area) Reach() uint32 { return a.Radius + a.Margin }

// Update recomputes the members around (x, y) and appends their rows to dst,
// in the order of near. near must hold every entity within Reach of (x, y),
// as a grid query gives.
func (a *Area) Update(dst []int32, ents *Entities, near []int32, x, y uint32) []int32 {
	cur := a.begin()
	enter := uint64(a.Radius) * uint64(a.Radius)
	for _, e := range near {
		id := snapshot.EntityID{Index: ents.Slots[e], Generation: ents.Generations[e]}
		if dist2(ents.Xs[e], ents.Ys[e], x, y) > enter && !a.was(id.Index, id.Generation) {
			continue // beyond the entry radius: stays only if it was in
		}
		dst = append(dst, e)
		cur = append(cur, id)
	}
	a.end(cur)
	return dst
}

// Query recomputes the members around (x, y) and appends their rows to
// dst in increasing order: the members Update finds among the entities
// g.Query finds within Reach, from one walk of g's cells. g must be built
// from the positions in ents.
func (a *Area) Query(dst []int32, g *Grid, ents *Entities, x, y uint32) []int32 {
	r := a.Reach()
	reach := uint64(r) * uint64(r)
	first := len(dst)
	// First the places in the grid within Reach, in cell order.
	y0, y1 := g.rows(y, r)
	for cy := y0; cy <= y1; cy++ {
		from, to := g.span(cy, x, y, r)
		n := len(dst)
		dst = slices.Grow(dst, int(to-from))
		out := dst[:n+int(to-from)]
		for k, p := range g.at[from:to] {
			out[n] = from + int32(k)
			if dist2(p.x, p.y, x, y) <= reach {
				n++
			}
		}
		dst = out[:n]
	}
	// Then, over them, the members: a bit for each one's row.
	cur := a.begin()
	if words := (len(ents.Slots) + 63) / 64; len(a.rows) < words {
		a.rows = make([]uint64, words)
	}
	rows := a.rows
	enter := uint64(a.Radius) * uint64(a.Radius)
	for _, k := range dst[first:] {
		p, e := g.at[k], g.items[k]
		if dist2(p.x, p.y, x, y) > enter && !a.was(ents.Slots[e], ents.Generations[e]) {
			continue // beyond the entry radius: stays only if it was in
		}
		rows[e>>6] |= 1 << (e & 63)
	}
	// Last, the rows in order, and the members' ids; the row bits are
	// cleared for the next query. The members are among the places found,
	// so they fit where those were, and their ids in as many.
	found := dst[first:]
	cur = slices.Grow(cur, len(found))[:len(found)]
	n := 0
	for w, left := range rows {
		for left != 0 {
			e := int32(w*64 + bits.TrailingZeros64(left))
			left &= left - 1
			found[n] = e
			cur[n] = snapshot.EntityID{Index: ents.Slots[e], Generation: ents.Generations[e]}
			n++
		}
		rows[w] = 0
	}
	a.end(cur[:n])
	return dst[:first+n]
}

// begin starts an update: the newest members become the last ones, and
// it returns the storage for the new members, emptied.
func (a *Area) begin() []snapshot.EntityID {
	a.cur, a.last = a.last[:0], a.cur
	return a.cur
}

// end records cur as the members, sorting them by slot if they are not:
// rows in increasing order are in slot order when the entities are loaded
// from a snapshot (Entities.Load), so a query's are.
func (a *Area) end(cur []snapshot.EntityID) {
	for k := 1; k < len(cur); k++ {
		if cur[k-1].Index >= cur[k].Index {
			slices.SortFunc(cur, func(x, y snapshot.EntityID) int { return int(x.Index) - int(y.Index) })
			break
		}
	}
	a.cur = cur
}

// Reset forgets every member (a new connection).
func (a *Area) Reset() {
	a.cur, a.last = a.cur[:0], a.last[:0]
}
