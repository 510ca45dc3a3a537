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
	// member holds per slot the update that last found the slot's entity
	// in the area, and that entity's generation: epoch<<16 | generation.
	// The members are the slots marked with the newest epoch, so an update
	// never has to clear the last one's marks.
	member []uint32
	epoch  uint32 // the newest update's epoch, 1 to maxEpoch
}

// maxEpoch is the last epoch before the marks are renumbered.
const maxEpoch = 1<<16 - 1

// NewArea returns an area over slots 0..slots-1.
func NewArea(radius, margin uint32, slots int) *Area {
	return &Area{Radius: radius, Margin: margin, member: make([]uint32, slots), epoch: 1}
}

// Reach is the query radius that finds every possible member: Radius+Margin.
func (a *Area) Reach() uint32 { return a.Radius + a.Margin }

// Update recomputes the members around (x, y) and appends their rows to dst,
// in the order of near. near must hold every entity within Reach of (x, y),
// as a grid query gives.
func (a *Area) Update(dst []int32, ents *Entities, near []int32, x, y uint32) []int32 {
	if a.epoch == maxEpoch {
		a.renumber()
	}
	last := a.epoch << 16
	a.epoch++
	now := a.epoch << 16
	enter := uint64(a.Radius) * uint64(a.Radius)
	member := a.member
	for _, e := range near {
		s, gen := ents.Slots[e], uint32(ents.Generations[e])
		if dist2(ents.Xs[e], ents.Ys[e], x, y) > enter && member[s] != last|gen {
			continue // beyond the entry radius and not already in
		}
		dst = append(dst, e)
		member[s] = now | gen
	}
	return dst
}

// renumber marks the members of the newest update with epoch 1 and clears
// every older mark, so that epochs can count up again.
func (a *Area) renumber() {
	last := a.epoch << 16
	for s, m := range a.member {
		if m&^0xffff == last {
			a.member[s] = 1<<16 | m&0xffff
		} else {
			a.member[s] = 0
		}
	}
	a.epoch = 1
}

// Reset forgets every member (a new connection).
func (a *Area) Reset() {
	clear(a.member)
	a.epoch = 1
}
