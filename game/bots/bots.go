// Package bots runs server-side players: headless clients that join the
// match through the same input path as people, over an in-memory connection
// in the server's process, and verify every tick they decode. Each plays
// with a brain (package game/bots/brain), which this package hands the map
// its welcome names.
package bots

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// Config sets up a group of bots.
type Config struct {
	// Count is the number of bots.
	Count int
	// TickRate is how often each bot polls and sends an input, in Hz.
	TickRate float64
	// Seed makes the bots' wandering repeatable.
	Seed uint64
	// JoinRate is how many bots join per second (default DefaultJoinRate):
	// a few each tick, since a whole crowd joining in one tick makes that
	// tick send every newcomer's welcome and records and tell everyone of
	// everyone's arrival at once.
	JoinRate float64
}

// DefaultJoinRate lets 200 bots join in two thirds of a second.
const DefaultJoinRate = 300

// ReserveEntities is the room each bot's decoded snapshots get at once: more
// than a bot's view holds in a crowd (a hundred or so). Taken up front, a
// server's memory for its bots is what it will be from the start; grown with
// the views, it crept up for minutes as the bots met, and a soak could not
// tell that from the clients' memory.
const ReserveEntities = 256

// Group is a running set of bots.
type Group struct {
	clients []*client.Client
	wg      sync.WaitGroup

	mapsMu sync.Mutex
	maps   map[uint64]*arena.Map // by seed: the bots of a match share its walls
	mapped atomic.Int32          // bots whose brain has the map
}

// Start connects cfg.Count bots through add (the server's Add), JoinRate a
// second, and runs them until ctx ends.
func Start(ctx context.Context, cfg Config, add func(transport.Conn)) (*Group, error) {
	if cfg.JoinRate <= 0 {
		cfg.JoinRate = DefaultJoinRate
	}
	g := &Group{}
	start := time.Now()
	clock := func() time.Duration { return time.Since(start) }
	for i := range cfg.Count {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{Now: clock, Seed: cfg.Seed + uint64(i)})
		if err != nil {
			return nil, fmt.Errorf("bots: %w", err)
		}
		c := client.New(cliEnd, client.Config{Verify: true, Name: fmt.Sprintf("bot %d", i+1), ReserveEntities: ReserveEntities})
		g.clients = append(g.clients, c)
		b := brain.New(cfg.Seed*7919 + uint64(i))
		joinAt := time.Duration(float64(i) / cfg.JoinRate * float64(time.Second))
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			defer c.Close()
			if !sleepUntil(ctx, start.Add(joinAt)) {
				srvEnd.Close()
				return
			}
			add(srvEnd)
			g.run(ctx, c, cfg.TickRate, b)
		}()
	}
	return g, nil
}

// sleepUntil waits until t and reports true, or false if ctx ends first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// run plays one bot: poll, then the Brain's input (the Wanderer's until the
// client knows its slot and has a snapshot). Once welcomed, the Brain gets
// the map of the welcome's seed.
func (g *Group) run(ctx context.Context, c *client.Client, rate float64, b *brain.Brain) {
	t := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.Done():
			return
		case <-t.C:
		}
		c.Poll()
		if b.Map() == nil {
			if _, ok := c.Self(); ok { // the welcome carries the map's seed (0 is one)
				b.SetMap(g.mapOf(c.MapSeed()))
				g.mapped.Add(1)
			}
		}
		c.SendInput(b.Play(c))
	}
}

// mapOf returns the map of seed, made once for the whole group.
func (g *Group) mapOf(seed uint64) *arena.Map {
	g.mapsMu.Lock()
	defer g.mapsMu.Unlock()
	m, ok := g.maps[seed]
	if !ok {
		if g.maps == nil {
			g.maps = make(map[uint64]*arena.Map, 1)
		}
		m = arena.NewMap(seed)
		g.maps[seed] = m
	}
	return m
}

// Stats sums the bots' counters.
func (g *Group) Stats() client.Stats {
	var sum client.Stats
	for _, c := range g.clients {
		st := c.Stats()
		sum.Decoded += st.Decoded
		sum.Verified += st.Verified
		sum.Matched += st.Matched
		sum.Mismatched += st.Mismatched
		sum.NoBaseline += st.NoBaseline
		sum.Bytes += st.Bytes
	}
	return sum
}

// Wait blocks until every bot has stopped.
func (g *Group) Wait() { g.wg.Wait() }
