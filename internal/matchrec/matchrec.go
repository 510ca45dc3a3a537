// Package matchrec records a short match of bots as a replay file, for
// tests: the arena served by game/server to in-memory players that the
// bots' brain drives, stepped by a virtual clock (as fast as the machine
// goes, the same every run), its broadcast written by a
// broadcast.Recorder.
package matchrec

import (
	"bytes"
	"fmt"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// TickRate is the recorded match's tick rate.
const TickRate = 30

// Config is the match to record.
type Config struct {
	// Players is the number of bots (default 4).
	Players int
	// Creatures is the number of creatures in the arena (default 40).
	Creatures int
	// Ticks is how long the match runs.
	Ticks int
	// LeaveAt, if above 0, is the tick at which the first bot leaves.
	LeaveAt int
	// FragmentTicks is the broadcast's fragment length (default 30).
	FragmentTicks int
	// Seed is the world's seed (default 5).
	Seed uint64
}

// Record plays the match and returns its replay file.
func Record(cfg Config) ([]byte, error) {
	if cfg.Players <= 0 {
		cfg.Players = 4
	}
	if cfg.FragmentTicks <= 0 {
		cfg.FragmentTicks = 30
	}
	if cfg.Seed == 0 {
		cfg.Seed = 5
	}
	if cfg.Creatures <= 0 {
		cfg.Creatures = 40
	}
	var file bytes.Buffer
	rec := broadcast.NewRecorder(&file, broadcast.ReplayHeader{Protocol: protocol.Version, TickRate: TickRate, FragmentTicks: cfg.FragmentTicks})
	w, err := arena.NewWorld(arena.Config{Seed: cfg.Seed, Creatures: cfg.Creatures})
	if err != nil {
		return nil, err
	}
	world := server.NewMatch(w)
	srv, err := server.New(server.Config{
		TickRate: TickRate, MaxClients: cfg.Players, Verify: true,
		Broadcast: []broadcast.Sink{rec}, FragmentTicks: cfg.FragmentTicks,
	}, world)
	if err != nil {
		return nil, err
	}
	var clock time.Duration
	now := func() time.Duration { return clock }
	epoch := time.Unix(1_700_000_000, 0)
	m := arena.NewMap(world.MapSeed())
	players := make([]*client.Client, cfg.Players)
	brains := make([]*brain.Brain, cfg.Players)
	for i := range players {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{Seed: uint64(i + 1), Now: now})
		if err != nil {
			return nil, err
		}
		srv.Add(srvEnd)
		players[i] = client.New(cliEnd, client.Config{Verify: true, Name: fmt.Sprintf("bot %d", i+1)})
		brains[i] = brain.New(uint64(i+1) * 7919)
		brains[i].SetMap(m)
	}
	for tick := 1; tick <= cfg.Ticks; tick++ {
		clock += time.Second / TickRate
		srv.Step(epoch.Add(clock))
		if tick == cfg.LeaveAt {
			players[0].Close()
		}
		for i, c := range players {
			if i == 0 && cfg.LeaveAt > 0 && tick >= cfg.LeaveAt {
				continue
			}
			c.Poll()
			c.SendInput(brains[i].Play(c))
		}
	}
	srv.EndBroadcast() // the last fragment, however short
	for _, c := range players {
		c.Close()
	}
	if err := rec.Err(); err != nil {
		return nil, err
	}
	for _, c := range players {
		if st := c.Stats(); st.Mismatched != 0 {
			return nil, fmt.Errorf("matchrec: a bot decoded %d ticks other than the server's", st.Mismatched)
		}
	}
	return file.Bytes(), nil
}
