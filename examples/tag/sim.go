package tag

import (
	"fmt"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// SimConfig sets up a match in simulated time.
type SimConfig struct {
	Bots       int
	Ticks      uint32 // how long the match runs
	RoundTicks uint32 // tagging ends after this many ticks (0: never)
	Rate       float64
	// Link is each direction of every client's path (loss, latency, ...).
	Link linksim.Config
	Seed uint64
}

// SimResult is a match played by Simulate.
type SimResult struct {
	Server  *Server
	Clients []*Client
	Sent    []Tag   // the tags the server sent
	Heard   [][]Tag // per client, the tags it heard
}

// Simulate plays a match of bots over in-memory connections through the
// link simulator, in simulated time: the same config gives the same match,
// bit for bit, and a minute of play takes a fraction of a second.
func Simulate(cfg SimConfig) (*SimResult, error) {
	var now time.Duration
	r := &SimResult{Heard: make([][]Tag, cfg.Bots)}
	srv, err := NewServer(ServerConfig{Seed: cfg.Seed, RoundTicks: cfg.RoundTicks, Rate: cfg.Rate,
		OnTag: func(t Tag) { r.Sent = append(r.Sent, t) }})
	if err != nil {
		return nil, err
	}
	r.Server = srv
	bots := make([]*Bot, cfg.Bots)
	for i := range cfg.Bots {
		sc, cc, err := memory.NewPair(memory.Config{ServerToClient: cfg.Link, ClientToServer: cfg.Link,
			Seed: cfg.Seed<<8 + uint64(i), Now: func() time.Duration { return now }})
		if err != nil {
			return nil, fmt.Errorf("client %d: %w", i, err)
		}
		srv.Add(sc)
		r.Clients = append(r.Clients, NewClient(cc, func(t Tag) { r.Heard[i] = append(r.Heard[i], t) }))
		bots[i] = NewBot(cfg.Seed<<8 + uint64(i))
	}
	for range cfg.Ticks {
		now += time.Second / TickRate
		srv.Step()
		for i, c := range r.Clients {
			if err := c.Poll(); err != nil {
				return r, fmt.Errorf("client %d: %w", i, err)
			}
			if err := c.SendInput(bots[i].Next(c)); err != nil {
				return r, fmt.Errorf("client %d: %w", i, err)
			}
		}
	}
	return r, nil
}
