package arena

import (
	"math"
	"testing"
)

// loadoutOf returns the loadout record ChangedRecords reports for player id
// now, if it reports one.
func loadoutOf(w *World, id PlayerID) (Loadout, bool) {
	var l Loadout
	found := false
	w.ChangedRecords(func(r Record) {
		if r.Kind == RecordLoadout && r.Index == uint32(id) && !r.Deleted {
			l, found = r.Loadout, true
		}
	})
	return l, found
}

// pickupUnder puts pickup k under player id's feet.
func pickupUnder(t *testing.T, w *World, k int, id PlayerID) *pickup {
	t.Helper()
	p := w.playerOf(t, id)
	pk := &w.pickups[k]
	pk.x, pk.y = p.x, p.y
	return pk
}

// unshield ends the spawn shields of the players given.
func unshield(t *testing.T, w *World, ids ...PlayerID) {
	for _, id := range ids {
		w.playerOf(t, id).shieldUntil = 0
	}
}

// shotsOf returns the live projectiles of player id.
func shotsOf(w *World, id PlayerID) []*shot {
	var out []*shot
	for k := range w.shots {
		if s := &w.shots[k]; s.live && s.owner == id {
			out = append(out, s)
		}
	}
	return out
}

// A player who walks onto a spread gun gets SpreadShots spread shots: each a
// fan of SpreadPellets pellets SpreadAngle apart, SpreadDamage each, living
// SpreadTicks, at most one every SpreadFireInterval ticks; a kill by a
// pellet says WeaponSpread; then it has the gun again. The loadout record
// follows every change.
func TestSpreadGun(t *testing.T) {
	w := newBare(t, Config{Seed: 4, SpreadGuns: 1, MaxPlayers: 2})
	w.AddPlayer(1)
	w.AddPlayer(2)
	place(t, w, 1, mid-100, mid)
	place(t, w, 2, mid-40, mid) // 60 px away: every pellet hits
	unshield(t, w, 1, 2)
	w.ChangedRecords(func(Record) {})
	pk := pickupUnder(t, w, 0, 1)
	if pk.kind != PickupSpread {
		t.Fatalf("pickup 0 is kind %d", pk.kind)
	}
	w.Step()
	if l, ok := loadoutOf(w, 1); !ok || l != (Loadout{Weapon: WeaponSpread, Shots: SpreadShots}) || pk.live {
		t.Fatalf("after walking onto the spread gun: loadout %+v (%v), pickup live %v", l, ok, pk.live)
	}
	if st := w.Stats(); st.SpreadTaken != 1 || st.PickupsTaken != 0 {
		t.Fatalf("stats %+v", st)
	}

	s := seqs{}
	s.apply(w, 1, Input{Buttons: ButtonFire, Aim: 0})
	w.Step()
	pellets := shotsOf(w, 1)
	if len(pellets) != SpreadPellets {
		t.Fatalf("%d pellets, want %d", len(pellets), SpreadPellets)
	}
	for k, want := range []float64{2*math.Pi - SpreadAngle, 0, SpreadAngle} {
		p := pellets[k]
		if math.Abs(math.Remainder(p.heading-want, 2*math.Pi)) > 1e-9 || p.damage != SpreadDamage || p.weapon != WeaponSpread || p.expires != w.tick+SpreadTicks {
			t.Fatalf("pellet %d: heading %.4f damage %d weapon %d expires %d; want %.4f, %d, spread, %d",
				k, p.heading, p.damage, p.weapon, p.expires, want, SpreadDamage, w.tick+SpreadTicks)
		}
	}
	if l, _ := loadoutOf(w, 1); l.Shots != SpreadShots-1 {
		t.Fatalf("shots left %d", l.Shots)
	}
	var hits []Hit
	var kills []Kill
	collect := func() {
		for _, e := range take(t, w) {
			switch e.Kind {
			case EventHit:
				hits = append(hits, e.Hit)
			case EventKill:
				kills = append(kills, e.Kill)
			}
		}
	}
	for range 5 {
		w.Step()
		collect()
	}
	if len(hits) != SpreadPellets || w.playerOf(t, 2).health != PlayerHealth-SpreadPellets*SpreadDamage {
		t.Fatalf("hits %+v, B's health %d", hits, w.playerOf(t, 2).health)
	}
	for _, h := range hits {
		if h != (Hit{Attacker: 1, Target: 2, Damage: SpreadDamage, Shot: h.Shot}) || h.Shot == 0 {
			t.Fatalf("hit %+v", h)
		}
	}

	// Hold the trigger: the spread shots come SpreadFireInterval apart until
	// they run out, then the gun's.
	var fired []uint32 // ticks with new projectiles, and how many
	var counts []int
	before := w.Stats().ShotsFired
	for range SpreadShots*SpreadFireInterval + 20 {
		s.apply(w, 1, Input{Buttons: ButtonFire, Aim: 0})
		w.Step()
		collect()
		if n := w.Stats().ShotsFired; n != before {
			fired, counts = append(fired, w.tick), append(counts, int(n-before))
			before = n
		}
	}
	spread := 0
	for i, n := range counts {
		switch {
		case i < SpreadShots-1:
			if n != SpreadPellets || (i > 0 && fired[i]-fired[i-1] != SpreadFireInterval) {
				t.Fatalf("shot %d: %d projectiles, %d ticks after the last", i, n, fired[i]-fired[max(i-1, 0)])
			}
			spread++
		default:
			if n != 1 {
				t.Fatalf("shot %d after the spread gun ran out: %d projectiles", i, n)
			}
			if want := uint32(SpreadFireInterval); i == SpreadShots-1 && fired[i]-fired[i-1] != want {
				t.Fatalf("the first gun shot came %d ticks after the last spread shot, want %d", fired[i]-fired[i-1], want)
			} else if i > SpreadShots-1 && fired[i]-fired[i-1] != FireInterval {
				t.Fatalf("gun shots %d ticks apart", fired[i]-fired[i-1])
			}
		}
	}
	if spread != SpreadShots-1 || len(counts) < SpreadShots+2 {
		t.Fatalf("%d spread shots after the first, %d shots in all", spread, len(counts))
	}
	if l, _ := loadoutOf(w, 1); l != (Loadout{Weapon: WeaponGun}) {
		t.Fatalf("loadout after the last spread shot: %+v", l)
	}
	if len(kills) == 0 || kills[0].Killer != 1 || kills[0].Victim != 2 || kills[0].Weapon != WeaponSpread {
		t.Fatalf("kills %+v", kills)
	}
	st := w.Stats()
	if st.SpreadShots != SpreadShots || st.SpreadKills != uint64(len(kills)) {
		t.Fatalf("stats %+v", st)
	}
	a := w.playerOf(t, 1)
	if a.shots != uint32(st.ShotsFired) || a.hits != uint32(st.Hits) || a.hits < uint32(len(hits)) {
		t.Fatalf("A's accuracy %d of %d; world %d of %d, %d hit events", a.hits, a.shots, st.Hits, st.ShotsFired, len(hits))
	}
}

// A power-up doubles the damage of the shots fired while it lasts, to
// players and creatures; a shot keeps the damage it was fired with; dying
// takes the power-up and the spread gun away.
func TestPowerUp(t *testing.T) {
	w := newBare(t, Config{Seed: 4, PowerUps: 1, SpreadGuns: 1, MaxPlayers: 2})
	w.AddPlayer(1)
	w.AddPlayer(2)
	place(t, w, 1, mid-100, mid)
	place(t, w, 2, mid+100, mid)
	unshield(t, w, 1, 2)
	w.ChangedRecords(func(Record) {})
	pk := pickupUnder(t, w, 1, 1)
	if pk.kind != PickupPower {
		t.Fatalf("pickup 1 is kind %d", pk.kind)
	}
	w.Step()
	taken := w.tick
	l, ok := loadoutOf(w, 1)
	if !ok || l != (Loadout{Weapon: WeaponGun, PowerEnd: taken + PowerTicks}) || !l.Powered(taken+PowerTicks-1) || l.Powered(taken+PowerTicks) {
		t.Fatalf("loadout %+v (%v)", l, ok)
	}
	s := seqs{}
	hitsOf := func(n int) []Hit {
		var out []Hit
		for range n {
			w.Step()
			for _, e := range take(t, w) {
				if e.Kind == EventHit {
					out = append(out, e.Hit)
				}
			}
		}
		return out
	}
	s.apply(w, 1, Input{Buttons: ButtonFire})
	if h := hitsOf(15); len(h) != 1 || h[0].Damage != PowerFactor*ProjectileDamage {
		t.Fatalf("a shot with the power-up: %+v", h)
	}
	// The last tick of the power-up: the shot keeps its double damage.
	for w.tick < taken+PowerTicks-2 {
		w.Step()
	}
	s.apply(w, 1, Input{Buttons: ButtonFire})
	if h := hitsOf(15); len(h) != 1 || h[0].Damage != PowerFactor*ProjectileDamage || w.tick < taken+PowerTicks {
		t.Fatalf("a shot fired on tick %d, the power-up's last: %+v", taken+PowerTicks-1, h)
	}
	s.apply(w, 1, Input{Buttons: ButtonFire})
	if h := hitsOf(15); len(h) != 1 || h[0].Damage != ProjectileDamage {
		t.Fatalf("a shot after the power-up: %+v", h)
	}
	if st := w.Stats(); st.PowerTaken != 1 || st.PoweredShots != 2 {
		t.Fatalf("stats %+v", st)
	}

	// Creatures take double damage too.
	c := newBare(t, Config{Seed: 4, Creatures: 1, MaxPlayers: 1})
	c.AddPlayer(1)
	place(t, c, 1, mid-100, mid)
	c.creatures[0].x, c.creatures[0].y, c.creatures[0].walking = mid, mid, false
	c.playerOf(t, 1).powerEnd = 100
	(seqs{}).apply(c, 1, Input{Buttons: ButtonFire})
	for range 10 {
		c.Step()
	}
	if h := c.creatures[0].health; h != CreatureHealth-PowerFactor*ProjectileDamage && !c.creatures[0].dead {
		t.Fatalf("creature's health %d after a doubled shot", h)
	}

	// Death takes everything away.
	w.ChangedRecords(func(Record) {})
	a := w.playerOf(t, 1)
	a.spread, a.powerEnd = 5, w.tick+100
	w.damagePlayer(0, PlayerHealth, 0, WeaponBite, 0)
	if l, ok := loadoutOf(w, 1); !ok || l != (Loadout{Weapon: WeaponGun}) {
		t.Fatalf("loadout after dying: %+v (%v)", l, ok)
	}
}

// Health packs go only to hurt players; spread guns and power-ups to anyone,
// refilling and restarting what the player has; each kind comes back after
// its own time.
func TestPickupKinds(t *testing.T) {
	w := newBare(t, Config{Seed: 6, Pickups: 1, SpreadGuns: 1, PowerUps: 1, MaxPlayers: 1})
	w.AddPlayer(1)
	place(t, w, 1, mid, mid)
	a := w.playerOf(t, 1)
	for k, c := range []struct {
		kind  uint8
		taken bool
		wait  uint32
	}{{PickupHealth, false, PickupRespawnTicks}, {PickupSpread, true, SpreadRespawnTicks}, {PickupPower, true, PowerRespawnTicks}} {
		a.spread, a.powerEnd = 3, w.tick+5
		pk := pickupUnder(t, w, k, 1)
		w.Step()
		if pk.live == c.taken || pk.kind != c.kind {
			t.Fatalf("pickup %d (kind %d) at full health: taken %v, want %v", k, pk.kind, !pk.live, c.taken)
		}
		if !c.taken {
			continue
		}
		if pk.respawnAt != w.tick+c.wait {
			t.Fatalf("kind %d back at %d, want %d", c.kind, pk.respawnAt, w.tick+c.wait)
		}
		switch c.kind {
		case PickupSpread:
			if a.spread != SpreadShots {
				t.Fatalf("spread shots %d after a refill", a.spread)
			}
		case PickupPower:
			if a.powerEnd != w.tick+PowerTicks {
				t.Fatalf("power-up ends %d, want %d (restarted, not added)", a.powerEnd, w.tick+PowerTicks)
			}
		}
	}
	for w.tick < SpreadRespawnTicks+5 {
		place(t, w, 1, mid-300, mid)
		w.Step()
	}
	if !w.pickups[1].live || w.pickups[2].live {
		t.Fatalf("spread gun back %v (want), power-up back %v (too soon)", w.pickups[1].live, w.pickups[2].live)
	}
}

// During the intermission nobody fires, takes damage or takes a pickup;
// the projectiles in flight at the round's end vanish; spread guns and
// power-ups are taken away at the end; players still walk.
func TestIntermission(t *testing.T) {
	w, s := duel(t, Config{Seed: 4, RoundTicks: 60, Creatures: 1, SpreadGuns: 1})
	unshield(t, w, 1, 2)
	b := w.playerOf(t, 2)
	a := w.playerOf(t, 1)
	for w.tick < 55 {
		w.Step()
	}
	a.spread = 4
	s.apply(w, 1, Input{Buttons: ButtonFire}) // tick 56: the fan is in flight at the end
	for w.tick < 59 {
		w.Step()
	}
	if len(shotsOf(w, 1)) != SpreadPellets {
		t.Fatalf("%d pellets in flight", len(shotsOf(w, 1)))
	}
	w.Step() // tick 60: the round ends
	take(t, w)
	if !w.Intermission() || len(shotsOf(w, 1)) != 0 || a.spread != 0 || b.health != PlayerHealth {
		t.Fatalf("round over: intermission %v, %d shots in flight, spread %d", w.Intermission(), len(shotsOf(w, 1)), a.spread)
	}
	health := b.health
	refused := w.Stats().ShotsRefused
	// A creature on B, a spread gun under A, A firing: nothing happens.
	cr := &w.creatures[0]
	cr.x, cr.y, cr.walking, cr.biteAt = b.x, b.y, false, 0
	pk := pickupUnder(t, w, 0, 1)
	x0 := a.x
	for w.tick < 60+DefaultIntermissionTicks-1 {
		cr.x, cr.y = b.x, b.y
		s.apply(w, 1, Input{Buttons: ButtonFire, MoveX: 127})
		w.Step()
		if evs := take(t, w); len(evs) != 0 {
			t.Fatalf("tick %d: events in the intermission %+v", w.tick, evs)
		}
		pk.x, pk.y = a.x, a.y
	}
	if b.health != health || !pk.live || len(shotsOf(w, 1)) != 0 || w.Stats().ShotsRefused == refused {
		t.Fatalf("intermission: B's health %d (was %d), pickup live %v, %d shots", b.health, health, pk.live, len(shotsOf(w, 1)))
	}
	if a.x == x0 {
		t.Fatal("players do not walk in the intermission")
	}
	w.Step() // the next round starts; from the next Step on, fire, bites and pickups work again
	place(t, w, 1, mid-100, mid)
	place(t, w, 2, mid+100, mid)
	pickupUnder(t, w, 0, 1)
	cr.x, cr.y, cr.biteAt = b.x, b.y, 0
	s.apply(w, 1, Input{Buttons: ButtonFire})
	w.Step()
	if w.Intermission() || len(shotsOf(w, 1)) != 1 || b.health >= health || a.spread != SpreadShots || pk.live {
		t.Fatalf("next round: intermission %v, %d shots, B's health %d, spread %d", w.Intermission(), len(shotsOf(w, 1)), b.health, a.spread)
	}
}

// A press on an input the queue trims carries over to the next input,
// with its aim and its sequence, and counts from the trimmed input's tick,
// as a client predicting its shots counts it: the shot FireInterval inputs
// after it fires too. So does a shot FireInterval inputs after one fired
// before a trim drops an input between them.
func TestFireCarriedOverATrim(t *testing.T) {
	for _, tc := range []struct {
		name string
		// The first press is on the input sent this many steps before the
		// step that trims the queue: 3 is the input the trim drops.
		before int
	}{
		{"a press on the trimmed input", 3},
		{"a trim between two shots", 5},
		{"a trim right after a shot", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newBare(t, Config{Seed: 1})
			w.AddPlayer(1)
			for range SpawnShieldTicks {
				w.Step()
			}
			p := w.playerOf(t, 1)
			seq := uint32(0)
			send := func(fire bool) {
				seq++
				in := Input{MoveX: 50, Aim: 2}
				if fire {
					in.Buttons, in.Aim = ButtonFire, 1
				}
				w.ApplyInput(1, seq, in)
			}
			for range 3 { // three inputs wait ahead of each new one
				send(false)
			}
			var first uint32
			for range SpareTicks + 20 {
				toTrim := SpareTicks - 1 - p.spare // steps until the one that trims (0: this one)
				fire := first == 0 && toTrim == tc.before || first != 0 && seq+1 == first+FireInterval
				send(fire)
				if fire && first == 0 {
					first = seq
				}
				w.Step()
				for k := range w.shots {
					if sh := &w.shots[k]; sh.live && sh.flown == 1 && (sh.heading != 1 || (sh.seq != first && sh.seq != first+FireInterval)) {
						t.Fatalf("a shot of input %d heading %.3f, want input %d or %d heading 1", sh.seq, sh.heading, first, first+FireInterval)
					}
				}
			}
			if w.stats.InputsTrimmed != 1 {
				t.Fatalf("%d trims, want 1", w.stats.InputsTrimmed)
			}
			if got := w.stats.ShotsFired; got != 2 || w.stats.ShotsRefused != 0 {
				t.Fatalf("%d shots fired, %d refused; want 2, 0", got, w.stats.ShotsRefused)
			}
		})
	}
}

// A full queue never drops a fire: the oldest input goes, its fire carried
// to the next with its sequence and aim; so does a fire on an input older
// than everything queued.
func TestFullQueueKeepsFire(t *testing.T) {
	for _, tc := range []struct {
		name string
		late bool // the fire is on an input older than the queue's
	}{
		{"the oldest queued fires", false},
		{"a late input fires", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newBare(t, Config{Seed: 1})
			w.AddPlayer(1)
			for range SpawnShieldTicks {
				w.Step()
			}
			first := uint32(1)
			if tc.late {
				first = 2
			}
			for seq := first; seq < first+InputQueue; seq++ {
				in := Input{Aim: 2}
				if seq == 1 {
					in.Buttons, in.Aim = ButtonFire, 1
				}
				w.ApplyInput(1, seq, in)
			}
			if tc.late {
				w.ApplyInput(1, 1, Input{Buttons: ButtonFire, Aim: 1})
			} else {
				w.ApplyInput(1, first+InputQueue, Input{Aim: 2})
			}
			if w.stats.DroppedQueueFull != 1 {
				t.Fatalf("%d dropped for a full queue, want 1", w.stats.DroppedQueueFull)
			}
			w.Step()
			shots := shotsOf(w, 1)
			if len(shots) != 1 || shots[0].seq != 1 || shots[0].heading != 1 {
				t.Fatalf("shots %+v; want one, of input 1, heading 1", shots)
			}
		})
	}
}
