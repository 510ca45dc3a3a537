package server

import (
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/serversession"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/view"
)

// client is one connected player as the tick loop sees it.
type client struct {
	id        PlayerID
	conn      transport.Conn
	sess      *serversession.Session
	views     *view.Sender
	area      *interest.Area
	members   []int32
	cands     []view.Candidate
	recent    []uint16 // bytes of the last second's datagrams, by tick
	last      view.Report
	joined    time.Time
	lastHeard time.Time
	world     World

	// Counters the tick loop keeps.
	sent, congested, bytes uint64
	// Messages (and their bytes) the client sent on a channel that carries
	// nothing its way, dropped unread.
	wrongWay, wrongWayBytes uint64

	// The event and record streams, and why they broke, if they did.
	st     *streams
	broken error
	srv    *Server
	// watch is what a spectator watches; nil for a player.
	watch *watcher

	// Method values made once, so the tick loop allocates nothing.
	onMessage func(transport.Channel, []byte)
	onInput   func(uint32, []byte)
	onEvent   func(events.Event)
	heard     bool
	// spoken is set once the client has sent anything: until then it may be
	// starting up (a browser tab builds its game for seconds after the
	// channels open), so it gets the join grace instead of the timeout and
	// no records yet (they would use up their resends unread).
	spoken bool
}

func newClient(id PlayerID, conn transport.Conn, cfg session.Config, vs *view.Sender, area *interest.Area, w World, now time.Time, timeout time.Duration) *client {
	c := &client{id: id, conn: conn, sess: serversession.NewView(cfg, vs), views: vs, area: area, joined: now, lastHeard: now, world: w}
	c.st = newStreams(timeout)
	c.onMessage = c.message
	c.onInput = c.input
	c.onEvent = c.event
	return c
}

// message dispatches what the client sent by channel. The client speaks on
// inputs, events and replicas (record acks); anything on another channel
// (snapshots run server to client only) is counted and dropped.
func (c *client) message(ch transport.Channel, p []byte) {
	switch ch {
	case transport.Inputs:
		if c.sess.HandleInput(p, c.onInput) == nil {
			c.heard = true
		}
	case transport.Events:
		if err := c.st.in.Handle(p, c.onEvent); err != nil && c.broken == nil {
			c.broken = err
		}
	case transport.Replicas:
		c.st.records.HandleAck(p)
	default:
		c.wrongWay++
		c.wrongWayBytes += uint64(len(p))
	}
}

func (c *client) event(e events.Event) { c.srv.fromClient(c, e) }

func (c *client) input(seq uint32, p []byte) {
	if c.watch != nil {
		return // a spectator's inputs move nothing
	}
	in := protocol.ParseInput(p, c.sess.AckedTick())
	in.Acked = c.sess.InputAck(seq)
	c.world.ApplyInput(c.id, seq, in)
}

// done reports whether the connection has ended.
func (c *client) done() bool {
	select {
	case <-c.conn.Done():
		return true
	default:
		return false
	}
}
