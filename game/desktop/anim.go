package desktop

import (
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/assets/sheet"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// The effects' timing: how long each frame of an effect shows.
const (
	flashFrame  = 35 * time.Millisecond
	sparksFrame = 55 * time.Millisecond
	burstFrame  = 80 * time.Millisecond
	corpseFrame = 90 * time.Millisecond
	corpseHold  = 700 * time.Millisecond // the last death frame, fading
	maxEffects  = 256
)

// projectileLife is how long a projectile flies unless it hits something.
const projectileLife = time.Duration(arena.ProjectileTicks) * time.Second / arena.TickRate

// entityAnim is what the client remembers of an entity between frames to
// animate it: where it was, how far it has walked, when it appeared.
type entityAnim struct {
	kind         uint32
	x, y         float64 // world px, last frame
	heading      float64
	walked       float64 // world px walked since it appeared
	born         time.Time
	seen         uint64 // the frame that last saw it
	shell        bool   // a projectile born beside others: a spread pellet
	hurt, moving bool
}

// step records where the entity is this frame, adding the distance moved
// to what it has walked (a jump of more than a tile is a respawn, not a
// step).
func (a *entityAnim) step(x, y float64, frame uint64) {
	if d := math.Hypot(x-a.x, y-a.y); d < arena.Tile {
		a.walked += d
	}
	a.x, a.y, a.seen = x, y, frame
}

// walkFrame returns the frame of a walk cycle of n frames starting at
// first, cycling every stride world px walked; idle while not walking.
func (a *entityAnim) walkFrame(walking bool, first, n int, stride float64, idle int) int {
	if !walking {
		return idle
	}
	k := int(a.walked/stride*float64(n)) % n
	return first + k
}

// effectKind is one kind of short-lived effect.
type effectKind uint8

const (
	effectFlash  effectKind = iota // a muzzle flash
	effectSparks                   // a projectile's impact
	effectBurst                    // drops from a creature's death
	effectCorpse                   // a creature collapsing
)

// effect is one short-lived effect at a world position.
type effect struct {
	kind        effectKind
	x, y, angle float64
	start       time.Time
}

// animState is the client's memory for animation: every entity it draws
// and the effects playing.
type animState struct {
	frame   uint64
	ents    map[snapshot.EntityID]*entityAnim
	self    entityAnim
	effects []effect
	births  []*entityAnim // projectiles first seen this frame
}

func (s *animState) init() { s.ents = map[snapshot.EntityID]*entityAnim{} }

// see returns the animation state of entity id drawn at (x, y) this frame,
// making it when the entity is new.
func (s *animState) see(id snapshot.EntityID, kind uint32, x, y, heading float64, now time.Time) *entityAnim {
	a, ok := s.ents[id]
	if !ok || a.kind != kind {
		a = &entityAnim{kind: kind, x: x, y: y, born: now}
		s.ents[id] = a
		if kind == protocol.KindProjectile {
			s.births = append(s.births, a)
		}
	}
	a.step(x, y, s.frame)
	a.heading = heading
	return a
}

// add starts an effect, dropping it when too many are playing.
func (s *animState) add(e effect) {
	if len(s.effects) < maxEffects {
		s.effects = append(s.effects, e)
	}
}

// settle runs after a frame's entities were seen: it starts a muzzle flash
// for each new projectile beside a player, impact sparks for each
// projectile gone before its time against a wall or a body, and a death
// for each creature gone in the middle of the view; and forgets what is
// gone.
func (g *Game) settleAnims(now time.Time) {
	s := &g.anims
	// New projectiles: flash at the muzzle of the player that fired. Two or
	// more fired at once by one player are the spread gun's pellets.
	for _, p := range s.births {
		shooter := g.shooter(p.x, p.y)
		if shooter == nil {
			continue
		}
		n := 0
		for _, q := range s.births {
			if q != p && math.Hypot(q.x-p.x, q.y-p.y) < 3*arena.PlayerRadius {
				n++
			}
		}
		p.shell = n > 0
		h := shooter.heading
		mx := shooter.x + math.Cos(h)*gunReach - math.Sin(h)*gunSide
		my := shooter.y + math.Sin(h)*gunReach + math.Cos(h)*gunSide
		s.add(effect{kind: effectFlash, x: mx, y: my, angle: h, start: now})
	}
	s.births = s.births[:0]
	for id, a := range s.ents {
		if a.seen == s.frame {
			continue
		}
		delete(s.ents, id)
		if !g.self.ok || math.Hypot(a.x-g.self.x, a.y-g.self.y) > protocol.ViewRadius-80 {
			continue // left the view, most likely
		}
		switch a.kind {
		case protocol.KindCreature:
			s.add(effect{kind: effectCorpse, x: a.x, y: a.y, angle: a.heading, start: now})
			s.add(effect{kind: effectBurst, x: a.x, y: a.y, angle: a.heading, start: now})
		case protocol.KindProjectile:
			if now.Sub(a.born) < projectileLife-100*time.Millisecond && g.struck(a) {
				s.add(effect{kind: effectSparks, x: a.x + math.Cos(a.heading)*6, y: a.y + math.Sin(a.heading)*6, start: now})
			}
		}
	}
	// Drop the effects that are over.
	keep := s.effects[:0]
	for _, e := range s.effects {
		if now.Sub(e.start) < e.kind.life() {
			keep = append(keep, e)
		}
	}
	s.effects = keep
	s.frame++
}

// Where the gun's muzzle is on the player sprite, from its centre facing
// +x (assets/gen's soldier).
const (
	gunReach = 22.0
	gunSide  = 3.0
)

// shooter returns the live player nearest (x, y), if one is close enough
// to have just fired from there.
func (g *Game) shooter(x, y float64) *entityAnim {
	const reach = arena.PlayerRadius + 70
	var best *entityAnim
	bd := float64(reach)
	if g.self.ok && g.self.state&protocol.StateDead == 0 {
		if d := math.Hypot(x-g.self.x, y-g.self.y); d < bd {
			best, bd = &g.anims.self, d
		}
	}
	for i := range g.ents {
		e := &g.ents[i]
		if e.Kind != protocol.KindPlayer || e.State&protocol.StateDead != 0 {
			continue
		}
		if d := math.Hypot(x-e.X, y-e.Y); d < bd {
			if a := g.anims.ents[e.id]; a != nil {
				best, bd = a, d
			}
		}
	}
	return best
}

// struck reports whether a projectile last seen as a was about to meet a
// wall or a body: what ends a projectile early.
func (g *Game) struck(a *entityAnim) bool {
	ax, ay := a.x+math.Cos(a.heading)*16, a.y+math.Sin(a.heading)*16
	if g.m != nil && g.m.Blocked(ax, ay, arena.ProjectileRadius) {
		return true
	}
	near := func(x, y, r float64) bool { return math.Hypot(ax-x, ay-y) < r+arena.ProjectileRadius+12 }
	if g.self.ok && near(g.self.x, g.self.y, arena.PlayerRadius) {
		return true
	}
	for i := range g.ents {
		e := &g.ents[i]
		r := float64(arena.PlayerRadius)
		if e.Kind == protocol.KindCreature {
			r = arena.CreatureRadius
		}
		if near(e.X, e.Y, r) {
			return true
		}
	}
	return false
}

// life is how long an effect of kind k plays.
func (k effectKind) life() time.Duration {
	switch k {
	case effectFlash:
		return sheet.FlashFrames * flashFrame
	case effectSparks:
		return sheet.SparksFrames * sparksFrame
	case effectBurst:
		return sheet.BurstFrames * burstFrame
	}
	return sheet.CreatureDeath*corpseFrame + corpseHold
}

// drawEffects draws the effects playing: corpses under everything else.
func (g *Game) drawEffects(dst *ebiten.Image, now time.Time, corpses bool) {
	sp := g.sprites
	for _, e := range g.anims.effects {
		if (e.kind == effectCorpse) != corpses || !g.cam.Visible(e.x, e.y, 40) {
			continue
		}
		x, y := g.cam.ToScreen(e.x, e.y)
		age := now.Sub(e.start)
		switch e.kind {
		case effectFlash:
			f := min(int(age/flashFrame), sheet.FlashFrames-1)
			g.drawn.markOver(x, y, sp.flash[f])
			g.drawSprite(dst, sp.flash[f], spriteDraw{X: x, Y: y, Angle: e.angle, Pivot: true, OX: sheet.FlashOriginX, OY: sheet.FlashCell / 2})
		case effectSparks:
			f := min(int(age/sparksFrame), sheet.SparksFrames-1)
			g.drawn.markOver(x, y, sp.sparks[f])
			g.drawSprite(dst, sp.sparks[f], spriteDraw{X: x, Y: y})
		case effectBurst:
			f := min(int(age/burstFrame), sheet.BurstFrames-1)
			g.drawn.markOver(x, y, sp.burst[f])
			g.drawSprite(dst, sp.burst[f], spriteDraw{X: x, Y: y, Angle: e.angle})
		case effectCorpse:
			f := min(int(age/corpseFrame), sheet.CreatureDeath-1)
			alpha := 1.0
			if hold := age - sheet.CreatureDeath*corpseFrame; hold > 0 {
				alpha = 1 - float64(hold)/float64(corpseHold)
			}
			g.drawSprite(dst, sp.creature[sheet.CreatureDie0+f], spriteDraw{X: x, Y: y, Angle: e.angle, Alpha: max(alpha, 0.01)})
		}
	}
}
