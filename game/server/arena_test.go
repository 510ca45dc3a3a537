package server_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

var (
	_ server.World        = (*server.Match)(nil)
	_ server.EventSource  = (*server.Match)(nil)
	_ server.RecordSource = (*server.Match)(nil)
	_ server.Namer        = (*server.Match)(nil)
	_ server.MapSeeder    = (*server.Match)(nil)
)

// records returns a client's or the world's records as comparable strings.
func worldRecords(w *server.Match) []string {
	var out []string
	w.AllRecords(func(id uint32, gen uint16, payload []byte, deleted bool) {
		if !deleted {
			out = append(out, fmt.Sprintf("%x/%d/%x", id, gen, payload))
		}
	})
	slices.Sort(out)
	return out
}

func clientRecords(c *client.Client) []string {
	var out []string
	c.Records(func(id uint32, gen uint16, payload []byte) {
		out = append(out, fmt.Sprintf("%x/%d/%x", id, gen, payload))
	})
	slices.Sort(out)
	return out
}

// The arena over lossy links: players fight with the bots' brain; every
// client sees the same kills in the same order, exactly once; every client's
// records (names and scores, pickups, the clock) converge to the world's;
// and no snapshot desyncs.
func TestArenaEventsAndRecordsUnderLoss(t *testing.T) {
	world, err := newArena(arena.Config{Seed: 3, Creatures: 120, RoundTicks: 40 * tickRate})
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, srv: newServer(t, server.Config{TickRate: tickRate}, world), epoch: time.Unix(1_700_000_000, 0)}
	lossy := linksim.Config{Loss: 0.3, BurstLen: 2, Latency: 40 * time.Millisecond, Jitter: 20 * time.Millisecond, Reorder: 0.05, Duplicate: 0.02}
	const players = 6
	brains := make([]*brain.Brain, players)
	kills := make([][]string, players)
	for i := range players {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{ServerToClient: lossy, ClientToServer: lossy, Seed: uint64(i + 1), Now: m.now})
		if err != nil {
			t.Fatal(err)
		}
		m.srv.Add(srvEnd)
		c := client.New(cliEnd, client.Config{Verify: true, Name: fmt.Sprintf("p%d\x07", i)})
		m.clients = append(m.clients, c)
		brains[i] = brain.New(uint64(i))
		c.OnEvent(func(e events.Event) {
			if e.Kind == protocol.KindKill {
				kills[i] = append(kills[i], fmt.Sprintf("%d:%x", e.Tick, e.Body))
			}
		})
	}
	play := func(n int, idle bool) {
		for range n {
			m.clock += time.Second / tickRate
			m.srv.Step(m.epoch.Add(m.clock))
			for i, c := range m.clients {
				c.Poll()
				var in = brains[i].Play(c)
				if idle {
					in = arena.Input{}
				}
				c.SendInput(in)
			}
		}
	}
	play(60*tickRate, false) // a minute of fighting, a round change included
	// Quiet: nobody moves or shoots; records settle and resends stop.
	converged := false
	for range 10 * tickRate {
		play(1, true)
		want := worldRecords(world)
		same := true
		for _, c := range m.clients {
			if !slices.Equal(clientRecords(c), want) {
				same = false
			}
		}
		if same {
			converged = true
			break
		}
	}
	if !converged {
		t.Errorf("records did not converge:\nworld  %v\nclient %v", worldRecords(world), clientRecords(m.clients[0]))
	}
	st := world.Stats()
	t.Logf("kills %d, deaths %d, creature kills %d, pickups taken %d, rounds %d; client 0 saw %d kill events",
		st.Kills, st.Deaths, st.CreatureKills, st.PickupsTaken, st.Rounds, len(kills[0]))
	if len(kills[0]) == 0 {
		t.Error("nobody was killed in a minute of fighting: the test did not test events")
	}
	for i := 1; i < players; i++ {
		// Everyone joined at tick 1 and stayed: the same kills, in order, once.
		if !slices.Equal(kills[i], kills[0]) {
			t.Errorf("client %d saw kills %v, client 0 %v", i, kills[i], kills[0])
		}
	}
	// Names arrive cleaned, in the score records.
	names := 0
	m.clients[0].Records(func(id uint32, _ uint16, payload []byte) {
		if k, _ := protocol.RecordKind(id); k == protocol.RecordScore {
			s, err := protocol.ParseScore(payload)
			if err != nil || bytes.ContainsAny([]byte(s.Name), "\x07") {
				t.Errorf("score record %+v %v", s, err)
			}
			names++
		}
	})
	if names != players {
		t.Errorf("%d score records, want %d", names, players)
	}
	for i, c := range m.clients {
		if s := c.Stats(); s.Mismatched != 0 || s.Verified < 1000 {
			t.Errorf("client %d: %d mismatched of %d verified", i, s.Mismatched, s.Verified)
		}
	}
}

// newArena returns the arena world of cfg as the server drives it.
func newArena(cfg arena.Config) (*server.Match, error) {
	w, err := arena.NewWorld(cfg)
	if err != nil {
		return nil, err
	}
	return server.NewMatch(w), nil
}
