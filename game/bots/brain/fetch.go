package brain

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// fetchTick walks the bot to the item it fetches, straight if it can, else
// along a route; it aims at its target on the way and shoots it when it
// may, or, with none in sight, looks where it goes. (Which item, and when,
// is the percept's: itemGoal.)
func (b *Brain) fetchTick(p *percept, in *arena.Input) {
	x, y, gx, gy := p.x, p.y, p.gx, p.gy
	want := math.Atan2(gy-y, gx-x)
	if p.target >= 0 && p.visible {
		want = math.Atan2(p.ty-y, p.tx-x)
	}
	b.aim = turn(b.aim, want, MaxTurn)
	in.Aim = b.aim
	if p.target >= 0 {
		b.trigger(in, x, y, want, p.d, p.visible)
	}
	routed := false
	var ux, uy float64
	if b.m != nil && !b.m.Clear(x, y, gx, gy, arena.PlayerRadius) {
		ux, uy, routed = b.follow(x, y, gx, gy)
	}
	if !routed {
		ux, uy, _ = direction(x, y, gx, gy)
	}
	in.MoveX, in.MoveY = stick(ux, uy)
}
