package server_test

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// A client that lies about what it drew gains no more than the server's
// estimate of its view allows. Firing at every chance, it claims in turn:
// a tick it has not received (its ack + 5), a tick a second old (beyond
// the rewind), a gap running 200 ticks past its ack, and gibberish in
// every view byte. The world judges none of its shots further back than
// the rewind limit, none from a tick newer than the client had
// acknowledged (those claims are judged in the present), and the second-old
// claims from its estimate of the client's view, which it counts.
func TestCheatingViewsGainNothing(t *testing.T) {
	world, err := newArena(arena.Config{Seed: 9, Creatures: -1})
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, srv: newServer(t, server.Config{TickRate: tickRate}, world), epoch: time.Unix(1_700_000_000, 0)}
	link := linksim.Config{Latency: 30 * time.Millisecond}
	srvEnd, cheatEnd, err := memory.NewPair(memory.Config{ServerToClient: link, ClientToServer: link, Seed: 1, Now: m.now})
	if err != nil {
		t.Fatal(err)
	}
	m.srv.Add(srvEnd)
	cheater := client.New(cheatEnd, client.Config{Verify: true})
	honest := m.join(link, 2)

	type claim struct {
		name  string
		view  func(ack uint32) (from uint32, gap, frac uint8)
		check func(t *testing.T, before, after arena.RewindStats, shots uint64)
	}
	claims := []claim{
		{"a tick not received", func(ack uint32) (uint32, uint8, uint8) { return ack + 5, 0, 0 },
			func(t *testing.T, before, after arena.RewindStats, shots uint64) {
				if after.Shots != before.Shots {
					t.Errorf("%d shots judged in the past on a claim of a tick not received", after.Shots-before.Shots)
				}
			}},
		{"a tick a second old", func(ack uint32) (uint32, uint8, uint8) { return ack - 30, 0, 0 },
			func(t *testing.T, before, after arena.RewindStats, shots uint64) {
				if n := after.Bounded - before.Bounded; n == 0 || n != after.Shots-before.Shots {
					t.Errorf("%d of %d shots bounded by the server's estimate of the view", n, after.Shots-before.Shots)
				}
				// Judged from the estimate: a 30 ms link each way, a tick in
				// the queue, a tick of interpolation, and a little more.
				if n := after.Shots - before.Shots; n > 0 && (after.Ticks-before.Ticks) > n*5*256 {
					t.Errorf("shots judged %.1f ticks back on average, want at most 5", float64(after.Ticks-before.Ticks)/float64(n)/256)
				}
			}},
		{"a gap past the ack", func(ack uint32) (uint32, uint8, uint8) { return ack - 2, 200, 255 },
			func(t *testing.T, before, after arena.RewindStats, shots uint64) {
				if after.Shots == before.Shots {
					t.Error("no shot judged in the past")
				}
			}},
		{"gibberish", func(ack uint32) (uint32, uint8, uint8) { return ack*7919 + 13, uint8(ack), uint8(ack * 3) }, nil},
	}
	var seq uint32
	m.run(tickRate * 3) // past the spawn shields
	for _, c := range claims {
		before := world.RewindStats()
		fired := world.Stats().ShotsFired
		for range 4 * tickRate {
			m.clock += time.Second / tickRate
			m.srv.Step(m.epoch.Add(m.clock))
			cheater.Poll()
			honest.Poll()
			honest.SendInput(arena.Input{MoveY: 127})
			ack, _ := cheater.Newest()
			var raw [protocol.InputSize]byte
			copy(raw[:], protocol.AppendInput(nil, arena.Input{Buttons: arena.ButtonFire}))
			from, gap, frac := c.view(ack)
			binary.LittleEndian.PutUint16(raw[5:], uint16(from))
			raw[7], raw[8] = gap, frac
			seq++
			if err := cheatEnd.Send(transport.Inputs, cheatPacket(ack, seq, 1, raw, 0)); err != nil {
				t.Fatal(err)
			}
		}
		after := world.RewindStats()
		shots := world.Stats().ShotsFired - fired
		if shots < 10 {
			t.Fatalf("%s: the cheater fired %d shots in 4 s", c.name, shots)
		}
		n := after.Shots - before.Shots
		if n > 0 && (after.Ticks-before.Ticks) > n*uint64(arena.DefaultRewindTicks)*256 {
			t.Errorf("%s: shots judged %.1f ticks back on average, beyond the limit of %d", c.name,
				float64(after.Ticks-before.Ticks)/float64(n)/256, arena.DefaultRewindTicks)
		}
		if c.check != nil {
			c.check(t, before, after, shots)
		}
		t.Logf("%s: %d shots, %d judged in the past (%d clamped, %d bounded)", c.name, shots, n, after.Clamped-before.Clamped, after.Bounded-before.Bounded)
	}
	if st := honest.Stats(); st.Mismatched != 0 || st.Verified == 0 {
		t.Fatalf("the honest client verified %d ticks, %d mismatched", st.Verified, st.Mismatched)
	}
}
