package desktop

import (
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// drawnEntity is one entity as this frame draws it.
type drawnEntity struct {
	id snapshot.EntityID
	smooth.Entity
}

// drawnSelf is the player's own entity this frame.
type drawnSelf struct {
	ok        bool
	predicted bool    // drawn where the predictor says (alive and anchored)
	x, y      float64 // world px
	sx, sy    float64 // screen px
	heading   float64
	state     uint32
	health    uint32
}

// placeSelf finds where to draw the player's own entity this frame: at the
// predicted position while alive, else where the newest snapshot has it;
// and points the camera at it.
func (g *Game) placeSelf(now time.Time) {
	g.self = drawnSelf{sx: ScreenWidth / 2, sy: ScreenHeight / 2}
	slot, ok := g.cl.Self()
	if !ok {
		return
	}
	if _, s := g.cl.Newest(); s != nil {
		if i, ok := s.Find(slot); ok {
			row := s.Row(i)
			g.self.ok = true
			g.self.x, g.self.y = protocol.PosQuant.Dequantize(row[protocol.FieldX]), protocol.PosQuant.Dequantize(row[protocol.FieldY])
			g.self.heading = protocol.HeadingQuant.Dequantize(row[protocol.FieldHeading])
			g.self.state, g.self.health = row[protocol.FieldState], row[protocol.FieldHealth]
		}
	}
	if g.pred != nil && g.pred.Ready() {
		g.self.ok, g.self.predicted = true, true
		g.self.x, g.self.y = g.pred.Position(g.net.alpha(now))
	}
	if !g.self.ok {
		return
	}
	if g.cfg.Autopilot == nil {
		// Draw the aim the player is giving now, not the one the server echoed.
		mx, my := ebiten.CursorPosition()
		if dx, dy := float64(mx)-g.self.sx, float64(my)-g.self.sy; dx != 0 || dy != 0 {
			g.self.heading = math.Atan2(dy, dx)
		}
	}
	g.cam.Follow(g.self.x, g.self.y)
	g.self.sx, g.self.sy = g.cam.ToScreen(g.self.x, g.self.y)
}

// drawWorld draws pickups, creatures, players and projectiles, in that order.
func (g *Game) drawWorld(dst *ebiten.Image, now time.Time) {
	g.drawPickups(dst, now)
	g.ents, g.shots = g.ents[:0], g.shots[:0]
	g.drawn.reset()
	slot, haveSelf := g.cl.Self()
	g.interp.Sample(now, func(id snapshot.EntityID, e smooth.Entity) {
		if haveSelf && id.Index == slot && g.self.ok {
			return // drawn from the prediction
		}
		if e.Kind == protocol.KindProjectile {
			g.shots = append(g.shots, drawnEntity{id, e})
		} else {
			g.ents = append(g.ents, drawnEntity{id, e})
		}
	})
	for i := range g.ents {
		if e := &g.ents[i]; e.Kind == protocol.KindCreature {
			g.drawCreature(dst, e, now)
		}
	}
	for i := range g.ents {
		if e := &g.ents[i]; e.Kind == protocol.KindPlayer {
			g.drawPlayer(dst, e.X, e.Y, e.Heading, e.State, e.Health, playerColor(e.id.Index), false)
		}
	}
	if g.self.ok {
		g.drawPlayer(dst, g.self.x, g.self.y, g.self.heading, g.self.state, g.self.health, colSelf, true)
	}
	for i := range g.shots {
		g.drawShot(dst, &g.shots[i])
	}
}

func circle(dst *ebiten.Image, x, y, r float64, c color.Color) {
	vector.DrawFilledCircle(dst, float32(x), float32(y), float32(r), c, false)
}

func ring(dst *ebiten.Image, x, y, r, w float64, c color.Color) {
	vector.StrokeCircle(dst, float32(x), float32(y), float32(r), float32(w), c, false)
}

func line(dst *ebiten.Image, x0, y0, x1, y1, w float64, c color.Color) {
	vector.StrokeLine(dst, float32(x0), float32(y0), float32(x1), float32(y1), float32(w), c, false)
}

func box(dst *ebiten.Image, x, y, w, h float64, c color.Color) {
	vector.DrawFilledRect(dst, float32(x), float32(y), float32(w), float32(h), c, false)
}

// hurtTint flashes a hurt entity red.
var hurtTint = func() *ebiten.ColorScale {
	var c ebiten.ColorScale
	c.Scale(1.8, 0.55, 0.5, 1)
	return &c
}()

// drawPlayer draws a player: a shadow, a round body with a gun pointing
// where it aims, a health bar; the player's own one with a white ring. A
// dead player is a faded cross; a hurt one flashes; a just-spawned one sits
// in a pale bubble that pulses while its shield lasts.
func (g *Game) drawPlayer(dst *ebiten.Image, wx, wy, heading float64, state, health uint32, c color.RGBA, self bool) {
	const r = arena.PlayerRadius
	if !g.cam.Visible(wx, wy, r+40) {
		return
	}
	x, y := g.cam.ToScreen(wx, wy)
	if b := drawnBody(x, y, r, c, state); self {
		g.drawn.Self, g.drawn.SelfShown = b, true
	} else {
		g.drawn.Players = append(g.drawn.Players, b)
	}
	sp := g.sprites
	if state&protocol.StateDead != 0 {
		drawSprite(dst, sp.body(c), x, y, 0, 0.3, nil)
		line(dst, x-7, y-7, x+7, y+7, 3, fade(colText, 0.5))
		line(dst, x-7, y+7, x+7, y-7, 3, fade(colText, 0.5))
		if self {
			drawSprite(dst, sp.selfRing, x, y, 0, 0.4, nil)
		}
		return
	}
	drawSprite(dst, sp.shadow, x+3, y+4, 0, 1, nil)
	if state&protocol.StateShielded != 0 { // under the body, which keeps its colour
		pulse := 0.75 + 0.25*math.Sin(float64(time.Now().UnixMilli())/120)
		drawSprite(dst, sp.shield, x, y, 0, pulse, nil)
	}
	var tint *ebiten.ColorScale
	if state&protocol.StateHurt != 0 {
		tint = hurtTint
	}
	drawSprite(dst, sp.gun(c), x, y, heading, 1, tint)
	drawSprite(dst, sp.body(c), x, y, 0, 1, tint)
	if state&protocol.StateHurt != 0 {
		drawSprite(dst, sp.hurtRing, x, y, 0, 1, nil)
	}
	if self {
		drawSprite(dst, sp.selfRing, x, y, 0, 1, nil)
	}
	// Health bar above.
	frac := float64(health) / arena.PlayerHealth
	bw, bx, by := 34.0, x-17, y-r-12
	box(dst, bx-1, by-1, bw+2, 6, colBarBg)
	box(dst, bx, by, bw*min(frac, 1), 4, healthColor(frac))
}

// drawCreature draws a creature: a green beetle facing where it heads, its
// legs moving while it walks; it flashes red when hurt.
func (g *Game) drawCreature(dst *ebiten.Image, e *drawnEntity, now time.Time) {
	const r = arena.CreatureRadius
	if !g.cam.Visible(e.X, e.Y, r+8) {
		return
	}
	x, y := g.cam.ToScreen(e.X, e.Y)
	g.drawn.Creatures = append(g.drawn.Creatures, drawnBody(x, y, r, colCreature, e.State))
	pose := 0
	if e.State&protocol.StateWalking != 0 && (now.UnixMilli()/120+int64(e.id.Index))%2 == 1 {
		pose = 1
	}
	var tint *ebiten.ColorScale
	if e.State&protocol.StateHurt != 0 {
		tint = hurtTint
	}
	drawSprite(dst, g.sprites.shadow, x+2, y+3, 0, 0.8, nil)
	drawSprite(dst, g.sprites.creature[pose], x, y, e.Heading, 1, tint)
	if e.Health < arena.CreatureHealth && e.Health > 0 {
		frac := float64(e.Health) / arena.CreatureHealth
		box(dst, x-12, y-r-9, 24, 4, colBarBg)
		box(dst, x-12, y-r-9, 24*frac, 3, healthColor(frac))
	}
}

// drawShot draws a projectile: a bright dot with a glow and a short trail.
func (g *Game) drawShot(dst *ebiten.Image, e *drawnEntity) {
	if !g.cam.Visible(e.X, e.Y, 30) {
		return
	}
	x, y := g.cam.ToScreen(e.X, e.Y)
	// The sprite's core sits 10 px before its right end: shift the centre
	// back along the heading so the core lands on the projectile.
	off := float64(shotSpriteW/2 - 10)
	drawSprite(dst, g.sprites.shot, x-math.Cos(e.Heading)*off, y-math.Sin(e.Heading)*off, e.Heading, 1, nil)
}

// drawPickups draws the pickups the records say lie on the floor, bobbing
// a little (drawPickup draws each).
func (g *Game) drawPickups(dst *ebiten.Image, now time.Time) {
	bob := math.Sin(float64(now.UnixMilli())/300) * 2
	for _, p := range g.records.pickups {
		wx, wy := float64(p.X), float64(p.Y)
		if !g.cam.Visible(wx, wy, 20) {
			continue
		}
		x, y := g.cam.ToScreen(wx, wy)
		g.drawPickup(dst, p, x, y+bob, now)
	}
}
