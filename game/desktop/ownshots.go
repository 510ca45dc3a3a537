package desktop

import (
	"math"
	"slices"
	"time"

	"github.com/sightline-game/sightline/assets/sheet"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/smooth"
	"github.com/sightline-game/sightline/netcode/snapshot"

	"github.com/hajimehoshi/ebiten/v2"
)

// The own shots' feedback.
const (
	// rejectNoticeGap is the least time between two notices of shots the
	// server did not make.
	rejectNoticeGap = time.Second
	// maxPresses is how many of the latest presses the Drawn record keeps.
	maxPresses = 16
)

// ownShots is the game's side of the player's own predicted shots
// (smooth.Shots): the presses that fired them, for the Drawn record, and
// when the last notice of a rejected shot went up.
type ownShots struct {
	frames     uint64 // frames drawn so far
	presses    []press
	rejectedAt time.Time
	// The bolts drawn last frame and this one: one gone before its time
	// met a wall or a body, where sparks fly.
	last, cur []ownBolt
}

// ownBolt is a predicted shot as a frame drew it.
type ownBolt struct {
	seq           uint32
	pellet        int
	x, y, heading float64 // world px, radians
	early         bool    // not yet near the end of its flight
}

// press is one fire press that fired a predicted shot.
type press struct {
	DrawnPress
	at    time.Time
	frame uint64 // the frame drawn next after the press
}

// shotHidden reports whether the server's projectile id is the copy of a
// predicted shot, drawn (and heard) from the prediction instead.
func (g *Game) shotHidden(id snapshot.EntityID) bool {
	return g.fired != nil && g.fired.Hides(id)
}

// predictShot follows the own shots through input seq, just applied to the
// predictor: the shots in flight fly a tick, and a fire press fires, in
// the frame of the press, with its muzzle flash and sound.
func (g *Game) predictShot(now time.Time, seq uint32, in arena.Input) {
	if g.fired == nil || g.pred == nil {
		return
	}
	g.fired.Step(g.underDrawnBody)
	if in.Buttons&arena.ButtonFire == 0 || !g.pred.Ready() || g.intermissionAt(seq) {
		return
	}
	weapon := arena.WeaponGun
	if g.records.own.ok && g.records.own.Weapon == arena.WeaponSpread {
		weapon = arena.WeaponSpread
	}
	x, y := g.pred.Current()
	if !g.fired.Fire(seq, x, y, in.Aim, weapon, in.View) {
		return
	}
	aim := protocol.HeadingQuant.Dequantize(protocol.HeadingQuant.Quantize(in.Aim))
	mx := x + math.Cos(aim)*gunReach - math.Sin(aim)*gunSide
	my := y + math.Sin(aim)*gunReach + math.Cos(aim)*gunSide
	g.anims.add(effect{kind: effectFlash, x: mx, y: my, angle: aim, start: now})
	if g.snd.mix != nil {
		g.snd.mix.OwnShot(now, weapon == arena.WeaponSpread)
	}
	o := &g.own
	if len(o.presses) == maxPresses {
		o.presses = append(o.presses[:0], o.presses[1:]...)
	}
	o.presses = append(o.presses, press{DrawnPress: DrawnPress{Seq: seq, Spread: weapon == arena.WeaponSpread, DrawnAfter: -1}, at: now, frame: o.frames})
}

// intermissionAt reports whether input seq will be applied in the
// intermission, when the server fires nothing: about as many ticks after
// the newest as the inputs up to it that the server has not applied yet.
func (g *Game) intermissionAt(seq uint32) bool {
	tick, _ := g.cl.Newest()
	if applied, ok := g.cl.AppliedInput(tick); ok && int32(seq-applied) > 0 {
		tick += seq - applied
	}
	return g.records.hasClock && g.records.clock.Intermission(tick)
}

// underDrawnBody reports whether a live player or creature, as drawn at
// render time at (smooth.Shots.Step), lies under the circle of radius r at
// (x, y): where the shooter sees a predicted shot stop; known is false
// until the ticks around at have come.
func (g *Game) underDrawnBody(x, y, r, at float64) (hit, known bool) {
	if !g.interp.Holds(at) {
		return false, false
	}
	slot, haveSelf := g.cl.Self()
	g.interp.SampleAt(at, func(id snapshot.EntityID, e smooth.Entity) {
		if hit || haveSelf && id.Index == slot {
			return // the own player is drawn from the prediction
		}
		br := float64(arena.PlayerRadius)
		switch {
		case e.Kind == protocol.KindCreature:
			br = arena.CreatureRadius
		case e.Kind != protocol.KindPlayer || e.State&protocol.StateDead != 0:
			return
		}
		hit = math.Hypot(x-e.X, y-e.Y) < r+br
	})
	return hit, true
}

// confirmShots matches the predicted shots with the server's projectiles
// in tick t's snapshot s, and notes when the server applied each press.
func (g *Game) confirmShots(t uint32, s *snapshot.Snapshot, now time.Time) {
	if g.fired == nil {
		return
	}
	applied, ok := g.cl.AppliedInput(t)
	if !ok {
		return
	}
	g.fired.Confirm(s, t, applied, now)
	for i := range g.own.presses {
		p := &g.own.presses[i]
		if p.ServerAfterMs == 0 && int32(applied-p.Seq) >= 0 {
			p.ServerAfterMs = max(ms(now.Sub(p.at)), 0.001)
		}
	}
}

// noticeRejected puts up a notice when the server did not make predicted
// shots (they fade out meanwhile), at most once every rejectNoticeGap.
func (g *Game) noticeRejected(now time.Time) {
	if g.fired == nil || g.fired.TakeRejected() == 0 || now.Sub(g.own.rejectedAt) < rejectNoticeGap {
		return
	}
	g.own.rejectedAt = now
	g.hud.notice(now, "shot not confirmed by the server")
}

// drawOwnShots draws the own predicted shots on the predicted timeline, as
// the own player is drawn, with the bolt of drawShot; a shot the server did
// not make fades.
func (g *Game) drawOwnShots(dst *ebiten.Image, now time.Time) {
	o := &g.own
	defer func() { o.frames++ }()
	if g.fired == nil {
		return
	}
	o.last, o.cur = o.cur, o.last[:0]
	g.fired.CatchUp(g.underDrawnBody) // flights that waited for their ticks
	g.fired.Each(g.net.alpha(now), now, func(sh *smooth.PredictedShot, wx, wy, heading, opacity float64) {
		life := projectileLife
		if sh.Weapon == arena.WeaponSpread {
			life = time.Duration(arena.SpreadTicks) * time.Second / arena.TickRate
		}
		bolt := ownBolt{seq: sh.Seq, pellet: sh.Pellet, x: wx, y: wy, heading: heading}
		for i := range o.presses {
			p := &o.presses[i]
			if p.Seq != sh.Seq {
				continue
			}
			bolt.early = opacity >= 1 && now.Sub(p.at) < life-100*time.Millisecond
			if p.DrawnAfter < 0 {
				p.DrawnAfter = int(o.frames - p.frame)
				p.FirstDist = math.Hypot(wx-g.self.x, wy-g.self.y)
				p.FirstInputs = int(g.cl.InputSeq() - p.Seq)
				if g.pred != nil {
					p.FirstError = math.Hypot(g.pred.Error())
				}
			}
			if sh.State == smooth.ShotConfirmed && p.ConfirmedAfterMs == 0 {
				p.ConfirmedAfterMs = max(ms(now.Sub(p.at)), 0.001)
			}
		}
		o.cur = append(o.cur, bolt)
		if !g.cam.Visible(wx, wy, 40) {
			return
		}
		x, y := g.cam.ToScreen(wx, wy)
		img := g.sprites.bolt[sheet.BoltGun]
		if sh.Weapon == arena.WeaponSpread {
			img = g.sprites.bolt[sheet.BoltShell]
		}
		g.drawn.markOver(x, y, img)
		g.drawn.OwnShots = append(g.drawn.OwnShots, DrawnShot{
			At: [2]float64{x, y}, Seq: sh.Seq, Pellet: sh.Pellet, Heading: heading, Opacity: opacity,
			Confirmed: sh.State == smooth.ShotConfirmed, Rejected: sh.State == smooth.ShotRejected,
		})
		g.drawSprite(dst, img, spriteDraw{X: x, Y: y, Angle: heading, Alpha: max(opacity, 0.01), Pivot: true, OX: sheet.BoltCoreX, OY: sheet.BoltH / 2})
	})
	// A bolt gone early stopped where it met something: sparks there, as
	// for the projectiles of others (settleAnims), drawn with the effects
	// over the bodies.
	for _, b := range o.last {
		if b.early && !slices.ContainsFunc(o.cur, func(c ownBolt) bool { return c.seq == b.seq && c.pellet == b.pellet }) {
			g.anims.add(effect{kind: effectSparks, x: b.x + math.Cos(b.heading)*6, y: b.y + math.Sin(b.heading)*6, start: now})
		}
	}
}

// recordOwnShots copies what the Drawn record says of the own shots beyond
// the bolts drawn: the latest presses, the inputs and the counters.
func (g *Game) recordOwnShots() {
	d := &g.drawn
	d.InputSeq = g.cl.InputSeq()
	if tick, s := g.cl.Newest(); s != nil {
		d.Applied, _ = g.cl.AppliedInput(tick)
	}
	d.Presses = d.Presses[:0]
	for _, p := range g.own.presses {
		d.Presses = append(d.Presses, p.DrawnPress)
	}
	if g.fired != nil {
		st := g.fired.Stats()
		d.ShotStats = DrawnShotStats{Fired: st.Fired, Confirmed: st.Confirmed, Rejected: st.Rejected, HandoverMean: st.HandoverMean(), HandoverMax: st.HandoverMax}
	}
	d.SelfWorld = [2]float64{g.self.x, g.self.y}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
