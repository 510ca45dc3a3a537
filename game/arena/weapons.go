package arena

import "math"

// fire fires the player's weapon along its aim: the gun's one projectile, or
// with the spread gun a fan of SpreadPellets pellets SpreadAngle apart, the
// middle one along the aim. It refuses (ShotsRefused) during the
// intermission, sooner than the interval of the weapon that fired the
// player's last shot (FireInterval or SpreadFireInterval), or, which the
// slot count rules out in play, when too few projectile slots are free.
// Every projectile's damage is fixed now: doubled while the player's
// power-up lasts (PowerFactor).
//
// The shot is input q's: it claims q's view, and is named by q's sequence
// (Hit.Shot), or by those of the input whose fire q carries (carryPress),
// aimed as that input aimed.
func (w *World) fire(p *player, slot int, q *queuedInput) {
	seq, aim0 := q.seq, p.aim
	if q.carried {
		seq = q.fireSeq
		if q.fireAimOK {
			aim0 = q.fireAim
		}
	}
	if w.intermission || !p.gunReady(w.tick, seq) {
		w.stats.ShotsRefused++
		return
	}
	n, ticks, dmg, weapon, wait := 1, uint32(ProjectileTicks), ProjectileDamage, WeaponGun, uint32(FireInterval)
	if p.spread > 0 {
		n, ticks, dmg, weapon, wait = SpreadPellets, SpreadTicks, SpreadDamage, WeaponSpread, SpreadFireInterval
	}
	if w.free.size < n {
		w.stats.ShotsRefused++
		return
	}
	if w.tick < p.powerEnd {
		dmg *= PowerFactor
		w.stats.PoweredShots++
	}
	seen, since, rewound := w.seenFrom(q.view, q.floor)
	for k := range n {
		aim := aim0
		if n > 1 {
			aim = PelletAim(aim, k)
		}
		s := w.launch(p, slot, aim, ticks, dmg, weapon)
		s.seen, s.since, s.rewound, s.seq, s.clamped = seen, since, rewound, seq, w.seenClamped
		if rewound {
			w.stats.Rewind.Shots++
			w.stats.Rewind.Ticks += uint64(w.tick-seen.From-1)*256 - uint64(seen.Gap)*uint64(seen.Frac)
		}
	}
	p.lastShot, p.lastShotSeq, p.hasShot, p.shotWait, p.trimmed = w.tick, seq, true, wait, false
	if q.early { // pressed on the input the queue dropped before this one
		p.lastShot--
	}
	p.shieldUntil = min(p.shieldUntil, w.tick) // a shielded player who shoots can be shot
	p.shots += uint32(n)
	if weapon == WeaponSpread {
		w.stats.SpreadShots++
		p.spread--
		p.loadDirty = true
	}
}

// gunReady reports whether the player's weapon may fire on tick, for
// input seq: the interval of the weapon that fired the last shot has
// passed, or falls short by a tick that a trim of the player's queue took
// away since while the inputs kept pace with the ticks (trimQueue).
func (p *player) gunReady(tick, seq uint32) bool {
	if !p.hasShot {
		return true
	}
	ticks, inputs := tick-p.lastShot, seq-p.lastShotSeq
	return ticks >= p.shotWait || p.trimmed && ticks+1 >= p.shotWait && inputs >= p.shotWait && inputs <= p.shotWait+1
}

// PelletAim returns the heading of pellet k (0..SpreadPellets-1) of a
// spread shot fired along aim (in [0, 2π)): the middle one along the aim,
// the others SpreadAngle apart, in [0, 2π).
func PelletAim(aim float64, k int) float64 {
	return wrapAngle(aim + float64(k-(SpreadPellets-1)/2)*SpreadAngle)
}

// launch spawns one projectile of player p at its centre heading aim.
func (w *World) launch(p *player, slot int, aim float64, ticks uint32, dmg int, weapon Weapon) *shot {
	k, _ := w.free.pop() // fire checked there are enough
	sin, cos := math.Sincos(aim)
	w.shots[k] = shot{
		live: true, x: p.x, y: p.y, x0: p.x, y0: p.y,
		vx: cos * ProjectileSpeed * Dt, vy: sin * ProjectileSpeed * Dt,
		heading: aim, owner: p.id, ownerSlot: int32(slot),
		expires: w.tick + ticks, damage: dmg, weapon: weapon,
	}
	w.bumpGen(w.shotBase + int(k))
	w.stats.ShotsFired++
	return &w.shots[k]
}

// canTake reports whether a live player may take a pickup of kind: a health
// pack only when hurt; a spread gun or a power-up always (it refills or
// restarts what the player has).
func canTake(p *player, kind uint8) bool {
	return kind != PickupHealth || p.health < PlayerHealth
}

// takePickup gives pickup pk to player p and takes it off the floor for its
// kind's respawn time.
func (w *World) takePickup(p *player, pk *pickup) {
	wait := uint32(PickupRespawnTicks)
	switch pk.kind {
	case PickupHealth:
		p.health = min(p.health+PickupHeal, PlayerHealth)
		w.stats.PickupsTaken++
	case PickupSpread:
		p.spread, p.loadDirty = SpreadShots, true
		wait = SpreadRespawnTicks
		w.stats.SpreadTaken++
	case PickupPower:
		p.powerEnd, p.loadDirty = w.tick+PowerTicks, true
		wait = PowerRespawnTicks
		w.stats.PowerTaken++
	}
	pk.live, pk.dirty = false, true
	pk.respawnAt = w.tick + wait
}

// dropLoadout takes the spread gun and a running power-up from a player who
// died or whose round ended.
func (w *World) dropLoadout(p *player) {
	if p.spread == 0 && w.tick >= p.powerEnd {
		return
	}
	p.spread, p.powerEnd, p.loadDirty = 0, 0, true
}

// loadout returns what the player carries, as its record says.
func (p *player) loadout() Loadout {
	l := Loadout{Weapon: WeaponGun, PowerEnd: p.powerEnd}
	if p.spread > 0 {
		l.Weapon, l.Shots = WeaponSpread, p.spread
	}
	return l
}

// hashLoadout adds the player's loadout, accuracy and weapon wait to a
// world hash.
func (p *player) hashLoadout(h *hasher) {
	h.u64(uint64(p.spread), uint64(p.powerEnd), uint64(p.shots), uint64(p.hits), uint64(p.pubShots), uint64(p.pubHits), uint64(p.shotWait))
	h.bool(p.loadDirty)
}
