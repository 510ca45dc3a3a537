package server

import (
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport"
)

// DefaultMaxSpectators is how many spectators a match takes at once unless
// its Config says otherwise.
const DefaultMaxSpectators = 16

// Scorer is a World that keeps score (arena's Match does): a spectator
// that asks the server to choose whom it follows then follows the leader.
type Scorer interface {
	// Score returns player id's score, if the player is in the match.
	Score(id PlayerID) (score uint32, ok bool)
}

// watcher is what a spectator watches: a player it follows, or a free
// camera.
type watcher struct {
	free   bool
	follow PlayerID // the player followed; 0: none yet
	slot   uint16   // the followed player's entity
	x, y   uint32   // the free camera, in quantized units
	// told is the Watch the spectator was last sent; tell sends it another
	// when the one it watches now differs.
	told    protocol.Watch
	toldAny bool
}

// Watch hands a new connection to the match as a spectator: it joins at the
// next tick, if the match has room for another spectator, and gets the
// views a player in its place would, from the player it follows (the
// leader, until it asks for another: protocol.KindWatch) or from its free
// camera. It sends no inputs that count, is not a player of the world, and
// takes no player's place. If the queue of joining connections is full the
// connection is closed.
func (s *Server) Watch(conn transport.Conn) { s.join(joining{conn: conn, watch: true}) }

// watching returns where the spectator c sees from this tick: the player it
// follows (another, the leader, if that one left), or its free camera.
func (s *Server) watching(c *client) Observer {
	w := c.watch
	var o Observer
	switch {
	case w.free:
		o = Observer{X: w.x, Y: w.y}
	default:
		if w.follow != 0 {
			if o = s.world.Observe(w.follow); !o.HasSelf || !s.isPlayer(w.follow) {
				w.follow = 0
			}
		}
		if w.follow == 0 {
			w.follow = s.leader()
			o = s.world.Observe(w.follow)
		}
		if w.follow == 0 || !o.HasSelf {
			// Nobody to follow: the middle of the world.
			w.follow = 0
			o = s.world.Observe(0)
			o.HasSelf = false
		}
	}
	w.slot = 0
	if !w.free && w.follow != 0 {
		w.slot = o.Self
	}
	s.tell(c)
	return o
}

// tell sends the spectator c whom it watches now, if that changed since it
// was last told.
func (s *Server) tell(c *client) {
	w := c.watch
	now := protocol.Watch{Mode: protocol.WatchFollow, Player: uint32(w.follow), Slot: w.slot}
	if w.free {
		now = protocol.Watch{Mode: protocol.WatchFree, X: w.x, Y: w.y}
	}
	if w.toldAny && now == w.told {
		return
	}
	w.told, w.toldAny = now, true
	c.push(s.tick, protocol.KindWatch, protocol.AppendWatch(s.body[:0], now))
}

// isPlayer reports whether id is a player connected to the match (not a
// spectator).
func (s *Server) isPlayer(id PlayerID) bool {
	for _, c := range s.clients {
		if c.id == id {
			return c.watch == nil
		}
	}
	return false
}

// leader returns the player with the highest score (the first to join among
// equals), or the first player when the world keeps no score; 0 when the
// match has no player.
func (s *Server) leader() PlayerID {
	sc, scores := s.world.(Scorer)
	best, most := PlayerID(0), uint32(0)
	for _, c := range s.clients {
		if c.watch != nil {
			continue
		}
		if !scores {
			return c.id
		}
		n, ok := sc.Score(c.id)
		if !ok {
			continue
		}
		if best == 0 || n > most {
			best, most = c.id, n
		}
	}
	return best
}

// watchAsked takes a spectator's Watch: follow a player (0: the leader), or
// fly a free camera, clamped to the world.
func (s *Server) watchAsked(c *client, w protocol.Watch) {
	if w.Mode == protocol.WatchFree {
		limit := protocol.PosQuant.Quantize(protocol.WorldSize)
		c.watch.free = true
		c.watch.x, c.watch.y = min(w.X, limit), min(w.Y, limit)
		return
	}
	c.watch.free = false
	c.watch.follow = 0
	if s.isPlayer(PlayerID(w.Player)) {
		c.watch.follow = PlayerID(w.Player)
	}
}

// removeSpectator frees a spectator: its connection closes; the players
// hear nothing of it.
func (s *Server) removeSpectator(c *client, why string) {
	c.conn.Close()
	s.spectators--
	s.forget(c)
	s.cfg.Logger.Info("spectator left", "spectator", c.id, "why", why, "ticks_sent", c.sent, "bytes", c.bytes)
	s.count(func(st *Stats) { st.SpectatorsLeft++ })
}
