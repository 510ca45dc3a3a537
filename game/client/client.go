// Package client is the headless game client: it connects to a match,
// decodes snapshots onto the baselines they name, acknowledges the newest,
// sends inputs, and (when asked) verifies every decoded tick against the
// server's hash. It draws nothing: the desktop game, the browser build,
// bots, the load tester and tests all drive it.
package client

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/transport"
)

// Config sets up a client. Zero fields take the defaults noted.
type Config struct {
	// Session is the wire agreement with the server (default protocol.Session()).
	Session session.Config
	// Verify asks the server for a hash of every tick and checks it.
	Verify bool
	// Logger receives desyncs and connection trouble (default: discard).
	Logger *slog.Logger
	// OnSnapshot, if set, is called with the size of every snapshot datagram.
	OnSnapshot func(size int)
}

// Stats are a client's counters.
type Stats struct {
	session.ClientStats
	Conn transport.Stats
}

// Client is one connection to a match. One goroutine polls and sends;
// Stats may be called from any goroutine.
type Client struct {
	mu        sync.Mutex // held while polling and sending, so Stats can read
	conn      transport.Conn
	sess      *session.ClientSession
	log       *slog.Logger
	buf       []byte
	in        []byte
	onMessage func(transport.Channel, []byte)
	onSize    func(int)
	decoded   int
}

// New wraps an open connection.
func New(conn transport.Conn, cfg Config) *Client {
	if cfg.Session.Schema == nil {
		cfg.Session = protocol.Session()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	c := &Client{
		conn:   conn,
		sess:   session.NewClientSession(cfg.Session, cfg.Verify),
		log:    cfg.Logger,
		buf:    make([]byte, 0, 256),
		in:     make([]byte, 0, protocol.InputSize),
		onSize: cfg.OnSnapshot,
	}
	c.sess.OnMismatch(func(tick uint32) { c.log.Warn("desync: decoded tick differs from the server's", "tick", tick) })
	c.onMessage = c.message
	return c
}

func (c *Client) message(ch transport.Channel, p []byte) {
	if ch != transport.Snapshots {
		return // events and replicas: their issues give them meaning
	}
	if c.onSize != nil {
		c.onSize(len(p))
	}
	if _, err := c.sess.HandleSnapshot(p); err == nil || errors.Is(err, session.ErrDesync) {
		c.decoded++
	}
}

// Poll takes every message that arrived and returns how many ticks it decoded.
func (c *Client) Poll() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.decoded = 0
	c.conn.Receive(c.onMessage)
	return c.decoded
}

// SendInput sends in as the next input, with the last few before it and the
// newest decoded tick as the ack.
func (c *Client) SendInput(in protocol.Input) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.in = in.Append(c.in[:0])
	c.buf = c.sess.AppendInput(c.buf[:0], c.in)
	return c.conn.Send(transport.Inputs, c.buf)
}

// Newest returns the newest decoded tick and its state (nil before the first).
// The state stays valid until the client decodes History more ticks.
func (c *Client) Newest() (uint32, *snapshot.Snapshot) { return c.sess.Newest() }

// Snapshot returns the decoded state of tick, if still held.
func (c *Client) Snapshot(tick uint32) *snapshot.Snapshot { return c.sess.Snapshot(tick) }

// Stats returns the client's counters.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{ClientStats: c.sess.Stats(), Conn: c.conn.Stats()}
}

// Close ends the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.conn.Done() }

// Run polls and sends one input per tick at rate Hz until ctx ends or the
// connection does. next gives the input for each tick (nil: no input, acks
// only).
func (c *Client) Run(ctx context.Context, rate float64, next func(tick uint32) protocol.Input) error {
	t := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer t.Stop()
	for n := uint32(1); ; n++ {
		select {
		case <-ctx.Done():
			return nil
		case <-c.conn.Done():
			return transport.ErrClosed
		case <-t.C:
		}
		c.Poll()
		var in protocol.Input
		if next != nil {
			in = next(n)
		}
		if err := c.SendInput(in); err != nil && !errors.Is(err, transport.ErrCongested) {
			return err
		}
	}
}
