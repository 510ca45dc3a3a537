package server_test

import (
	"math"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// A scene is a small arena match for the tests of the spread gun, the
// power-up and the intermission: players join together at the start, over
// clean links, and the test steers each through its client. Its worlds have
// no creatures, so that nothing random happens between the joins and the
// walks, and the spawns and pickups are those the seed search saw.
type scene struct {
	t     *testing.T
	m     *match
	world *server.Match
	ps    []*actor
}

// An actor is one player of a scene: its client, the input it sends each
// tick, and what it heard.
type actor struct {
	c    *client.Client
	end  *memory.Conn // the client's end of the connection
	id   arena.PlayerID
	in   arena.Input
	hits []hitAt // every Hit event, with its tick
	over []uint32

	// A cheater sends raw datagrams instead of its client's: cheatInputs
	// new inputs a tick, with every unknown button bit set.
	cheat bool
	seq   uint32
}

type hitAt struct {
	tick uint32
	hit  protocol.Hit
}

// cheatInputs is how many new inputs a cheater sends each tick.
const cheatInputs = session.MaxRedundancy

// sceneLayout is where a seed puts things: each player's spawn (joined in
// order before the first step) and each pickup, by number.
type sceneLayout struct {
	m       *arena.Map
	spawns  [][2]float64
	pickups map[uint32]arena.Pickup
}

// clear reports whether a player walks (and a shot flies) straight from a
// to b, with a margin.
func (l sceneLayout) clear(a, b [2]float64) bool {
	return l.m.Clear(a[0], a[1], b[0], b[1], arena.PlayerRadius+4)
}

func (l sceneLayout) pickup(k uint32) [2]float64 {
	p := l.pickups[k]
	return [2]float64{float64(p.X), float64(p.Y)}
}

// findScene returns the first seed whose layout, for cfg (no creatures) and
// players joining, ok accepts.
func findScene(t *testing.T, cfg arena.Config, players int, ok func(l sceneLayout) bool) (uint64, sceneLayout) {
	t.Helper()
	cfg.Creatures = -1
	for seed := uint64(1); seed < 5000; seed++ {
		cfg.Seed = seed
		w, err := arena.NewWorld(cfg)
		if err != nil {
			t.Fatal(err)
		}
		l := sceneLayout{m: w.Map(), pickups: map[uint32]arena.Pickup{}}
		for id := range arena.PlayerID(players) {
			w.AddPlayer(id + 1)
			p, _ := w.Player(id + 1)
			l.spawns = append(l.spawns, [2]float64{p.X, p.Y})
		}
		w.AllRecords(func(r arena.Record) {
			if r.Kind == arena.RecordPickup {
				l.pickups[r.Index] = r.Pickup
			}
		})
		if ok(l) {
			return seed, l
		}
	}
	t.Fatal("no seed gives the scene")
	return 0, sceneLayout{}
}

// newScene starts the match of cfg (no creatures) with players clients,
// the ones in cheaters sending raw datagrams, and runs it until every
// client is welcomed and decodes.
func newScene(t *testing.T, cfg arena.Config, players int, cheaters ...int) *scene {
	t.Helper()
	cfg.Creatures = -1
	world, err := newArena(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &scene{t: t, world: world, m: &match{t: t, srv: newServer(t, server.Config{TickRate: tickRate}, world), epoch: time.Unix(1_700_000_000, 0)}}
	link := linksim.Config{Latency: 20 * time.Millisecond}
	for i := range players {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{ServerToClient: link, ClientToServer: link, Seed: uint64(i + 1), Now: s.m.now})
		if err != nil {
			t.Fatal(err)
		}
		s.m.srv.Add(srvEnd)
		a := &actor{c: client.New(cliEnd, client.Config{Verify: true}), end: cliEnd}
		for _, k := range cheaters {
			a.cheat = a.cheat || k == i
		}
		a.c.OnEvent(func(e events.Event) {
			switch e.Kind {
			case protocol.KindHit:
				if h, err := protocol.ParseHit(e.Body); err == nil {
					a.hits = append(a.hits, hitAt{e.Tick, h})
				}
			case protocol.KindRoundOver:
				a.over = append(a.over, e.Tick)
			}
		})
		s.ps = append(s.ps, a)
	}
	s.run(15)
	for i, a := range s.ps {
		id, ok := a.c.Player()
		if _, _, seen := a.pos(); !ok || !seen {
			t.Fatalf("player %d not in the match after 15 ticks", i)
		}
		a.id = id
	}
	return s
}

// step runs one tick: the server steps, then every client reads and sends
// its input.
func (s *scene) step() {
	s.m.clock += time.Second / tickRate
	s.m.srv.Step(s.m.epoch.Add(s.m.clock))
	for _, a := range s.ps {
		a.c.Poll()
		a.send(s.t)
	}
}

func (s *scene) run(n int) {
	for range n {
		s.step()
	}
}

// tick returns the server's tick.
func (s *scene) tick() uint32 { return s.m.srv.Tick() }

// send sends the actor's input: through its client, or as a cheater's raw
// datagram of cheatInputs new inputs, each with every unknown button set.
func (a *actor) send(t *testing.T) {
	if !a.cheat {
		a.c.SendInput(a.in)
		return
	}
	var raw [protocol.InputSize]byte
	copy(raw[:], protocol.AppendInput(nil, a.in))
	raw[0] |= 0xff &^ (arena.ButtonFire | arena.ButtonDash)
	a.seq += cheatInputs
	if err := a.end.Send(transport.Inputs, cheatPacket(a.c.LastHeader().Tick, a.seq, cheatInputs, raw, 0)); err != nil {
		t.Fatal(err)
	}
}

// pos returns where the actor's client sees its own entity.
func (a *actor) pos() (x, y float64, ok bool) {
	slot, ok := a.c.Self()
	_, snap := a.c.Newest()
	if !ok || snap == nil {
		return 0, 0, false
	}
	i, ok := snap.Find(slot)
	if !ok {
		return 0, 0, false
	}
	return protocol.PosQuant.Dequantize(snap.Value(i, protocol.FieldX)), protocol.PosQuant.Dequantize(snap.Value(i, protocol.FieldY)), true
}

// walkTo steers actor a straight to (x, y) until its client sees it within
// 3 px (a cheater, whose inputs wait in the server's queue, 10 px), then
// stops it; it fails the test after limit ticks.
func (s *scene) walkTo(a *actor, x, y float64, limit int) {
	s.t.Helper()
	tol, lag := 3.0, 1.0
	if a.cheat {
		tol, lag = 10, arena.InputQueue
	}
	for range limit {
		px, py, _ := a.pos()
		d := math.Hypot(x-px, y-py)
		if d <= tol {
			a.in.MoveX, a.in.MoveY = 0, 0
			s.run(3 + int(lag)) // the stop reaches the server
			return
		}
		// Full speed, slowing down for the last steps.
		f := min(1, d/(lag*arena.PlayerSpeed*arena.Dt)) * 127 / d
		a.in.MoveX, a.in.MoveY = int8(math.Round((x-px)*f)), int8(math.Round((y-py)*f))
		s.step()
	}
	s.t.Fatalf("player %d did not reach (%.0f, %.0f) in %d ticks", a.id, x, y, limit)
}

// short returns the point d px short of b on the way from a.
func short(a, b [2]float64, d float64) (float64, float64) {
	l := math.Hypot(b[0]-a[0], b[1]-a[1])
	return b[0] - (b[0]-a[0])/l*d, b[1] - (b[1]-a[1])/l*d
}

// loadoutOf returns the loadout record of player id as actor a's client
// holds it.
func (a *actor) loadoutOf(id arena.PlayerID) (arena.Loadout, bool) {
	_, p, ok := a.c.Record(protocol.RecordLoadout | uint32(id))
	if !ok {
		return arena.Loadout{}, false
	}
	l, err := protocol.ParseLoadout(p)
	return l, err == nil
}

// clock returns the clock record actor a's client holds.
func (a *actor) clock() arena.Clock {
	_, p, ok := a.c.Record(protocol.RecordClock)
	if !ok {
		return arena.Clock{}
	}
	c, _ := protocol.ParseClock(p)
	return c
}

// scoreOf returns the score record of player id as a's client holds it.
func (a *actor) scoreOf(id arena.PlayerID) arena.Score {
	_, p, ok := a.c.Record(protocol.RecordScore | uint32(id))
	if !ok {
		return arena.Score{Name: "missing"}
	}
	sc, _ := protocol.ParseScore(p)
	return sc
}

// projectiles returns the projectiles in the newest state a's client
// decoded: their ids' slots and headings.
func (a *actor) projectiles() map[uint32]float64 {
	_, p := a.projectilesAt()
	return p
}

// projectilesAt returns the newest tick a's client decoded and its
// projectiles (projectiles).
func (a *actor) projectilesAt() (uint32, map[uint32]float64) {
	tick, snap := a.c.Newest()
	out := map[uint32]float64{}
	if snap == nil {
		return tick, out
	}
	for i, id := range snap.IDs() {
		if snap.Value(i, protocol.FieldKind) == protocol.KindProjectile {
			out[uint32(id.Index)<<8|uint32(id.Generation)] = protocol.HeadingQuant.Dequantize(snap.Value(i, protocol.FieldHeading))
		}
	}
	return tick, out
}

// aimAt points a's aim at where its client sees b.
func (s *scene) aimAt(a, b *actor) {
	s.t.Helper()
	ax, ay, ok1 := a.pos()
	bx, by, ok2 := b.pos()
	if !ok1 || !ok2 {
		s.t.Fatal("no positions to aim with")
	}
	a.in.Aim = math.Atan2(by-ay, bx-ax)
}

// fireOnce fires one shot: the fire button in one input, then released.
func (s *scene) fireOnce(a *actor) {
	a.in.Buttons = arena.ButtonFire
	s.step()
	a.in.Buttons = 0
}

// hitsSince returns a's Hit events of ticks after tick.
func (a *actor) hitsSince(tick uint32) []protocol.Hit {
	var out []protocol.Hit
	for _, h := range a.hits {
		if h.tick > tick {
			out = append(out, h.hit)
		}
	}
	return out
}
