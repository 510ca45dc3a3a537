package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sightline-game/sightline/game/agones"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// newHost builds the o.matches matches: IDs "1", "2", ..., each its own
// world (match i on seed o.seed+i-1) taking o.maxClients people and o.bots
// bots. With one match it is named o.name; with more, "Match 1", ...,
// and its log lines carry match=ID.
func newHost(log *slog.Logger, o options) (*server.Host, error) {
	ms := make([]server.Hosted, o.matches)
	for i := range ms {
		id := strconv.Itoa(i + 1)
		mlog, name := log, o.name
		if o.matches > 1 {
			mlog, name = log.With("match", id), "Match "+id
		}
		world, err := arena.NewWorld(worldConfig(o, i))
		if err != nil {
			return nil, err
		}
		sinks, err := o.casts.sinks(id)
		if err != nil {
			return nil, err
		}
		srv, err := server.New(server.Config{
			Broadcast: sinks,
			TickRate:  o.tick, Timeout: o.timeout, MaxClients: o.maxClients + o.bots, MaxSpectators: spectatorsOf(o), Verify: o.verify, Logger: mlog,
			Rate: o.rate, ViewRadius: o.radius, BeforeTick: o.beforeTick,
		}, server.NewMatch(world))
		if err != nil {
			return nil, err
		}
		ms[i] = server.Hosted{ID: id, Name: name, Server: srv, Bots: o.bots}
	}
	return server.NewHost(ms...)
}

// spectatorsOf is the server's Config.MaxSpectators for -max-spectators,
// whose 0 means none.
func spectatorsOf(o options) int {
	if o.maxSpectators <= 0 {
		return -1
	}
	return o.maxSpectators
}

// worldConfig is the arena of match i (from 0): -creatures 0 means none
// (the arena's own zero means its default).
func worldConfig(o options, i int) arena.Config {
	creatures := o.creatures
	if creatures == 0 {
		creatures = -1
	}
	return arena.Config{Seed: o.seed + uint64(i), Creatures: creatures, MaxPlayers: o.maxClients + o.bots, RewindTicks: arena.RewindTicksOf(o.maxRewind)}
}

// route is the WebRTC server's Route: the match an offer joins, by its
// ?match=ID or, without one, the fullest with room. live counts each
// match's WebRTC sessions, the people in it or joining it.
//
// An offer with ?watch=1 joins as a spectator: the match asked for, or the
// one with the most players, on its spectators' route
// (server.SpectatorRoute), if it has room for another spectator.
func route(host *server.Host, r *http.Request, live func(string) int) (string, error) {
	q := r.URL.Query()
	var id string
	var err error
	watch := q.Has(protocol.WatchQuery)
	if watch {
		id, err = host.PickToWatch(q.Get(client.MatchQuery), func(id string) int { return live(server.SpectatorRoute(id)) })
	} else {
		id, err = host.Pick(q.Get(client.MatchQuery), live)
	}
	switch {
	case errors.Is(err, server.ErrNoMatch):
		// The 404's body: `no match "9" on this server (GET /matches lists them)`.
		return "", fmt.Errorf("%s: %w", strings.TrimSuffix(err.Error(), ": "+server.ErrNoMatch.Error()), webrtc.ErrNoRoute)
	case errors.Is(err, server.ErrMatchFull):
		return "", fmt.Errorf("%w: %w", err, webrtc.ErrRouteFull)
	}
	if watch && err == nil {
		id = server.SpectatorRoute(id)
	}
	return id, err
}

// roundsEnded counts the rounds a match has ended: those before the one
// under way, and that one too during the intermission after it.
func roundsEnded(st server.Stats) uint32 {
	n := max(st.Round, 1) - 1
	if st.Intermission {
		n++
	}
	return n
}

// watchRounds tells the Agones lifecycle that the matches are over once,
// after the GameServer was allocated, every match has ended a round: an
// allocated server whose players never came then shuts down when empty.
// It looks every period until ctx ends.
func watchRounds(ctx context.Context, life *agones.Lifecycle, host *server.Host, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	var start []uint32 // rounds ended by each match when allocated
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if allocated, _ := life.Allocated(); !allocated {
			continue
		}
		now := make([]uint32, len(host.Matches()))
		for i, m := range host.Matches() {
			now[i] = roundsEnded(m.Server.Stats())
		}
		if start == nil {
			start = now
			continue
		}
		if allRoundsOver(start, now) {
			life.MatchOver()
			return
		}
	}
}

// allRoundsOver reports whether every match has ended a round more than it
// had at start.
func allRoundsOver(start, now []uint32) bool {
	for i := range start {
		if now[i] <= start[i] {
			return false
		}
	}
	return true
}
