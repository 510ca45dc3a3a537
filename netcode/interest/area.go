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
	// each a bitmap over slots and the members' generations in slot order:
	// a few hundred bytes that stay in cache, where a table of every
	// slot's generation would not.
	cur, last members
	rows      []uint64 // Query's scratch: a bit per row of the members
}

// members is a set of entities: a bitmap over slots, per word of it the
// number of members in the words before, and the generations in slot order.
type members struct {
	bits  []uint64
	ranks []uint32
	gens  []uint16
}

// gen returns the generation of the member in slot s, if there is one.
func (m *members) gen(s uint16) (uint16, bool) {
	w, bit := m.bits[s>>6], uint64(1)<<(s&63)
	if w&bit == 0 {
		return 0, false
	}
	return m.gens[m.ranks[s>>6]+uint32(bits.OnesCount64(w&(bit-1)))], true
}

// NewArea returns an area over slots 0..slots-1.
func NewArea(radius, margin uint32, slots int) *Area {
	words := (slots + 63) / 64
	a := &Area{Radius: radius, Margin: margin}
	for _, m := range []*members{&a.cur, &a.last} {
		m.bits, m.ranks = make([]uint64, words), make([]uint32, words)
	}
	return a
}

// Reach is the query radius that finds every possible member: Radius+Margin.
func (a *Area) Reach() uint32 { return a.Radius + a.Margin }

// Update recomputes the members around (x, y) and appends their rows to dst,
// in the order of near. near must hold every entity within Reach of (x, y),
// as a grid query gives.
func (a *Area) Update(dst []int32, ents *Entities, near []int32, x, y uint32) []int32 {
	cur, last := a.begin()
	enter := uint64(a.Radius) * uint64(a.Radius)
	first := len(dst)
	for _, e := range near {
		s := ents.Slots[e]
		if dist2(ents.Xs[e], ents.Ys[e], x, y) > enter {
			// Beyond the entry radius: stays only if it was in.
			if g, ok := last.gen(s); !ok || g != ents.Generations[e] {
				continue
			}
		}
		dst = append(dst, e)
		cur.bits[s>>6] |= 1 << (s & 63)
	}
	cur.place(dst[first:], ents)
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
	// Then, over them, the members: a bit for each one's slot and row.
	cur, last := a.begin()
	if words := (len(ents.Slots) + 63) / 64; len(a.rows) < words {
		a.rows = make([]uint64, words)
	}
	rows := a.rows
	enter := uint64(a.Radius) * uint64(a.Radius)
	for _, k := range dst[first:] {
		p, e := g.at[k], g.items[k]
		s := ents.Slots[e]
		if dist2(p.x, p.y, x, y) > enter {
			if gen, ok := last.gen(s); !ok || gen != ents.Generations[e] {
				continue
			}
		}
		cur.bits[s>>6] |= 1 << (s & 63)
		rows[e>>6] |= 1 << (e & 63)
	}
	// Last, the rows in order, with the generations in slot order; the
	// row bits are cleared for the next query.
	cur.rank()
	dst = dst[:first]
	for w, left := range rows {
		for left != 0 {
			e := int32(w*64 + bits.TrailingZeros64(left))
			left &= left - 1
			dst = append(dst, e)
			cur.setGen(ents.Slots[e], ents.Generations[e])
		}
		rows[w] = 0
	}
	return dst
}

// begin starts an update: the newest members become the last ones, and
// the set to fill is emptied.
func (a *Area) begin() (cur, last *members) {
	a.cur, a.last = a.last, a.cur
	clear(a.cur.bits)
	return &a.cur, &a.last
}

// place records the generations of the members, whose rows are rows and
// whose slots are set in m's bitmap, in slot order.
func (m *members) place(rows []int32, ents *Entities) {
	m.rank()
	for _, e := range rows {
		m.setGen(ents.Slots[e], ents.Generations[e])
	}
}

// rank counts the members before each word of the bitmap and makes room
// for their generations.
func (m *members) rank() {
	n := uint32(0)
	for i, w := range m.bits {
		m.ranks[i] = n
		n += uint32(bits.OnesCount64(w))
	}
	if uint32(cap(m.gens)) < n {
		m.gens = make([]uint16, n, 2*n) // room to grow: memberships vary
	}
	m.gens = m.gens[:n]
}

// setGen records the generation of the member in slot s, once rank has
// placed the members.
func (m *members) setGen(s, gen uint16) {
	w := m.bits[s>>6]
	m.gens[m.ranks[s>>6]+uint32(bits.OnesCount64(w&(1<<(s&63)-1)))] = gen
}

// Reset forgets every member (a new connection).
func (a *Area) Reset() {
	clear(a.cur.bits)
	clear(a.last.bits)
}
