package interest

// Entities are the positions and ids of a tick's entities, as parallel
// arrays indexed by row (an entity's index in the tick's snapshot).
type Entities struct {
	Slots, Generations []uint16
	Xs, Ys             []uint32
}

// Area is one client's area of interest with hysteresis: an entity enters
// when it comes within Radius and leaves only when it is further than
// Radius+Margin. It remembers last tick's members by slot and generation, so
// a reused slot holds a new entity that must enter anew.
type Area struct {
	Radius, Margin uint32
	member         []uint32 // per slot: generation+1 of the member, 0 if none
	members        []uint16 // slots set in member, for clearing
}

// NewArea returns an area over slots 0..slots-1.
func NewArea(radius, margin uint32, slots int) *Area {
	return &Area{Radius: radius, Margin: margin, member: make([]uint32, slots), members: make([]uint16, 0, slots)}
}

// Reach is the query radius that finds every possible member: Radius+Margin.
func (a *Area) Reach() uint32 { return a.Radius + a.Margin }

// Update recomputes the members around (x, y) and appends their rows to dst.
// near must hold every entity within Reach of (x, y), as a grid query gives.
func (a *Area) Update(dst []int32, ents *Entities, near []int32, x, y uint32) []int32 {
	enter := uint64(a.Radius) * uint64(a.Radius)
	first := len(dst)
	for _, e := range near {
		s, gen := ents.Slots[e], ents.Generations[e]
		if dist2(ents.Xs[e], ents.Ys[e], x, y) > enter && a.member[s] != uint32(gen)+1 {
			continue // beyond the entry radius and not already in
		}
		dst = append(dst, e)
	}
	for _, s := range a.members {
		a.member[s] = 0
	}
	a.members = a.members[:0]
	for _, e := range dst[first:] {
		s := ents.Slots[e]
		a.member[s] = uint32(ents.Generations[e]) + 1
		a.members = append(a.members, s)
	}
	return dst
}

// Reset forgets every member (a new connection).
func (a *Area) Reset() {
	for _, s := range a.members {
		a.member[s] = 0
	}
	a.members = a.members[:0]
}
