package duel

import (
	"math"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// drawn is the strafer as the aimer drew it in its last frame.
type drawn struct {
	ok       bool
	p        point
	v        point   // px per tick, from the last two frames drawn
	rt       float64 // render time, ticks
	alive    bool
	shielded bool
}

// Aimer is the shooter: it draws the strafer interpolated, and aims where
// the strafer will be judged to be when its bolt gets there: with every
// tick it holds (liar.go), or, with Config.DrawnAim, at where the strafer
// it draws will be, leading the drawn motion by the bolt's flight time from
// its own predicted position. Each input states what it drew
// (arena.Input.View), unless it lies (Config.LiarTicks).
type Aimer struct {
	side   *side
	target uint16 // the strafer's slot
	seen   drawn

	lastFire uint32
	hasFired bool

	// Frames drawn (inputs made), those drawn past the newest tick held,
	// and the strafer's jumps between two of them: more than 1.5 times a
	// player's top speed.
	frames, extrapolated, jumps int

	liar    int  // > 0: claims views this many ticks before its newest (liar.go)
	knowing bool // aims with every tick it holds (liar.go)
}

func newAimer(s *side, liar int, knowing bool) *Aimer {
	return &Aimer{side: s, liar: liar, knowing: knowing || liar > 0}
}

// Shots returns the aimer's predicted shots.
func (a *Aimer) Shots() *smooth.Shots { return a.side.shots }

// draw samples the interpolator at now, as a frame does, and keeps what
// it drew of the strafer: its position and the velocity between this frame
// and the last.
func (a *Aimer) draw(nowSample func(fn func(snapshot.EntityID, smooth.Entity))) {
	prev := a.seen
	a.seen.ok = false
	nowSample(func(id snapshot.EntityID, e smooth.Entity) {
		if id.Index != a.target || e.Kind != protocol.KindPlayer {
			return
		}
		a.seen.ok = true
		a.seen.p = point{e.X, e.Y}
		a.seen.alive = e.State&protocol.StateDead == 0
		a.seen.shielded = e.State&protocol.StateShielded != 0
	})
	rt, _ := a.side.interp.RenderTick()
	a.seen.rt = rt
	if a.seen.ok {
		a.frames++
		if a.side.interp.Extrapolated() {
			a.extrapolated++
		}
		if prev.ok && prev.alive && a.seen.alive {
			d, dt := dist(a.seen.p, prev.p), rt-prev.rt
			if d <= 4*arena.DashSpeed*arena.Dt && dt > 0 && d > 1.5*arena.PlayerSpeed*arena.Dt*dt {
				a.jumps++
			}
		}
	}
	a.seen.v = prev.v
	switch dt := rt - prev.rt; {
	case !a.seen.ok || !prev.ok || !a.seen.alive || !prev.alive:
		a.seen.v = point{}
	case dt > 0.25:
		a.seen.v = point{(a.seen.p.x - prev.p.x) / dt, (a.seen.p.y - prev.p.y) / dt}
	}
	if a.seen.ok && prev.ok && dist(a.seen.p, prev.p) > 4*arena.DashSpeed*arena.Dt {
		a.seen.v = point{} // a respawn
	}
}

// inSight reports whether the strafer, as drawn, counts: alive, not
// shielded, at MinRange to MaxRange with a bolt's way clear.
func (a *Aimer) inSight() bool {
	if !a.seen.ok || !a.seen.alive || a.seen.shielded {
		return false
	}
	me := a.side.position()
	d := dist(me, a.seen.p)
	return d >= MinRange && d <= MaxRange && a.side.m.Clear(me.x, me.y, a.seen.p.x, a.seen.p.y, arena.ProjectileRadius)
}

// aim returns the heading from the aimer's predicted position to where the
// drawn strafer will be when a bolt fired now reaches it: the drawn
// position moved on by the drawn velocity for the flight, k ticks with
// |D + V k| = s k (D the drawn offset, V the drawn velocity per tick, s
// the bolt's speed per tick). The world judges the bolt's k-th tick of
// flight against the strafer as drawn k ticks after the frame the input
// states, so on the drawn timeline this is a hit.
func (a *Aimer) aim() float64 {
	me := a.side.position()
	dx, dy := a.seen.p.x-me.x, a.seen.p.y-me.y
	vx, vy := a.seen.v.x, a.seen.v.y
	const s = arena.ProjectileSpeed * arena.Dt
	qa := vx*vx + vy*vy - s*s // < 0: the bolt outruns any player
	qb := 2 * (dx*vx + dy*vy)
	qc := dx*dx + dy*dy
	if disc := qb*qb - 4*qa*qc; qa < 0 && disc >= 0 {
		k := (-qb - math.Sqrt(disc)) / (2 * qa)
		if k > 0 {
			dx, dy = dx+vx*k, dy+vy*k
		}
	}
	return math.Atan2(dy, dx)
}

// gunReady reports whether the next input may fire, by the server's rule.
func (a *Aimer) gunReady() bool {
	next := a.side.cl.InputSeq() + 1
	return !a.hasFired || next-a.lastFire >= arena.FireInterval
}

// hitsDrawn reports whether a circle of radius r at (x, y) touches the
// strafer as drawn at render time at: where a predicted shot stops
// (smooth.Shots.Step); known is false until the ticks around at have come.
func (a *Aimer) hitsDrawn(x, y, r, at float64) (hit, known bool) {
	if !a.side.interp.Holds(at) {
		return false, false
	}
	a.side.interp.SampleAt(at, func(id snapshot.EntityID, e smooth.Entity) {
		if id.Index != a.target || e.Kind != protocol.KindPlayer || e.State&protocol.StateDead != 0 {
			return
		}
		hit = math.Hypot(x-e.X, y-e.Y) < r+arena.PlayerRadius
	})
	return hit, true
}

// fireInput makes the next input: the stick, the aim at the strafer, the
// fire button if fire and the gun is ready, and the View of the last
// frame drawn. It returns the input and whether it fires.
func (a *Aimer) input(mx, my int8, fire bool) (arena.Input, bool) {
	in := arena.Input{MoveX: mx, MoveY: my, View: a.side.interp.View()}
	if a.seen.ok {
		in.Aim = a.aim()
	}
	if a.liar > 0 {
		if v, ok := a.liarView(); ok {
			in.View = v
		}
	}
	if a.knowing && a.seen.ok && in.View.From != 0 {
		if aim, ok := a.liarAim(in.View); ok {
			in.Aim = aim
		}
	}
	fire = fire && a.gunReady()
	if fire {
		in.Buttons |= arena.ButtonFire
	}
	return in, fire
}

// sent does what follows sending in as input seq: the predicted shots
// fly a tick, and the new one, if it fires, is predicted from the
// predicted position after the input. It reports whether a shot was fired.
func (a *Aimer) sent(seq uint32, in arena.Input) bool {
	shots := a.side.shots
	shots.Step(a.hitsDrawn)
	if in.Buttons&arena.ButtonFire == 0 {
		return false
	}
	x, y := a.side.pred.Current()
	a.lastFire, a.hasFired = seq, true
	return shots.Fire(seq, x, y, in.Aim, a.side.weapon(), in.View)
}
