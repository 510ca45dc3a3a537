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

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/transport"
)

// SignalPath is where a match server takes WebRTC offers.
const SignalPath = protocol.SignalPath

// Config sets up a client. Zero fields take the defaults noted.
type Config struct {
	// Session is the wire agreement with the server (default protocol.Session()).
	Session session.Config
	// Verify asks the server for a hash of every tick and checks it.
	Verify bool
	// InputCopies is how many times each input datagram goes, back to
	// back (default 2): an input is late at the server only if every copy
	// is lost (the next datagram carries it again, but a tick later, after
	// its step). 1 sends each once.
	InputCopies int
	// Logger receives desyncs and connection trouble (default: discard).
	Logger *slog.Logger
	// OnSnapshot, if set, is called with the size of every snapshot datagram.
	OnSnapshot func(size int)
	// Name is the player's name as others see it (cleaned and cut by the server).
	Name string
	// Match names the match to join on a server hosting several (see
	// ListMatches): Dial asks for it with POST /signal?match=Match. Empty
	// lets the server choose (the fullest match with room).
	Match string
	// Watch joins as a spectator (POST /signal?watch=1): the client plays
	// no part, sends acks and no inputs (Run), and follows a player or
	// flies a free camera (Follow, FlyTo).
	Watch bool
	// ReserveEntities, if positive, gives every decoded snapshot the client
	// keeps room for that many entities at once, instead of growing with
	// the views (see snapstream.Receiver.Reserve).
	ReserveEntities int
}

// Stats are a client's counters.
type Stats struct {
	session.ClientStats
	// BadRecords counts records datagrams dropped as malformed.
	BadRecords uint64
	Conn       transport.Stats
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
	st        *streams
	format    snapstream.Format
	header    snapstream.Header
	size      int
	copies    int // of each input datagram (Config.InputCopies)
	watch     bool
	// noSpectators is set when the client asked to watch and the server
	// welcomed it as a player.
	noSpectators bool
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
		copies: cfg.InputCopies,
		watch:  cfg.Watch,
	}
	if c.copies <= 0 {
		c.copies = 2
	}
	if c.watch {
		c.copies = 1
	}
	if cfg.ReserveEntities > 0 {
		c.sess.Reserve(cfg.ReserveEntities)
	}
	c.sess.OnMismatch(func(tick uint32) { c.log.Warn("desync: decoded tick differs from the server's", "tick", tick) })
	c.onMessage = c.message
	c.st = newStreams()
	c.st.deliver = c.event
	c.format = cfg.Session.Format(cfg.Session.Schema)
	c.introduce(cfg.Name)
	return c
}

func (c *Client) message(ch transport.Channel, p []byte) {
	if ch != transport.Snapshots {
		c.streamMessage(ch, p)
		return
	}
	if c.onSize != nil {
		c.onSize(len(p))
	}
	if h, err := c.sess.HandleSnapshot(p); err == nil || errors.Is(err, session.ErrDesync) {
		c.decoded++
		c.header, c.size = h, len(p)
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
func (c *Client) SendInput(in arena.Input) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.in = protocol.AppendInput(c.in[:0], in)
	c.buf = c.sess.AppendInput(c.buf[:0], c.in)
	var err error
	for range c.copies {
		err = errors.Join(err, c.conn.Send(transport.Inputs, c.buf))
	}
	return err
}

// TakeSpare returns the sum and the number of the server's spare-input
// reports in the snapshots decoded since the last call, for an InputClock.
func (c *Client) TakeSpare() (sum, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess.TakeSpare()
}

// LastHeader returns the tick and baseline of the newest decoded packet.
func (c *Client) LastHeader() snapstream.Header { return c.header }

// PacketSize returns the bytes of the newest decoded snapshot datagram.
func (c *Client) PacketSize() int { return c.size }

// FullLen returns what a full snapshot of the newest view would cost.
func (c *Client) FullLen() int {
	_, s := c.sess.Newest()
	if s == nil {
		return 0
	}
	return c.format.FullLen(s)
}

// AppliedInput returns the newest of this client's inputs the server had
// applied when it stepped tick, if it said.
func (c *Client) AppliedInput(tick uint32) (uint32, bool) { return c.sess.AppliedInput(tick) }

// InputSeq returns the sequence number of the newest input sent.
func (c *Client) InputSeq() uint32 { return c.sess.InputSeq() }

// SendAck sends the newest decoded tick with the recent inputs again and no
// new input: what keeps a connection alive while the game itself is paused
// (a hidden browser tab).
func (c *Client) SendAck() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = c.sess.AppendAck(c.buf[:0])
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
	return Stats{ClientStats: c.sess.Stats(), BadRecords: c.st.records.Stats().Malformed, Conn: c.conn.Stats()}
}

// Close ends the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.conn.Done() }

// Run polls and sends inputs until ctx ends or the connection does, as a
// game at two frames a tick does: an InputClock for a server ticking rate
// times a second says when each input is due. next gives the input for each (n counts them from 1; nil: no
// input, acks only). A spectator (Config.Watch) sends acks alone.
func (c *Client) Run(ctx context.Context, rate float64, next func(n uint32) arena.Input) error {
	clock := NewInputClock(rate)
	t := time.NewTicker(time.Duration(float64(time.Second) / rate / 2))
	defer t.Stop()
	n := uint32(0)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.conn.Done():
			return transport.ErrClosed
		case <-t.C:
		}
		c.Poll()
		now := time.Now()
		clock.Report(c.TakeSpare())
		for range clock.Due(now) {
			if c.watch {
				// A spectator acknowledges; it has no input to give.
				if err := c.SendAck(); err != nil && !errors.Is(err, transport.ErrCongested) {
					return err
				}
				continue
			}
			n++
			var in arena.Input
			if next != nil {
				in = next(n)
			}
			if err := c.SendInput(in); err != nil && !errors.Is(err, transport.ErrCongested) {
				return err
			}
		}
	}
}
