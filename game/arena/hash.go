package arena

import "math"

// Hash returns a 64-bit FNV-1a hash of the world's whole state: tick,
// random generator, round clock and intermission, every creature, player
// (with its queued inputs, dash, loadout, accuracy, name and score),
// projectile, free slot and pickup. Two worlds with
// the same seed given the same calls hash alike.
func (w *World) Hash() uint64 {
	h := hasher(14695981039346656037)
	rng, _ := w.pcg.MarshalBinary()
	for _, b := range rng {
		h.byte(b)
	}
	h.u64(uint64(w.tick))
	h.u64(uint64(w.round))
	h.u64(uint64(w.roundStart))
	h.u64(uint64(w.roundEnd), uint64(w.nextStart))
	h.bool(w.intermission)
	h.u64(uint64(w.steps.n))
	h.f64(w.steps.off, w.steps.late2)
	for _, g := range w.gens {
		h.byte(g)
	}
	for i := range w.creatures {
		c := &w.creatures[i]
		h.f64(c.x, c.y, c.heading)
		h.bool(c.walking, c.dead)
		h.u64(uint64(c.health), uint64(c.respawnAt), uint64(c.hurtUntil), uint64(c.biteAt))
	}
	for i := range w.players {
		p := &w.players[i]
		h.bool(p.active)
		if !p.active {
			continue
		}
		h.u64(uint64(p.id), uint64(p.health), uint64(p.respawnAt), uint64(p.hurtUntil), uint64(p.lastShot), uint64(p.shieldUntil))
		h.f64(p.x, p.y, p.aim, p.dx, p.dy)
		h.bool(p.moving, p.dead, p.hasShot)
		h.u64(uint64(p.applied), uint64(p.newest), uint64(p.queued))
		for _, q := range p.queue[:p.queued] {
			h.u64(uint64(q.seq), uint64(q.view.From), uint64(q.view.Gap), uint64(q.view.Frac), q.floor)
			h.f64(q.dx, q.dy, q.aim)
			h.bool(q.aimOK, q.fire, q.early, q.carried, q.fireAimOK)
			h.u64(uint64(q.fireSeq))
			h.f64(q.fireAim)
		}
		h.u64(uint64(p.spare), uint64(p.arrivals.n), uint64(p.lastShotSeq), uint64(int64(p.lastSpare)))
		h.bool(p.trimmed)
		h.f64(p.arrivals.off, p.arrivals.late2)
		for _, pk := range p.arrivals.peaks {
			h.u64(uint64(pk))
		}
		h.u64(uint64(p.arrivals.second))
		p.hashDash(&h)
		p.hashLoadout(&h)
		h.u64(uint64(p.kills), uint64(p.deaths), uint64(p.score))
		for _, b := range []byte(p.name) {
			h.byte(b)
		}
	}
	for k := range w.shots {
		s := &w.shots[k]
		h.bool(s.live)
		if s.live {
			h.f64(s.x, s.y, s.vx, s.vy, s.heading)
			h.u64(uint64(s.owner), uint64(s.ownerSlot), uint64(s.expires), uint64(s.damage), uint64(s.weapon))
			h.u64(uint64(s.seen.From), uint64(s.seen.Gap), uint64(s.seen.Frac), s.since, uint64(s.seq))
			h.bool(s.rewound)
		}
	}
	for i := range w.free.size {
		h.u64(uint64(w.free.buf[(w.free.head+i)%len(w.free.buf)]))
	}
	for k := range w.pickups {
		pk := &w.pickups[k]
		h.bool(pk.live)
		h.byte(pk.kind)
		h.f64(pk.x, pk.y)
		h.u64(uint64(pk.gen), uint64(pk.respawnAt))
	}
	return uint64(h)
}

type hasher uint64

func (h *hasher) byte(b byte) {
	*h ^= hasher(b)
	*h *= 1099511628211
}

func (h *hasher) u64(vs ...uint64) {
	for _, v := range vs {
		for range 8 {
			h.byte(byte(v))
			v >>= 8
		}
	}
}

func (h *hasher) f64(vs ...float64) {
	for _, v := range vs {
		h.u64(math.Float64bits(v))
	}
}

func (h *hasher) bool(vs ...bool) {
	for _, v := range vs {
		if v {
			h.byte(1)
		} else {
			h.byte(0)
		}
	}
}
