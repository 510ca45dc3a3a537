package brain

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// detourState is the detour of modeDetour: the ticks left of it and the
// stick it walks with.
type detourState struct {
	left int
	x, y int8
}

// startDetour starts a detour of detourTicks from (x, y) in a random
// direction; with a map, one the bot walks freely in (walks), if it finds
// such a way in a few tries. The route is searched again after it, and the
// bot starts watching for being stuck afresh.
func (b *Brain) startDetour(x, y float64) {
	var a float64
	for try := 0; try < 8; try++ {
		a = b.wander.rng.Float64() * 2 * math.Pi
		if b.m == nil || b.walks(x, y, math.Cos(a), math.Sin(a)) {
			break
		}
	}
	b.detour = detourState{left: detourTicks, x: int8(127 * math.Cos(a)), y: int8(127 * math.Sin(a))}
	b.watch.stuck = 0
	b.course.from = -1
}

// detourTick walks the detour's way for a tick; the bot aims and fires at
// its target as it does fighting (aimAt), or with none looks around as it
// does roaming (look).
func (b *Brain) detourTick(p *percept, in *arena.Input) {
	if p.target >= 0 {
		b.aimAt(p, in)
	} else {
		b.look(p, in)
	}
	b.detour.left--
	in.MoveX, in.MoveY = b.detour.x, b.detour.y
}
