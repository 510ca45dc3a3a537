package server_test

import (
	"math"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// A player who walks onto a spread gun gets the loadout record (everyone
// does), and its shots come out as fans of three projectiles SpreadAngle
// apart, the record counting them down, until it has the gun again.
func TestSpreadGunThroughTheServer(t *testing.T) {
	cfg := arena.Config{Pickups: -1, SpreadGuns: 1, PowerUps: -1, MaxPlayers: 4}
	seed, l := findScene(t, cfg, 2, func(l sceneLayout) bool {
		sp := l.pickup(0)
		d := math.Hypot(sp[0]-l.spawns[0][0], sp[1]-l.spawns[0][1])
		return d > arena.SpreadTicks*arena.ProjectileSpeed*arena.Dt+20 && d < 1500 && l.clear(l.spawns[0], sp)
	})
	cfg.Seed = seed
	s := newScene(t, cfg, 2)
	a, b := s.ps[0], s.ps[1]
	if lo, ok := b.loadoutOf(a.id); !ok || lo != (arena.Loadout{}) {
		t.Fatalf("A's loadout before: %+v %v", lo, ok)
	}
	sp := l.pickup(0)
	s.walkTo(a, sp[0], sp[1], 400)
	s.run(5)
	for _, c := range []*actor{a, b} {
		if lo, ok := c.loadoutOf(a.id); !ok || lo != (arena.Loadout{Weapon: arena.WeaponSpread, Shots: arena.SpreadShots}) {
			t.Fatalf("player %d holds A's loadout %+v %v after A walked onto the spread gun", c.id, lo, ok)
		}
	}
	if _, _, ok := a.c.Record(protocol.RecordPickup | 0); ok {
		t.Fatal("the spread gun's record is still there")
	}

	// One shot, back the way A came (clear for longer than a pellet flies).
	a.in.Aim = math.Atan2(l.spawns[0][1]-sp[1], l.spawns[0][0]-sp[0])
	before := a.projectiles()
	s.fireOnce(a)
	var fan map[uint32]float64
	for range 10 {
		s.step()
		if p := a.projectiles(); len(p) > len(before) {
			fan = p
			break
		}
	}
	for k := range before {
		delete(fan, k)
	}
	if len(fan) != arena.SpreadPellets {
		t.Fatalf("%d projectiles appeared for one spread shot, want %d", len(fan), arena.SpreadPellets)
	}
	var offs []float64
	for _, h := range fan {
		offs = append(offs, math.Remainder(h-a.in.Aim, 2*math.Pi))
	}
	for _, want := range []float64{-arena.SpreadAngle, 0, arena.SpreadAngle} {
		found := false
		for _, o := range offs {
			found = found || math.Abs(o-want) < 0.01
		}
		if !found {
			t.Fatalf("pellet headings off the aim by %v, want one at %.3f", offs, want)
		}
	}
	s.run(5)
	if lo, _ := b.loadoutOf(a.id); lo.Shots != arena.SpreadShots-1 {
		t.Fatalf("after one shot A has %d spread shots", lo.Shots)
	}
	// Hold the trigger until it runs out: the gun again.
	a.in.Buttons = arena.ButtonFire
	s.run(arena.SpreadShots * arena.SpreadFireInterval)
	a.in.Buttons = 0
	s.run(10)
	if lo, _ := b.loadoutOf(a.id); lo != (arena.Loadout{}) {
		t.Fatalf("A's loadout after the spread shots: %+v", lo)
	}
	if st := s.world.Stats(); st.SpreadShots != arena.SpreadShots || st.SpreadTaken != 1 {
		t.Fatalf("world: %d spread shots, %d spread guns taken", st.SpreadShots, st.SpreadTaken)
	}
	if sc := s.world.Stats(); sc.ShotsFired < arena.SpreadShots*arena.SpreadPellets+1 {
		t.Fatalf("world fired %d projectiles", sc.ShotsFired)
	}
}

// A player who takes the power-up deals double damage with the shots it
// fires until the record's PowerEnd, then single damage again.
func TestPowerUpThroughTheServer(t *testing.T) {
	cfg := arena.Config{Pickups: -1, SpreadGuns: -1, PowerUps: 1, MaxPlayers: 4}
	seed, l := findScene(t, cfg, 2, func(l sceneLayout) bool {
		pw := l.pickup(0)
		d := math.Hypot(pw[0]-l.spawns[1][0], pw[1]-l.spawns[1][1])
		return l.clear(l.spawns[0], pw) && l.clear(pw, l.spawns[1]) && d > 200 &&
			math.Hypot(pw[0]-l.spawns[0][0], pw[1]-l.spawns[0][1])+d < 2500
	})
	cfg.Seed = seed
	s := newScene(t, cfg, 2)
	a, b := s.ps[0], s.ps[1]
	pw := l.pickup(0)
	s.walkTo(a, pw[0], pw[1], 400)
	s.run(3)
	lo, ok := a.loadoutOf(a.id)
	if !ok || lo.Weapon != arena.WeaponGun || lo.PowerEnd <= s.tick() || lo.PowerEnd > s.tick()+arena.PowerTicks {
		t.Fatalf("A's loadout after the power-up: %+v %v at tick %d", lo, ok, s.tick())
	}
	x, y := short(pw, l.spawns[1], 150)
	s.walkTo(a, x, y, 400)
	if s.tick() >= lo.PowerEnd-20 {
		t.Fatalf("A reached B at tick %d, too late for its power-up (ends %d)", s.tick(), lo.PowerEnd)
	}
	s.aimAt(a, b)
	from := s.tick()
	s.fireOnce(a)
	s.run(15)
	if h := b.hitsSince(from); len(h) != 1 || h[0].Attacker != uint32(a.id) || h[0].Target != uint32(b.id) || h[0].Damage != arena.PowerFactor*arena.ProjectileDamage {
		t.Fatalf("hits with the power-up: %+v", h)
	}
	for s.tick() < lo.PowerEnd+2 {
		s.step()
	}
	from = s.tick()
	s.fireOnce(a)
	s.run(15)
	if h := b.hitsSince(from); len(h) != 1 || h[0].Damage != arena.ProjectileDamage {
		t.Fatalf("hits after the power-up ran out: %+v", h)
	}
	if p, _ := s.world.Player(b.id); p.Health != arena.PlayerHealth-3*arena.ProjectileDamage {
		t.Fatalf("B's health %d", p.Health)
	}
}

// At the round's end the intermission starts, as the clock record said:
// scores stay with their accuracy, nobody is hurt and no projectile flies
// however hard a player fires, and at the record's Next the next round
// starts with a new clock and zero scores; then shots hurt again.
func TestIntermissionThroughTheServer(t *testing.T) {
	const round = 20 * arena.TickRate
	cfg := arena.Config{Pickups: -1, SpreadGuns: -1, PowerUps: -1, MaxPlayers: 4, RoundTicks: round}
	seed, l := findScene(t, cfg, 2, func(l sceneLayout) bool {
		return l.clear(l.spawns[0], l.spawns[1]) && math.Hypot(l.spawns[0][0]-l.spawns[1][0], l.spawns[0][1]-l.spawns[1][1]) < 2500
	})
	cfg.Seed = seed
	s := newScene(t, cfg, 2)
	a, b := s.ps[0], s.ps[1]
	next := uint32(round + arena.DefaultIntermissionTicks)
	if c := b.clock(); c != (arena.Clock{Round: 1, Start: 0, End: round, Next: next}) {
		t.Fatalf("clock %+v", c)
	}
	x, y := short(l.spawns[0], l.spawns[1], 150)
	s.walkTo(a, x, y, 500)
	for s.tick() < round-12 {
		s.step()
	}
	s.aimAt(a, b)
	a.in.Buttons = arena.ButtonFire // from now on A fires all the time
	for s.tick() < round+2 {
		s.step()
	}
	if len(b.over) != 1 || b.over[0] != round || len(b.hitsSince(0)) == 0 {
		t.Fatalf("round over at %v, hits %d", b.over, len(b.hitsSince(0)))
	}
	health := func() int { p, _ := s.world.Player(b.id); return p.Health }
	hp := health()
	for s.tick() < next-1 {
		s.step()
		if tick, p := a.projectilesAt(); tick >= round && len(p) != 0 {
			t.Fatalf("tick %d: %d projectiles in the intermission", tick, len(p))
		}
		if c := b.clock(); !c.Intermission(s.tick()) || c.UntilNext(s.tick()) != next-s.tick() {
			t.Fatalf("tick %d: clock %+v does not say intermission", s.tick(), c)
		}
	}
	if h := b.hitsSince(round); len(h) != 0 || health() != hp {
		t.Fatalf("hurt in the intermission: %+v, health %d -> %d", h, hp, health())
	}
	if sc := b.scoreOf(a.id); sc.Shots == 0 || sc.Hits == 0 || sc.Hits > sc.Shots {
		t.Fatalf("A's score in the intermission: %+v", sc)
	}
	s.run(10)
	if c := b.clock(); c != (arena.Clock{Round: 2, Start: next, End: next + round, Next: 2 * next}) {
		t.Fatalf("clock of the next round %+v", c)
	}
	if sc := b.scoreOf(a.id); sc.Kills != 0 || sc.Score != 0 || sc.Shots != 0 || sc.Hits != 0 {
		t.Fatalf("A's score in the next round: %+v", sc)
	}
	s.run(20)
	if h := b.hitsSince(next); len(h) == 0 {
		t.Fatal("no hits after the intermission")
	}
}

// Bots playing through the server, each reading only what its client
// holds (snapshots and records), fetch spread guns and power-ups, fire the
// spread gun, and kill players with it.
func TestBotsUseTheNewThingsThroughTheServer(t *testing.T) {
	world, err := newArena(arena.Config{Seed: 21})
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, srv: newServer(t, server.Config{TickRate: tickRate}, world), epoch: time.Unix(1_700_000_000, 0)}
	link := linksim.Config{Latency: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.02}
	const bots = 8
	brains := make([]*brain.Brain, bots)
	for i := range bots {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{ServerToClient: link, ClientToServer: link, Seed: uint64(i + 1), Now: m.now})
		if err != nil {
			t.Fatal(err)
		}
		m.srv.Add(srvEnd)
		m.clients = append(m.clients, client.New(cliEnd, client.Config{Verify: true}))
		brains[i] = brain.New(uint64(i))
	}
	for range 90 * tickRate {
		m.clock += time.Second / tickRate
		m.srv.Step(m.epoch.Add(m.clock))
		for i, c := range m.clients {
			c.Poll()
			if _, ok := c.Self(); ok && brains[i].Map() == nil {
				brains[i].SetMap(arena.NewMap(c.MapSeed()))
			}
			c.SendInput(brains[i].Play(c))
		}
	}
	st := world.Stats()
	t.Logf("%d bots, 90 s: %d spread guns and %d power-ups taken, %d spread shots, %d of %d kills by the spread gun, %d powered shots",
		bots, st.SpreadTaken, st.PowerTaken, st.SpreadShots, st.SpreadKills, st.Kills, st.PoweredShots)
	if st.SpreadTaken < 5 || st.PowerTaken < 2 || st.SpreadShots < 50 || st.SpreadKills == 0 || st.PoweredShots == 0 {
		t.Errorf("the bots did not use the new things: %+v", st)
	}
	for i, c := range m.clients {
		if cs := c.Stats(); cs.Mismatched != 0 {
			t.Errorf("bot %d: %d desyncs", i, cs.Mismatched)
		}
	}
}
