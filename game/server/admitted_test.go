package server_test

import (
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// admittedConn is a server end whose peer the host admitted, as a WebRTC
// connection admitted with a join token is.
type admittedConn struct {
	*memory.Conn
	who server.Admitted
}

func (c admittedConn) Admission() any { return c.who }

// A player admitted by name (a join token's) plays under that name,
// whatever its client asks for; one not admitted keeps its own.
func TestAdmittedNameIsThePlayersName(t *testing.T) {
	world, err := newArena(arena.Config{Seed: 2, Creatures: 4})
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, srv: newServer(t, server.Config{TickRate: tickRate}, world), epoch: time.Unix(1_700_000_000, 0)}
	joined := map[uint32]string{}
	for i, asked := range []string{"mallory", "bob"} {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{Seed: uint64(i + 1), Now: m.now})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			m.srv.Add(admittedConn{Conn: srvEnd, who: server.Admitted{Name: "ada", Player: 7}})
		} else {
			m.srv.Add(srvEnd)
		}
		c := client.New(cliEnd, client.Config{Name: asked})
		m.clients = append(m.clients, c)
		c.OnEvent(func(e events.Event) {
			if e.Kind == protocol.KindJoin && i == 1 {
				if j, err := protocol.ParseJoin(e.Body); err == nil {
					joined[j.Player] = j.Name
				}
			}
		})
	}
	for range tickRate {
		m.clock += time.Second / tickRate
		m.srv.Step(m.epoch.Add(m.clock))
		for _, c := range m.clients {
			c.Poll()
			c.SendInput(arena.Input{})
		}
	}
	names := map[string]bool{}
	for _, n := range joined {
		names[n] = true
	}
	if len(joined) != 2 || !names["ada"] || !names["bob"] || names["mallory"] {
		t.Errorf("the players joined as %v; want ada (admitted, asking for mallory) and bob", joined)
	}
}
