package arena

import (
	"math"
	"time"
)

// View is what a client was drawing of everyone else when it made an input:
// the entities as they were between ticks From and From+Gap, Frac/256 of
// the way from the first to the second (Gap 0: tick From alone). A client
// draws others in the past (interpolation), so this is what its player aimed
// at, and what the world judges that input's shots against (lag
// compensation). The zero View (From 0, never a tick of play) claims
// nothing: the input's shots are judged in the present, as a server-side
// bot's are.
type View struct {
	From uint32
	Gap  uint8
	Frac uint8
}

// Rewind limits.
const (
	// MaxRewindTicks is the farthest back a shot may be judged: 1 s, as far
	// as the most generous systems go. Config.RewindTicks is at most this.
	MaxRewindTicks = TickRate
	// DefaultRewindTicks is Config.RewindTicks's default: 10 ticks
	// (333 ms). At 150 ms round trip a shooter's view lags the world by
	// about 190 ms (half the round trip until the input arrives, a tick
	// in the server's queue, half the round trip and the interpolation
	// delay until the world is drawn); 10 ticks covers that up to about
	// 250 ms round trip with jitter, and bounds a victim's "shot behind
	// cover" to a third of a second.
	DefaultRewindTicks = 10
	// rewindHistory is how many ticks of target positions a world keeps:
	// a power of two above MaxRewindTicks + 1.
	rewindHistory = 32
)

// maxTargetStep bounds how far a target moves in one tick (a dash), so a
// shot judged k ticks back need only look at the targets within k of
// these steps of where they are now.
const maxTargetStep = max(DashSpeed, PlayerSpeed, CreatureSpeed) * Dt

// pose is a target (creature or player) as it was at the end of a tick.
type pose struct {
	x, y  float64
	gen   uint8
	alive bool
}

// rewind is the history of target poses, by tick modulo rewindHistory:
// ticks[k] says which tick poses[k] holds.
type rewind struct {
	ticks [rewindHistory]uint32
	poses [rewindHistory][]pose // by slot, creatures then players
}

func (r *rewind) init(targets int) {
	for k := range r.poses {
		r.poses[k] = make([]pose, targets)
	}
}

// recordPoses keeps every target's pose at the end of tick (after everyone
// moved, before projectiles fly).
func (w *World) recordPoses() {
	k := w.tick % rewindHistory
	w.past.ticks[k] = w.tick
	ps := w.past.poses[k]
	for i := range w.creatures {
		c := &w.creatures[i]
		ps[i] = pose{x: c.x, y: c.y, gen: w.gens[i], alive: !c.dead}
	}
	for i := range w.players {
		p := &w.players[i]
		slot := w.playerBase + i
		ps[slot] = pose{x: p.x, y: p.y, gen: w.gens[slot], alive: p.active && !p.dead}
	}
}

// posesAt returns the poses of tick t, or nil if the history no longer (or
// not yet) holds it.
func (w *World) posesAt(t uint32) []pose {
	k := t % rewindHistory
	if w.past.ticks[k] != t || w.past.poses[k] == nil {
		return nil
	}
	return w.past.poses[k]
}

// seenFrom clamps a client's claimed view for a shot fired this tick: it
// cannot have drawn this tick or a later one, nor anything older than the
// world's rewind allows. It returns the view to judge by and whether the
// shot is judged in the past at all. A claim older than floor (in 256ths
// of a tick; 0: none), the server's estimate of the client's view
// (viewbound.go), is judged from since, the floor: the shot's k-th tick of
// flight meets the targets of since+k, each moved by where it stood at
// the view claimed (at most ViewTolerance older than the floor) against
// where it stood at the floor. So an older claim chooses where its targets
// started, which the client saw, and learns nothing of how they will move,
// which it has not seen. since is 0 when the flight is judged from the view
// itself.
func (w *World) seenFrom(v View, floor uint64) (seen View, since uint64, rewound bool) {
	w.seenClamped = false
	limit := uint32(w.cfg.RewindTicks)
	if limit == 0 || v.From == 0 || w.tick <= limit+1 {
		return View{}, 0, false
	}
	newest := w.tick - 1
	if int32(v.From-newest) > 0 {
		v.From, v.Gap, v.Frac = newest, 0, 0
	}
	if gap := uint32(v.Gap); v.From+gap > newest {
		v.Gap = uint8(newest - v.From)
	}
	if v.Gap == 0 {
		v.Frac = 0
	}
	// Judged a tick after the one drawn (below), a view of From is
	// w.tick-From-1 ticks back: one further back than the cap is cut to
	// it (clamped).
	if w.tick-v.From-1 > limit {
		w.stats.Rewind.Clamped++
		w.seenClamped = true
		v.From, v.Gap, v.Frac = w.tick-limit-1, 0, 0
	}
	// A view older than the floor is judged from the floor (bounded), its
	// targets starting where they stood at the view, or ViewTolerance
	// before the floor if the view is older than that. A floor at or
	// before the view (the cap's, say) bounds nothing.
	if floor > 0 && v.ticks256() < floor && floor <= uint64(newest)*256 {
		w.stats.Rewind.Bounded++
		since = floor
		if floor > ViewTolerance && v.ticks256() < floor-ViewTolerance {
			v = viewAt(floor - ViewTolerance)
		}
	}
	// A shot's flight on tick t is judged against the poses of the tick
	// after the one drawn when it was made (the world judges its own tick t
	// against the poses at its end): a client that drew the newest tick
	// saw the present.
	if v.From == newest {
		return View{}, 0, false
	}
	return v, since, true
}

// moment is a time between two recorded ticks: the poses of a and of b,
// f of the way from a to b.
type moment struct {
	a, b []pose
	f    float64
}

// momentAt returns the moment of time t, in ticks with a fraction, if the
// history holds its ticks.
func (w *World) momentAt(t float64) (moment, bool) {
	i := math.Floor(t)
	tick, f := uint32(i), t-i
	a := w.posesAt(tick)
	if f == 0 {
		return moment{a: a, b: a}, a != nil
	}
	b := w.posesAt(tick + 1)
	return moment{a: a, b: b, f: f}, a != nil && b != nil
}

// at returns where the target in slot stood at the moment, if it was the
// same entity as now (generation gen) and alive: between a and b if both
// hold it, else in the nearer one that does.
func (m *moment) at(slot int32, gen uint8) (x, y float64, ok bool) {
	pa, pb := &m.a[slot], &m.b[slot]
	switch {
	case pa.alive && pb.alive && pa.gen == gen && pb.gen == gen:
		return pa.x + (pb.x-pa.x)*m.f, pa.y + (pb.y-pa.y)*m.f, true
	case m.f < 0.5 && pa.alive && pa.gen == gen:
		return pa.x, pa.y, true
	case m.f >= 0.5 && pb.alive && pb.gen == gen:
		return pb.x, pb.y, true
	}
	return 0, 0, false
}

// seenTarget returns the slot of the target nearest to (x, y) among those a
// circle of radius r there touches as shot s's shooter saw them at
// sub-step sub (1 to shotSubSteps) of the s.flown-th tick of its flight
// (seenFrom), skipping the shooter; -1 if none. On a hit it leaves in
// w.judged the moment judged and where the target stood then. On screen a
// shot is drawn as far ahead of the view as it has flown, so its flight t = flown-1 +
// sub/shotSubSteps meets the targets as drawn t after the view's time,
// between the poses of the ticks around it (at the end of the first tick
// of flight, t = 1: a tick after the view, as the world judges its own
// tick against the poses at its end). A target counts only if it is still the same
// entity and alive now: a shot never hurts a player who has since died or
// respawned.
func (w *World) seenTarget(s *shot, sub int, x, y, r float64) int32 {
	t := float64(s.flown-1) + float64(sub)/shotSubSteps
	view := float64(s.seen.ticks256()) / 256
	var now, base, from moment
	var ok, shift bool
	if s.since == 0 {
		now, ok = w.momentAt(view + t)
	} else {
		floor := float64(s.since) / 256
		now, ok = w.momentAt(floor + t)
		var okBase, okFrom bool
		base, okBase = w.momentAt(view)
		from, okFrom = w.momentAt(floor)
		shift = okBase && okFrom // else (a long flight) judged from the floor alone
	}
	if !ok {
		t := w.nearest(x, y, r, s.ownerSlot, false)
		if t >= 0 {
			w.judgePresent(t)
		}
		return t
	}
	// Only targets near enough now can have been where the shot is then.
	back := w.tick - s.seen.From
	at := func(slot int32) (float64, float64, float64, bool) {
		gen := w.gens[slot]
		tr := float64(PlayerRadius)
		if int(slot) < w.playerBase {
			tr = CreatureRadius
		}
		tx, ty, alive := now.at(slot, gen)
		if !alive {
			return 0, 0, 0, false
		}
		if shift {
			bx, by, okB := base.at(slot, gen)
			fx, fy, okF := from.at(slot, gen)
			if okB && okF {
				tx, ty = tx+bx-fx, ty+by-fy
			}
		}
		return tx, ty, tr, true
	}
	hit := w.nearestOf(x, y, r, float64(back+1)*maxTargetStep, s.ownerSlot, false, at)
	if hit >= 0 {
		tx, ty, _, _ := at(hit)
		from := s.seen.ticks256()
		if s.since != 0 {
			from = s.since
		}
		moment := from + uint64(s.flown-1)*256 + (uint64(sub)*256+shotSubSteps/2)/shotSubSteps
		w.judged = Judged{Behind: uint32(min(uint64(w.tick)*256-min(moment, uint64(w.tick)*256), math.MaxUint32)),
			X: tx, Y: ty, Rewound: true, Bounded: s.since != 0, Clamped: s.clamped}
	}
	return hit
}

// Judged is how the world judged a hit on a player: the moment of the
// world it held the projectile against and where the player stood then.
// A shot judged in the past (rewound) meets its targets as its shooter
// drew them; any other hit, and a bite, in the present.
type Judged struct {
	// Behind is how long before the end of the hit's tick the moment
	// judged was, in 256ths of a tick (rounded: a flight's sub-steps are
	// thirds of a tick): 0 in the present. For a rewound shot that moment
	// is the view its shooter drew when firing (or the server's bound on
	// it, Bounded) plus the projectile's flight to the hit, so Behind is
	// how far the shooter's screen drew its target behind the server.
	Behind uint32
	// X and Y are where the player stood at that moment, as the hit test
	// placed it, in world px.
	X, Y float64
	// By is the slot of the entity that dealt the blow: the shooter's
	// player, the biting creature; -1 if the shooter has left.
	By int32
	// Rewound: judged in the past, against the targets as its shooter drew
	// them. Bounded: the shooter claimed a view older than the server's
	// estimate of it, and the flight was judged from the estimate
	// (viewbound.go). Clamped: the claim was older than the rewind cap.
	Rewound, Bounded, Clamped bool
}

// judgePresent notes in w.judged a hit on target t in the present.
func (w *World) judgePresent(t int32) {
	x, y, _, _ := w.target(t)
	w.judged = Judged{X: x, Y: y}
}

// RewindStats are the counters of shots judged by what their shooters saw.
type RewindStats struct {
	// Shots counts projectiles judged in the past; Ticks is the sum of how
	// far back each was judged when fired, in 256ths of a tick (Ticks /
	// Shots / 256 is the mean rewind in ticks): from the tick before the
	// one it was fired on to the view its targets start from (for a
	// bounded shot, its view or ViewTolerance before the floor, whichever
	// is newer).
	Shots, Ticks uint64
	// Clamped counts shots whose shooter claimed a view further back than
	// the rewind cap: the view was cut to the cap. Bounded counts shots
	// whose view, once cut to the cap, was older than the server's floor
	// on its shooter's view (viewbound.go): their flight was judged from
	// the floor. They count shots, a spread shot once (Shots counts its
	// pellets); a shot beyond both counts in both.
	Clamped, Bounded uint64
	// Hits counts those projectiles' hits; BehindCover those of them on a
	// player who stood behind cover when hit: a wall between where the
	// player is now and the projectile, or the point it was fired from.
	// It is the price a victim pays for the shooter's fairness.
	Hits, BehindCover uint64
}

// countRewoundHit counts a hit of rewound shot s on target t, and whether
// the target, if a player, stood behind cover when it was hit: out of
// sight of the projectile, or of the point it was fired from (where the
// victim, drawing the shooter in its own past, sees the shots come from).
func (w *World) countRewoundHit(s *shot, t int32) {
	w.stats.Rewind.Hits++
	if int(t) < w.playerBase {
		return
	}
	p := &w.players[int(t)-w.playerBase]
	if !w.m.Clear(s.x, s.y, p.x, p.y, 0) || !w.m.Clear(s.x0, s.y0, p.x, p.y, 0) {
		w.stats.Rewind.BehindCover++
	}
}

// RewindTicksOf returns the Config.RewindTicks for a rewind of at most d:
// d in whole ticks, rounded to the nearest, and -1 (none) for d <= 0 or
// less than half a tick. It does not bound d: Config's validation does.
func RewindTicksOf(d time.Duration) int {
	n := int(math.Round(d.Seconds() * TickRate))
	if n <= 0 {
		return -1
	}
	return n
}

// RewindStats returns the counters of shots judged in the past.
func (w *World) RewindStats() RewindStats { return w.stats.Rewind }

// InputWait returns Stats' InputWaitTicks and InputsApplied: the ticks
// the applied inputs waited in their queues, and how many were applied.
func (w *World) InputWait() (ticks, inputs uint64) {
	return w.stats.InputWaitTicks, w.stats.InputsApplied
}
