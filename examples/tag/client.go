package tag

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/replica"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/varint"
)

// ClientStats are a client's counters: the session's (decoded, verified,
// matched and mismatched ticks among them) and the streams'.
type ClientStats struct {
	session.ClientStats
	Events     uint64 // events delivered
	BadRecords uint64 // records datagrams dropped as malformed
}

// Client is a headless player: it decodes snapshots against the baselines
// they name, checks each decoded tick against the server's hash, hears the
// events in order and the "it" record, and sends inputs that carry its ack.
// One goroutine drives it.
type Client struct {
	conn    transport.Conn
	sess    *session.ClientSession
	inbox   *events.Inbox
	records *replica.Receiver
	self    uint16
	joined  uint32 // tick of the welcome; 0 before it
	onTag   func(Tag)
	err     error
	events  uint64
	in, buf []byte
	ack     []byte
}

// NewClient wraps an open connection. onTag, if not nil, hears every tag
// in order, exactly once.
func NewClient(conn transport.Conn, onTag func(Tag)) *Client {
	return &Client{conn: conn, sess: session.NewClientSession(Session(), true),
		inbox: events.NewInbox(events.InboxConfig{Validate: validEvent}), records: replica.NewReceiver(replica.ReceiverConfig{}),
		onTag: onTag, buf: make([]byte, 0, 64), ack: make([]byte, 0, 64)}
}

// Poll takes every message that arrived. It returns an error once the
// event stream is broken or an event cannot be read: the connection is
// then of no use. A desync (a decoded tick that hashes unlike the
// server's) is not an error here: it is counted in Stats().Mismatched.
func (c *Client) Poll() error {
	c.conn.Receive(c.receive)
	return c.err
}

func (c *Client) receive(ch transport.Channel, p []byte) {
	switch ch {
	case transport.Snapshots:
		_, _ = c.sess.HandleSnapshot(p) // lost baselines and desyncs are counted
	case transport.Events:
		if err := c.inbox.Handle(p, c.event); err != nil && c.err == nil {
			c.err = fmt.Errorf("event stream: %w", err)
		}
	case transport.Replicas:
		ack, _ := c.records.Handle(p, c.ack[:0]) // a malformed one is counted
		if len(ack) > 0 {
			c.ack = ack
			c.conn.Send(transport.Replicas, ack) // lost: the record comes again
		}
	}
}

func (c *Client) event(e events.Event) {
	c.events++
	var err error
	switch e.Kind {
	case KindWelcome:
		var slot uint64
		slot, _, err = varint.Read(e.Body, MaxPlayers-1)
		c.self, c.joined = uint16(slot), e.Tick
	case KindTagged:
		var t Tag
		if t, err = parseTag(e.Tick, e.Body); err == nil && c.onTag != nil {
			c.onTag(t)
		}
	}
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("event %d (%v): %w", e.Seq, e.Kind, err)
	}
}

// SendInput sends in as the next input, with the few before it and the
// newest decoded tick as the ack. A congested channel is not an error: the
// next input repeats this one.
func (c *Client) SendInput(in Input) error {
	c.in = appendInput(c.in[:0], in)
	c.buf = c.sess.AppendInput(c.buf[:0], c.in)
	if err := c.conn.Send(transport.Inputs, c.buf); err != nil && !errors.Is(err, transport.ErrCongested) {
		return fmt.Errorf("send input: %w", err)
	}
	return nil
}

// Run polls and sends the bot's input once a tick, in real time, until ctx
// ends or the connection fails.
func (c *Client) Run(ctx context.Context, bot *Bot) error {
	t := time.NewTicker(time.Second / TickRate)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.conn.Done():
			return transport.ErrClosed
		case <-t.C:
		}
		if err := c.Poll(); err != nil {
			return err
		}
		if err := c.SendInput(bot.Next(c)); err != nil {
			return err
		}
	}
}

// Self returns the slot of the player's own runner and the tick it joined
// on, once the server said.
func (c *Client) Self() (slot uint16, joined uint32, ok bool) { return c.self, c.joined, c.joined != 0 }

// It returns who is "it", as the newest record the client holds says.
func (c *Client) It() (It, bool) {
	_, p, ok := c.records.Get(RecordIt)
	if !ok {
		return It{}, false
	}
	it, err := parseIt(p)
	return it, err == nil
}

// Newest returns the newest decoded tick and its state (nil before the
// first).
func (c *Client) Newest() (uint32, *snapshot.Snapshot) { return c.sess.Newest() }

// Stats returns the client's counters.
func (c *Client) Stats() ClientStats {
	return ClientStats{ClientStats: c.sess.Stats(), Events: c.events, BadRecords: c.records.Stats().Malformed}
}

// Close ends the connection.
func (c *Client) Close() error { return c.conn.Close() }
