package server

import (
	"errors"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/serversession"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/view"
)

// Step runs one tick at time now:
//
//  1. connections that arrived join; ended or silent ones leave;
//  2. every client's inputs and acks are taken;
//  3. the world steps once and is quantized once into the world ring that
//     all clients share, and a grid of positions is built;
//  4. per client: interest query (grid, then exact radius with hysteresis)
//     -> priorities -> the tick's byte budget -> the client's view, encoded
//     against its acknowledged view -> recorded in its history.
//
// A client whose snapshot channel is congested skips the tick: it gets fewer
// snapshots, never a growing queue, and the next delta covers the gap.
func (s *Server) Step(now time.Time) {
	start := time.Now()
	s.now = now
	if s.start.IsZero() {
		s.start = now
	}
	s.elapsed = now.Sub(s.start)
	s.castStart()
	s.admit(now)

	live := s.clients[:0]
	for _, c := range s.clients {
		c.heard = false
		c.conn.Receive(c.onMessage)
		if c.heard {
			c.lastHeard = now
			c.spoken = true
		}
		timeout := s.cfg.Timeout
		if !c.spoken {
			timeout = s.cfg.JoinGrace
		}
		switch {
		case c.done():
			s.remove(c, "connection ended")
		case now.Sub(c.lastHeard) > timeout:
			s.remove(c, "timed out")
		case c.broken != nil:
			s.remove(c, c.broken.Error())
		default:
			live = append(live, c)
		}
	}
	clear(s.clients[len(live):])
	s.clients = live

	s.world.Step()
	s.tick++
	if s.timer != nil {
		s.timer.StepTime(float64(s.elapsed) / float64(s.period))
	}
	s.quantize()
	s.relay()
	s.castTick()

	var sent, bytes, congested uint64
	for _, c := range s.clients {
		c.sess.SetAppliedInput(s.world.AppliedInput(c.id))
		if s.pacer != nil {
			if n, ok := s.pacer.InputSpare(c.id); ok {
				// The field holds up to 14, the game's queue at most
				// InputQueue: no more than that goes out.
				c.sess.SetInputSpare(min(n, arena.InputQueue-1))
			}
		}
		p, rep := c.sess.AppendView(s.buf[:0], s.tick, s.candidates(c))
		c.last = rep
		slot := &c.recent[s.tick%uint32(len(c.recent))]
		*slot = 0
		if rep.Skipped {
			continue
		}
		switch err := c.conn.Send(transport.Snapshots, p); {
		case err == nil:
			*slot = uint16(len(p))
			c.sent++
			c.bytes += uint64(len(p))
			sent++
			bytes += uint64(len(p))
		case errors.Is(err, transport.ErrCongested):
			c.congested++
			congested++
		}
	}
	for _, c := range s.clients {
		c.flush(s)
	}
	took := time.Since(start)
	s.record(sent, bytes, congested, took)
	if took > s.period {
		s.logOverrun(now, took)
	}
}

// overrunLogEvery is how often at most the log hears of overruns.
const overrunLogEvery = 10 * time.Second

// logOverrun tells the log that a tick took longer than its period, at most
// once every overrunLogEvery (counting the ones it did not tell of), so a
// host sees when the match fell behind without a line per tick.
func (s *Server) logOverrun(now time.Time, took time.Duration) {
	s.overrunsUnlogged++
	if !s.overrunLoggedAt.IsZero() && now.Sub(s.overrunLoggedAt) < overrunLogEvery {
		return
	}
	s.cfg.Logger.Warn("tick overran its period", "tick", s.tick, "took", took, "period", s.period,
		"clients", len(s.clients), "overruns", s.overrunsUnlogged)
	s.overrunsUnlogged, s.overrunLoggedAt = 0, now
}

// admit takes the connections waiting to join: players, up to
// MaxClients of them, and spectators, up to MaxSpectators.
func (s *Server) admit(now time.Time) {
	for {
		select {
		case j := <-s.joins:
			conn := j.conn
			full := len(s.clients)-s.spectators >= s.cfg.MaxClients
			if j.watch {
				full = s.spectators >= s.MaxSpectators()
			}
			if full {
				if j.watch {
					s.cfg.Logger.Warn("spectators full: connection refused", "spectators", s.spectators)
				} else {
					s.cfg.Logger.Warn("match full: connection refused", "clients", len(s.clients)-s.spectators)
				}
				conn.Close()
				s.count(func(st *Stats) { st.Refused++ })
				continue
			}
			vs, err := view.NewSender(s.shared, s.cfg.viewConfig())
			if err != nil { // New validated the config: not expected
				s.cfg.Logger.Error("connection refused", "err", err)
				conn.Close()
				s.count(func(st *Stats) { st.Refused++ })
				continue
			}
			s.next++
			area := interest.NewArea(uint32(s.cfg.ViewRadius*protocol.UnitsPerPx), uint32(s.cfg.ViewMargin*protocol.UnitsPerPx), 1<<s.cfg.Session.Schema.IndexBits)
			c := newClient(s.next, conn, s.cfg.Session, vs, area, s.world, now, s.cfg.Timeout)
			c.srv = s
			c.recent = make([]uint16, max(1, int(s.cfg.TickRate+0.5)))
			if s.cfg.Verify {
				c.sess.AlwaysVerify()
			}
			s.clients = append(s.clients, c)
			if j.watch {
				s.spectators++
				c.watch = &watcher{}
				s.welcome(c)
				s.cfg.Logger.Info("spectator joined", "spectator", c.id, "spectators", s.spectators)
				s.count(func(st *Stats) { st.SpectatorsJoined++ })
				continue
			}
			s.world.AddPlayer(c.id)
			s.castSeat(c, false)
			s.welcome(c)
			s.cfg.Logger.Info("player joined", "player", c.id, "clients", len(s.clients)-s.spectators)
			s.count(func(st *Stats) { st.Joined++ })
		default:
			return
		}
	}
}

// remove frees a client: the world forgets the player, the connection closes.
func (s *Server) remove(c *client, why string) {
	if c.watch != nil {
		s.removeSpectator(c, why)
		return
	}
	s.world.RemovePlayer(c.id)
	c.conn.Close()
	reason := protocol.LeaveQuit
	if why == "timed out" {
		reason = protocol.LeaveTimeout
	} else if c.broken != nil {
		reason = protocol.LeaveKicked
	}
	leave := protocol.AppendLeave(s.body[:0], protocol.Leave{Player: uint32(c.id), Reason: reason})
	for _, o := range s.clients {
		if o != c {
			o.push(s.tick, protocol.KindLeave, leave)
		}
	}
	s.castEvent(protocol.KindLeave, leave)
	s.castSeat(c, true)
	st := s.forget(c)
	s.cfg.Logger.Info("player left", "player", c.id, "why", why, "ticks_sent", c.sent, "bytes", c.bytes,
		"full_fallbacks", st.FullTooOld+st.FullNotSmaller, "congested", c.congested)
	s.count(func(st *Stats) {
		st.Left++
		if why == "timed out" {
			st.TimedOut++
		}
	})
}

// forget adds the counters of c, which is leaving, to those of the clients
// gone, so that the match's totals never go back, and returns its
// session's.
func (s *Server) forget(c *client) serversession.Stats {
	st := c.sess.Stats()
	s.goneFull += st.FullTooOld + st.FullNotSmaller
	s.goneBad += st.BadInputPackets
	s.goneBadAcks += c.st.records.Stats().BadAcks
	s.goneResends += c.st.records.Stats().Resends
	s.goneEvents += c.st.out.Stats().Events
	s.goneWrongWay += c.wrongWay
	s.goneWrongWayBytes += c.wrongWayBytes
	return st
}

// quantize writes the world of this tick into the ring and indexes positions.
func (s *Server) quantize() {
	snap := s.ring.Begin(s.tick)
	s.world.Fill(snap)
	s.ring.Commit(s.tick)
	s.ents.Load(snap, protocol.FieldX, protocol.FieldY)
	s.grid.Build(s.ents.Xs, s.ents.Ys)
}

// candidates returns the entities in c's area with this tick's priorities:
// nearer is more urgent, what the player aims at doubly so, its own entity
// always goes.
func (s *Server) candidates(c *client) []view.Candidate {
	var o Observer
	if c.watch != nil {
		o = s.watching(c)
	} else {
		o = s.world.Observe(c.id)
	}
	c.members = c.area.Query(c.members[:0], s.grid, &s.ents, o.X, o.Y)
	c.cands = o.AppendCandidates(c.cands[:0], &s.ents, c.members, c.area.Reach())
	return c.cands
}
