package desktop

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/controls"
	"github.com/sightline-game/sightline/game/desktop/killcam"
	"github.com/sightline-game/sightline/game/desktop/text"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// The killcam: when the player dies (or, for a spectator, the player it
// follows), the last seconds before the fatal blow are replayed from the
// killer's side (package killcam decides what; this file draws it), from
// the ticks the game held (a smooth.Reel). Any key, click or tap skips it
// (but F3, Esc and Tab, which it leaves to the overlay, the menu and the
// scores); the respawn ends it. It never holds anything back: the server
// respawns the player on its own schedule.
type killcamState struct {
	reel *smooth.Reel
	cam  *killcam.Cam
	ents []drawnEntity // the frame's entities, reused
	anim entityAnim    // how every replayed entity is animated: standing
	last killcam.Frame // the last frame drawn with the killcam (Phase Off: none yet)
	// verdicts counts the frames that drew the verdict.
	verdicts int
}

func (k *killcamState) init(tickRate float64) {
	k.reel = smooth.NewReel()
	k.cam = killcam.New(tickRate, k.reel)
}

// killcamOverlayShift is how far right of the screen's centre the killcam
// shows the killer while the network overlay is open.
const killcamOverlayShift = 220

// startKillcam starts the killcam for kill k at tick if its victim is the
// player, or the player a spectator follows.
func (g *Game) startKillcam(now time.Time, tick uint32, k protocol.Kill) {
	var slot uint16
	own := false
	if g.spectating() {
		w, ok := g.cl.Watching()
		if !ok || g.watch.free || w.Mode != protocol.WatchFollow || w.Player == 0 || w.Player != k.Victim {
			return
		}
		slot = w.Slot
	} else {
		me, ok := g.cl.Player()
		self, okSlot := g.cl.Self()
		if !ok || !okSlot || uint32(me) != k.Victim {
			return
		}
		slot, own = self, true
	}
	g.kc.cam.Start(now, killcam.Kill{Tick: tick, Body: k, VictimSlot: slot, Own: own,
		KillerName: g.name(k.Killer), VictimName: g.name(k.Victim)})
}

// updateKillcam ends the killcam when the player skips it (killcam.Skips)
// or the victim is alive again.
func (g *Game) updateKillcam(st *controls.State) {
	c := g.kc.cam
	if c.Phase() == killcam.Off {
		return
	}
	if killcam.Skips(st) && !g.typing && !g.pause.open() {
		c.Stop()
		return
	}
	k := c.Kill()
	if newest, s := g.cl.Newest(); s != nil {
		if i, ok := s.Find(k.VictimSlot); ok {
			c.Saw(newest, s.Row(i)[protocol.FieldState]&protocol.StateDead == 0)
		}
	}
}

// drawKillcam draws the killcam's frame, if it shows one, and reports
// whether it did (the world was drawn from the replay).
func (g *Game) drawKillcam(dst *ebiten.Image, now time.Time) bool {
	k := &g.kc
	k.ents = k.ents[:0]
	f := k.cam.Frame(now, func(id snapshot.EntityID, e smooth.Entity) {
		k.ents = append(k.ents, drawnEntity{id: id, Entity: e, anim: &k.anim})
	})
	if f.Phase == killcam.Off || f.Phase == killcam.Waiting {
		return false
	}
	k.last = f
	kill := k.cam.Kill()
	// The camera between the killer and the victim as the killer's screen
	// drew it, both in view; with the network overlay open on the left,
	// right of its panel.
	x, y := f.Judged[0], f.Judged[1]
	switch {
	case f.KillerOK && f.VictimOK:
		x, y = (f.Killer.X+f.Victim.X)/2, (f.Killer.Y+f.Victim.Y)/2
	case f.KillerOK:
		x, y = f.Killer.X, f.Killer.Y
	}
	if g.overlay {
		x -= killcamOverlayShift
	}
	g.cam.Follow(x, y)
	if g.mapDraw != nil {
		g.drawn.MapSeed, g.drawn.MapOrigin = g.cl.MapSeed(), mapOrigin(&g.cam)
		g.drawn.Draws += g.mapDraw.draw(dst, &g.cam)
		g.worldDrawn = true // the server's world, as it was
	}
	drawVoid(dst, &g.cam)
	g.drawPickups(dst, now)
	for i := range k.ents {
		if e := &k.ents[i]; e.Kind == protocol.KindCreature {
			g.drawCreature(dst, e)
		}
	}
	killer := int32(kill.Body.By) - 1
	for i := range k.ents {
		e := &k.ents[i]
		if e.Kind != protocol.KindPlayer {
			continue
		}
		c := playerColor(e.id.Index)
		self := kill.Own && e.id.Index == kill.VictimSlot
		if self {
			c = colSelf
		}
		if int32(e.id.Index) == killer && f.VictimOK {
			// The killer's aim, out to the victim as its screen drew it.
			d := math.Hypot(f.Victim.X-e.X, f.Victim.Y-e.Y)
			x0, y0 := g.cam.ToScreen(e.X, e.Y)
			x1, y1 := x0+math.Cos(e.Heading)*d, y0+math.Sin(e.Heading)*d
			line(dst, x0, y0, x1, y1, 2, fade(colAccent, 0.45))
		}
		g.drawPlayer(dst, e.X, e.Y, e.Heading, e.State, e.Health, c, false, e.anim)
	}
	for i := range k.ents {
		if e := &k.ents[i]; e.Kind == protocol.KindProjectile {
			g.drawShot(dst, e)
		}
	}
	dk := DrawnKillcam{
		Phase: "replay", Killer: kill.Body.Killer, Victim: kill.Body.Victim, Tick: kill.Tick,
		EventX: kill.Body.X, EventY: kill.Body.Y, Behind: kill.Body.Behind, BehindMs: f.BehindMs,
		Title: f.Title, Verdict: f.Verdict, ReplayTick: f.Tick, View: f.View,
	}
	if f.Phase == killcam.Verdict {
		dk.Phase = "verdict"
		k.verdicts++
		g.drawJudged(dst, &f, &kill, killer, &dk)
	}
	dk.Verdicts = k.verdicts
	g.drawn.Killcam = &dk
	g.drawKillcamPanel(dst, &f, &kill, now)
	return true
}

// drawJudged draws the fatal moment: the blow's path from the killer to
// the victim where the server judged it ("on their screen"), and where the
// victim was on its own screen ("on yours"), joined by a line.
func (g *Game) drawJudged(dst *ebiten.Image, f *killcam.Frame, kill *killcam.Kill, killer int32, dk *DrawnKillcam) {
	jx, jy := g.cam.ToScreen(f.Judged[0], f.Judged[1])
	dk.JudgedWorld, dk.JudgedAt = f.Judged, [2]float64{jx, jy}
	if f.KillerOK {
		kx, ky := g.cam.ToScreen(f.Killer.X, f.Killer.Y)
		line(dst, kx, ky, jx, jy, 3, fade(colAccent, 0.9))
		circle(dst, jx, jy, 5, colAccent)
	}
	yours := "on your screen"
	if !kill.Own {
		yours = "on the server"
	}
	theirs := "on their screen"
	if f.OwnOK {
		ox, oy := g.cam.ToScreen(f.Own[0], f.Own[1])
		dk.OwnWorld, dk.OwnAt, dk.OwnShown = f.Own, [2]float64{ox, oy}, true
		ring(dst, ox, oy, markerRadius, 3, colSelf)
		if d := math.Hypot(ox-jx, oy-jy); d < 2*markerRadius {
			theirs += " = " + yours // one label for both
		} else {
			line(dst, jx, jy, ox, oy, 1.5, fade(colText, 0.7))
			// The label on the side away from the other marker.
			g.markerLabel(dst, ox, oy, yours, colSelf, oy < jy)
		}
	}
	ring(dst, jx, jy, markerRadius, 3, colBad)
	g.markerLabel(dst, jx, jy, theirs, colBad, f.OwnOK && dk.OwnAt[1] > jy)
}

// markerRadius is the radius of the killcam's markers' rings.
const markerRadius = arena.PlayerRadius + 6

// markerLabel writes a marker's label on a panel under it, or over it.
func (g *Game) markerLabel(dst *ebiten.Image, x, y float64, s string, c color.RGBA, over bool) {
	f := g.fonts.small
	w := textWidth(s, f)
	y += markerRadius + 8
	if over {
		y -= 2*markerRadius + 8 + 26
	}
	box(dst, x-w/2-6, y-2, w+12, 22, colPanel)
	drawText(dst, s, f, x, y, text.AlignCenter, c)
}

// drawKillcamPanel draws the killcam's frame: a border, its title and the
// verdict at the top, the replay's progress, and how to skip it.
func (g *Game) drawKillcamPanel(dst *ebiten.Image, f *killcam.Frame, kill *killcam.Kill, now time.Time) {
	const edge = 6
	c := fade(colBad, 0.75)
	box(dst, 0, 0, g.sw, edge, c)
	box(dst, 0, g.sh-edge, g.sw, edge, c)
	box(dst, 0, 0, edge, g.sh, c)
	box(dst, g.sw-edge, 0, edge, g.sh, c)

	fo := g.fonts
	w := max(textWidth(f.Title, fo.big), textWidth(f.Verdict, fo.normal)) + 40
	x, y := g.sw/2-w/2, 24.0
	panel(dst, x, y, w, 84)
	drawText(dst, f.Title, fo.big, g.sw/2, y+8, text.AlignCenter, colText)
	drawText(dst, f.Verdict, fo.normal, g.sw/2, y+44, text.AlignCenter, colAccent)
	box(dst, x, y+80, w*f.Progress, 4, colBad)

	hint := "any key or tap: skip"
	if newest, _ := g.cl.Newest(); int32(newest-kill.Tick) >= 0 {
		left := float64(int32(kill.Tick+arena.RespawnTicks-newest)) / g.cfg.TickRate
		if kill.Own && left > 0 {
			hint = fmt.Sprintf("respawn in %.1f s · %s", left, hint)
		}
	}
	hw := textWidth(hint, fo.small)
	box(dst, g.sw/2-hw/2-10, g.sh-46, hw+20, 26, colPanel)
	drawText(dst, hint, fo.small, g.sw/2, g.sh-43, text.AlignCenter, colTextDim)
}

// killcamOverlayLine is the network overlay's line on the killcam shown,
// or "" for none.
func (g *Game) killcamOverlayLine() string {
	f := &g.kc.last
	if f.Phase == killcam.Off || g.kc.cam.Phase() == killcam.Off {
		return ""
	}
	if f.BehindMs == 0 {
		return "killcam: judged in the present (no view claimed)"
	}
	who := "you"
	if k := g.kc.cam.Kill(); !k.Own {
		who = k.VictimName
	}
	return fmt.Sprintf("killcam: their screen drew %s %.0f ms late; judged there", who, f.BehindMs)
}

// KillcamVerdicts returns how many frames have drawn a killcam's verdict
// since the game began (the browser's page reports it).
func (g *Game) KillcamVerdicts() int { return g.kc.verdicts }
