package server

import (
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/events"
)

// A match's broadcast is the whole world of every tick, every record and
// every event the players hear, written by a broadcast.Writer into the
// sinks of Config.Broadcast (an origin that HTTP caches fan out, a replay
// file): see package broadcast and docs/10-watching.md. It is written once
// a tick for the match, not per viewer, whoever watches.

// DefaultBroadcastDelay is how long a broadcast holds each fragment back by
// default (cmd/server -broadcast-delay): long enough that watching the
// broadcast does not help a player.
const DefaultBroadcastDelay = 10 * time.Second

// newCast returns the match's broadcast writer, or nil without sinks.
func newCast(cfg Config, world World) *broadcast.Writer {
	if len(cfg.Broadcast) == 0 {
		return nil
	}
	w := protocol.Welcome{}
	if m, ok := world.(MapSeeder); ok {
		w.MapSeed = m.MapSeed()
	}
	return broadcast.NewWriter(broadcast.WriterConfig{
		Format:        cfg.Session.Format(cfg.Session.Schema),
		Schema:        cfg.Session.Schema,
		FragmentTicks: cfg.FragmentTicks,
		Preamble:      protocol.AppendWelcome(nil, w),
		Sinks:         cfg.Broadcast,
	})
}

// castStart hands the broadcast every record the world holds, before its
// first tick.
func (s *Server) castStart() {
	if s.cast == nil || s.castStarted {
		return
	}
	s.castStarted = true
	if rs, ok := s.world.(RecordSource); ok {
		rs.AllRecords(s.cast.Record)
	}
}

// castEvent writes an event into the broadcast.
func (s *Server) castEvent(kind events.Kind, body []byte) {
	if s.cast != nil {
		s.cast.Event(uint8(kind), body)
	}
}

// castSeat writes where a player's entity is (protocol.RecordSeat), or
// that the player left.
func (s *Server) castSeat(c *client, left bool) {
	if s.cast == nil {
		return
	}
	id := protocol.RecordSeat | uint32(c.id)&protocol.RecordIndexMask
	if left {
		s.cast.Record(id, 0, nil, true)
		return
	}
	if o := s.world.Observe(c.id); o.HasSelf {
		s.cast.Record(id, 0, protocol.AppendSeat(s.body[:0], o.Self), false)
	}
}

// castTick ends the tick in the broadcast: the world as the ring holds it.
func (s *Server) castTick() {
	if s.cast != nil {
		s.cast.Tick(s.tick, s.ring.At(s.tick))
	}
}

// EndBroadcast sends the broadcast's open fragment, however short: the
// match is over. Run does it when it returns; a caller that steps the
// match itself (Step) calls it at the end, or the broadcast and a replay
// recorded from it lose their last ticks. Call it from the goroutine that
// steps the match.
func (s *Server) EndBroadcast() { s.castEnd() }

// castEnd ends the broadcast's open fragment: the match is over.
func (s *Server) castEnd() {
	if s.cast != nil {
		s.cast.Close()
	}
}

// BroadcastStats returns the counters of the match's broadcast writer
// (zero without Config.Broadcast). Call it from the goroutine that steps
// the match, or after Run returned.
func (s *Server) BroadcastStats() broadcast.WriterStats {
	if s.cast == nil {
		return broadcast.WriterStats{}
	}
	return s.cast.Stats()
}
