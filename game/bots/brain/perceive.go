package brain

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// percept is what a bot makes of one tick's view, all that decide reads
// and what the modes act on.
type percept struct {
	// located: its own player is in view, at (x, y); dead: and dead (then
	// nothing below is looked at); stuck: it pushed stuckTicks without
	// moving.
	located, dead, stuck bool
	x, y                 float64

	// The entity it goes for (-1: none), at (tx, ty), d px away, and
	// whether it has a clear line of fire to it (visible).
	target    int
	tx, ty, d float64
	visible   bool
	// item: there is a spread gun or power-up it wants to fetch, at
	// (gx, gy).
	item   bool
	gx, gy float64
}

// stuckTicks is how many ticks a bot pushes without moving before it
// takes a detour.
const stuckTicks = 5

// perceive fills p from the view and self, the slot of the bot's entity,
// and updates what the bot remembers: its target (prey) and how long it
// has pushed without moving (watch).
func (b *Brain) perceive(p *percept, self uint16, view *snapshot.Snapshot) {
	p.target = -1
	i := -1
	if view != nil {
		i, p.located = view.Find(self)
	}
	if !p.located || view.Value(i, protocol.FieldKind) != protocol.KindPlayer {
		p.located = false
		return
	}
	if view.Value(i, protocol.FieldState)&protocol.StateDead != 0 {
		p.dead = true
		return
	}
	p.x, p.y = pos(view, i)
	p.stuck = b.watch.see(p.x, p.y) >= stuckTicks
	p.target, p.d, p.visible = b.pick(view, i, p.x, p.y)
	duel := false
	if p.target >= 0 {
		p.tx, p.ty = pos(view, p.target)
		duel = p.visible && view.Value(p.target, protocol.FieldKind) == protocol.KindPlayer
	}
	p.gx, p.gy, p.item = b.itemGoal(p.x, p.y, duel)
}

// stuckWatch tells when a bot pushes without moving.
type stuckWatch struct {
	lastX, lastY float64
	pushed       bool // the last input asked to move
	stuck        int  // ticks it pushed without moving
}

// see takes in that the bot is at (x, y) and returns how many ticks in a
// row it has pushed without moving.
func (w *stuckWatch) see(x, y float64) int {
	if w.pushed && math.Hypot(x-w.lastX, y-w.lastY) < 0.5 {
		w.stuck++
	} else {
		w.stuck = 0
	}
	w.lastX, w.lastY = x, y
	return w.stuck
}

// preyMemory is the target a bot went for last (ok: there is one), and
// the tick until which it chases it out of sight.
type preyMemory struct {
	id    snapshot.EntityID
	ok    bool
	until int
}

// candidate is a target in view, its distance and its rank: the distance,
// or for a player while the bot holds the spread gun huntShare of it.
type candidate struct {
	j       int
	d, rank float64
}

// huntShare is how much nearer than it is a player counts when a bot with
// the spread gun picks its target: a spread gun is for players.
const huntShare = 0.4

// pick returns the entity the bot at (x, y), entity i of view, goes for,
// its distance and whether the bot has a clear line of fire to it: the
// nearest target, or with a map the nearest of the sightChecks nearest it
// sees (the nearest of all, unseen, if it sees none); holding the spread
// gun, players count as nearer (huntShare). -1 if there is none.
func (b *Brain) pick(view *snapshot.Snapshot, i int, x, y float64) (target int, d float64, visible bool) {
	var near [sightChecks]candidate // sorted by rank, the first found first among equals
	n := 0
	hunt := b.spread()
	for j := range view.Len() {
		if j == i || !isTarget(view, j) {
			continue
		}
		tx, ty := pos(view, j)
		d := math.Hypot(tx-x, ty-y)
		r := d // its rank: players count nearer to a bot hunting them
		if hunt && view.Value(j, protocol.FieldKind) == protocol.KindPlayer {
			r *= huntShare
		}
		if !(d < math.Inf(1)) || n == len(near) && r >= near[n-1].rank {
			continue
		}
		k := min(n, len(near)-1)
		n = min(n+1, len(near))
		for ; k > 0 && near[k-1].rank > r; k-- {
			near[k] = near[k-1]
		}
		near[k] = candidate{j, d, r}
	}
	if n == 0 {
		return -1, 0, false
	}
	if b.m == nil {
		return near[0].j, near[0].d, true // without walls every line is clear
	}
	c, vis := near[0], false
	for _, cand := range near[:n] {
		tx, ty := pos(view, cand.j)
		if b.m.Clear(x, y, tx, ty, arena.ProjectileRadius) {
			c, vis = cand, true
			break
		}
	}
	// Hold on to the last target unless another is clearly better: one in
	// sight against one out of it (unless it was in sight within the last
	// chaseTicks), or one switchMargin nearer.
	if k, ok := b.preyIn(view, i); ok && k != c.j {
		px, py := pos(view, k)
		pd := math.Hypot(px-x, py-y)
		notFar := pd <= c.d+switchMargin
		switch seen := b.m.Clear(x, y, px, py, arena.ProjectileRadius); {
		case seen && (notFar || !vis),
			!seen && b.tick < b.prey.until && (!vis || c.d+switchMargin >= pd),
			!seen && !vis && notFar:
			c, vis = candidate{k, pd, pd}, seen
		}
	}
	b.prey.id, b.prey.ok = view.ID(c.j), true
	if vis {
		b.prey.until = b.tick + chaseTicks
	}
	return c.j, c.d, vis
}

// preyIn returns where the target the bot went for last is in view, if it
// is there, the same entity (slot and generation) and still a target.
func (b *Brain) preyIn(view *snapshot.Snapshot, self int) (int, bool) {
	if !b.prey.ok {
		return 0, false
	}
	k, ok := view.Find(b.prey.id.Index)
	if !ok || k == self || view.ID(k) != b.prey.id || !isTarget(view, k) {
		return 0, false
	}
	return k, true
}
