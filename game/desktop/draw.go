package desktop

import (
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/sightline-game/sightline/assets/sheet"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// drawnEntity is one entity as this frame draws it.
type drawnEntity struct {
	id snapshot.EntityID
	smooth.Entity
	anim *entityAnim
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
	g.self = drawnSelf{sx: g.sw / 2, sy: g.sh / 2}
	if g.spectating() {
		g.placeWatchCamera()
		return
	}
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
		g.kc.reel.NoteSelf(g.cl.InputSeq(), g.self.x, g.self.y) // where this screen has its player
	}
	if !g.self.ok {
		return
	}
	if ax, ay := g.touch.out.AimX, g.touch.out.AimY; g.cfg.Autopilot == nil && g.touch.pad.Active && (ax != 0 || ay != 0) {
		g.self.heading = math.Atan2(ay, ax) // the aim the touch controls give now
	} else if g.cfg.Autopilot == nil {
		// Draw the aim the player is giving now, not the one the server echoed.
		mx, my := ebiten.CursorPosition()
		if dx, dy := float64(mx)-g.self.sx, float64(my)-g.self.sy; dx != 0 || dy != 0 {
			g.self.heading = math.Atan2(dy, dx)
		}
	}
	g.cam.Follow(g.self.x, g.self.y)
	g.self.sx, g.self.sy = g.cam.ToScreen(g.self.x, g.self.y)
}

// drawWorld draws the corpses and pickups on the floor, then creatures,
// players, projectiles and the effects playing over them; and notes what
// appeared and vanished since the last frame, for the effects.
func (g *Game) drawWorld(dst *ebiten.Image, now time.Time) {
	g.ents, g.shots = g.ents[:0], g.shots[:0]
	slot, haveSelf := g.cl.Self()
	g.interp.Sample(now, func(id snapshot.EntityID, e smooth.Entity) {
		if haveSelf && id.Index == slot && g.self.ok {
			return // drawn from the prediction
		}
		if e.Kind == protocol.KindProjectile && g.shotHidden(id) {
			return // an own shot's copy: drawn from the prediction, its flash already shown
		}
		d := drawnEntity{id: id, Entity: e, anim: g.anims.see(id, e.Kind, e.X, e.Y, e.Heading, now)}
		if e.Kind == protocol.KindProjectile {
			g.shots = append(g.shots, d)
		} else {
			g.ents = append(g.ents, d)
		}
	})
	if g.spectating() {
		g.noteFollowed()
	}
	if g.self.ok {
		g.anims.self.step(g.self.x, g.self.y, g.anims.frame)
		g.anims.self.heading = g.self.heading
	}
	g.settleAnims(now)

	g.drawEffects(dst, now, true)
	g.drawPickups(dst, now)
	for i := range g.ents {
		if e := &g.ents[i]; e.Kind == protocol.KindCreature {
			g.drawCreature(dst, e)
		}
	}
	for i := range g.ents {
		if e := &g.ents[i]; e.Kind == protocol.KindPlayer {
			g.drawPlayer(dst, e.X, e.Y, e.Heading, e.State, e.Health, playerColor(e.id.Index), false, e.anim)
		}
	}
	if g.self.ok {
		g.drawPlayer(dst, g.self.x, g.self.y, g.self.heading, g.self.state, g.self.health, colSelf, true, &g.anims.self)
	}
	for i := range g.shots {
		g.drawShot(dst, &g.shots[i])
	}
	g.drawOwnShots(dst, now)
	g.drawEffects(dst, now, false)
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

// tintOf returns the colour scale that paints a white sprite in c
// (premultiplied, as color.RGBA is).
func tintOf(c color.RGBA) ebiten.ColorScale {
	var s ebiten.ColorScale
	s.Scale(float32(c.R)/0xff, float32(c.G)/0xff, float32(c.B)/0xff, float32(c.A)/0xff)
	return s
}

// hurtScale is how a hurt player's colour flashes red (its tint times it).
var hurtScale = [3]float32{1.8, 0.55, 0.5}

// drawPlayer draws a player: its shadow, the soldier in its colour turned
// to its aim and striding while it moves, a health bar; the player's own
// one in a white ring. A dead player is a faded soldier under a cross; a
// hurt one flashes red; a just-spawned one stands in a pale bubble that
// pulses while its shield lasts.
func (g *Game) drawPlayer(dst *ebiten.Image, wx, wy, heading float64, state, health uint32, c color.RGBA, self bool, a *entityAnim) {
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
	tint := tintOf(c)
	if state&protocol.StateDead != 0 {
		g.drawSprite(dst, sp.player[sheet.PlayerIdle], spriteDraw{X: x, Y: y, Angle: heading, Alpha: 0.3, Tint: &tint})
		g.drawSprite(dst, sp.marks[sheet.MarkCross], spriteDraw{X: x, Y: y, Scale: 0.8, Alpha: 0.6})
		if self {
			g.drawSprite(dst, sp.marks[sheet.MarkRing], spriteDraw{X: x, Y: y, Alpha: 0.4})
		}
		return
	}
	g.drawSprite(dst, sp.marks[sheet.MarkShadow], spriteDraw{X: x + 3, Y: y + 4})
	if state&protocol.StateShielded != 0 { // under the body, which keeps its colour
		pulse := 0.75 + 0.25*math.Sin(float64(time.Now().UnixMilli())/120)
		shield := tintOf(colShield)
		g.drawSprite(dst, sp.marks[sheet.MarkShield], spriteDraw{X: x, Y: y, Alpha: pulse, Tint: &shield})
	}
	if state&protocol.StateHurt != 0 {
		tint.Scale(hurtScale[0], hurtScale[1], hurtScale[2], 1)
	}
	frame := a.walkFrame(state&protocol.StateWalking != 0, sheet.PlayerStep0, sheet.PlayerWalk, sheet.PlayerStride, sheet.PlayerIdle)
	g.drawSprite(dst, sp.player[frame], spriteDraw{X: x, Y: y, Angle: heading, Tint: &tint})
	if state&protocol.StateHurt != 0 {
		bad := tintOf(colBad)
		g.drawSprite(dst, sp.marks[sheet.MarkRing], spriteDraw{X: x, Y: y, Scale: 0.9, Tint: &bad})
	}
	if self {
		g.drawSprite(dst, sp.marks[sheet.MarkRing], spriteDraw{X: x, Y: y, Scale: 1.05, Alpha: 0.9})
	}
	g.healthBar(dst, x, y-r-12, 34, float64(health)/arena.PlayerHealth)
}

// healthBar draws a bar w px wide, its top centred at (x, y), full to frac.
func (g *Game) healthBar(dst *ebiten.Image, x, y, w, frac float64) {
	box(dst, x-w/2-1, y-1, w+2, 6, colBarBg)
	box(dst, x-w/2, y, w*min(frac, 1), 4, healthColor(frac))
	g.drawn.Draws += 2
}

// drawCreature draws a creature: the beetle facing where it heads, its legs
// stepping as it walks, flashing white-hot when hit.
func (g *Game) drawCreature(dst *ebiten.Image, e *drawnEntity) {
	const r = arena.CreatureRadius
	if !g.cam.Visible(e.X, e.Y, r+8) {
		return
	}
	x, y := g.cam.ToScreen(e.X, e.Y)
	g.drawn.Creatures = append(g.drawn.Creatures, drawnBody(x, y, r, colCreature, e.State))
	frame := sheet.CreatureHurt
	if e.State&protocol.StateHurt == 0 {
		frame = e.anim.walkFrame(e.State&protocol.StateWalking != 0, 0, sheet.CreatureWalk, sheet.CreatureStride, 0)
	}
	g.drawSprite(dst, g.sprites.marks[sheet.MarkShadow], spriteDraw{X: x + 2, Y: y + 3, Scale: 0.85, Alpha: 0.8})
	g.drawSprite(dst, g.sprites.creature[frame], spriteDraw{X: x, Y: y, Angle: e.Heading})
	if e.Health < arena.CreatureHealth && e.Health > 0 {
		g.healthBar(dst, x, y-r-9, 24, float64(e.Health)/arena.CreatureHealth)
	}
}

// drawShot draws a projectile: a glowing bolt with its trail behind, the
// core on the projectile; a spread gun's pellet smaller and orange.
func (g *Game) drawShot(dst *ebiten.Image, e *drawnEntity) {
	if !g.cam.Visible(e.X, e.Y, 40) {
		return
	}
	x, y := g.cam.ToScreen(e.X, e.Y)
	img := g.sprites.bolt[sheet.BoltGun]
	if e.anim.shell {
		img = g.sprites.bolt[sheet.BoltShell]
	}
	g.drawn.markOver(x, y, img)
	g.drawSprite(dst, img, spriteDraw{X: x, Y: y, Angle: e.Heading, Pivot: true, OX: sheet.BoltCoreX, OY: sheet.BoltH / 2})
}

// pickupLook returns the sprite row and halo colour of a pickup by its
// record's kind (the HUD shows the spread gun and the power-up in the same
// colours); an unknown kind looks like a health pack.
func pickupLook(kind uint8) (int, color.RGBA) {
	switch kind {
	case arena.PickupSpread:
		return sheet.PickupSpread, colSpread
	case arena.PickupPower:
		return sheet.PickupPower, colPower
	}
	return sheet.PickupHealth, colPickup
}

// drawPickups draws the pickups the records say lie on the floor: each on
// a halo, bobbing and pulsing, a glint crossing it now and then.
func (g *Game) drawPickups(dst *ebiten.Image, now time.Time) {
	ms := float64(now.UnixMilli())
	for i, p := range g.records.pickups {
		wx, wy := float64(p.X), float64(p.Y)
		if !g.cam.Visible(wx, wy, 24) {
			continue
		}
		x, y := g.cam.ToScreen(wx, wy)
		row, c := pickupLook(p.Kind)
		phase := ms/300 + float64(i)
		halo := tintOf(c)
		g.drawSprite(dst, g.sprites.marks[sheet.MarkHalo], spriteDraw{X: x, Y: y, Scale: 0.9 + 0.12*math.Sin(phase), Alpha: 0.5 + 0.2*math.Sin(phase), Tint: &halo})
		// The glint crosses in the first 400 ms of every 1.6 s.
		f := int((int64(ms)+int64(i)*337)%1600) / 100
		if f >= sheet.PickupFrames {
			f = 0
		}
		g.drawSprite(dst, g.sprites.pickups[row][f], spriteDraw{X: x, Y: y + 2*math.Sin(phase), Scale: 1 + 0.06*math.Sin(phase*2)})
	}
}
