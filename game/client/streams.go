package client

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/replica"
	"github.com/sightline-game/sightline/netcode/transport"
)

// streams are the client's ends of the event and record streams.
type streams struct {
	in      *events.Inbox
	out     *events.Outbox
	records *replica.Receiver
	ack     []byte
	buf     []byte
	onEvent func(events.Event)
	deliver func(events.Event)
	pending []events.Event // events that arrived before OnEvent was set, bodies copied

	welcomed bool
	welcome  protocol.Welcome
	// watching is what a spectator's views follow, as the server last
	// said (toldWatch: it said).
	watching  protocol.Watch
	toldWatch bool
}

func newStreams() *streams {
	return &streams{
		in:      events.NewInbox(events.InboxConfig{Validate: protocol.ValidateEventBody}),
		out:     events.NewOutbox(events.OutboxConfig{Validate: protocol.ValidateEventBody}),
		records: replica.NewReceiver(replica.ReceiverConfig{}),
		ack:     make([]byte, 0, 256),
		buf:     make([]byte, 0, 1200),
	}
}

// event takes one event from the server, in order, exactly once.
func (c *Client) event(e events.Event) {
	if e.Kind == protocol.KindWelcome {
		if w, err := protocol.ParseWelcome(e.Body); err == nil {
			c.st.welcome, c.st.welcomed = w, true
			if c.watch && w.Player != 0 {
				// A server without spectators took the client as a
				// player (docs/PROTOCOL.md 1.5): it must not play.
				c.log.Warn("the server takes no spectators: it welcomed this client as a player", "player", w.Player)
				c.noSpectators = true
				c.conn.Close()
			}
		}
		return
	}
	if e.Kind == protocol.KindWatch {
		if w, err := protocol.ParseWatch(e.Body); err == nil {
			c.st.watching, c.st.toldWatch = w, true
		}
	}
	if c.st.onEvent != nil {
		c.st.onEvent(e)
		return
	}
	if len(c.st.pending) < events.DefaultMaxQueued {
		e.Body = append([]byte(nil), e.Body...)
		c.st.pending = append(c.st.pending, e)
	}
}

func (c *Client) streamMessage(ch transport.Channel, p []byte) {
	switch ch {
	case transport.Events:
		if err := c.st.in.Handle(p, c.st.deliver); err != nil {
			c.log.Warn("event stream broken", "err", err)
			c.conn.Close()
		}
	case transport.Replicas:
		ack, err := c.st.records.Handle(p, c.st.ack[:0])
		if err != nil {
			c.log.Debug("bad records datagram", "err", err)
		}
		if len(ack) > 0 {
			c.st.ack = ack
			c.conn.Send(transport.Replicas, ack)
		}
	}
}

// flushEvents sends what the client queued on its event stream.
func (c *Client) flushEvents() error {
	for c.st.out.Len() > 0 {
		var n int
		c.st.buf, n = c.st.out.AppendNext(c.st.buf[:0], protocol.DatagramLimit)
		if n == 0 {
			return nil
		}
		if err := c.conn.Send(transport.Events, c.st.buf); err != nil {
			return err
		}
	}
	return nil
}

// The methods below belong to the goroutine that polls, like Poll itself.

// Self returns the slot of the player's own entity, once the server said.
func (c *Client) Self() (slot uint16, ok bool) {
	return c.st.welcome.Slot, c.st.welcomed
}

// Player returns the player's id in the match, once the server said.
func (c *Client) Player() (arena.PlayerID, bool) {
	return c.st.welcome.Player, c.st.welcomed
}

// MapSeed returns the seed of the match's map (0 before the welcome).
func (c *Client) MapSeed() uint64 {
	return c.st.welcome.MapSeed
}

// OnEvent sets the function that receives the match's events (hits, kills,
// joins, leaves, chat, round over) in order, exactly once, during Poll.
// Events that arrived before it was set are handed over first.
func (c *Client) OnEvent(fn func(events.Event)) {
	c.st.onEvent = fn
	for _, e := range c.st.pending {
		fn(e)
	}
	c.st.pending = nil
}

// Record returns the newest revision of a replica record, if held. The
// payload is valid until the next Poll.
func (c *Client) Record(id uint32) (gen uint16, payload []byte, ok bool) {
	return c.st.records.Get(id)
}

// Records calls fn for every live record. Payloads are valid during fn.
func (c *Client) Records(fn func(id uint32, gen uint16, payload []byte)) {
	for r := range c.st.records.All() {
		fn(r.ID, r.Generation, r.Payload)
	}
}

// SendChat sends a chat line; the server cleans and limits it.
func (c *Client) SendChat(text string) error {
	text = protocol.CleanChat(text)
	if text == "" {
		return nil
	}
	if err := c.st.out.Push(events.Event{Kind: protocol.KindChat, Body: protocol.AppendChat(nil, protocol.Chat{Text: text})}); err != nil {
		return err
	}
	return c.flushEvents()
}

// introduce sends the player's name: the first thing on its event stream,
// cleaned and cut to the longest name a player may have.
func (c *Client) introduce(name string) {
	c.st.out.Push(events.Event{Kind: protocol.KindJoin, Body: protocol.AppendJoin(nil, protocol.Join{Name: arena.CutName(protocol.CleanChat(name))})})
	c.flushEvents()
}
