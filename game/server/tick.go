package server

import (
	"errors"
	"time"

	"github.com/sightline-game/sightline/netcode/transport"
)

// Step runs one tick at time now:
//
//  1. connections that arrived join; ended or silent ones leave;
//  2. every client's inputs and acks are taken;
//  3. the world steps once and is quantized once into the tick's snapshot;
//  4. each client gets a datagram encoded against its acknowledged baseline.
//
// A client whose snapshot channel is congested skips the tick: it gets fewer
// snapshots, never a growing queue, and the next delta covers the gap.
func (s *Server) Step(now time.Time) {
	start := time.Now()
	s.now = now
	s.admit(now)

	live := s.clients[:0]
	for _, c := range s.clients {
		c.heard = false
		c.conn.Receive(c.onMessage)
		if c.heard {
			c.lastHeard = now
		}
		switch {
		case c.done():
			s.remove(c, "connection ended")
		case now.Sub(c.lastHeard) > s.cfg.Timeout:
			s.remove(c, "timed out")
		default:
			live = append(live, c)
		}
	}
	clear(s.clients[len(live):])
	s.clients = live

	s.world.Step()
	s.tick++
	s.world.Fill(s.snap)

	var sent, bytes, congested uint64
	for _, c := range s.clients {
		p, _ := c.sess.AppendSnapshot(s.buf[:0], s.tick, s.snap)
		switch err := c.conn.Send(transport.Snapshots, p); {
		case err == nil:
			c.sent++
			c.bytes += uint64(len(p))
			sent++
			bytes += uint64(len(p))
		case errors.Is(err, transport.ErrCongested):
			c.congested++
			congested++
		}
	}
	s.record(sent, bytes, congested, time.Since(start))
}

// admit takes the connections waiting to join.
func (s *Server) admit(now time.Time) {
	for {
		select {
		case conn := <-s.joins:
			if len(s.clients) >= s.cfg.MaxClients {
				s.cfg.Logger.Warn("match full: connection refused", "clients", len(s.clients))
				conn.Close()
				s.count(func(st *Stats) { st.Refused++ })
				continue
			}
			s.next++
			c := newClient(s.next, conn, s.cfg.Session, s.world, now)
			if s.cfg.Verify {
				c.sess.AlwaysVerify()
			}
			s.clients = append(s.clients, c)
			s.world.AddPlayer(c.id)
			s.cfg.Logger.Info("player joined", "player", c.id, "clients", len(s.clients))
			s.count(func(st *Stats) { st.Joined++ })
		default:
			return
		}
	}
}

// remove frees a client: the world forgets the player, the connection closes.
func (s *Server) remove(c *client, why string) {
	s.world.RemovePlayer(c.id)
	c.conn.Close()
	st := c.sess.Stats()
	s.goneFull += st.FullTooOld + st.FullNotSmaller
	s.goneBad += st.BadInputPackets
	s.cfg.Logger.Info("player left", "player", c.id, "why", why, "ticks_sent", c.sent, "bytes", c.bytes,
		"full_fallbacks", st.FullTooOld+st.FullNotSmaller, "congested", c.congested)
	s.count(func(st *Stats) {
		st.Left++
		if why == "timed out" {
			st.TimedOut++
		}
	})
}
