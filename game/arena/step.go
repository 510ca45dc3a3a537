package arena

import "math"

// shotSubSteps splits a projectile's flight of one tick (ProjectileSpeed*Dt,
// 23.3 px) into steps of 7.8 px: shorter than a projectile's and the
// smallest target's radii together (16 px) and far shorter than a wall
// tile, so nothing is flown through.
const shotSubSteps = 3

// Step advances the world one tick, in this order: players (respawn,
// consume one queued input, maybe dash, move, fire), creatures (respawn, roam), creature
// bites, projectiles (fly, hit walls or the first player or creature they
// touch), pickups, and the round clock (a round's end, the intermission, the
// next round's start). It allocates nothing once the event buffer has grown
// to the match's rate of happenings.
func (w *World) Step() {
	w.tick++
	w.stepPlayers()
	w.stepCreatures()
	w.buildGrid()
	if w.cfg.RewindTicks > 0 {
		w.recordPoses()
	}
	w.stepBites()
	w.stepShots()
	w.stepPickups()
	w.stepRound()
}

func (w *World) stepPlayers() {
	for i := range w.players {
		p := &w.players[i]
		if !p.active {
			continue
		}
		slot := w.playerBase + i
		if p.dead && w.tick >= p.respawnAt {
			w.respawnPlayer(p, slot)
		}
		var q queuedInput // the zero input: no fire, no dash
		w.trimQueue(p)
		p.lastSpare = p.queued - 1
		if p.queued > 0 {
			q = p.queue[0]
			copy(p.queue[:], p.queue[1:p.queued])
			p.queued--
			p.applied = q.seq
			p.dx, p.dy = q.dx, q.dy
			if q.aimOK {
				p.aim = q.aim
			}
			w.pressDash(p, &q)
			w.stats.InputsApplied++
			w.stats.InputWaitTicks += uint64(w.tick - q.at - 1)
		} // else: keep walking (or dashing) the same way, without firing
		p.moving = false
		if p.dead {
			p.dash.stop()
			continue
		}
		x, y := p.dash.Move(w.m, p.x, p.y, p.dx, p.dy)
		p.moving = x != p.x || y != p.y
		p.x, p.y = x, y
		if q.fire {
			w.fire(p, slot, &q)
		}
	}
}

func (w *World) respawnPlayer(p *player, slot int) {
	p.dead = false
	p.x, p.y = w.spawnSpot(slot - w.playerBase)
	p.health, p.hurtUntil = PlayerHealth, 0
	p.shieldUntil = w.tick + SpawnShieldTicks
	w.bumpGen(slot)
}

// spawnSpot returns where player i (an index in w.players) enters the
// match or comes back after dying: of SpawnCandidates random open spots,
// the nearest one whose nearest other live player is at least
// SpawnDistance away, or the farthest one if none is. So a player appears
// out of everyone's sight, not in someone's sights, and not a whole match
// in one place at its start; yet near enough to find the others soon.
// With nobody else in the match it is the first spot.
func (w *World) spawnSpot(i int) (float64, float64) {
	var bx, by, best float64
	for k := range SpawnCandidates {
		x, y := w.m.OpenSpot(w.rng, PlayerRadius)
		d := math.Inf(1) // to the nearest other live player
		for j := range w.players {
			if q := &w.players[j]; j != i && q.active && !q.dead {
				d = min(d, math.Hypot(q.x-x, q.y-y))
			}
		}
		if k == 0 || betterSpawn(d, best) {
			bx, by, best = x, y, d
		}
	}
	return w.m.Snap(bx, by)
}

// betterSpawn reports whether a spot whose nearest player is d away beats
// one whose nearest is than away: far enough beats too near; of two far
// enough, the nearer; of two too near, the farther.
func betterSpawn(d, than float64) bool {
	ok, thanOK := d >= SpawnDistance, than >= SpawnDistance
	switch {
	case ok != thanOK:
		return ok
	case ok:
		return d < than
	default:
		return d > than
	}
}

func (w *World) stepCreatures() {
	const step = CreatureSpeed * Dt
	for i := range w.creatures {
		c := &w.creatures[i]
		if c.dead {
			if w.tick >= c.respawnAt {
				c.x, c.y = w.m.OpenSpot(w.rng, CreatureRadius)
				c.heading = w.rng.Float64() * 2 * math.Pi
				c.dead, c.walking, c.health, c.hurtUntil = false, false, CreatureHealth, 0
				w.bumpGen(i)
			}
			continue
		}
		if !c.walking {
			if w.rng.Float64() < CreatureStartChance {
				c.walking = true
				c.heading = wrapAngle(c.heading + (w.rng.Float64()-0.5)*math.Pi)
			}
			continue
		}
		if w.rng.Float64() < CreatureTurnChance {
			c.heading = wrapAngle(c.heading + (2*w.rng.Float64()-1)*CreatureTurn)
		}
		sin, cos := math.Sincos(c.heading)
		x, y := w.m.Slide(c.x, c.y, cos*step, sin*step, CreatureRadius)
		if dx, dy := x-c.x, y-c.y; dx*dx+dy*dy < step*step/4 {
			c.heading = w.rng.Float64() * 2 * math.Pi // walked into a wall: try elsewhere
		}
		c.x, c.y = x, y
		if w.rng.Float64() < CreatureStopChance {
			c.walking = false
		}
	}
}

// buildGrid indexes the live creatures and players by map tile.
func (w *World) buildGrid() {
	g := &w.grid
	g.reset()
	for i := range w.creatures {
		if c := &w.creatures[i]; !c.dead {
			g.add(int32(i), c.x, c.y)
		}
	}
	for i := range w.players {
		if p := &w.players[i]; p.active && !p.dead {
			g.add(int32(w.playerBase+i), p.x, p.y)
		}
	}
	g.build()
}

// target returns the position and radius of the creature or player in
// slot, and whether it can be hit.
func (w *World) target(slot int32) (x, y, r float64, alive bool) {
	if int(slot) < w.playerBase {
		c := &w.creatures[slot]
		return c.x, c.y, CreatureRadius, !c.dead
	}
	p := &w.players[int(slot)-w.playerBase]
	return p.x, p.y, PlayerRadius, p.active && !p.dead
}

// nearest returns the slot of the live target nearest to (x, y) among those
// a circle of radius r there touches, skipping slot skip and, if
// playersOnly, creatures; -1 if none.
func (w *World) nearest(x, y, r float64, skip int32, playersOnly bool) int32 {
	return w.nearestOf(x, y, r, 0, skip, playersOnly, w.target)
}

// nearestOf is nearest with the targets where at says (their position and
// radius, and whether they can be hit), among the targets the grid has
// within reach of where at says: 0 when at gives the present.
func (w *World) nearestOf(x, y, r, reach float64, skip int32, playersOnly bool, at func(slot int32) (x, y, r float64, alive bool)) int32 {
	const maxTargetRadius = max(PlayerRadius, CreatureRadius)
	g := &w.grid
	x0, x1 := cellCoord(x-r-reach-maxTargetRadius), cellCoord(x+r+reach+maxTargetRadius)
	y0, y1 := cellCoord(y-r-reach-maxTargetRadius), cellCoord(y+r+reach+maxTargetRadius)
	best, bestD := int32(-1), math.Inf(1)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			c := cy*gridSide + cx
			for _, slot := range g.items[g.start[c]:g.start[c+1]] {
				if slot == skip || (playersOnly && int(slot) < w.playerBase) {
					continue
				}
				tx, ty, tr, alive := at(slot)
				if !alive {
					continue
				}
				dx, dy := tx-x, ty-y
				d := dx*dx + dy*dy
				if d < (r+tr)*(r+tr) && (d < bestD || (d == bestD && slot < best)) {
					best, bestD = slot, d
				}
			}
		}
	}
	return best
}

// stepBites lets every creature that touches a live player bite the nearest
// one, once a CreatureBiteInterval.
func (w *World) stepBites() {
	if w.intermission {
		return
	}
	for i := range w.creatures {
		c := &w.creatures[i]
		if c.dead || w.tick < c.biteAt {
			continue
		}
		if t := w.nearest(c.x, c.y, CreatureRadius, -1, true); t >= 0 {
			w.judgePresent(t)
			w.judged.By = int32(i)
			w.damagePlayer(int(t)-w.playerBase, CreatureBiteDamage, 0, WeaponBite, 0)
			c.biteAt = w.tick + CreatureBiteInterval
		}
	}
}

func (w *World) stepShots() {
	for k := range w.shots {
		s := &w.shots[k]
		if !s.live {
			continue
		}
		if w.tick >= s.expires {
			w.freeShot(k)
			continue
		}
		s.flown++
		for sub := 1; sub <= shotSubSteps; sub++ {
			s.x += s.vx / shotSubSteps
			s.y += s.vy / shotSubSteps
			if w.m.Blocked(s.x, s.y, ProjectileRadius) {
				w.freeShot(k)
				break
			}
			t := int32(-1)
			if s.rewound {
				t = w.seenTarget(s, sub, s.x, s.y, ProjectileRadius)
			} else if t = w.nearest(s.x, s.y, ProjectileRadius, s.ownerSlot, false); t >= 0 {
				w.judgePresent(t)
			}
			if t >= 0 {
				w.stats.Hits++
				if s.rewound {
					w.countRewoundHit(s, t)
				}
				if k := w.credit(s.owner); k != nil {
					k.hits++
				}
				w.judged.By = s.ownerSlot
				if int(t) < w.playerBase {
					w.damageCreature(int(t), s.damage, s.owner)
				} else {
					w.damagePlayer(int(t)-w.playerBase, s.damage, s.owner, s.weapon, s.seq)
				}
				w.freeShot(k)
				break
			}
		}
	}
}

func (w *World) freeShot(k int) {
	w.shots[k].live = false
	w.free.push(int32(k))
}

// credit returns the player who gets the score for a kill, if still here.
func (w *World) credit(id PlayerID) *player {
	if id == 0 {
		return nil
	}
	if i, ok := w.byID[id]; ok {
		return &w.players[i]
	}
	return nil
}

// damagePlayer takes dmg from player i on behalf of attacker (0: a
// creature), reports the hit, and the death if it was one, with how the
// blow was judged (w.judged, set by the hit test that found it).
func (w *World) damagePlayer(i, dmg int, attacker PlayerID, weapon Weapon, shot uint32) {
	p := &w.players[i]
	if w.tick < p.shieldUntil {
		w.stats.Shielded++
		return
	}
	p.health -= dmg
	p.hurtUntil = w.tick + HurtTicks
	w.emit(Event{Kind: EventHit, Hit: Hit{Attacker: attacker, Target: p.id, Damage: dmg, Shot: shot}})
	if p.health > 0 {
		return
	}
	p.health, p.dead, p.moving = 0, true, false
	p.respawnAt = w.tick + RespawnTicks
	p.deaths++
	p.dirty = true
	w.dropLoadout(p)
	w.stats.Deaths++
	if attacker != 0 {
		w.stats.Kills++
		if weapon == WeaponSpread {
			w.stats.SpreadKills++
		}
		if k := w.credit(attacker); k != nil {
			k.kills++
			k.score++
			k.dirty = true
		}
	}
	w.emit(Event{Kind: EventKill, Kill: Kill{Killer: attacker, Victim: p.id, Weapon: weapon, Judged: w.judged}})
}

// damageCreature takes a projectile's damage dmg from creature i; a kill
// scores one point (not a kill) for the shooter and is not reported as an
// event.
func (w *World) damageCreature(i, dmg int, attacker PlayerID) {
	c := &w.creatures[i]
	c.health -= dmg
	c.hurtUntil = w.tick + HurtTicks
	if c.health > 0 {
		return
	}
	c.dead, c.walking = true, false
	c.respawnAt = w.tick + CreatureRespawnTicks
	w.stats.CreatureKills++
	if k := w.credit(attacker); k != nil {
		k.score++
		k.dirty = true
	}
}

// stepPickups brings back pickups whose time has come and gives each live
// one to the first live player (in slot order) touching it who can take it
// (canTake). During the intermission nothing is taken.
func (w *World) stepPickups() {
	const reach = (PlayerRadius + PickupRadius) * (PlayerRadius + PickupRadius)
	for k := range w.pickups {
		pk := &w.pickups[k]
		if !pk.live {
			if w.tick >= pk.respawnAt {
				pk.x, pk.y = w.pickupSpot()
				pk.gen++
				pk.live, pk.dirty = true, true
			}
			continue
		}
		if w.intermission {
			continue
		}
		for i := range w.players {
			p := &w.players[i]
			if !p.active || p.dead || !canTake(p, pk.kind) {
				continue
			}
			if dx, dy := p.x-pk.x, p.y-pk.y; dx*dx+dy*dy >= reach {
				continue
			}
			w.takePickup(p, pk)
			break
		}
	}
}

// trimQueue lets a player's input queue shrink when it has held two
// spare inputs for SpareTicks steps in a row. The queue is the input's
// jitter buffer: a spare input covers an input that arrives a little late
// (the server steps that player as before without an input, which the
// client's prediction does not know). A client keeps its queue's depth by
// timing: the snapshots tell it how many inputs waited (InputSpare) and it
// sends a little earlier or later to keep that a little above none. One
// that does not (a stall on the way leaves a spare behind for good, each a
// tick of delay between the player's hand and the world, which a shot
// judged in the past must rewind over too) is trimmed: when three or more
// inputs have waited at every step for SpareTicks, the oldest is dropped
// (dropOldest): its movement is lost (the client's prediction corrects by
// a step, smoothly), its fire and dash carry over to the next. The gun's
// interval counts ticks, and the client's prediction counts inputs; so
// that a shot the client predicted is never refused for coming a tick
// early, a trim since the last shot lets the next come a tick sooner if
// its input is the interval's number of inputs after the last shot's
// (fire). A flood of inputs, whose numbers run ahead of the ticks, gets no
// such tick.
func (w *World) trimQueue(p *player) {
	if p.queued < 3 {
		p.spare = 0
		return
	}
	if p.spare++; p.spare < SpareTicks {
		return
	}
	p.spare = 0
	p.dropOldest(true)
	p.trimmed = p.hasShot
	w.stats.InputsTrimmed++
}

// dropOldest drops the oldest of two or more queued inputs; its fire and
// dash carry over to the next (carryPress; early: a trim's).
func (p *player) dropOldest(early bool) {
	carryPress(&p.queue[0], &p.queue[1], early)
	copy(p.queue[:], p.queue[1:p.queued])
	p.queued--
}

// carryPress carries the fire and the dash of an input that is dropped,
// old, to the input after it, next. The fire keeps the dropped input's
// sequence and aim (the client predicted that shot, from that input). A
// trim's (early) counts as pressed a tick earlier, so that the gun's
// interval counts from it as the client's prediction does; a full queue's
// does not, or a flood of inputs, each dropping the one before, would fire
// a tick sooner every shot. A fire already carried carries on as it is.
func carryPress(old, next *queuedInput, early bool) {
	next.dash = next.dash || old.dash
	if !old.fire {
		return
	}
	next.fire, next.view, next.floor, next.early, next.carried = true, old.view, old.floor, early || old.early, true
	if old.carried {
		next.fireSeq, next.fireAim, next.fireAimOK = old.fireSeq, old.fireAim, old.fireAimOK
		return
	}
	next.fireSeq, next.fireAim, next.fireAimOK = old.seq, old.aim, old.aimOK
}
