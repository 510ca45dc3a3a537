package smooth

import (
	"math"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Tuning of predicted shots.
const (
	// ShotFade is how long a predicted shot the server did not make takes
	// to fade out.
	ShotFade = 150 * time.Millisecond
	// shotGrace is how many inputs past a shot's own the server may have
	// applied before a predicted shot with no server copy is taken as not
	// made: the copy appears in the snapshot of the tick the server fired
	// it, unless the budget defers it a tick or two.
	shotGrace = 3
	// hitGrace is how many inputs past a shot's own the server may have
	// applied before a predicted shot that stopped on a drawn target, with
	// neither a server copy seen nor a hit naming it, is taken as not made:
	// a second, time for the hit event to come (it is sent reliably, and
	// resent after a loss).
	hitGrace = arena.TickRate
	// matchUnits is how far, in position units (1/8 px), the server's copy
	// may stand from the predicted path and still be that shot: more than
	// a prediction's rounding (the spawn point is the predicted player's,
	// quantized), far less than two shots of a spread fan apart.
	matchUnits = 8 * protocol.UnitsPerPx
	// maxFlightSlack is how many ticks the server's copy may have flown
	// more or less than the ticks since it was fired say (match): the
	// firing tick is known from the first snapshot that came after it,
	// counting an input a tick back to it. Two shots along one line are
	// at least arena.FireInterval ticks apart.
	maxFlightSlack = 2
	// maxPredicted bounds the predicted shots alive at once: more than a
	// player can have in flight (arena.ShotsInFlight).
	maxPredicted = 2 * arena.ShotsInFlight
)

// ShotState says where a predicted shot is in its life.
type ShotState uint8

const (
	// ShotPending: fired on the client; the server's copy has not been
	// seen yet.
	ShotPending ShotState = iota
	// ShotConfirmed: the server's copy was seen on the predicted path.
	ShotConfirmed
	// ShotRejected: the server applied the input and made no such shot
	// (cooldown, death, the intermission): it fades out.
	ShotRejected
)

// PredictedShot is one of the player's own projectiles, drawn on the
// predicted timeline from the frame the fire button was pressed.
type PredictedShot struct {
	Seq     uint32       // the input that fired it
	Pellet  int          // 0 for the gun; 0..arena.SpreadPellets-1 for a spread shot
	Weapon  arena.Weapon // what fired it: arena.WeaponGun or arena.WeaponSpread
	State   ShotState
	Server  snapshot.EntityID // the server's copy, once ShotConfirmed
	heading uint32            // quantized
	view    float64           // the input's view, in ticks (0: none): flight t is drawn against the others at view+t
	sx, sy  uint32            // quantized spawn point
	flown   uint32            // ticks flown on the predicted timeline
	tested  uint32            // sub-steps of the flight checked (fly)
	life    uint32            // ticks it lives
	// OnTarget says it stopped where it met a drawn target: the shooter's
	// own verdict, a hit. Hit says a hit event of the server named it: the
	// server's verdict.
	OnTarget, Hit bool
	ended         bool      // stopped by a wall or a drawn target, or the server's copy ended
	vanished      bool      // rejected after it had stopped: not drawn again
	endAt         float64   // the flight (ticks) it stopped at
	gone          bool      // the server's copy is gone: nothing more to hide or match
	ahead         uint32    // how many ticks the server's copy had flown beyond this shot when last seen
	endBy         uint32    // once the copy is gone: the flight the shot ends at, if nothing stops it sooner
	spent         bool      // ended with its copy gone, seen so by one compaction: the next drops it
	firedAt       uint32    // the tick the server fired it on, or a little after (0: not known yet)
	fadeAt        time.Time // when it was rejected
}

// ShotStats are a Shots' counters.
type ShotStats struct {
	// Fired counts predicted projectiles (each pellet); Confirmed those the
	// server's copy of was seen, Rejected those the server did not make.
	Fired, Confirmed, Rejected uint64
	// HandoverSum and HandoverMax are the distance (px) between the
	// predicted shot and the server's copy at the same flight when the
	// copy was first seen, summed over the confirmed shots and at most.
	HandoverSum, HandoverMax float64
}

// HandoverMean returns the mean handover distance in px (0 with none).
func (s ShotStats) HandoverMean() float64 {
	if s.Confirmed == 0 {
		return 0
	}
	return s.HandoverSum / float64(s.Confirmed)
}

// Shots predicts the player's own projectiles. The flight of a projectile
// is deterministic on the wire (protocol.ShotPoint: whole steps along its
// quantized heading from its quantized spawn point), so a shot fired from
// the predicted position along the input's aim is where the server's copy
// will be, flight for flight: the client draws it from the press on, on
// the same timeline as its own player, and when the server's copy arrives
// (a round trip later) it takes the copy's spawn point and draws on,
// without a jump back to the interpolated past. The copy itself is not
// drawn (Hides).
//
// Each shot keeps the shooter's own verdict (OnTarget: it stopped on a
// drawn target) beside the server's (Hit: a hit event named it).
//
// A Shots follows the server's rules for when the gun fires (the weapon's
// interval, counted in inputs); what it cannot know (a death or the end of
// a round on the way) shows as a shot the server did not make, which fades
// out. It never decides damage: hits come from the server's events.
// A Shots is not safe for concurrent use; the game loop owns it.
type Shots struct {
	m     *arena.Map
	shots []PredictedShot

	lastFire uint32 // the input of the newest predicted shot
	wait     uint32 // that shot's weapon interval
	hasFired bool

	stats    ShotStats
	rejected int       // since the last TakeRejected
	now      time.Time // of the newest Confirm
}

// NewShots returns predicted shots that stop at the walls of m.
func NewShots(m *arena.Map) *Shots {
	return &Shots{m: m, shots: make([]PredictedShot, 0, maxPredicted)}
}

// Fire predicts the shot of input seq: the player stands at (x, y) (the
// predicted position after that input, in px), aims along aim and fires
// weapon (arena.WeaponGun, or arena.WeaponSpread while the loadout has
// spread shots), drawing the others as view says (the input's). It refuses, as the server would, a shot sooner than the
// interval of the weapon that fired the last one, and reports whether it
// fired. The new projectiles have flown one tick, as the server's have in
// the snapshot of the tick it fires them.
func (s *Shots) Fire(seq uint32, x, y, aim float64, weapon arena.Weapon, view arena.View) bool {
	if s.hasFired && seq-s.lastFire < s.wait {
		return false
	}
	n, life, wait := 1, uint32(arena.ProjectileTicks), uint32(arena.FireInterval)
	if weapon == arena.WeaponSpread {
		n, life, wait = arena.SpreadPellets, arena.SpreadTicks, arena.SpreadFireInterval
	}
	s.compact()
	aim = asSent(arena.Input{Aim: aim}).Aim
	qx, qy := protocol.PosQuant.Quantize(x), protocol.PosQuant.Quantize(y)
	for k := range n {
		a := aim
		if n > 1 {
			a = arena.PelletAim(aim, k)
		}
		if len(s.shots) == cap(s.shots) {
			copy(s.shots, s.shots[1:]) // the oldest goes
			s.shots = s.shots[:len(s.shots)-1]
		}
		s.shots = append(s.shots, PredictedShot{
			Seq: seq, Pellet: k, Weapon: weapon, heading: protocol.HeadingQuant.Quantize(a), view: viewTime(view),
			sx: qx, sy: qy, flown: 1, life: life,
		})
		s.stats.Fired++
		s.fly(&s.shots[len(s.shots)-1], nil)
	}
	s.lastFire, s.wait, s.hasFired = seq, wait, true
	return true
}

// Step advances every predicted shot one tick, as the next input is
// applied. A shot stops at a wall, at the end of its life, or where hit
// (if not nil) reports a drawn target under it: a circle of radius r at
// (x, y) px, against the others as drawn at render time at (ticks). On
// screen a shot is drawn as far ahead of the others as it has flown
// (Each), so at flight t it meets them as drawn t after its input's view
// (Interpolator.SampleAt), as the server judges it. When hit does not know
// yet (known false: the ticks around at have not come), the shot waits
// there, drawn where it is, until a later Step or Catch up knows. A shot
// whose input drew nothing meets nothing. Stopping at a target draws what
// the shooter will see; the damage, if any, is the server's to say. A
// rejected shot flies on while it fades, through the targets.
func (s *Shots) Step(hit HitTest) {
	s.compact()
	for i := range s.shots {
		sh := &s.shots[i]
		if sh.ended {
			continue
		}
		if sh.flown >= sh.life || sh.gone && sh.flown >= sh.endBy {
			sh.ended, sh.endAt = true, float64(sh.flown)
			continue
		}
		sh.flown++
		s.fly(sh, hit)
	}
}

// HitTest reports whether a circle of radius r at (x, y) px meets a target
// as drawn at render time at (ticks), and whether it knows: the ticks
// around at have come (Interpolator.Holds).
type HitTest func(x, y, r, at float64) (hit, known bool)

// CatchUp tests the flights that waited for their ticks (Step) as far as
// hit now knows: call it at every frame.
func (s *Shots) CatchUp(hit HitTest) {
	for i := range s.shots {
		if sh := &s.shots[i]; !sh.ended && sh.tested < sh.flown*subSteps {
			s.fly(sh, hit)
		}
	}
}

// subSteps is how many steps a shot's tick of flight is checked in, as the
// world's.
const subSteps = 3

// fly checks the shot's flight not yet checked, in the server's sub-steps,
// against the walls and hit, and stops it where it meets one; it stops
// checking where hit does not know yet.
func (s *Shots) fly(sh *PredictedShot, hit HitTest) {
	for sh.tested < sh.flown*subSteps {
		k := sh.tested + 1
		t := float64(k) / subSteps
		x, y := sh.at(t)
		if s.m != nil && s.m.Blocked(x, y, arena.ProjectileRadius) {
			sh.ended, sh.endAt = true, t
			return
		}
		if hit != nil && sh.view != 0 && sh.State != ShotRejected {
			met, known := hit(x, y, arena.ProjectileRadius, sh.view+t)
			if !known {
				return
			}
			if met {
				sh.ended, sh.endAt, sh.OnTarget = true, t, true
				return
			}
		}
		sh.tested = k
	}
}

// at returns the shot's position in px after t ticks of flight.
func (sh *PredictedShot) at(t float64) (float64, float64) {
	dx, dy := protocol.ShotStep(sh.heading)
	const top = 1<<16 - 1
	x := min(max(float64(sh.sx)+t*float64(dx), 0), top)
	y := min(max(float64(sh.sy)+t*float64(dy), 0), top)
	return x * protocol.PosQuant.Precision(), y * protocol.PosQuant.Precision()
}

// Confirm matches the predicted shots with the server's projectiles in the
// decoded state s of tick, whose snapshot said the server had applied the
// player's inputs up to applied; call it for the ticks in order. A pending
// shot is the server's projectile with the same heading that stands on its
// path (within matchUnits), at a whole flight near the ticks since it was
// fired, as the first tick that said its input was applied tells (the
// server flies its copy a tick every step, with or without an input of
// the player's, where the prediction flies it an input a step); it then
// takes that projectile's spawn
// point, so it draws on exactly the server's path, and the distance it
// moved is its handover. A pending shot whose input the server applied
// shotGrace inputs ago or more, still without a copy, was not made: it is
// rejected and fades from now on. A confirmed shot whose copy is gone from
// s (it hit something, or a wall) ends.
func (s *Shots) Confirm(st *snapshot.Snapshot, tick, applied uint32, now time.Time) {
	if st == nil {
		return
	}
	s.now = now
	for i := range s.shots {
		sh := &s.shots[i]
		switch sh.State {
		case ShotPending:
			if int32(applied-sh.Seq) < 0 {
				continue // the server has not fired it yet
			}
			if sh.firedAt == 0 {
				// The first tick that says it was applied: if it was not
				// applied on this one, the snapshots of the ticks since
				// did not come, and those ticks applied an input each.
				sh.firedAt = tick - (applied - sh.Seq)
			}
			if s.match(sh, st, tick) {
				continue
			}
			if int32(applied-sh.Seq) >= shotGrace {
				if sh.Hit || sh.ended && !sh.OnTarget {
					// Made, but gone before the server could show it: a
					// hit named it, or it met a wall (on its first tick,
					// as the server's copy did).
					sh.State, sh.gone, sh.endBy = ShotConfirmed, true, sh.life
					continue
				}
				if sh.ended && int32(applied-sh.Seq) < hitGrace {
					continue // it stopped on a drawn target: the hit may be on its way
				}
				// A shot that stopped on a drawn target already vanished
				// there: it stays gone, not drawn again to fade.
				sh.State, sh.fadeAt, sh.vanished = ShotRejected, now, sh.ended
				s.stats.Rejected++
				s.rejected++
			}
		case ShotConfirmed:
			if sh.gone {
				continue
			}
			j, ok := st.Find(sh.Server.Index)
			if ok && st.IDs()[j] == sh.Server {
				sh.ahead = copyAhead(sh, st.Row(j))
				continue
			}
			// The copy ended (it hit something, or a wall) in the tick
			// after it was last seen. This shot may be behind it on its
			// own timeline (the server stepped without the player's
			// inputs: each such step flew the copy a tick more), so it
			// flies on, as far as the copy had flown and a tick more,
			// and meets what it meets as drawn: the shooter's verdict is
			// its own, not the copy's.
			sh.gone, sh.endBy = true, sh.flown+sh.ahead+1
		}
	}
}

// match looks for the server's copy of pending shot sh in st, the state
// of tick: a projectile with the same heading on the shot's path. Fired
// on sh.firedAt, the copy has flown tick-sh.firedAt+1 ticks (a tick more
// for each step without the player's input between the firing and the
// first snapshot that came after it); of the
// projectiles on the path (a player who stands and aims one way fires
// shot after shot along one line), the one nearest that flight is the
// copy, and one more than maxFlightSlack ticks from it is not.
func (s *Shots) match(sh *PredictedShot, st *snapshot.Snapshot, tick uint32) bool {
	dx, dy := protocol.ShotStep(sh.heading)
	step2 := float64(dx)*float64(dx) + float64(dy)*float64(dy)
	if step2 == 0 {
		return false
	}
	want := float64(tick-sh.firedAt) + 1
	best, bestN, bestOff := -1, 0.0, math.Inf(1)
	ids := st.IDs()
	for j := range ids {
		row := st.Row(j)
		if row[protocol.FieldKind] != protocol.KindProjectile || row[protocol.FieldHeading] != sh.heading || s.claimed(ids[j]) {
			continue
		}
		px, py := float64(row[protocol.FieldX])-float64(sh.sx), float64(row[protocol.FieldY])-float64(sh.sy)
		n := math.Round((px*float64(dx) + py*float64(dy)) / step2)
		if n < 1 || n > float64(sh.life) {
			continue
		}
		ex, ey := px-n*float64(dx), py-n*float64(dy)
		if ex*ex+ey*ey > matchUnits*matchUnits {
			continue
		}
		if off := math.Abs(n - want); off <= maxFlightSlack && off < bestOff {
			best, bestN, bestOff = j, n, off
		}
	}
	if best < 0 {
		return false
	}
	row := st.Row(best)
	ex := float64(row[protocol.FieldX]) - float64(sh.sx) - bestN*float64(dx)
	ey := float64(row[protocol.FieldY]) - float64(sh.sy) - bestN*float64(dy)
	sh.State, sh.Server = ShotConfirmed, ids[best]
	sh.ahead = uint32(max(bestN-float64(sh.flown), 0))
	d := math.Hypot(ex, ey) * protocol.PosQuant.Precision()
	s.stats.Confirmed++
	s.stats.HandoverSum += d
	s.stats.HandoverMax = max(s.stats.HandoverMax, d)
	// Draw on along the server's path from here.
	sx := int64(row[protocol.FieldX]) - int64(bestN)*int64(dx)
	sy := int64(row[protocol.FieldY]) - int64(bestN)*int64(dy)
	if sx >= 0 && sy >= 0 && sx < 1<<16 && sy < 1<<16 {
		sh.sx, sh.sy = uint32(sx), uint32(sy)
	}
	return true
}

// copyAhead returns how many ticks the server's copy of confirmed shot sh,
// at row, has flown beyond sh: its flight along sh's path (from the copy's
// spawn point, which sh took) less sh's.
func copyAhead(sh *PredictedShot, row []uint32) uint32 {
	dx, dy := protocol.ShotStep(sh.heading)
	step2 := float64(dx)*float64(dx) + float64(dy)*float64(dy)
	if step2 == 0 {
		return 0
	}
	px, py := float64(row[protocol.FieldX])-float64(sh.sx), float64(row[protocol.FieldY])-float64(sh.sy)
	n := math.Round((px*float64(dx) + py*float64(dy)) / step2)
	return uint32(max(n-float64(sh.flown), 0))
}

// viewTime returns the time a View names, in ticks (0 for none).
func viewTime(v arena.View) float64 {
	if v.From == 0 {
		return 0
	}
	return float64(v.From) + float64(v.Gap)*float64(v.Frac)/256
}

// Ended reports whether the shot has stopped: at a wall, on a drawn
// target, at the end of its life, or where the server's copy ended.
func (sh *PredictedShot) Ended() bool { return sh.ended }

// Find returns the shot of input seq (its first pellet), if still held.
func (s *Shots) Find(seq uint32) (PredictedShot, bool) {
	for i := range s.shots {
		if s.shots[i].Seq == seq && s.shots[i].Pellet == 0 {
			return s.shots[i], true
		}
	}
	return PredictedShot{}, false
}

// Hit takes a hit event of the server that names input seq (protocol.Hit's
// Shot): the shots of seq hit something. A pending one is made (the hit
// may come before any snapshot shows its copy).
func (s *Shots) Hit(seq uint32) {
	for i := range s.shots {
		if sh := &s.shots[i]; sh.Seq == seq {
			sh.Hit = true
		}
	}
}

// claimed reports whether another predicted shot already took server
// projectile id.
func (s *Shots) claimed(id snapshot.EntityID) bool {
	for i := range s.shots {
		if s.shots[i].State == ShotConfirmed && s.shots[i].Server == id {
			return true
		}
	}
	return false
}

// Hides reports whether the server's projectile id is a predicted shot's
// copy, which the game draws on the predicted timeline instead.
func (s *Shots) Hides(id snapshot.EntityID) bool {
	for i := range s.shots {
		if sh := &s.shots[i]; sh.State == ShotConfirmed && sh.Server == id {
			return true
		}
	}
	return false
}

// Each calls fn for every predicted shot to draw at alpha of the way
// through the current predicted tick (as Predictor.Position takes it) and
// local time now: its position in px, heading in radians and opacity
// (1, falling to 0 over ShotFade for a rejected shot). A shot that stopped
// is drawn where it stopped until the server's copy ends, then no more.
func (s *Shots) Each(alpha float64, now time.Time, fn func(sh *PredictedShot, x, y, heading, opacity float64)) {
	alpha = clamp01(alpha)
	for i := range s.shots {
		sh := &s.shots[i]
		t := float64(sh.flown) - 1 + alpha
		if sh.ended {
			t = min(t, sh.endAt) // where it stopped, not a tick back each tick
		} else {
			t = min(t, float64(sh.tested)/subSteps) // waiting for its ticks
		}
		op := 1.0
		switch {
		case sh.vanished:
			continue // rejected after it vanished on a target
		case sh.State == ShotRejected:
			op = 1 - float64(now.Sub(sh.fadeAt))/float64(ShotFade)
			if op <= 0 {
				continue
			}
		case sh.ended:
			continue // it vanished where it met something
		}
		x, y := sh.at(t)
		fn(sh, x, y, protocol.HeadingQuant.Dequantize(sh.heading), op)
	}
}

// TakeRejected returns how many predicted shots were rejected since the
// last call, for a notice.
func (s *Shots) TakeRejected() int {
	n := s.rejected
	s.rejected = 0
	return n
}

// Stats returns the counters.
func (s *Shots) Stats() ShotStats { return s.stats }

// Reset forgets every shot and the fire clock, as for a new connection or
// a respawn.
func (s *Shots) Reset() {
	s.shots = s.shots[:0]
	s.hasFired = false
}

// compact drops the shots that have nothing more to draw, hide or match:
// confirmed ones whose server copy is gone and that have ended (at the
// second compaction that finds them so, so that a shot that ends in a
// Step is still there to be found after it: Find), rejected ones faded
// out.
func (s *Shots) compact() {
	live := s.shots[:0]
	for _, sh := range s.shots {
		over := sh.State == ShotConfirmed && sh.gone && sh.ended
		if over && sh.spent || sh.State == ShotRejected && s.now.Sub(sh.fadeAt) >= ShotFade {
			continue
		}
		sh.spent = over
		live = append(live, sh)
	}
	s.shots = live
}
