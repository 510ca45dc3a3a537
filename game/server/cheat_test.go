package server_test

import (
	"math"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// cheatPacket is an input datagram a hacked client might send: count inputs
// of the raw input bytes raw (not necessarily a valid arena.Input encoding),
// the newest numbered newest. With tap set, the dash button is up in the
// inputs numbered tap to 2*tap-1, 3*tap to 4*tap-1 and so on: every
// 2*tap-th input presses it.
func cheatPacket(ack, newest uint32, count int, raw [protocol.InputSize]byte, tap uint32) []byte {
	var inputs []byte
	for i := range count {
		in := raw
		if tap > 0 && (newest-uint32(i))/tap%2 == 1 {
			in[0] &^= arena.ButtonDash
		}
		inputs = append(inputs, in[:]...)
	}
	return session.AppendInputPacket(nil, true, ack, newest, protocol.InputSize, inputs)
}

// A hacked client cannot beat the rules through the server: whatever its
// inputs claim (sticks at -128, every button, fire every tick, dash held
// every tick or pressed on every other input, sixteen new inputs a tick,
// sequence numbers far ahead or repeated), its entity moves at most
// PlayerSpeed*Dt per tick, DashSpeed*Dt in the DashTicks ticks of a dash,
// and dashes start at least DashCooldown ticks apart, in the world and in
// what every client decodes; it fires at most once every FireInterval
// ticks, and its inputs move only its own entity (an input datagram has no
// field naming a player: the connection is the player). And every snapshot
// a moving client decodes holds only entities within ViewRadius+ViewMargin
// of it.
func TestCheatingInputsGainNothing(t *testing.T) {
	world, err := newArena(arena.Config{Seed: 9, Creatures: 150})
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, srv: newServer(t, server.Config{TickRate: tickRate}, world), epoch: time.Unix(1_700_000_000, 0)}
	link := linksim.Config{Latency: 30 * time.Millisecond}
	var cheatEnd *memory.Conn
	for i := range 2 {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{ServerToClient: link, ClientToServer: link, Seed: uint64(i + 1), Now: m.now})
		if err != nil {
			t.Fatal(err)
		}
		m.srv.Add(srvEnd)
		m.clients = append(m.clients, client.New(cliEnd, client.Config{Verify: true}))
		if i == 0 {
			cheatEnd = cliEnd
		}
	}
	cheater, honest := m.clients[0], m.clients[1]
	const cheatID, honestID = server.PlayerID(1), server.PlayerID(2)

	// World positions (quantized) of every entity by tick, and where each
	// player saw from, to check the decoded views against.
	type worldAt struct {
		pos      map[snapshot.EntityID][2]uint32
		obs      [3]server.Observer
		deaths   [3]uint32
		dead     [3]bool
		shots    uint64
		cheatSeq uint32
		limit    float64 // how far the cheater may have moved this tick, in units
	}
	hist := map[uint32]worldAt{}
	scratch := snapshot.New(protocol.Schema())

	reach := float64((protocol.ViewRadius + protocol.ViewMargin) * protocol.UnitsPerPx)
	// Units per tick, and the position grid a tick ends on (arena.Map.Snap).
	maxStep := (arena.PlayerSpeed*arena.Dt + arena.PositionGrid) * protocol.UnitsPerPx
	dashStep := (arena.DashSpeed*arena.Dt + arena.PositionGrid) * protocol.UnitsPerPx
	const eps = 2.0 // quantization, in units

	var (
		seq           uint32
		lastTick      [3]uint32
		lastPos       [3][2]float64
		fastest       float64
		checkedViews  int
		checkedEnts   int
		honestMoved   bool
		shotsSeen     int
		prevShots     = map[snapshot.EntityID]bool{}
		firstFireTick uint32

		// The cheater in the world, tick by tick.
		cheatX, cheatY    float64
		cheatDeaths       uint32
		cheatAlive        bool
		dashStarts        []uint32
		dashes            uint64
		moves             []float64 // px moved on each tick alive (0 on a death or respawn)
		fastestDash       float64
		dashesWhileTapped uint64
	)
	checkView := func(i int, c *client.Client, id server.PlayerID) {
		tick, snap := c.Newest()
		if snap == nil || tick == lastTick[i] {
			return
		}
		w, ok := hist[tick]
		if !ok {
			t.Fatalf("client %d decoded tick %d the test did not record", i, tick)
		}
		o := w.obs[id]
		checkedViews++
		var self [2]float64
		hasSelf := false
		shots := map[snapshot.EntityID]bool{}
		for k, eid := range snap.IDs() {
			x, y := float64(snap.Value(k, protocol.FieldX)), float64(snap.Value(k, protocol.FieldY))
			if eid.Index == o.Self {
				self, hasSelf = [2]float64{x, y}, true
			}
			if i == 0 && snap.Value(k, protocol.FieldKind) == protocol.KindProjectile {
				shots[eid] = true
				if !prevShots[eid] {
					shotsSeen++
				}
			}
			// Information hiding: where the entity was in the world at
			// that tick, not where the client's (possibly older) value
			// says.
			p, ok := w.pos[eid]
			if !ok {
				t.Errorf("client %d tick %d holds %v, not in the world", i, tick, eid)
				continue
			}
			checkedEnts++
			if d := math.Hypot(float64(p[0])-float64(o.X), float64(p[1])-float64(o.Y)); d > reach+eps && eid.Index != o.Self {
				t.Errorf("client %d tick %d holds %v at %.0f px, beyond %d+%d px", i, tick, eid, d/protocol.UnitsPerPx, protocol.ViewRadius, protocol.ViewMargin)
			}
		}
		if i == 0 {
			prevShots = shots
		}
		if !hasSelf {
			t.Errorf("client %d tick %d: its own entity is missing", i, tick)
			return
		}
		// A death, and the respawn after it, move a player legitimately.
		if prev, ok := hist[lastTick[i]]; ok && prev.deaths[id] == w.deaths[id] && !prev.dead[id] && !w.dead[id] {
			n := float64(tick - lastTick[i])
			limit := 0.0
			for k := lastTick[i] + 1; int32(k-tick) <= 0; k++ {
				limit += hist[k].limit
			}
			d := math.Hypot(self[0]-lastPos[i][0], self[1]-lastPos[i][1])
			if d > limit+eps {
				t.Errorf("client %d moved %.1f px in %v ticks (tick %d): more than the rules' %.1f px", i, d/protocol.UnitsPerPx, n, tick, limit/protocol.UnitsPerPx)
			}
			if i == 0 {
				fastest = max(fastest, d/n)
			} else if d > eps {
				honestMoved = true
			}
		}
		lastTick[i], lastPos[i] = tick, self
	}

	dirs := [][2]byte{{0x80, 0x80}, {0x7f, 0x80}, {0x7f, 0x7f}, {0x80, 0x7f}, {0x80, 0x00}, {0x00, 0x7f}}
	step := func(phase int) {
		m.clock += time.Second / tickRate
		m.srv.Step(m.epoch.Add(m.clock))
		tick := m.srv.Tick()
		w := worldAt{pos: map[snapshot.EntityID][2]uint32{}, shots: world.Stats().ShotsFired, cheatSeq: world.AppliedInput(cheatID), limit: maxStep}

		// The rules, checked on the world's exact positions.
		if st := world.Stats(); st.Dashes != dashes {
			if st.Dashes != dashes+1 {
				t.Fatalf("tick %d: %d dashes started at once", tick, st.Dashes-dashes)
			}
			if n := len(dashStarts); n > 0 && tick-dashStarts[n-1] < arena.DashCooldown {
				t.Errorf("tick %d: a dash %d ticks after the last (cooldown %d)", tick, tick-dashStarts[n-1], arena.DashCooldown)
			}
			dashStarts = append(dashStarts, tick)
			dashes = st.Dashes
			if phase > 0 {
				dashesWhileTapped++
			}
		}
		dashing := len(dashStarts) > 0 && tick-dashStarts[len(dashStarts)-1] < arena.DashTicks
		if dashing {
			w.limit = dashStep
		}
		if p, ok := world.Player(cheatID); ok {
			alive := !p.Dead && p.Deaths == cheatDeaths
			d := 0.0
			if alive && cheatAlive {
				d = math.Hypot(p.X-cheatX, p.Y-cheatY)
				if d > w.limit/protocol.UnitsPerPx+1e-9 {
					t.Errorf("tick %d: the cheater moved %.2f px (dashing %v)", tick, d, dashing)
				}
				if dashing {
					fastestDash = max(fastestDash, d)
				}
			}
			moves = append(moves, d)
			cheatX, cheatY, cheatDeaths, cheatAlive = p.X, p.Y, p.Deaths, !p.Dead
		}

		world.Fill(scratch)
		for k, eid := range scratch.IDs() {
			w.pos[eid] = [2]uint32{scratch.Value(k, protocol.FieldX), scratch.Value(k, protocol.FieldY)}
		}
		for _, id := range []server.PlayerID{cheatID, honestID} {
			w.obs[id] = world.Observe(id)
			if p, ok := world.Player(id); ok {
				w.deaths[id], w.dead[id] = p.Deaths, p.Dead
			}
		}
		hist[tick] = w
		delete(hist, tick-64)

		cheater.Poll()
		honest.Poll()
		checkView(0, cheater, cheatID)
		checkView(1, honest, honestID)
		// The honest player stands still, aiming; it never fires.
		honest.SendInput(arena.Input{Aim: 1})

		d := dirs[int(tick/20)%len(dirs)]
		raw := [protocol.InputSize]byte{0xff, d[0], d[1], 0xff, 0xff} // every button, stick at -128 or 127
		ack := cheater.LastHeader().Tick
		var p []byte
		switch phase {
		case 0: // one new input a tick, sixteen copies, dash held
			seq++
			p = cheatPacket(ack, seq, session.MaxRedundancy, raw, 0)
		case 1: // one new input a tick, dash pressed on every other
			seq++
			p = cheatPacket(ack, seq, session.MaxRedundancy, raw, 1)
		case 2: // sixteen new inputs a tick, the dash pressed on every other tick's
			seq += session.MaxRedundancy
			p = cheatPacket(ack, seq, session.MaxRedundancy, raw, session.MaxRedundancy)
		case 3: // the same sequence number again and again
			p = cheatPacket(ack, seq, 1, raw, 1)
		case 4: // far in the future, once, then nothing newer counts
			if seq < 1<<30 {
				seq += 1 << 30
			}
			p = cheatPacket(ack, seq, 1, raw, 1)
		}
		if firstFireTick == 0 {
			firstFireTick = tick
		}
		if err := cheatEnd.Send(transport.Inputs, p); err != nil {
			t.Fatal(err)
		}
	}
	for phase, ticks := range []int{300, 300, 300, 60, 60} {
		for range ticks {
			step(phase)
		}
	}

	st := world.Stats()
	ticks := m.srv.Tick() - firstFireTick
	t.Logf("world: queued %d, applied %d, clamped %d, dropped old %d dup %d too far %d queue full %d; shots fired %d, refused %d",
		st.InputsQueued, st.InputsApplied, st.InputsClamped, st.DroppedOld, st.DroppedDuplicate, st.DroppedTooFar, st.DroppedQueueFull, st.ShotsFired, st.ShotsRefused)
	t.Logf("checked %d views, %d entities; cheater's fastest %.2f px/tick (walking %.2f, dashing %.2f); projectiles seen %d", checkedViews, checkedEnts, fastest/protocol.UnitsPerPx, arena.PlayerSpeed*arena.Dt, arena.DashSpeed*arena.Dt, shotsSeen)
	if fastest < 0.9*maxStep {
		t.Errorf("the cheater never moved at full speed (%.2f units/tick): the test did not test speed", fastest)
	}
	// Dashes: as many as the cooldown allows while the cheater taps the
	// button (some cut short by deaths), none faster or longer than the
	// rules, and over any DashCooldown ticks no further than one dash and a
	// walk.
	t.Logf("dashes %d (%d while tapping), refused %d; fastest dash tick %.2f px (limit %.2f)", st.Dashes, dashesWhileTapped, st.DashesRefused, fastestDash, arena.DashSpeed*arena.Dt)
	tapTicks := uint64(300 + 300) // then no new input is applied
	if st.Dashes > uint64(m.srv.Tick())/arena.DashCooldown+1 {
		t.Errorf("%d dashes in %d ticks: more than one every %d ticks", st.Dashes, m.srv.Tick(), arena.DashCooldown)
	}
	if dashesWhileTapped < tapTicks/arena.DashCooldown/2 || st.DashesRefused == 0 || fastestDash < 0.9*arena.DashSpeed*arena.Dt {
		t.Errorf("dashes %d while tapping, %d refused, fastest %.2f px: the cheater's dash button did not work", dashesWhileTapped, st.DashesRefused, fastestDash)
	}
	// Each tick ends on the position grid: up to a step of it more a tick.
	window := (arena.DashTicks*arena.DashSpeed+(arena.DashCooldown-arena.DashTicks)*arena.PlayerSpeed)*arena.Dt + arena.DashCooldown*arena.PositionGrid
	farthest := 0.0
	for k := range moves {
		sum := 0.0
		for _, d := range moves[k:min(k+arena.DashCooldown, len(moves))] {
			sum += d
		}
		farthest = max(farthest, sum)
	}
	t.Logf("farthest in %d ticks: %.1f px (limit %.1f)", arena.DashCooldown, farthest, window)
	if farthest > window+1e-6 {
		t.Errorf("the cheater went %.1f px in %d ticks: more than a dash and a walk (%.1f px)", farthest, arena.DashCooldown, window)
	}
	if honestMoved {
		t.Error("the honest player, standing still, moved: someone else's input moved it")
	}
	// A spread shot is SpreadPellets projectiles: count shots, not pellets.
	shots := st.ShotsFired - (arena.SpreadPellets-1)*st.SpreadShots
	if shots > uint64(ticks)/arena.FireInterval+1 {
		t.Errorf("%d shots in %d ticks: more than one every %d ticks", shots, ticks, arena.FireInterval)
	}
	if shots < uint64(ticks)/arena.FireInterval/3 || st.ShotsRefused == 0 {
		t.Errorf("fired %d, refused %d: the cheater's fire button did not work at all", st.ShotsFired, st.ShotsRefused)
	}
	if uint64(shotsSeen) > st.ShotsFired {
		t.Errorf("the cheater saw %d projectiles appear, %d fired", shotsSeen, st.ShotsFired)
	}
	if st.InputsClamped == 0 || st.DroppedQueueFull == 0 || st.DroppedTooFar == 0 {
		t.Errorf("the rules never saw the cheats: %+v", st)
	}
	if st.InputsApplied > uint64(m.srv.Tick())*2 { // two players, one input each a tick
		t.Errorf("%d inputs applied in %d ticks", st.InputsApplied, m.srv.Tick())
	}
	if checkedViews < 2*700 || checkedEnts < 10*checkedViews {
		t.Errorf("checked only %d views, %d entities", checkedViews, checkedEnts)
	}
	for i, c := range m.clients {
		if cs := c.Stats(); cs.Mismatched != 0 {
			t.Errorf("client %d: %d desyncs", i, cs.Mismatched)
		}
	}
}
