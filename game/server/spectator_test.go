package server_test

import (
	"errors"
	"fmt"
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

// arenaMatch is the arena world served to in-memory players, driven by the
// bots' brain, and spectators, who send acks alone.
type arenaMatch struct {
	*match
	world      *server.Match
	brains     []*brain.Brain
	players    []*client.Client
	spectators []*client.Client
	link       linksim.Config
	seed       uint64
}

func newArenaMatch(t testing.TB, cfg server.Config, link linksim.Config) *arenaMatch {
	t.Helper()
	world, err := newArena(arena.Config{Seed: 5, Creatures: 60})
	if err != nil {
		t.Fatal(err)
	}
	cfg.TickRate = tickRate
	return &arenaMatch{match: &match{t: t, srv: newServer(t, cfg, world), epoch: time.Unix(1_700_000_000, 0)}, world: world, link: link}
}

func (m *arenaMatch) pair() (srvEnd, cliEnd *memory.Conn) {
	m.t.Helper()
	m.seed++
	srvEnd, cliEnd, err := memory.NewPair(memory.Config{ServerToClient: m.link, ClientToServer: m.link, Seed: m.seed, Now: m.now})
	if err != nil {
		m.t.Fatal(err)
	}
	return srvEnd, cliEnd
}

func (m *arenaMatch) addPlayer() *client.Client {
	srvEnd, cliEnd := m.pair()
	m.srv.Add(srvEnd)
	c := client.New(cliEnd, client.Config{Verify: true, Name: fmt.Sprintf("p%d", len(m.players))})
	m.players = append(m.players, c)
	m.brains = append(m.brains, brain.New(m.seed))
	return c
}

func (m *arenaMatch) addSpectator() *client.Client {
	srvEnd, cliEnd := m.pair()
	m.srv.Watch(srvEnd)
	c := client.New(cliEnd, client.Config{Verify: true, Watch: true, Name: "watcher"})
	m.spectators = append(m.spectators, c)
	return c
}

// play runs n ticks: players play, spectators acknowledge.
func (m *arenaMatch) play(n int) {
	for range n {
		m.clock += time.Second / tickRate
		m.srv.Step(m.epoch.Add(m.clock))
		for i, c := range m.players {
			c.Poll()
			c.SendInput(m.brains[i].Play(c))
		}
		for _, c := range m.spectators {
			c.Poll()
			c.SendAck()
		}
	}
}

// has reports whether snapshot tick's state holds an entity at slot.
func hasSlot(c *client.Client, slot uint16) bool {
	_, snap := c.Newest()
	if snap == nil {
		return false
	}
	for i := range snap.Len() {
		if snap.ID(i).Index == slot {
			return true
		}
	}
	return false
}

// Spectators watch a match over lossy links without being part of it: the
// server welcomes them as player 0, the match counts them apart, the world
// never hears of them, they decode every tick they get without a desync,
// and their views carry the player they follow: the leader, until they ask
// for another; another when that one leaves; a free camera when asked.
func TestSpectatorsWatchWithoutPlaying(t *testing.T) {
	lossy := linksim.Config{Loss: 0.1, BurstLen: 2, Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond}
	m := newArenaMatch(t, server.Config{MaxClients: 4, MaxSpectators: 2}, lossy)
	for range 4 {
		m.addPlayer()
	}
	follower, flyer := m.addSpectator(), m.addSpectator()
	refused := m.addSpectator() // a third: beyond MaxSpectators
	m.play(5 * tickRate)

	st := m.srv.Stats()
	if st.Clients != 4 || st.Spectators != 2 || st.Refused != 1 || st.SpectatorsJoined != 2 {
		t.Fatalf("players %d, spectators %d, refused %d, spectators joined %d; want 4, 2, 1, 2", st.Clients, st.Spectators, st.Refused, st.SpectatorsJoined)
	}
	select {
	case <-refused.Done():
	default:
		t.Fatal("the spectator beyond MaxSpectators is still connected")
	}
	m.spectators = m.spectators[:2]
	// The match is full of players, yet spectators came in; nor did they
	// take a player's place: a fifth player is refused.
	fifth := m.addPlayer()
	m.play(2)
	if st := m.srv.Stats(); st.Clients != 4 || st.Refused != 2 {
		t.Fatalf("a fifth player: %d players, %d refused; want 4, 2", st.Clients, st.Refused)
	}
	<-fifth.Done()
	m.players, m.brains = m.players[:4], m.brains[:4]

	for i, c := range m.spectators {
		if !c.Spectating() {
			p, ok := c.Player()
			t.Fatalf("spectator %d welcomed as player %d (%v)", i, p, ok)
		}
	}
	// The world has four players: four score records, none for a spectator.
	scores := 0
	m.world.AllRecords(func(id uint32, _ uint16, _ []byte, deleted bool) {
		if k, _ := protocol.RecordKind(id); k == protocol.RecordScore && !deleted {
			scores++
		}
	})
	if scores != 4 {
		t.Fatalf("%d score records, want 4 (the players')", scores)
	}

	// Unasked, a spectator follows a player of the match, whose entity its
	// views carry.
	w, ok := follower.Watching()
	if !ok || w.Mode != protocol.WatchFollow || w.Player == 0 {
		t.Fatalf("the server says the spectator watches %+v (%v), want a player followed", w, ok)
	}
	pose, ok := m.world.Pose(arena.PlayerID(w.Player))
	if !ok {
		t.Fatalf("the player followed, %d, is not in the world", w.Player)
	}
	if w.Slot != pose.Slot {
		t.Errorf("the server says the player followed has slot %d; the world, %d", w.Slot, pose.Slot)
	}
	if !hasSlot(follower, pose.Slot) {
		t.Errorf("the spectator's newest view lacks the entity (slot %d) of the player it follows", pose.Slot)
	}

	// It asks for another player, then that player leaves: the server
	// follows someone else and says so.
	var other uint32
	for _, p := range m.players {
		if id, _ := p.Player(); uint32(id) != w.Player {
			other = uint32(id)
			break
		}
	}
	if err := follower.Follow(other); err != nil {
		t.Fatal(err)
	}
	m.play(tickRate)
	if w, _ := follower.Watching(); w.Mode != protocol.WatchFollow || w.Player != other {
		t.Fatalf("after Follow(%d) the server says %+v", other, w)
	}
	for i, p := range m.players {
		if id, _ := p.Player(); uint32(id) == other {
			p.Close()
			m.players = append(m.players[:i], m.players[i+1:]...)
			m.brains = append(m.brains[:i], m.brains[i+1:]...)
			break
		}
	}
	m.play(tickRate)
	if w, _ := follower.Watching(); w.Mode != protocol.WatchFollow || w.Player == other || w.Player == 0 {
		t.Fatalf("the player followed (%d) left; the server says %+v, want another player", other, w)
	}

	// A free camera, clamped to the world.
	if err := flyer.FlyTo(protocol.WorldSize/4, 2*protocol.WorldSize); err != nil {
		t.Fatal(err)
	}
	m.play(tickRate)
	w, _ = flyer.Watching()
	limit := protocol.PosQuant.Quantize(protocol.WorldSize)
	if w.Mode != protocol.WatchFree || w.X != protocol.PosQuant.Quantize(protocol.WorldSize/4) || w.Y != limit {
		t.Fatalf("after FlyTo the server says %+v, want the free camera at (%d, %d)", w, protocol.PosQuant.Quantize(protocol.WorldSize/4), limit)
	}

	// A spectator leaving is not a player leaving.
	left := m.srv.Stats().Left
	m.spectators[1].Close()
	m.spectators = m.spectators[:1]
	m.play(tickRate)
	if st := m.srv.Stats(); st.Spectators != 1 || st.SpectatorsLeft != 1 || st.Left != left {
		t.Fatalf("after a spectator left: %d spectators, %d spectators left, %d players left (was %d)", st.Spectators, st.SpectatorsLeft, st.Left, left)
	}

	for i, c := range append(m.players, m.spectators...) {
		if s := c.Stats(); s.Mismatched != 0 || s.Verified < 3*tickRate {
			t.Errorf("client %d: %d mismatched of %d verified", i, s.Mismatched, s.Verified)
		}
	}
}

// A spectator's inputs move nothing: a client that joined to watch and
// sends inputs anyway has no entity to move and takes no shot.
func TestSpectatorInputsMoveNothing(t *testing.T) {
	m := newArenaMatch(t, server.Config{}, linksim.Config{})
	m.addPlayer()
	sneak := m.addSpectator()
	m.play(tickRate)
	before := m.world.Stats()
	for range 3 * tickRate {
		m.play(1)
		sneak.SendInput(arena.Input{Buttons: arena.ButtonFire, MoveX: 127, Aim: 1})
	}
	if st := m.srv.Stats(); st.Clients != 1 || st.Spectators != 1 {
		t.Fatalf("%d players, %d spectators; want 1, 1", st.Clients, st.Spectators)
	}
	if _, ok := m.world.Pose(arena.PlayerID(2)); ok {
		t.Fatal("the spectator has an entity in the world")
	}
	after := m.world.Stats()
	if fired := after.ShotsFired - before.ShotsFired; fired > 3*tickRate/6+1 {
		t.Fatalf("%d shots fired in 3 s by one player and a spectator pressing fire", fired)
	}
}

// BenchmarkTickSpectators is one tick of an arena match of 16 players
// (the bots' brain) with 0 and with 16 spectators following the leader:
// what spectators cost the match's tick. Reports the tick's time per
// player and spectator, and allocations (none in steady state).
func BenchmarkTickSpectators(b *testing.B) {
	for _, spectators := range []int{0, 16} {
		b.Run(fmt.Sprintf("spectators=%d", spectators), func(b *testing.B) {
			m := newArenaMatch(b, server.Config{}, linksim.Config{Latency: 30 * time.Millisecond})
			for range 16 {
				m.addPlayer()
			}
			for range spectators {
				m.addSpectator()
			}
			m.play(3 * tickRate)
			b.ReportAllocs()
			for b.Loop() {
				m.play(1)
			}
			st := m.srv.Stats()
			b.ReportMetric(float64(st.TotalTick.Microseconds())/float64(st.TicksTimed), "µs/server-tick")
		})
	}
}

// Spectators keep the tick allocation-free: 8 players and 4 spectators
// (following, and on a free camera) over links with latency.
func TestTickWithSpectatorsAllocatesNothing(t *testing.T) {
	m := newMatch(t, server.Config{})
	for i := range 8 {
		m.join(linksim.Config{Latency: 30 * time.Millisecond}, uint64(i))
	}
	var watchers []*client.Client
	for i := range 4 {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{ServerToClient: linksim.Config{Latency: 30 * time.Millisecond},
			ClientToServer: linksim.Config{Latency: 30 * time.Millisecond}, Seed: uint64(100 + i), Now: m.now})
		if err != nil {
			t.Fatal(err)
		}
		m.srv.Watch(srvEnd)
		watchers = append(watchers, client.New(cliEnd, client.Config{Verify: true, Watch: true}))
	}
	tick := func() {
		m.run(1)
		for _, w := range watchers {
			w.Poll()
			w.SendAck()
		}
	}
	for range 10 {
		tick()
	}
	watchers[1].FlyTo(protocol.WorldSize/3, protocol.WorldSize/3)
	watchers[2].Follow(3)
	for range 110 {
		tick()
	}
	if n := testing.AllocsPerRun(100, tick); n != 0 {
		t.Fatalf("%v allocations per tick with 8 players and 4 spectators (server and clients)", n)
	}
	if st := m.srv.Stats(); st.Spectators != 4 || st.Clients != 8 {
		t.Fatalf("%d players, %d spectators", st.Clients, st.Spectators)
	}
	for i, w := range watchers {
		if s := w.Stats(); s.Mismatched != 0 || s.Verified < 100 {
			t.Errorf("spectator %d: %d mismatched of %d verified", i, s.Mismatched, s.Verified)
		}
	}
}

// A client that asked to watch but is welcomed as a player (a server
// without spectators, which ignores ?watch=1) does not play: it closes.
func TestSpectatorWelcomedAsPlayerCloses(t *testing.T) {
	m := newArenaMatch(t, server.Config{}, linksim.Config{})
	srvEnd, cliEnd := m.pair()
	m.srv.Add(srvEnd) // taken as a player
	c := client.New(cliEnd, client.Config{Watch: true})
	m.spectators = append(m.spectators, c)
	m.play(tickRate)
	if err := c.SpectateErr(); !errors.Is(err, client.ErrNoSpectators) {
		t.Fatalf("SpectateErr() = %v, want ErrNoSpectators", err)
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("the connection is still open")
	}
}
