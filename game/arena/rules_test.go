package arena

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

func TestConfig(t *testing.T) {
	w, err := NewWorld(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := w.Config()
	if c.Creatures != 300 || c.MaxPlayers != 64 || c.Pickups != 24 || c.RoundTicks != 5*60*30 ||
		c.SpreadGuns != 4 || c.PowerUps != 2 || c.IntermissionTicks != 150 {
		t.Fatalf("defaults %+v", c)
	}
	kinds := [3]int{}
	for k, pk := range w.pickups {
		kinds[pk.kind]++
		if want := pickupKindAt(c, k); pk.kind != want {
			t.Fatalf("pickup %d is kind %d, want %d", k, pk.kind, want)
		}
	}
	if kinds != [3]int{24, 4, 2} {
		t.Fatalf("pickups by kind %v", kinds)
	}
	if w.playerBase != 300 || w.shotBase != 364 || len(w.shots) != 64*ShotsInFlight || ShotsInFlight != 11 {
		t.Fatalf("layout: players from %d, projectiles from %d, %d of them", w.playerBase, w.shotBase, len(w.shots))
	}
	if w.MapSeed() != 1 || w.Map().Wall(Tiles/2, Tiles/2) || !w.Map().Wall(0, 5) {
		t.Fatal("map of the seed: open middle, walled border")
	}
	none, err := NewWorld(Config{Creatures: -1, Pickups: -1, SpreadGuns: -1, PowerUps: -1, IntermissionTicks: -1, MaxPlayers: 2})
	if err != nil || len(none.creatures) != 0 || len(none.pickups) != 0 || none.playerBase != 0 || none.Clock().Next != none.Clock().End {
		t.Fatalf("negative counts mean none: %v %d %d", err, len(none.creatures), len(none.pickups))
	}
	bad := []Config{
		{MaxPlayers: -1},
		{RoundTicks: -5},
		{Pickups: MaxPickups + 1},
		{Pickups: MaxPickups - 5, SpreadGuns: 4, PowerUps: 2}, // all kinds together count
		{Creatures: MaxSlots - 64*12 + 1},                     // one slot too many beside 64 players
		{Creatures: -1, MaxPlayers: MaxSlots/12 + 1},          // players and their shots alone overflow
	}
	for _, b := range bad {
		if _, err := NewWorld(b); !errors.Is(err, ErrConfig) {
			t.Errorf("NewWorld(%+v) = %v, want ErrConfig", b, err)
		}
	}
	if _, err := NewWorld(Config{Creatures: MaxSlots - 64*12}); err != nil {
		t.Fatalf("a full house fits: %v", err)
	}
}

// pickupKindAt returns the kind of pickup k: packs, then spread guns, then
// power-ups.
func pickupKindAt(c Config, k int) uint8 {
	switch {
	case k < c.Pickups:
		return PickupHealth
	case k < c.Pickups+c.SpreadGuns:
		return PickupSpread
	}
	return PickupPower
}

func TestSlotsAndObserve(t *testing.T) {
	w := newBare(t, Config{Seed: 3, Creatures: 10, MaxPlayers: 4})
	for id := PlayerID(1); id <= 6; id++ {
		w.AddPlayer(id)
	}
	w.AddPlayer(0) // reserved
	w.AddPlayer(MaxPlayerID + 1)
	if st := w.Stats(); st.PlayersRefused != 4 {
		t.Fatalf("refused %d players, want 4 (two beyond the slots, id 0, a too large id)", st.PlayersRefused)
	}
	for id := PlayerID(1); id <= 4; id++ {
		o, ok := w.Pose(id)
		info, _ := w.Player(id)
		if !ok || int(o.Slot) != 10+int(id)-1 || info.Slot != o.Slot || info.Generation != 1 {
			t.Fatalf("player %d: pose %+v, info %+v", id, o, info)
		}
		if o.X != info.X || o.Y != info.Y || o.Aim != info.Aim {
			t.Fatalf("pose at (%v, %v), player at (%v, %v)", o.X, o.Y, info.X, info.Y)
		}
		if w.m.Blocked(info.X, info.Y, PlayerRadius) {
			t.Fatalf("player %d spawned at (%v, %v), in a wall", id, info.X, info.Y)
		}
	}
	if o, ok := w.Pose(5); ok {
		t.Fatalf("unknown player has a pose %+v", o)
	}
	// A freed slot goes to the next player with the next generation.
	w.RemovePlayer(2)
	w.AddPlayer(7)
	if info, ok := w.Player(7); !ok || info.Slot != 11 || info.Generation != 2 {
		t.Fatalf("player 7 got %+v, want slot 11 generation 2", info)
	}
	if _, ok := w.Player(2); ok {
		t.Fatal("a removed player is still there")
	}
}

// inputGen draws any input at all, garbage included.
func inputGen() *rapid.Generator[Input] {
	return rapid.Custom(func(t *rapid.T) Input {
		return Input{
			Buttons: rapid.Uint8().Draw(t, "buttons"),
			MoveX:   rapid.Int8().Draw(t, "mx"),
			MoveY:   rapid.Int8().Draw(t, "my"),
			Aim: rapid.OneOf(rapid.Float64(), rapid.Float64Range(-10, 10),
				rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.MaxFloat64})).Draw(t, "aim"),
		}
	})
}

// TestMovementProperty: whatever the inputs and their sequence numbers,
// a player never ends a tick in a wall and never moves further than
// PlayerSpeed*Dt in a tick, except in the DashTicks ticks of a dash, when it
// moves at most DashSpeed*Dt; dashes start at least DashCooldown ticks
// apart.
func TestMovementProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64().Draw(rt, "seed")
		w := newBare(rt, Config{Seed: seed, MaxPlayers: 2})
		w.AddPlayer(1)
		w.AddPlayer(2)
		x, y := w.m.OpenSpot(rand.New(rand.NewPCG(seed, 9)), PlayerRadius)
		place(rt, w, 1, x, y)
		ticks := rapid.IntRange(1, 150).Draw(rt, "ticks")
		seq := uint32(0)
		var dashAt uint32 // tick of the last dash start
		dashed := false
		for range ticks {
			n := rapid.IntRange(0, 3).Draw(rt, "inputs this tick")
			for range n {
				if rapid.IntRange(0, 9).Draw(rt, "garbage seq") == 0 {
					w.ApplyInput(1, rapid.Uint32().Draw(rt, "seq"), inputGen().Draw(rt, "in"))
				} else {
					seq++
					w.ApplyInput(1, seq, inputGen().Draw(rt, "in"))
				}
			}
			before, dashes := *w.playerOf(rt, 1), w.stats.Dashes
			w.Step()
			p := w.playerOf(rt, 1)
			if w.stats.Dashes != dashes {
				if dashed && w.tick-dashAt < DashCooldown {
					rt.Fatalf("tick %d: a dash %d ticks after the last", w.tick, w.tick-dashAt)
				}
				dashAt, dashed = w.tick, true
			}
			limit := PlayerSpeed * Dt
			if dashed && w.tick-dashAt < DashTicks {
				limit = DashSpeed * Dt
			}
			if d := math.Hypot(p.x-before.x, p.y-before.y); d > limit+PositionGrid {
				rt.Fatalf("tick %d: moved %v px, at most %v", w.tick, d, limit)
			}
			if w.m.Blocked(p.x, p.y, PlayerRadius) {
				rt.Fatalf("tick %d: player in a wall at (%v, %v)", w.tick, p.x, p.y)
			}
			if p.aim < 0 || p.aim >= 2*math.Pi || math.IsNaN(p.aim) {
				rt.Fatalf("aim %v out of [0, 2π)", p.aim)
			}
			if p.dead || p.health != PlayerHealth {
				rt.Fatalf("a lone player lost health: %d", p.health)
			}
		}
		filled(rt, w) // every value fits the schema
	})
}

// openUnderWall finds four wall tiles side by side with three open rows
// under them, and returns a spot 20 px below the wall, in the middle.
func openUnderWall(t *testing.T, m *Map) (float64, float64) {
	for ty := 0; ty < Tiles-4; ty++ {
		for tx := 1; tx < Tiles-5; tx++ {
			ok := true
			for k := range 4 {
				ok = ok && m.Wall(tx+k, ty) && !m.Wall(tx+k, ty+1) && !m.Wall(tx+k, ty+2) && !m.Wall(tx+k, ty+3)
			}
			if ok {
				return float64((tx+2)*Tile) + 0.5, float64((ty+1)*Tile) + PlayerRadius + 20
			}
		}
	}
	t.Fatal("no open stretch under a wall")
	return 0, 0
}

func TestSlideAlongWalls(t *testing.T) {
	const ticks = 12
	w := newBare(t, Config{Seed: 5})
	x0, y0 := openUnderWall(t, w.m)
	wallY := y0 - 20 - PlayerRadius // the wall's lower edge
	step := PlayerSpeed * Dt * ticks
	cases := []struct {
		name    string
		mx, my  int8
		toWall  bool // ends touching the wall
		freeDir bool // moves the full step along its direction
	}{
		{"straight into the wall stops at it", 0, -127, true, false},
		{"diagonal into the wall slides along it", 90, -90, true, false},
		{"away from the wall", 0, 127, false, true},
		{"along the wall", -127, 0, false, true},
		{"stick beyond 1 is clamped, then slides", -128, -128, true, false},
		{"standing still", 0, 0, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newBare(t, Config{Seed: 5})
			w.AddPlayer(1)
			place(t, w, 1, x0, y0)
			s := seqs{}
			for range ticks {
				s.apply(w, 1, Input{MoveX: c.mx, MoveY: c.my})
				w.Step()
			}
			p := w.playerOf(t, 1)
			dx, dy := MoveIntent(c.mx, c.my)
			if math.Hypot(dx, dy) > 1+1e-12 {
				t.Fatalf("MoveIntent(%d, %d) = (%v, %v), longer than 1", c.mx, c.my, dx, dy)
			}
			// Along x nothing is in the way: the full step, always (each
			// tick's end on the position grid, half a step of it off at most).
			if math.Abs(p.x-x0-dx*step) > ticks*PositionGrid/2+1e-9 {
				t.Fatalf("moved %.3f along x, want %.3f", p.x-x0, dx*step)
			}
			gap := p.y - PlayerRadius - wallY
			switch {
			case gap < 0:
				t.Fatalf("player's edge %v px inside the wall", -gap)
			case c.toWall && gap >= PlayerSpeed*Dt:
				t.Fatalf("stopped %v px short of the wall", gap)
			case c.freeDir && math.Abs(p.y-y0-dy*step) > ticks*PositionGrid/2+1e-9:
				t.Fatalf("moved %.3f along y, want %.3f", p.y-y0, dy*step)
			}
		})
	}
}

func TestFireRate(t *testing.T) {
	w := newBare(t, Config{Seed: 2})
	w.AddPlayer(1)
	s := seqs{}
	fired := []uint32{}
	for range 60 {
		s.apply(w, 1, Input{Buttons: ButtonFire, Aim: 1})
		before := w.stats.ShotsFired
		w.Step()
		if w.stats.ShotsFired != before {
			fired = append(fired, w.tick)
		}
	}
	want := []uint32{1, 7, 13, 19, 25, 31, 37, 43, 49, 55}
	if len(fired) != len(want) {
		t.Fatalf("shots on ticks %v, want %v", fired, want)
	}
	for i := range want {
		if fired[i] != want[i] {
			t.Fatalf("shots on ticks %v, want %v", fired, want)
		}
	}
	if st := w.Stats(); st.ShotsFired != 10 || st.ShotsRefused != 50 || st.InputsApplied != 60 {
		t.Fatalf("stats %+v", st)
	}
	// Tick 61 asks nothing; tick 62, 7 ticks after the last shot, fires
	// (with unknown buttons, which are ignored and counted).
	s.apply(w, 1, Input{})
	w.Step()
	s.apply(w, 1, Input{Buttons: ButtonFire | 0xf0})
	w.Step()
	if w.stats.ShotsFired != 11 || w.stats.InputsClamped != 1 {
		t.Fatalf("shot after a pause: fired %d, clamped %d", w.stats.ShotsFired, w.stats.InputsClamped)
	}
}

func TestProjectileFlightAndEnd(t *testing.T) {
	w := newBare(t, Config{Seed: 2})
	w.AddPlayer(1)
	place(t, w, 1, mid, mid)
	s := seqs{}
	s.apply(w, 1, Input{Buttons: ButtonFire, Aim: math.Pi / 2}) // down
	w.Step()
	snap := filled(t, w)
	if len(snap) != 2 {
		t.Fatalf("%d entities, want the player and its projectile", len(snap))
	}
	r, ok := row(snap, w.shotBase)
	if !ok || r.Kind != KindProjectile || r.Generation != 1 || math.Abs(r.Heading-math.Pi/2) > 1e-9 {
		t.Fatalf("projectile %+v %v", r, ok)
	}
	if y := r.Y; math.Abs(y-(mid+ProjectileSpeed*Dt)) > 1e-9 {
		t.Fatalf("after one tick the projectile is at y %v, want %v", y, mid+ProjectileSpeed*Dt)
	}
	// It flies until a wall or ProjectileTicks, whichever is first.
	sh := &w.shots[0]
	wallAt := 0
	for y := mid; ; y += 1 {
		if w.m.Blocked(mid, float64(y), ProjectileRadius) {
			wallAt = y
			break
		}
	}
	lastTick := uint32(0)
	for range ProjectileTicks + 5 {
		w.Step()
		if sh.live {
			lastTick = w.tick
			if w.m.Blocked(sh.x, sh.y, ProjectileRadius) {
				t.Fatal("a live projectile in a wall")
			}
		}
	}
	if _, ok := row(filled(t, w), w.shotBase); ok || w.free.size != len(w.shots) {
		t.Fatal("the projectile is still there")
	}
	ticksToWall := int(math.Ceil(float64(wallAt-mid) / (ProjectileSpeed * Dt / shotSubSteps) / shotSubSteps))
	if want := uint32(min(ticksToWall, ProjectileTicks)); lastTick != want && lastTick+1 != want {
		t.Fatalf("projectile last seen on tick %d, want about %d (wall %d px away)", lastTick, want, wallAt-mid)
	}
	// The next shot takes another slot (FIFO), its next one the first slot
	// again with a new generation.
	for range len(w.shots) {
		s.apply(w, 1, Input{Buttons: ButtonFire, Aim: math.Pi / 2})
		for range FireInterval {
			w.Step()
		}
	}
	if w.gens[w.shotBase] != 2 || w.gens[w.shotBase+1] != 1 {
		t.Fatalf("slot generations %d %d, want 2 (reused) and 1", w.gens[w.shotBase], w.gens[w.shotBase+1])
	}
}

func TestProjectileExpires(t *testing.T) {
	// Find a map with a long open line through the middle, and aim along it.
	need := ProjectileSpeed*Dt*(ProjectileTicks+1) + PlayerRadius
	for seed := uint64(1); seed < 100; seed++ {
		w := newBare(t, Config{Seed: seed})
		aim := -1.0
		for a := 0.0; a < 2*math.Pi && aim < 0; a += 0.005 {
			d := 0.0
			for d < need && !w.m.Blocked(mid+d*math.Cos(a), mid+d*math.Sin(a), ProjectileRadius) {
				d++
			}
			if d >= need {
				aim = a
			}
		}
		if aim < 0 {
			continue
		}
		w.AddPlayer(1)
		place(t, w, 1, mid, mid)
		(seqs{}).apply(w, 1, Input{Buttons: ButtonFire, Aim: aim})
		var seen []uint32
		for range ProjectileTicks + 3 {
			w.Step()
			if _, ok := row(filled(t, w), w.shotBase); ok {
				seen = append(seen, w.tick)
			}
		}
		if len(seen) != ProjectileTicks || seen[0] != 1 || seen[len(seen)-1] != ProjectileTicks {
			t.Fatalf("projectile seen on ticks %v, want 1 to ProjectileTicks %d", seen, ProjectileTicks)
		}
		return
	}
	t.Fatal("no map with a long enough line of fire")
}

// duel puts A at (mid-100, mid) aiming at B at (mid+100, mid).
func duel(t *testing.T, cfg Config) (*World, seqs) {
	w := newBare(t, cfg)
	w.AddPlayer(1)
	w.AddPlayer(2)
	place(t, w, 1, mid-100, mid)
	place(t, w, 2, mid+100, mid)
	return w, seqs{}
}

func TestDamageDeathRespawn(t *testing.T) {
	w, s := duel(t, Config{Seed: 4})
	b := w.playerOf(t, 2)
	bSlot := w.playerBase + 1
	var hits []Event
	var kill *Event
	deathTick := uint32(0)
	for w.tick < 200 && kill == nil {
		s.apply(w, 1, Input{Buttons: ButtonFire})
		s.apply(w, 2, Input{Buttons: ButtonFire, Aim: math.Pi / 2}) // B shoots away, down
		w.Step()
		for _, h := range take(t, w) {
			switch h.Kind {
			case EventHit:
				hits = append(hits, h)
				if h.Hit != (Hit{Attacker: 1, Target: 2, Damage: ProjectileDamage, Shot: h.Hit.Shot}) || h.Hit.Shot == 0 {
					t.Fatalf("hit %+v", h.Hit)
				}
				if want := PlayerHealth - len(hits)*ProjectileDamage; b.health != max(want, 0) {
					t.Fatalf("after %d hits B has %d health, want %d", len(hits), b.health, want)
				}
				r, _ := row(filled(t, w), bSlot)
				if !r.Hurt {
					t.Fatal("a hit player is not shown hurt")
				}
			case EventKill:
				kill = &h
				deathTick = w.tick
			}
		}
	}
	// Judged in the present (no view claimed): where B stands.
	if kill == nil || len(hits) != 5 || kill.Kill != (Kill{Killer: 1, Victim: 2, Weapon: WeaponGun, Judged: Judged{X: b.x, Y: b.y, By: int32(w.playerBase)}}) {
		t.Fatalf("%d hits, kill %+v", len(hits), kill)
	}
	// The first shot (tick 1) flies 200-18 px at 23.3 px a tick.
	if deathTick != 8+4*FireInterval {
		t.Fatalf("B died on tick %d, want %d", deathTick, 8+4*FireInterval)
	}
	a, _ := w.Player(1)
	bi, _ := w.Player(2)
	if a.Kills != 1 || a.Score != 1 || a.Deaths != 0 || bi.Deaths != 1 || bi.Kills != 0 || !bi.Dead || bi.Health != 0 {
		t.Fatalf("after the kill: A %+v, B %+v", a, bi)
	}
	if st := w.Stats(); st.Kills != 1 || st.Deaths != 1 || st.Hits != 5 {
		t.Fatalf("stats %+v", st)
	}
	dead, ok := row(filled(t, w), bSlot)
	if !ok || !dead.Dead || dead.Health != 0 || dead.Generation != 1 {
		t.Fatalf("dead B shows as %+v %v", dead, ok)
	}
	// Dead: no moving, no shooting, no being hit (A keeps shooting through).
	fired := w.stats.ShotsFired
	bx, by := b.x, b.y
	for w.tick < deathTick+RespawnTicks-1 {
		s.apply(w, 1, Input{Buttons: ButtonFire})
		s.apply(w, 2, Input{Buttons: ButtonFire, MoveX: 127})
		w.Step()
		if !b.dead || b.x != bx || b.y != by {
			t.Fatalf("tick %d: dead B moved or came back early", w.tick)
		}
		for _, h := range take(t, w) {
			if h.Kind == EventHit && h.Hit.Target == 2 {
				t.Fatalf("tick %d: dead B was hit", w.tick)
			}
		}
	}
	if n := w.stats.ShotsFired - fired; n == 0 || w.stats.Hits != 5 {
		t.Fatalf("A fired %d shots, hits %d", n, w.stats.Hits)
	}
	if b.applied != s[2] {
		t.Fatalf("a dead player's inputs are still consumed: applied %d of %d", b.applied, s[2])
	}
	// Respawn exactly RespawnTicks after death: full health, elsewhere, a new generation.
	w.Step()
	if b.dead || b.health != PlayerHealth || w.tick != deathTick+RespawnTicks {
		t.Fatalf("tick %d: B dead %v health %d", w.tick, b.dead, b.health)
	}
	back, _ := row(filled(t, w), bSlot)
	if back.Generation != 2 || back.Dead || back.Health != PlayerHealth {
		t.Fatalf("respawned B shows as %+v", back)
	}
	if o, _ := w.Pose(2); o.Slot != uint16(bSlot) {
		t.Fatalf("B's slot changed to %d", o.Slot)
	}
	if w.m.Blocked(b.x, b.y, PlayerRadius) {
		t.Fatal("respawned in a wall")
	}
}

func TestCreatureKilledAndBites(t *testing.T) {
	w := newBare(t, Config{Seed: 8, Creatures: 1})
	w.AddPlayer(1)
	place(t, w, 1, mid, mid)
	c := &w.creatures[0]
	c.x, c.y, c.walking = mid+80, mid, false
	s := seqs{}
	killedAt := uint32(0)
	for w.tick < 40 && killedAt == 0 {
		aim := angleTo(mid, mid, c.x, c.y)
		s.apply(w, 1, Input{Buttons: ButtonFire, Aim: aim})
		w.Step()
		if c.dead {
			killedAt = w.tick
		}
		if evs := take(t, w); len(evs) != 0 {
			t.Fatalf("creature hits and kills are not events: %+v", evs)
		}
	}
	p, _ := w.Player(1)
	if killedAt == 0 || p.Score != 1 || p.Kills != 0 || w.stats.CreatureKills != 1 || w.stats.Hits != 2 {
		t.Fatalf("creature killed on tick %d; player %+v; stats %+v", killedAt, p, w.stats)
	}
	if _, ok := row(filled(t, w), 0); ok {
		t.Fatal("a dead creature is still in the snapshot")
	}
	for w.tick < killedAt+CreatureRespawnTicks-1 {
		w.Step()
	}
	if !c.dead {
		t.Fatal("creature came back early")
	}
	w.Step()
	r, ok := row(filled(t, w), 0)
	if !ok || r.Generation != 1 || r.Health != CreatureHealth || r.Kind != KindCreature {
		t.Fatalf("respawned creature %+v %v", r, ok)
	}

	// A creature touching a player bites once a CreatureBiteInterval.
	place(t, w, 1, mid, mid)
	c.x, c.y, c.walking = mid+10, mid, false
	c.biteAt = 0
	var bites []uint32
	for range 2*CreatureBiteInterval + 1 {
		c.x, c.y, c.walking = mid+10, mid, false
		w.Step()
		for _, h := range take(t, w) {
			if h.Kind != EventHit || h.Hit != (Hit{Attacker: 0, Target: 1, Damage: CreatureBiteDamage}) {
				t.Fatalf("bite event %+v", h)
			}
			bites = append(bites, w.tick)
		}
	}
	if len(bites) != 3 || bites[1]-bites[0] != CreatureBiteInterval || w.playerOf(t, 1).health != PlayerHealth-3*CreatureBiteDamage {
		t.Fatalf("bites on ticks %v, health %d", bites, w.playerOf(t, 1).health)
	}
}

func TestCreaturesRoam(t *testing.T) {
	w, err := NewWorld(Config{Seed: 11, Pickups: -1})
	if err != nil {
		t.Fatal(err)
	}
	start := make([][2]float64, len(w.creatures))
	for i, c := range w.creatures {
		start[i] = [2]float64{c.x, c.y}
	}
	walking := 0
	for range 300 {
		prev := make([][2]float64, len(w.creatures))
		for i, c := range w.creatures {
			prev[i] = [2]float64{c.x, c.y}
		}
		w.Step()
		for i := range w.creatures {
			c := &w.creatures[i]
			if d := math.Hypot(c.x-prev[i][0], c.y-prev[i][1]); d > CreatureSpeed*Dt+1e-9 {
				t.Fatalf("creature %d moved %v px in a tick", i, d)
			}
			if w.m.Blocked(c.x, c.y, CreatureRadius) {
				t.Fatalf("creature %d in a wall", i)
			}
			if c.walking {
				walking++
			}
		}
	}
	share := float64(walking) / float64(300*len(w.creatures))
	if share < 0.08 || share > 0.25 {
		t.Fatalf("%.2f of creatures walk on a tick, want about 0.15", share)
	}
	moved := 0
	for i, c := range w.creatures {
		if math.Hypot(c.x-start[i][0], c.y-start[i][1]) > 20 {
			moved++
		}
	}
	if moved < len(w.creatures)/2 {
		t.Fatalf("only %d of %d creatures got anywhere in 10 s", moved, len(w.creatures))
	}
}

func TestPickups(t *testing.T) {
	w := newBare(t, Config{Seed: 6, Pickups: 2, MaxPlayers: 2})
	w.AddPlayer(1)
	w.AddPlayer(2)
	w.ChangedRecords(func(Record) {}) // publish the first state
	pk := &w.pickups[0]
	pk.x, pk.y = mid+150, mid // in the open middle: a player fits on it
	a, b := w.playerOf(t, 1), w.playerOf(t, 2)
	// A full-health player walks over it: nothing happens.
	place(t, w, 2, pk.x, pk.y)
	w.Step()
	if !pk.live || b.health != PlayerHealth {
		t.Fatal("a player at full health took a pack")
	}
	place(t, w, 2, mid, mid)
	// A hurt one takes it: +30, capped at PlayerHealth.
	for _, c := range []struct{ before, after int }{{50, 80}, {90, PlayerHealth}} {
		pk.x, pk.y = mid+150, mid
		a.health = c.before
		place(t, w, 1, pk.x+PlayerRadius+PickupRadius-1, pk.y)
		gen := pk.gen
		w.Step()
		if pk.live || a.health != c.after {
			t.Fatalf("health %d -> %d, want %d; pack live %v", c.before, a.health, c.after, pk.live)
		}
		got := records(w.ChangedRecords)
		if len(got) != 1 || got[0] != (Record{Kind: RecordPickup, Index: 0, Generation: gen, Deleted: true}) {
			t.Fatalf("records after taking a pack: %+v", got)
		}
		// Back after PickupRespawnTicks, with the next generation.
		taken := w.tick
		place(t, w, 1, mid, mid)
		for w.tick < taken+PickupRespawnTicks {
			if pk.live {
				t.Fatalf("pack back after %d ticks", w.tick-taken)
			}
			w.Step()
		}
		if !pk.live || pk.gen != gen+1 || w.m.Blocked(pk.x, pk.y, PickupRadius) {
			t.Fatalf("pack live %v gen %d, want live gen %d in the open", pk.live, pk.gen, gen+1)
		}
		got = records(w.ChangedRecords)
		want := Record{Kind: RecordPickup, Index: 0, Generation: gen + 1, Pickup: Pickup{X: uint16(pk.x), Y: uint16(pk.y), Kind: PickupHealth}}
		if len(got) != 1 || got[0] != want || float64(got[0].Pickup.X) != pk.x || float64(got[0].Pickup.Y) != pk.y {
			t.Fatalf("records after the pack came back: %+v, want %+v", got, want)
		}
	}
	if w.stats.PickupsTaken != 2 {
		t.Fatalf("%d pickups taken", w.stats.PickupsTaken)
	}
}

func TestRoundOver(t *testing.T) {
	w, s := duel(t, Config{Seed: 4, RoundTicks: 100})
	for w.tick < 99 {
		s.apply(w, 1, Input{Buttons: ButtonFire})
		w.Step()
	}
	take(t, w)
	type key struct {
		kind  RecordKind
		index uint32
	}
	changed := map[key]Record{}
	collect := func(r Record) {
		if !r.Deleted {
			changed[key{r.Kind, r.Index}] = r
		}
	}
	w.ChangedRecords(collect)
	clock := changed[key{RecordClock, 0}].Clock
	if clock != (Clock{Round: 1, Start: 0, End: 100, Next: 100 + DefaultIntermissionTicks}) || clock.Remaining(w.tick) != 1 {
		t.Fatalf("clock %+v", clock)
	}
	if sc := changed[key{RecordScore, 1}].Score; sc.Kills != 1 || sc.Score != 1 {
		t.Fatalf("A's score before the end: %+v", sc)
	}
	clear(changed)
	w.Step() // tick 100: the round ends
	evs := take(t, w)
	if len(evs) != 1 || evs[0].Kind != EventRoundOver || evs[0].RoundOver != (RoundOver{Round: 1, Winner: 1}) {
		t.Fatalf("events at the round's end: %+v", evs)
	}
	w.ChangedRecords(collect)
	// The intermission: the clock stands, the scores stay (published again,
	// with their accuracy), nothing is fired.
	if _, ok := changed[key{RecordClock, 0}]; ok || !w.Intermission() {
		t.Fatalf("the round's end republished the clock %+v; intermission %v", changed, w.Intermission())
	}
	if sc := changed[key{RecordScore, 1}].Score; sc.Kills != 1 || sc.Score != 1 || sc.Shots == 0 || sc.Hits == 0 || sc.Hits > sc.Shots {
		t.Fatalf("A's score for the intermission: %+v", sc)
	}
	clear(changed)
	const next = 100 + DefaultIntermissionTicks
	for w.tick < next-1 {
		s.apply(w, 1, Input{Buttons: ButtonFire})
		w.Step()
		if !w.Intermission() {
			t.Fatalf("tick %d: the intermission ended early", w.tick)
		}
	}
	w.ChangedRecords(collect)
	if len(changed) != 0 || len(take(t, w)) != 0 {
		t.Fatalf("records or events during the intermission: %+v", changed)
	}
	w.Step() // tick next: the next round starts
	w.ChangedRecords(collect)
	if clock := changed[key{RecordClock, 0}].Clock; clock != (Clock{Round: 2, Start: next, End: next + 100, Next: next + 100 + DefaultIntermissionTicks}) || w.Intermission() {
		t.Fatalf("new round's clock %+v", clock)
	}
	for _, id := range []uint32{1, 2} {
		if r, ok := changed[key{RecordScore, id}]; !ok || r.Score != (Score{}) {
			t.Fatalf("score of player %d after the round: %+v %v", id, r, ok)
		}
	}
	// A round nobody scores in has no winner.
	for w.tick < next+100 {
		w.Step()
	}
	evs = take(t, w)
	if len(evs) != 1 || evs[0].RoundOver != (RoundOver{Round: 2, Winner: 0}) {
		t.Fatalf("scoreless round: %+v", evs)
	}
	for w.tick < next+100+DefaultIntermissionTicks {
		w.Step()
	}
	if r, end := w.Round(); r != 3 || end != 2*next+100 || w.stats.Rounds != 2 {
		t.Fatalf("round %d ends %d", r, end)
	}
}

func TestRoundWinnerTies(t *testing.T) {
	w := newBare(t, Config{Seed: 1, RoundTicks: 10, MaxPlayers: 4})
	for id := PlayerID(1); id <= 4; id++ {
		w.AddPlayer(id)
	}
	set := func(id PlayerID, score, deaths uint32) { p := w.playerOf(t, id); p.score, p.deaths = score, deaths }
	set(1, 3, 2)
	set(2, 5, 4)
	set(3, 5, 1) // same score as 2, fewer deaths: wins
	set(4, 5, 1) // tie on both: the lower slot (3) keeps it
	for range 10 {
		w.Step()
	}
	evs := take(t, w)
	if len(evs) != 1 || evs[0].RoundOver.Winner != 3 {
		t.Fatalf("winner %+v, want player 3", evs)
	}
}

func TestShotsOfAPlayerWhoLeft(t *testing.T) {
	w, s := duel(t, Config{Seed: 4, MaxPlayers: 2})
	s.apply(w, 1, Input{Buttons: ButtonFire})
	w.Step()
	w.RemovePlayer(1)
	w.AddPlayer(3) // takes player 1's slot
	place(t, w, 3, mid-100+ProjectileSpeed*Dt*3, mid)
	w.playerOf(t, 3).shieldUntil = 0 // this test is about the shot, not the spawn shield
	for range 5 {
		w.Step()
	}
	evs := take(t, w)
	if len(evs) != 1 || evs[0].Hit != (Hit{Attacker: 1, Target: 3, Damage: ProjectileDamage, Shot: 1}) {
		t.Fatalf("the newcomer in the slot of a player who left: %+v", evs)
	}
	if b := w.playerOf(t, 2); b.health != PlayerHealth {
		t.Fatal("the shot went through")
	}
}

// shielded reports whether player id's entity shows the spawn shield.
func shielded(t *testing.T, w *World, id PlayerID) bool {
	t.Helper()
	e, ok := row(filled(t, w), w.playerBase+int(w.byID[id]))
	if !ok {
		t.Fatalf("player %d has no entity", id)
	}
	return e.Shielded
}

// A player who just joined or respawned takes no damage for
// SpawnShieldTicks, shows Shielded meanwhile, and loses the shield at
// once when it fires.
func TestSpawnShield(t *testing.T) {
	w, s := duel(t, Config{Seed: 4})
	joined := w.tick
	if !shielded(t, w, 2) {
		t.Fatal("a player who just joined is not shielded")
	}
	// Player 1 fires at idle player 2 all along the shield: nothing lands.
	shieldHits := 0
	for w.tick < joined+SpawnShieldTicks {
		s.apply(w, 1, Input{Buttons: ButtonFire})
		w.Step()
		for _, h := range take(t, w) {
			if h.Kind == EventHit {
				shieldHits++
			}
		}
	}
	b := w.playerOf(t, 2)
	if b.health != PlayerHealth || shieldHits != 0 || w.stats.Shielded == 0 {
		t.Fatalf("under the shield: health %d, %d hits reported, %d shielded", b.health, shieldHits, w.stats.Shielded)
	}
	if shielded(t, w, 2) {
		t.Fatalf("after %d ticks: still shielded", SpawnShieldTicks)
	}
	// Then shots hurt, until player 2 dies and respawns shielded.
	for w.tick < 400 && !b.dead {
		s.apply(w, 1, Input{Buttons: ButtonFire})
		w.Step()
	}
	if !b.dead {
		t.Fatal("player 2 never died once the shield was gone")
	}
	for b.dead {
		w.Step()
	}
	take(t, w)
	if !shielded(t, w, 2) || b.shieldUntil != w.tick+SpawnShieldTicks {
		t.Fatalf("respawned: shield until %d at tick %d", b.shieldUntil, w.tick)
	}
	// Firing drops it at once: the next shot that reaches it hurts.
	place(t, w, 2, mid+100, mid)
	s.apply(w, 2, Input{Buttons: ButtonFire, Aim: math.Pi / 2}) // shoots away
	w.Step()
	if shielded(t, w, 2) {
		t.Fatal("after firing: still shielded")
	}
	for w.tick < 600 && b.health == PlayerHealth {
		s.apply(w, 1, Input{Buttons: ButtonFire})
		w.Step()
	}
	if b.health != PlayerHealth-ProjectileDamage {
		t.Fatalf("a player who fired out of its shield: health %d", b.health)
	}
}

// nearestOther returns the distance from player id to the nearest other
// live player.
func nearestOther(w *World, id PlayerID) float64 {
	me := &w.players[w.byID[id]]
	d := math.Inf(1)
	for j := range w.players {
		if q := &w.players[j]; q != me && q.active && !q.dead {
			d = min(d, math.Hypot(q.x-me.x, q.y-me.y))
		}
	}
	return d
}

// Players enter out of everyone's sight (720 px) and not much farther,
// whether they join or respawn; a match's first players do not all start
// in one place.
func TestSpawnOutOfSight(t *testing.T) {
	const sight = 720 // protocol.ViewRadius
	w := newBare(t, Config{Seed: 8})
	for id := PlayerID(1); id <= 8; id++ {
		w.AddPlayer(id)
	}
	for id := PlayerID(1); id <= 8; id++ {
		if d := nearestOther(w, id); d < sight {
			t.Errorf("at the match's start, player %d is %.0f px from another", id, d)
		}
	}
	// Four players stand together in the middle; others keep joining and
	// leaving.
	for id := PlayerID(1); id <= 8; id++ {
		w.RemovePlayer(id)
	}
	for id := PlayerID(1); id <= 4; id++ {
		w.AddPlayer(id)
		place(t, w, id, mid+float64(id)*20, mid)
	}
	var sum float64
	const joins = 50
	for range joins {
		w.AddPlayer(9)
		d := nearestOther(w, 9)
		sum += d
		if d < sight {
			t.Fatalf("joined %.0f px from the group, within its sight", d)
		}
		w.RemovePlayer(9)
	}
	mean := sum / joins
	t.Logf("joins %.0f px from the group on average (SpawnDistance %d)", mean, SpawnDistance)
	// The nearest of the spots at least SpawnDistance away (of 8, about 6
	// are): a little farther than SpawnDistance, not across the map.
	if mean < SpawnDistance || mean > SpawnDistance+400 {
		t.Errorf("joins %.0f px from the group on average, want %d to %d", mean, SpawnDistance, SpawnDistance+400)
	}
	// Dead, player 9 comes back out of the group's sight too.
	w.AddPlayer(9)
	p := w.playerOf(t, 9)
	for range 20 {
		p.dead, p.respawnAt = true, w.tick+1
		w.Step()
		w.Step()
		if p.dead {
			t.Fatal("player 9 did not respawn")
		}
		if d := nearestOther(w, 9); d < sight {
			t.Fatalf("respawned %.0f px from the group, within its sight", d)
		}
	}
}
