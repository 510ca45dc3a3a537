package brain

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// fightState is what fighting keeps from one tick to the next: which way
// the bot circles its target (strafe: +1 or -1) and until when, and the
// first tick it may dash again. It outlasts the fight.
type fightState struct {
	strafe      float64
	strafeUntil int
	dashAt      int
}

// fightTick fights the target: the bot turns its aim towards it and fires
// when it may (aimAt), and keeps its distance: it closes in (straight if
// it can, else along a route) when far or out of sight, backs off when too
// near, and circles in between, changing the way now and then. It dashes
// at a target far beyond its distance or away from one very near.
func (b *Brain) fightTick(p *percept, in *arena.Input) {
	b.aimAt(p, in)
	x, y, tx, ty := p.x, p.y, p.tx, p.ty
	keep := b.keepDistance()
	var ux, uy float64
	closeIn := !p.visible || p.d > keep+KeepBand
	dash := false
	if !closeIn {
		ux, uy, _ = direction(x, y, tx, ty)
		if p.d < keep-KeepBand {
			ux, uy = b.backOff(x, y, ux, uy, tx, ty)
			dash = p.d < keep*fleeShare
		} else {
			f := &b.fight
			if b.tick >= f.strafeUntil { // change the way it circles now and then
				f.strafe = -f.strafe
				f.strafeUntil = b.tick + 45 + b.wander.rng.IntN(60)
			}
			var ok bool
			ux, uy, ok = b.circle(x, y, ux, uy, tx, ty)
			closeIn = !ok
		}
	}
	if closeIn { // straight if it can, else along a route
		routed := false
		if b.m != nil && (!p.visible || !b.m.Clear(x, y, tx, ty, arena.PlayerRadius)) {
			ux, uy, routed = b.follow(x, y, tx, ty)
		}
		if !routed {
			ux, uy, _ = direction(x, y, tx, ty)
			dash = p.visible && p.d > keep+KeepBand+dashReach
		}
	}
	in.MoveX, in.MoveY = stick(ux, uy)
	if dash && b.tick >= b.fight.dashAt && (in.MoveX != 0 || in.MoveY != 0) {
		in.Buttons |= arena.ButtonDash
		b.fight.dashAt = b.tick + dashEvery
	}
}

// aimAt turns the bot's aim towards its target, by at most MaxTurn, and
// sets it in in, pressing fire when it may (trigger).
func (b *Brain) aimAt(p *percept, in *arena.Input) {
	want := math.Atan2(p.ty-p.y, p.tx-p.x)
	b.aim = turn(b.aim, want, MaxTurn)
	in.Aim = b.aim
	b.trigger(in, p.x, p.y, want, p.d, p.visible)
}

// trigger presses fire in in when the bot at (x, y) aims within
// AimTolerance of want, the direction of its target best px away in its
// line of fire (visible), within its weapon's range and with the line
// along its aim clear.
func (b *Brain) trigger(in *arena.Input, x, y, want, best float64, visible bool) {
	if visible && math.Abs(angleDiff(b.aim, want)) <= AimTolerance && best <= b.fireRange() && b.lineOfFire(x, y, best) {
		in.Buttons |= arena.ButtonFire
	}
}

// lineOfFire reports whether a shot along the bot's aim from (x, y) flies
// d px without meeting a wall (always, without a map).
func (b *Brain) lineOfFire(x, y, d float64) bool {
	if b.m == nil {
		return true
	}
	sin, cos := math.Sincos(b.aim)
	return b.m.Clear(x, y, x+d*cos, y+d*sin, arena.ProjectileRadius)
}

// circle returns the direction in which a bot at (x, y) circles its target
// at (tx, ty), which lies in direction (ux, uy): sideways, the way strafe
// says. With a map, if that way is walled or leads into cover the bot turns
// the other way, and if that one is too it reports false.
func (b *Brain) circle(x, y, ux, uy, tx, ty float64) (float64, float64, bool) {
	f := &b.fight
	cx, cy := -uy*f.strafe, ux*f.strafe
	if b.m == nil || b.walkable(x, y, cx, cy, tx, ty) {
		return cx, cy, true
	}
	if b.walkable(x, y, -cx, -cy, tx, ty) {
		f.strafe = -f.strafe
		return -cx, -cy, true
	}
	return 0, 0, false
}

// backOff returns the direction in which a bot at (x, y) too close to its
// target at (tx, ty), in direction (ux, uy), moves: away from it, or with a
// map, if a wall is behind, sideways (circle), or, walled in, nowhere.
func (b *Brain) backOff(x, y, ux, uy, tx, ty float64) (float64, float64) {
	if b.m == nil || b.walkable(x, y, -ux, -uy, tx, ty) {
		return -ux, -uy
	}
	cx, cy, _ := b.circle(x, y, ux, uy, tx, ty)
	return cx, cy
}

// walkable reports whether a bot at (x, y) walking in direction (ux, uy)
// gets somewhere (walks) and still has a line of fire to (tx, ty) there.
func (b *Brain) walkable(x, y, ux, uy, tx, ty float64) bool {
	lx, ly, ok := b.walk(x, y, ux, uy)
	return ok && b.m.Clear(lx, ly, tx, ty, arena.ProjectileRadius)
}
