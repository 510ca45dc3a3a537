package server_test

import (
	"math"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
)

// A hacked client cannot beat the new rules through the server: sending
// sixteen new inputs a tick with every button bit but the dash set and
// fire held, it fires no spread shot without holding the spread gun (one
// projectile a shot), no more than SpreadShots spread shots and none sooner
// than SpreadFireInterval after the last, deals double damage only with
// shots fired before its power-up's end (never without one), and fires
// nothing and hurts nobody during the intermission.
func TestCheatingNewRulesGainNothing(t *testing.T) {
	const round = 100 * arena.TickRate
	cfg := arena.Config{Pickups: -1, SpreadGuns: 1, PowerUps: 1, MaxPlayers: 4, RoundTicks: round}
	seed, l := findScene(t, cfg, 2, func(l sceneLayout) bool {
		sA, sB, sp, pw := l.spawns[0], l.spawns[1], l.pickup(0), l.pickup(1)
		nx, ny := short(sA, sB, 150)
		near := [2]float64{nx, ny}
		dist := func(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }
		return l.clear(sA, sB) && l.clear(near, sp) && l.clear(sp, pw) && l.clear(pw, sB) &&
			dist(sA, sB)+dist(near, sp)+dist(sp, pw)+dist(pw, sB) < 6000 && dist(pw, sB) > 300 && dist(near, sp) > 100
	})
	cfg.Seed = seed
	s := newScene(t, cfg, 2, 0)
	a, b := s.ps[0], s.ps[1]
	sA, sB, sp, pw := l.spawns[0], l.spawns[1], l.pickup(0), l.pickup(1)
	world := s.world
	fireAll := func(n int, each func()) {
		a.in.Buttons = arena.ButtonFire
		for range n {
			s.step()
			if each != nil {
				each()
			}
		}
		a.in.Buttons = 0
		s.run(arena.InputQueue + 1) // the queued fire inputs run out
	}
	// The gun's pace: one projectile a shot, FireInterval apart.
	onePerShot := func() {
		st := world.Stats()
		if st.SpreadShots != 0 || st.PoweredShots != 0 {
			t.Fatalf("tick %d: %d spread and %d powered shots without a pickup", s.tick(), st.SpreadShots, st.PoweredShots)
		}
	}

	// 1. Near B, without anything: the gun, single damage.
	x, y := short(sA, sB, 150)
	s.walkTo(a, x, y, 600)
	s.aimAt(a, b)
	fired := world.Stats().ShotsFired
	start := s.tick()
	fireAll(15, onePerShot)
	shots := world.Stats().ShotsFired - fired
	if ticks := uint64(s.tick() - start); shots == 0 || shots > ticks/arena.FireInterval+1 {
		t.Fatalf("%d gun shots in %d ticks", shots, ticks)
	}
	hits := b.hitsSince(start)
	if len(hits) == 0 {
		t.Fatal("the cheater never hit B: the test did not test damage")
	}
	for _, h := range hits {
		if h.Damage != arena.ProjectileDamage {
			t.Fatalf("a hit without a power-up took %d", h.Damage)
		}
	}

	// 2. The spread gun: SpreadShots shots, SpreadFireInterval apart, fired
	// away from B.
	s.walkTo(a, sp[0], sp[1], 600)
	a.in.Aim = math.Atan2(sp[1]-y, sp[0]-x)
	var spreadAt []uint32
	last := uint64(0)
	fireAll(arena.SpreadShots*arena.SpreadFireInterval+60, func() {
		if n := world.Stats().SpreadShots; n != last {
			if n != last+1 {
				t.Fatalf("tick %d: %d spread shots at once", s.tick(), n-last)
			}
			spreadAt, last = append(spreadAt, s.tick()), n
		}
	})
	if len(spreadAt) != arena.SpreadShots {
		t.Fatalf("%d spread shots from one spread gun, want %d", len(spreadAt), arena.SpreadShots)
	}
	for i := 1; i < len(spreadAt); i++ {
		if spreadAt[i]-spreadAt[i-1] < arena.SpreadFireInterval {
			t.Fatalf("spread shots at ticks %d and %d", spreadAt[i-1], spreadAt[i])
		}
	}

	// 3. The power-up: double damage for the shots fired before its end,
	// never after.
	s.walkTo(a, pw[0], pw[1], 600)
	s.run(3)
	lo, ok := a.loadoutOf(a.id)
	if !ok || lo.PowerEnd <= s.tick() {
		t.Fatalf("loadout %+v %v after the power-up", lo, ok)
	}
	x, y = short(pw, sB, 150)
	s.walkTo(a, x, y, 600)
	s.aimAt(a, b)
	start = s.tick()
	var poweredAtEnd uint64
	fireAll(int(lo.PowerEnd-s.tick())+90, func() {
		if s.tick() == lo.PowerEnd {
			poweredAtEnd = world.Stats().PoweredShots
		}
	})
	st := world.Stats()
	if st.PoweredShots == 0 || st.PoweredShots != poweredAtEnd || st.PoweredShots > arena.PowerTicks/arena.FireInterval+1 {
		t.Fatalf("%d powered shots, %d at the power-up's end", st.PoweredShots, poweredAtEnd)
	}
	doubled := 0
	for _, h := range a.hits {
		if h.tick <= start || h.hit.Attacker != uint32(a.id) {
			continue
		}
		switch h.hit.Damage {
		case arena.PowerFactor * arena.ProjectileDamage:
			doubled++
			if h.tick > lo.PowerEnd+10 { // a shot flies 150 px in 7 ticks
				t.Fatalf("a doubled hit at tick %d, the power-up ended at %d", h.tick, lo.PowerEnd)
			}
		case arena.ProjectileDamage:
		default:
			t.Fatalf("a hit of %d", h.hit.Damage)
		}
	}
	if doubled == 0 {
		t.Fatal("no doubled hit: the test did not test the power-up")
	}

	// 4. The intermission: fire held throughout, nothing flies.
	for s.tick() < round-5 {
		s.step()
	}
	s.aimAt(a, b)
	fired, refused := world.Stats().ShotsFired, world.Stats().ShotsRefused
	a.in.Buttons = arena.ButtonFire
	for s.tick() < round+arena.DefaultIntermissionTicks-1 {
		s.step()
		if s.tick() > round && world.Stats().ShotsFired != fired {
			t.Fatalf("tick %d: a shot in the intermission", s.tick())
		}
		fired = world.Stats().ShotsFired
		if tick, p := a.projectilesAt(); tick >= round && len(p) != 0 {
			t.Fatalf("tick %d: %d projectiles in the intermission", tick, len(p))
		}
	}
	if h := b.hitsSince(round); len(h) != 0 {
		t.Fatalf("hits in the intermission: %+v", h)
	}
	if world.Stats().ShotsRefused-refused < arena.DefaultIntermissionTicks/2 {
		t.Fatal("the cheater's fire in the intermission was not refused: the test did not test it")
	}
	for i, c := range []*actor{a, b} {
		if cs := c.c.Stats(); cs.Mismatched != 0 || cs.Verified == 0 {
			t.Errorf("client %d: %d of %d verified ticks mismatched", i, cs.Mismatched, cs.Verified)
		}
	}
}
