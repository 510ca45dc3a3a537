package brain

import "github.com/sightline-game/sightline/game/arena"

// roamState is what roaming keeps: the open tile the bot walks to (-1:
// none yet) and the tick it gives up on it. The goal outlasts a fight: a
// bot that roams again walks on to it.
type roamState struct {
	goal, until int
}

// roamTick roams: the bot looks around without firing (look) and, knowing
// where it is on a map, walks the route to a random open tile, then to
// another; else it walks as the Wanderer does.
func (b *Brain) roamTick(p *percept, in *arena.Input) {
	b.look(p, in)
	if !p.located || b.m == nil {
		return // the Wanderer's walk
	}
	gx, gy := tileCentre(b.roam.goal)
	ux, uy, ok := b.follow(p.x, p.y, gx, gy)
	if !ok {
		b.roam.goal = -1 // try another next tick
	}
	in.MoveX, in.MoveY = stick(ux, uy)
}

// look sets in to the Wanderer's next input without fire, aiming the bot
// where the Wanderer looks; knowing where the bot is on a map, it takes a
// new goal to roam to when the bot reached its goal, has none or gave up
// on it (it does so detouring too, so that the goal stays fresh).
func (b *Brain) look(p *percept, in *arena.Input) {
	*in = b.wander.Next()
	in.Buttons = 0
	if p.located && b.m != nil {
		if r := &b.roam; r.goal < 0 || tileOf(p.x, p.y) == r.goal || b.tick >= r.until {
			r.goal, r.until = b.openTile(), b.tick+wanderTicks
		}
	}
	b.aim = in.Aim
}

// openTile returns a random open tile of the map (after a few tries, the
// middle's, which is always open).
func (b *Brain) openTile() int {
	for range 32 {
		tx, ty := b.wander.rng.IntN(arena.Tiles), b.wander.rng.IntN(arena.Tiles)
		if !b.m.Wall(tx, ty) {
			return ty*arena.Tiles + tx
		}
	}
	return tiles/2 + arena.Tiles/2
}
